"""The login limits (issue 42) on SQLite and PostgreSQL, through the login's own service: each number is written
out, so a limit that moves by one fails here (issue 41, «Mutants»). The counts start afresh for every test (a memory
store of the `limits` library); one test shares them between two workers through Redis."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
import redis
import sqlalchemy as sa
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from sqlmodel import col, func, select

from services.core.db import session_scope
from services.core.models import AuditRecord, LoginLock, Role
from services.core.security import generate_password
from services.league import accounts, login_guard
from services.views.desk import LIFT_LOCK, build_desk

NOW = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)  # 15:00 in Kirov
REDIS_URL = "redis://127.0.0.1:6379/14"  # this file's own database, never emptied (its two runs share it)


@pytest.fixture(autouse=True)
def fresh_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(login_guard, "limiter", MovingWindowRateLimiter(MemoryStorage()))


def _person(engine: sa.Engine, role: Role = Role.PLAYER) -> tuple[str, str]:
    name, password = f"Игрок {uuid.uuid4().hex[:8]}", generate_password()
    with session_scope(engine) as session:
        accounts.create_user(session, display_name=name, password=password, role=role, now=NOW)
    return name, password


def _device() -> str:
    return f"device:{uuid.uuid4().hex}"


def _admit(engine: sa.Engine, name: str, client: str, address: str = "10.0.0.1", now: datetime = NOW) -> str | None:
    with session_scope(engine) as session:
        return login_guard.admit(
            session, login_name=accounts.normalize_login(name), client=client, address=address, now=now
        )


def _check(
    engine: sa.Engine, name: str, password: str, client: str, address: str = "10.0.0.1", now: datetime = NOW
) -> accounts.LoginResult:
    with session_scope(engine) as session:
        return login_guard.login(
            session, name=name, password=password, client=client, address=address, now=now, session_days=30
        )


def _try(
    engine: sa.Engine, name: str, password: str, client: str, address: str = "10.0.0.1", now: datetime = NOW
) -> str:
    """As the login page does it: admitted, then checked. The answer: «in», or what the person reads."""
    refusal = _admit(engine, name, client, address, now)
    if refusal:
        return refusal
    result = _check(engine, name, password, client, address, now)
    return "in" if result.token else str(result.error)


def test_a_browser_has_10_attempts_a_minute(db: sa.Engine) -> None:
    client = _device()
    answers = [_admit(db, f"имя {n}", client) for n in range(11)]
    assert answers == [None] * 10 + [login_guard.TOO_MANY_FROM_CLIENT]
    assert _admit(db, "имя", _device()) is None  # another browser at the same address is not held to it


def test_past_30_wrong_passwords_an_address_checks_only_a_browsers_first_attempt_of_its_minute(db: sa.Engine) -> None:
    """The club's Wi-Fi is one address: a flood from it does not keep a new phone there out, while the flood's
    browsers (each past its first attempt) and browsers without a signed device are refused until it calms."""
    name, password = _person(db)
    wifi, flooder = "172.16.0.1", _device()
    assert _try(db, "флуд", "x", flooder, wifi) == accounts.LOGIN_FAILED  # the flooder's first attempt
    for n in range(28):
        assert _try(db, f"флуд {n}", "x", _device(), wifi) == accounts.LOGIN_FAILED
    assert _try(db, "флуд", "x", flooder, wifi) == accounts.LOGIN_FAILED  # the 30th wrong password: still checked
    assert _admit(db, "флуд", flooder, wifi) == login_guard.TOO_MANY_FROM_ADDRESS
    assert _admit(db, "флуд", f"ip:{wifi}", wifi) == login_guard.TOO_MANY_FROM_ADDRESS
    assert _try(db, name, password, _device(), wifi) == "in"  # a new phone at the club
    assert _admit(db, "флуд", flooder, "10.9.9.9") is None  # the same browser elsewhere: another address


def test_many_phones_of_one_wifi_logging_in_are_never_refused(db: sa.Engine) -> None:
    """A match day: successes are not the address's failures."""
    people = [_person(db) for _ in range(35)]
    assert [_try(db, name, password, _device(), "172.17.0.1") for name, password in people] == ["in"] * 35


def test_10_wrong_passwords_from_unknown_browsers_lock_the_name_for_them_for_15_minutes(db: sa.Engine) -> None:
    name, password = _person(db)
    own = _device()
    assert _try(db, name, password, own) == "in"  # the owner's browser, before the guessing
    for n in range(9):
        assert _try(db, name, f"угадываю {n}", _device(), f"10.1.0.{n}") == accounts.LOGIN_FAILED
    assert _admit(db, name, _device()) is None  # nine: not locked yet
    assert _try(db, name, "угадываю 9", _device(), "10.1.0.9") == accounts.LOGIN_FAILED
    told = _try(db, name, password, _device())  # the owner's new phone, right password
    assert told == (
        "Вход под этим именем с новых устройств закрыт до 15:15: "
        "10 неверных паролей за 15 минут с незнакомых устройств. "
        "С устройства, где вы уже входили, войти можно; открыть вход раньше может организатор."
    )
    assert _try(db, name, password, own) == "in"  # the owner's own browser still gets in
    just_before = NOW + timedelta(minutes=15) - timedelta(seconds=1)
    assert _try(db, name, password, _device(), now=just_before) == told
    assert _try(db, name, password, _device(), now=NOW + timedelta(minutes=15)) == "in"


def test_attempts_admitted_together_are_refused_at_their_check_once_the_name_locks(db: sa.Engine) -> None:
    """Fifteen guesses admitted before any was checked (a flood's sockets at once): ten are checked."""
    name, _ = _person(db)
    guesses = [(_device(), f"10.2.0.{n}") for n in range(15)]
    assert all(_admit(db, name, client, address) is None for client, address in guesses)
    answers = [_check(db, name, "угадываю", client, address).error for client, address in guesses]
    assert answers.count(accounts.LOGIN_FAILED) == 10
    assert all("закрыт до" in str(a) for a in answers[10:])


def test_the_organizer_sees_the_lock_on_the_desk_and_lifts_it_once(db: sa.Engine) -> None:
    """A database of its own: the desk shows every lock there is."""
    name, password = _person(db)
    login_name = accounts.normalize_login(name)
    with session_scope(db) as session:
        organizer, _ = accounts.create_user(session, display_name=f"Орг {uuid.uuid4().hex[:6]}", role=Role.ORGANIZER)
        organizer_id = organizer.id
        for _ in range(10):
            login_guard.count_guess(session, login_name=login_name, now=NOW)
    with session_scope(db) as session:
        organizer = session.get(type(organizer), organizer_id)
        items = [i for i in build_desk(session, now=NOW, user=organizer).items if i.target == login_name]
    assert [(i.group, i.title, i.action) for i in items] == [("logins", name, LIFT_LOCK)]
    assert "закрыт до вс 06.12.2026 15:15: 10 неверных паролей за 15 минут с незнакомых устройств" in items[0].detail
    for _ in range(2):  # a double tap
        with session_scope(db) as session:
            login_guard.lift(session, login_name=login_name, actor_user_id=organizer_id, now=NOW)
    with session_scope(db) as session:
        audited = session.exec(
            select(func.count()).select_from(AuditRecord).where(col(AuditRecord.action) == "login.unlock")
        ).one()
        assert audited == 1 and session.get(LoginLock, login_name) is None
        assert login_guard.locks(session, now=NOW) == []
    assert _try(db, name, password, _device()) == "in"  # the new phone, at once
    for n in range(9):  # the name's count started afresh with the lift
        assert _try(db, name, f"снова {n}", _device(), f"10.3.0.{n}") == accounts.LOGIN_FAILED
    assert _admit(db, name, _device()) is None


def test_workers_locking_one_name_at_once_leave_one_lock(db: sa.Engine) -> None:
    """Two workers' guesses cross the last allowed one together: one lock, no error."""
    name, _ = _person(db)
    login_name = accounts.normalize_login(name)
    with session_scope(db) as session:
        for _ in range(8):
            login_guard.count_guess(session, login_name=login_name, now=NOW)
    barrier, errors = threading.Barrier(4), []

    def guess() -> None:
        try:
            with session_scope(db) as session:
                barrier.wait()
                login_guard.count_guess(session, login_name=login_name, now=NOW)
        except Exception as error:  # noqa: BLE001 - reported by the test
            errors.append(error)

    threads = [threading.Thread(target=guess) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    with session_scope(db) as session:
        locked = [lock.login_name for lock in login_guard.locks(session, now=NOW)]  # others' too on PostgreSQL
        assert locked.count(login_name) == 1


def test_one_strangers_browser_is_locked_out_after_5_tries_and_the_owners_new_phone_still_gets_in(
    db: sa.Engine,
) -> None:
    """The browser's own lockout (accounts.lockout): its later attempts are no guesses at the name."""
    name, password = _person(db)
    stranger = _device()
    answers = [_try(db, name, f"угадываю {n}", stranger) for n in range(8)]
    assert answers[:5] == [accounts.LOGIN_FAILED] * 5
    assert all("Слишком много неудачных попыток" in a for a in answers[5:])
    assert _try(db, name, password, _device()) == "in"


def test_a_persons_password_changes_are_5_per_15_minutes_and_a_wrong_current_one_is_a_guess(db: sa.Engine) -> None:
    """Issue 40 item 5: one player's many tabs sending wrong current passwords took the pool the logins share."""
    name, _ = _person(db)
    answers = [login_guard.admit_password_change(7) for _ in range(6)]
    assert answers == [None] * 5 + ["Слишком много попыток смены пароля. Попробуйте через 15 мин."]
    assert login_guard.admit_password_change(8) is None  # another person's
    with session_scope(db) as session:
        for _ in range(10):
            login_guard.count_guess(session, login_name=accounts.normalize_login(name), now=NOW)
    assert "закрыт до" in str(_admit(db, name, _device()))


@pytest.fixture
def redis_db() -> Iterator[str]:
    """The tests' Redis, as it is: never flushed (the run's other tests and workers use it at the same time); each
    test counts under a browser and names of its own."""
    redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    yield REDIS_URL


def test_workers_share_the_counts_through_redis(db: sa.Engine, redis_db: str) -> None:
    """Production's several workers: a browser's ten attempts are ten in all, whichever worker takes them (each
    attempt here is taken by a worker of its own, with its own connection to Redis)."""
    client = _device()
    answers = []
    for n in range(11):
        login_guard.use_storage(redis_db)  # the site's start in another worker
        answers.append(_admit(db, f"имя {n}", client))
    assert answers == [None] * 10 + [login_guard.TOO_MANY_FROM_CLIENT]


def test_the_site_key_is_made_once_and_shared(db: sa.Engine) -> None:
    name = "test-" + uuid.uuid4().hex[:8]
    keys: list[bytes] = []
    barrier = threading.Barrier(4)

    def read() -> None:
        with session_scope(db) as session:
            barrier.wait()
            keys.append(login_guard.site_key(session, name))

    threads = [threading.Thread(target=read) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(keys) == 4 and len(set(keys)) == 1 and len(keys[0]) == 32
