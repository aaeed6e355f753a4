"""The password pool under a flood (issue 29): a new login waits its turn instead of being refused, a flood never
takes the places kept for other addresses, and a check that waited too long is not run."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable

import pytest

from services.core import rate_limit
from services.core.password_pool import (
    FLOOD_PLACES,
    MAX_WAITING,
    NEWCOMER_PLACES,
    OWNER_PLACES,
    BoundedPool,
    Lane,
    PoolBusy,
)
from tests.event_loops import run_in_a_loop_of_its_own

FLOOD_SOCKETS = 8  # the flood: eight sockets of one address, each with one login in flight


def _gate() -> tuple[threading.Event, list[str], list[str], object]:
    """A check that waits for `opened`; `began` names the checks the pool's thread has begun, `ran` those over."""
    opened, began, ran = threading.Event(), [], []

    def check(name: str) -> str:
        began.append(name)
        opened.wait(5)
        ran.append(name)
        return name

    return opened, began, ran, check


async def _until(condition: Callable[[], bool], seconds: float = 5.0) -> None:
    """Until the pool's thread has done what `condition` says; a test that waits longer than `seconds` fails."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the pool's thread never got there"
        await asyncio.sleep(0.001)


async def _in_line() -> None:
    """One turn of the loop: every task created so far has run to its first wait, its check is in the line (or
    refused). No clock: `BoundedPool.run` queues before it first awaits."""
    await asyncio.sleep(0)


def test_a_new_login_waits_behind_a_flood_of_its_own_address_instead_of_being_refused() -> None:
    run_in_a_loop_of_its_own(_a_new_login_waits_behind_a_flood_of_its_own_address_instead_of_being_refused)


async def _a_new_login_waits_behind_a_flood_of_its_own_address_instead_of_being_refused() -> None:
    """On main eight places were all: with the flood's eight checks in flight the ninth login got «try again»."""
    pool = BoundedPool()
    opened, began, ran, check = _gate()
    flood = [asyncio.create_task(pool.run(check, f"флуд {n}", lane=Lane.FLOOD)) for n in range(FLOOD_SOCKETS)]
    await _until(lambda: began == ["флуд 0"])
    new_browser = asyncio.create_task(pool.run(check, "новый телефон", lane=Lane.FLOOD))
    await _in_line()
    opened.set()
    assert await new_browser == "новый телефон"
    await asyncio.gather(*flood)
    assert ran[-1] == "новый телефон"  # first come, first served


def test_a_flood_never_takes_the_places_kept_for_other_addresses() -> None:
    run_in_a_loop_of_its_own(_a_flood_never_takes_the_places_kept_for_other_addresses)


async def _a_flood_never_takes_the_places_kept_for_other_addresses() -> None:
    pool = BoundedPool()
    opened, _, _, check = _gate()
    flood = [asyncio.create_task(pool.run(check, f"флуд {n}", lane=Lane.FLOOD)) for n in range(FLOOD_PLACES)]
    await _in_line()
    with pytest.raises(PoolBusy):
        await pool.run(check, "ещё флуд", lane=Lane.FLOOD)
    others = [asyncio.create_task(pool.run(check, f"другой {n}")) for n in range(MAX_WAITING - FLOOD_PLACES)]
    await _in_line()
    with pytest.raises(PoolBusy):  # every place taken: the bound on what a worker holds
        await pool.run(check, "сверх всего")
    opened.set()
    assert [await t for t in others] == [f"другой {n}" for n in range(MAX_WAITING - FLOOD_PLACES)]
    await asyncio.gather(*flood)


def test_a_check_whose_turn_comes_too_late_is_not_run() -> None:
    run_in_a_loop_of_its_own(_a_check_whose_turn_comes_too_late_is_not_run)


async def _a_check_whose_turn_comes_too_late_is_not_run() -> None:
    pool = BoundedPool(max_queued_seconds=0.1)
    opened, began, ran, check = _gate()
    first = asyncio.create_task(pool.run(check, "первый"))
    await _until(lambda: began == ["первый"])
    late = asyncio.create_task(pool.run(check, "поздний"))
    with pytest.raises(PoolBusy):  # answered when its wait is over, while the first check still runs
        await asyncio.wait_for(late, 5)
    opened.set()
    assert await first == "первый"
    assert ran == ["первый"]


def test_a_new_browser_is_checked_ahead_of_the_floods_waiting_checks() -> None:
    run_in_a_loop_of_its_own(_a_new_browser_is_checked_ahead_of_the_floods_waiting_checks)


async def _a_new_browser_is_checked_ahead_of_the_floods_waiting_checks() -> None:
    """Issue 29: with the flood's places full, a new phone at the flooding address was refused; now it has places
    of its own and its turn comes before every waiting flood check (first come, first served within a turn)."""
    pool = BoundedPool()
    opened, began, ran, check = _gate()
    flood = [asyncio.create_task(pool.run(check, f"флуд {n}", lane=Lane.FLOOD)) for n in range(FLOOD_PLACES)]
    await _until(lambda: began == ["флуд 0"])
    with pytest.raises(PoolBusy):
        await pool.run(check, "ещё флуд", lane=Lane.FLOOD)
    phone = asyncio.create_task(pool.run(check, "новый телефон", lane=Lane.NEWCOMER))
    await _in_line()
    elsewhere = asyncio.create_task(pool.run(check, "другой адрес"))
    await _in_line()
    opened.set()
    assert await phone == "новый телефон" and await elsewhere == "другой адрес"
    await asyncio.gather(*flood)
    assert ran[:3] == ["флуд 0", "новый телефон", "другой адрес"]  # only the check already running went first


def test_a_flood_of_fresh_devices_never_takes_more_than_the_new_browsers_places() -> None:
    run_in_a_loop_of_its_own(_a_flood_of_fresh_devices_never_takes_more_than_the_new_browsers_places)


async def _a_flood_of_fresh_devices_never_takes_more_than_the_new_browsers_places() -> None:
    """A script minting a fresh device per guess is «new» until each guess fails: past the new browsers' places
    it waits in the flood's lane, so other addresses keep their places. (No wait for a new browser's place here:
    past the four, each goes to the flood's lane at once, so the line is settled in one turn of the loop.)"""
    pool = BoundedPool(newcomer_wait_seconds=0.0)
    opened, began, ran, check = _gate()
    fresh = [
        asyncio.create_task(pool.run(check, f"свежий {n}", lane=Lane.NEWCOMER))
        for n in range(NEWCOMER_PLACES + FLOOD_PLACES)
    ]
    await _in_line()
    with pytest.raises(PoolBusy):
        await pool.run(check, "ещё свежий", lane=Lane.NEWCOMER)
    others = [asyncio.create_task(pool.run(check, f"другой {n}")) for n in range(MAX_WAITING - len(fresh))]
    await _in_line()
    opened.set()
    assert [await t for t in others] == [f"другой {n}" for n in range(MAX_WAITING - len(fresh))]
    await asyncio.gather(*fresh)
    # The first NEWCOMER_PLACES in their own lane, then the other addresses, then the fresh devices in the flood's.
    assert ran[NEWCOMER_PLACES : NEWCOMER_PLACES + len(others)] == [f"другой {n}" for n in range(len(others))]


def test_a_waiting_check_is_answered_when_its_wait_is_over_not_when_its_turn_comes() -> None:
    run_in_a_loop_of_its_own(_a_waiting_check_is_answered_when_its_wait_is_over_not_when_its_turn_comes)


async def _a_waiting_check_is_answered_when_its_wait_is_over_not_when_its_turn_comes() -> None:
    """Before, «try again» was decided when the thread reached a check: a flood check behind a long one and the
    checks that kept coming ahead of it (other addresses go first) heard nothing until they were all over."""
    pool = BoundedPool(max_queued_seconds=0.2)
    opened, began, ran, check = _gate()
    running = asyncio.create_task(pool.run(check, "долгая проверка"))
    await _until(lambda: began == ["долгая проверка"])
    phone = asyncio.create_task(pool.run(check, "телефон", wait=3.0))  # the login page's wait, not the pool's
    await _in_line()  # the phone asked first: with the pool's wait it would be answered before the flood check
    flood = asyncio.create_task(pool.run(check, "флуд", lane=Lane.FLOOD))
    started = time.monotonic()
    with pytest.raises(PoolBusy):
        await asyncio.wait_for(flood, 2)  # the gate is still closed: the thread never reached it
    assert time.monotonic() - started < 1.0
    assert not phone.done()  # still waiting: its own wait is longer
    opened.set()
    assert await running == "долгая проверка" and await phone == "телефон"
    assert ran == ["долгая проверка", "телефон"]  # the flood check answered «try again» was never run


def test_a_withdrawn_check_leaves_no_turn_behind() -> None:
    run_in_a_loop_of_its_own(_a_withdrawn_check_leaves_no_turn_behind)


async def _a_withdrawn_check_leaves_no_turn_behind() -> None:
    """Checks answered «try again» before their turn, and one whose tab went away, are out of the line: the pool
    takes MAX_WAITING checks again and runs them in order."""
    pool = BoundedPool(max_queued_seconds=0.05)
    opened, began, ran, check = _gate()
    first = asyncio.create_task(pool.run(check, "первый", wait=5.0))
    await _until(lambda: began == ["первый"])
    late = [asyncio.create_task(pool.run(check, f"поздний {n}")) for n in range(MAX_WAITING - 1)]
    for task in late:
        with pytest.raises(PoolBusy):
            await task
    gone = asyncio.create_task(pool.run(check, "ушёл", wait=5.0))
    await _in_line()
    gone.cancel()
    later = [asyncio.create_task(pool.run(check, f"потом {n}", wait=5.0)) for n in range(MAX_WAITING - 1)]
    await _in_line()
    opened.set()
    assert await first == "первый"
    assert [await t for t in later] == [f"потом {n}" for n in range(MAX_WAITING - 1)]
    assert ran == ["первый", *[f"потом {n}" for n in range(MAX_WAITING - 1)]]


SLOW_CHECK_SECONDS = 1.4  # one argon2 check and its database work on a CPU-starved 2-core machine during a flood
PHONES_ELSEWHERE = 3


def test_phones_elsewhere_get_in_behind_a_flood_check_on_a_slow_machine() -> None:
    run_in_a_loop_of_its_own(_phones_elsewhere_get_in_behind_a_flood_check_on_a_slow_machine)


async def _phones_elsewhere_get_in_behind_a_flood_check_on_a_slow_machine() -> None:
    """bench/login_load.py --stranger: phones at an address that does not flood were refused «Сейчас слишком много
    входов» (16-28 %) while the club's Wi-Fi flooded. A flood check running when three of them asked, then the two
    ahead: the third's turn came after 4.2 s, past the 4 s such an address had; it may now wait the whole budget."""
    pool = BoundedPool()
    began: list[str] = []
    ran: list[str] = []

    def slow(name: str) -> str:
        began.append(name)
        time.sleep(SLOW_CHECK_SECONDS)  # the check's cost, not an ordering
        ran.append(name)
        return name

    flood_wait = rate_limit.queue_seconds(rate_limit.DELAY_MAX_SECONDS)
    flood = [
        asyncio.create_task(pool.run(slow, f"флуд {n}", lane=Lane.FLOOD, wait=flood_wait)) for n in range(FLOOD_SOCKETS)
    ]
    await _until(lambda: began == ["флуд 0"])
    started = time.monotonic()
    phones = [
        asyncio.create_task(pool.run(slow, f"телефон {n}", wait=rate_limit.queue_seconds(0.0)))
        for n in range(PHONES_ELSEWHERE)
    ]
    assert await asyncio.gather(*phones) == [f"телефон {n}" for n in range(PHONES_ELSEWHERE)]
    assert time.monotonic() - started <= rate_limit.ANSWER_SECONDS + SLOW_CHECK_SECONDS  # answered within budget
    for task in flood:  # the flood's waiting checks leave the line; the one running ends in its thread
        task.cancel()
    await asyncio.gather(*flood, return_exceptions=True)
    assert ran[:4] == ["флуд 0", *[f"телефон {n}" for n in range(PHONES_ELSEWHERE)]]


def test_a_burst_from_one_address_leaves_places_and_the_next_turn_to_the_others() -> None:
    run_in_a_loop_of_its_own(_a_burst_from_one_address_leaves_places_and_the_next_turn_to_the_others)


async def _a_burst_from_one_address_leaves_places_and_the_next_turn_to_the_others() -> None:
    """bench/login_load.py --stranger: every minute the flooding address's count of failures starts afresh and
    its first attempts are not yet the flood's; its 64 browsers took every place in the open lane at once, and
    the phones elsewhere were answered «Сейчас слишком много входов» without waiting (30 of 140)."""
    pool = BoundedPool()
    opened, began, ran, check = _gate()
    burst = [asyncio.create_task(pool.run(check, f"флуд {n}", owner="127.0.0.1")) for n in range(MAX_WAITING)]
    await _until(lambda: began == ["флуд 0"])
    refused = [task for task in burst if task.done()]
    assert len(refused) == MAX_WAITING - OWNER_PLACES  # the rest were answered «try again» at once
    # Its checks in the flood's lane count too (in the bench, those asked before the restart still waited).
    with pytest.raises(PoolBusy):
        await pool.run(check, "флуд, уже провалившийся", lane=Lane.FLOOD, owner="127.0.0.1")
    phones = [asyncio.create_task(pool.run(check, f"телефон {n}", owner=f"127.0.0.{2 + n}")) for n in range(3)]
    await _in_line()
    assert not any(task.done() for task in phones)  # each has a place in the line
    opened.set()
    assert await asyncio.gather(*phones) == ["телефон 0", "телефон 1", "телефон 2"]
    await asyncio.gather(*burst, return_exceptions=True)
    # Only the check running and one more of the burst's (its turn had come) went ahead of the phones.
    assert ran[:5] == ["флуд 0", "флуд 1", "телефон 0", "телефон 1", "телефон 2"]
    assert ran[5:] == [f"флуд {n}" for n in range(2, OWNER_PLACES)]  # one address's checks in their order
