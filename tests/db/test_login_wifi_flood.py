"""A login flood from the club's own Wi-Fi (issue 29, finding 2): the flooding browsers share the address of a new
phone and keep the password pool full; the phone's right password is still checked — on SQLite and PostgreSQL,
the limits read and written by threads as the login page does (`asyncio.to_thread`), the checks in the pool."""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from datetime import timedelta

import pytest
import sqlalchemy as sa

from services.core import rate_limit
from services.core.db import session_scope
from services.core.password_pool import FLOOD_PLACES, BoundedPool, PoolBusy
from services.league import accounts, login_guard
from tests.db.test_login_guard import NOW, _admit, _login, _user
from tests.event_loops import run_in_a_loop_of_its_own

FLOOD_DEVICES = FLOOD_PLACES + 16  # more flooding browsers at once than the flood's places in the pool
CHECK_SECONDS = 0.05  # what one password check costs here (argon2 is slower still: the flood fills the line sooner)


def _checks_held_for_the_flood(monkeypatch: pytest.MonkeyPatch, gate: threading.Event) -> None:
    """A flooding guess ("x") is checked only once `gate` opens: the flood holds its places in the pool for as long
    as the test needs, whatever the machine's speed."""

    def verify(password: str, stored: str | None) -> bool:
        if password == "x":
            gate.wait(30)
        time.sleep(CHECK_SECONDS)
        return stored == f"plain:{password}"

    monkeypatch.setattr("services.core.security.verify_password", verify)


def test_a_flood_from_the_clubs_wifi_does_not_keep_a_new_phone_there_out(
    own_db: sa.Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: every attempt from an address past its free failures took the flood's places in the pool, the new
    phone's included, so with the flood's places full the phone got «try again» however often it tried. Now a
    browser that has not failed yet is checked ahead of the flood, in places the flood cannot take."""
    name, password = _user(own_db, monkeypatch)
    wifi = f"172.20.{uuid.uuid4().int % 250}.1"
    flooders = [f"device:{uuid.uuid4().hex}" for _ in range(FLOOD_DEVICES)]
    for n, device in enumerate(flooders):  # each flooding browser has failed already: the address floods
        assert _admit(own_db, f"нет такого {n}", device, wifi).error is None
        assert not _login(own_db, f"нет такого {n}", "x", device, wifi).token
    gate = threading.Event()
    _checks_held_for_the_flood(monkeypatch, gate)
    pool = BoundedPool()
    flood_outcomes: list[object] = []
    phone: dict[str, object] = {}

    def attempt(login: str, secret: str, client: str) -> accounts.LoginResult:
        return _login(own_db, login, secret, client, wifi)

    async def one(login: str, secret: str, client: str, *, entering: asyncio.Event | None = None) -> object:
        """As the login page does it: the limits in a thread, the flooding address's delay, then the pool."""
        admission = await asyncio.to_thread(_admit, own_db, login, client, wifi)
        if admission.error:
            return admission.error
        await asyncio.sleep(admission.delay)
        if entering is not None:
            entering.set()
        try:
            return await pool.run(attempt, login, secret, client, lane=admission.lane, wait=admission.wait)
        except PoolBusy:
            return "busy"

    async def flood(device: str) -> None:
        flood_outcomes.append(await one(f"флуд {uuid.uuid4().hex[:6]}", "x", device))

    async def new_phone(entering: asyncio.Event) -> None:
        started = time.monotonic()
        phone["result"] = await one(name, password, f"device:{uuid.uuid4().hex}", entering=entering)
        phone["seconds"] = time.monotonic() - started

    async def scenario() -> None:
        floods = [asyncio.create_task(flood(device)) for device in flooders]
        while len(flood_outcomes) < FLOOD_DEVICES - FLOOD_PLACES:  # the flood's places taken, the rest refused
            await asyncio.sleep(0.01)
        entering = asyncio.Event()
        login = asyncio.create_task(new_phone(entering))
        # The phone has waited its delay and asked the pool while the flood fills it: `one` sets `entering` and goes
        # on into `pool.run` in the same step, which queues its check before it first waits.
        await entering.wait()
        gate.set()
        await asyncio.gather(login, *floods)

    run_in_a_loop_of_its_own(scenario)
    assert flood_outcomes.count("busy") >= FLOOD_DEVICES - FLOOD_PLACES, "the flood never filled its places"
    result = phone["result"]
    assert isinstance(result, accounts.LoginResult) and result.token, f"the new phone was refused: {result}"
    assert phone["seconds"] < rate_limit.DELAY_MAX_SECONDS + 2  # type: ignore[operator]


def test_a_browser_that_has_failed_at_a_flooding_address_queues_with_the_flood(
    own_db: sa.Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lane ahead of the flood is for browsers that have not failed yet: a wrong password moves a browser into
    the flood's lane (and its growing delay) for as long as its failures count."""
    _user(own_db, monkeypatch)
    wifi = f"172.21.{uuid.uuid4().int % 250}.1"
    for n in range(rate_limit.ADDRESS_FREE_ATTEMPTS + 4):
        device = f"device:{uuid.uuid4().hex}"
        _admit(own_db, f"нет такого {n}", device, wifi)
        _login(own_db, f"нет такого {n}", "x", device, wifi)
    phone = f"device:{uuid.uuid4().hex}"
    first = _admit(own_db, "опечатка", phone, wifi)
    assert first.lane == login_guard.Lane.NEWCOMER and first.delay > 0
    assert not _login(own_db, "опечатка", "x", phone, wifi).token
    again = _admit(own_db, "опечатка", phone, wifi)
    assert again.lane == login_guard.Lane.FLOOD and again.delay >= first.delay
    elsewhere = _admit(own_db, "опечатка", phone, "10.30.30.30")  # its address is no flood: no lane, no wait
    assert elsewhere == login_guard.Admission()
    unsigned = _admit(own_db, "кто-то", f"ip:{wifi}", wifi)  # no signed device: the address itself, never new
    assert unsigned.lane == login_guard.Lane.FLOOD
    later = NOW + rate_limit.ACCOUNT_WINDOW + timedelta(seconds=1)
    with session_scope(own_db) as session:  # its failures no longer count once their window is over
        assert not login_guard.has_failed(session, phone, now=later)


SLOW_CHECK_SECONDS = 0.3  # argon2 on two loaded cores


def test_a_browser_failing_again_and_again_at_a_busy_flooding_address_is_answered_within_the_budget(
    own_db: sa.Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """test_secrets' stranger on a match day: a browser types wrong passwords one after another at an address that
    floods, while phones elsewhere keep the password pool busy with checks that go first. Before, its second
    attempt (in the flood's lane once it had failed) was answered only when the thread reached it, after every
    check that came meanwhile: here only when the phones stopped (20 s), in the clean-clone run past test_secrets'
    15 s. Now each attempt is answered within rate_limit.ANSWER_SECONDS and its own check: a wrong password, or
    «try again» when its turn did not come."""
    name, password = _user(own_db, monkeypatch)
    wifi = f"172.22.{uuid.uuid4().int % 250}.1"
    for n in range(rate_limit.ADDRESS_FREE_ATTEMPTS + 4):  # the address floods: a delay of 1 s
        device = f"device:{uuid.uuid4().hex}"
        _admit(own_db, f"нет такого {n}", device, wifi)
        _login(own_db, f"нет такого {n}", "x", device, wifi)
    checking = threading.Event()  # a phone's check is running: the pool is busy

    def verify(secret: str, stored: str | None) -> bool:
        checking.set()
        time.sleep(SLOW_CHECK_SECONDS)  # the check's cost, not an ordering
        return stored == f"plain:{secret}"

    monkeypatch.setattr("services.core.security.verify_password", verify)
    pool = BoundedPool()
    stop = threading.Event()
    answers: list[tuple[float, object]] = []

    async def one(login: str, secret: str, client: str, address: str) -> object:
        """As the login page does it: the limits in a thread, the flooding address's delay, then the pool."""
        admission = await asyncio.to_thread(_admit, own_db, login, client, address)
        if admission.error:
            return admission.error
        await asyncio.sleep(admission.delay)
        try:
            return await pool.run(
                _login, own_db, login, secret, client, address, lane=admission.lane, wait=admission.wait
            )
        except PoolBusy:
            return "busy"

    async def phone_elsewhere() -> None:
        deadline = time.monotonic() + 20
        while not stop.is_set() and time.monotonic() < deadline:
            await one(name, password, f"device:{uuid.uuid4().hex}", "10.40.40.40")

    async def scenario() -> None:
        phones = [asyncio.create_task(phone_elsewhere()) for _ in range(3)]
        await asyncio.to_thread(checking.wait, 10)  # the phones keep the pool busy from here on
        stranger = f"device:{uuid.uuid4().hex}"
        for n in range(2):  # a new browser at first, then one of the flood's
            started = time.monotonic()
            outcome = await one(name, f"угадываю-{n}", stranger, wifi)
            answers.append((time.monotonic() - started, outcome))
        stop.set()
        await asyncio.gather(*phones)

    run_in_a_loop_of_its_own(scenario)
    for seconds, outcome in answers:
        said = outcome if isinstance(outcome, str) else outcome.error  # type: ignore[attr-defined]
        assert said in ("busy", accounts.LOGIN_FAILED), f"the stranger was told {said!r}"
        assert seconds < rate_limit.ANSWER_SECONDS + SLOW_CHECK_SECONDS + 1, f"answered after {seconds:.1f} s"
