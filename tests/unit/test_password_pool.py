"""The password pool: 32 checks at once, the rest answered «try again» at once; a check whose turn has not come
within 6 seconds is answered «try again» then and never run (the numbers written out: a tunable that moves by one
fails here). Time is the event loop's own, advanced
by the loop when it has nothing else to do (no real waiting)."""

from __future__ import annotations

import asyncio
import selectors
import threading
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from services.core.password_pool import PasswordPool, PoolBusy


class VirtualClockLoop(asyncio.SelectorEventLoop):
    """An event loop whose clock jumps to its next timer whenever nothing is ready, instead of sleeping."""

    def __init__(self) -> None:
        selector = selectors.DefaultSelector()
        super().__init__(selector)
        self.now = 0.0
        real_select = selector.select

        def select(timeout: float | None = None) -> list[Any]:
            ready = real_select(0 if timeout is not None else 0.05)
            if not ready and timeout:
                self.now += timeout
            return ready

        selector.select = select  # type: ignore[method-assign]

    def time(self) -> float:
        return self.now


def _run(scenario: Callable[[], Coroutine[Any, Any, None]], loop_factory: Callable[[], Any] | None = None) -> None:
    """In a thread of its own (Playwright's sync API may hold the main thread's loop)."""
    failure: list[BaseException] = []

    def run() -> None:
        try:
            with asyncio.Runner(loop_factory=loop_factory) as runner:
                runner.run(scenario())
        except BaseException as error:  # noqa: BLE001 - re-raised in the test's own thread
            failure.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(60)
    assert not thread.is_alive(), "the scenario did not end"
    if failure:
        raise failure[0]


def _gated() -> tuple[threading.Event, list[str], Callable[[str], str]]:
    opened, ran = threading.Event(), []

    def check(name: str) -> str:
        assert opened.wait(30)
        ran.append(name)
        return name

    return opened, ran, check


def test_the_pool_takes_32_checks_and_answers_the_next_one_busy_at_once() -> None:
    async def scenario() -> None:
        pool = PasswordPool()
        opened, ran, check = _gated()
        waiting = [asyncio.ensure_future(pool.run(check, f"вход {n}")) for n in range(32)]
        await asyncio.sleep(0)  # every one has taken its place
        with pytest.raises(PoolBusy):
            await pool.run(check, "лишний")
        opened.set()
        assert await asyncio.gather(*waiting) == [f"вход {n}" for n in range(32)]
        assert ran == [f"вход {n}" for n in range(32)]  # first come, first served; the refused one never ran
        assert await pool.run(check, "потом") == "потом"  # the places are free again

    _run(scenario)  # the real clock: the checks run in the pool's thread meanwhile


def test_a_check_whose_turn_has_not_come_in_6_seconds_is_answered_busy_then_and_never_runs() -> None:
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        pool = PasswordPool()
        opened, ran, check = _gated()
        first = asyncio.ensure_future(pool.run(check, "долгая"))  # holds the one thread
        await asyncio.sleep(0)
        asked = loop.time()
        with pytest.raises(PoolBusy):
            await pool.run(check, "ждущая")
        assert loop.time() - asked == 6.0
        with pytest.raises(PoolBusy):
            await first  # the running one ran out of its time too: its answer is «try again»
        opened.set()
        await asyncio.to_thread(pool._executor.shutdown, wait=True)  # whatever was left in line has run now
        assert ran == ["долгая"]  # the one that waited too long was withdrawn, not run late

    _run(scenario, VirtualClockLoop)  # nothing else to do: its clock jumps to the timeout
