"""The login limits, and the site's own signing key; imports no reflex.

The counts are kept by the `limits` library, in Redis when the site runs several workers (REFLEX_REDIS_URL: they
share it) and in memory otherwise; a login name's lock is a row in the database, so the organizer sees it on the
desk with its time and reason and can lift it (Регламент §3: the organizer's issued passwords are the only way in,
so guessing them must stay out of reach, and a flood must not keep the players out).
"""

from __future__ import annotations

import math
import secrets
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

import sqlalchemy as sa
from limits import parse
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter
from sqlalchemy.engine import CursorResult
from sqlmodel import Session, col, delete, select, update

from services.core.audit import record_audit
from services.core.models import LoginAttempt, LoginLock, SiteKey, User
from services.core.ruleset import CLUB_ZONE
from services.core.wording import counted
from services.league import accounts

DEVICE_KEY = "device-cookie"

# Attempts of one browser (its signed device, else its address): a person mistyping needs a few.
CLIENT_LIMIT = parse("10 per minute")
# Wrong passwords from one address; past them only a browser's first attempt of its minute is still checked there,
# so a new phone on the club's Wi-Fi gets in while the flood's browsers, each past its first, are refused.
ADDRESS_LIMIT = parse("30 per minute")
# Wrong passwords at one login name from browsers that never logged in to it: then the name is locked for such
# browsers for the window's length; its owner's own browsers still get in, and the organizer may lift it.
NAME_LIMIT = parse("10 per 15 minutes")
LOCK = timedelta(seconds=NAME_LIMIT.get_expiry())
CHANGE_LIMIT = parse("5 per 15 minutes")  # a person's password changes, wrong ones included, all sessions

TOO_MANY_FROM_CLIENT = "Слишком много попыток входа с этого устройства. Подождите минуту."
TOO_MANY_FROM_ADDRESS = "Слишком много неудачных попыток входа из этой сети. Подождите минуту."
LOCKED = (
    "Вход под этим именем с новых устройств закрыт до {until}: {reason}. "
    "С устройства, где вы уже входили, войти можно; открыть вход раньше может организатор."
)
TOO_MANY_CHANGES = "Слишком много попыток смены пароля. Попробуйте через {minutes} мин."

limiter = MovingWindowRateLimiter(storage_from_string("memory://"))


def use_storage(redis_url: str | None) -> None:
    """Where the counts live, named by the site at start: Redis when its workers share one, else this process's
    memory."""
    global limiter  # noqa: PLW0603 - one counter store per process, as one database
    limiter = MovingWindowRateLimiter(storage_from_string(redis_url or "memory://"))


@dataclass(frozen=True)
class Lock:
    """A login name closed to browsers that never logged in to it, until `until` (what the desk shows)."""

    login_name: str
    display_name: str
    locked_at: datetime
    until: datetime
    reason: str


def admit(session: Session, *, login_name: str, client: str, address: str, now: datetime) -> str | None:
    """Why this attempt is refused before its password is checked (None: check it). Asked again right before the
    check (`lock_refusal`): attempts admitted together while the last guesses were checked do not all get in."""
    if not limiter.hit(CLIENT_LIMIT, client):
        return TOO_MANY_FROM_CLIENT
    first = limiter.get_window_stats(CLIENT_LIMIT, client).remaining == CLIENT_LIMIT.amount - 1
    if not limiter.test(ADDRESS_LIMIT, address) and not (first and client.startswith("device:")):
        return TOO_MANY_FROM_ADDRESS
    return lock_refusal(session, login_name=login_name, client=client, now=now)


def lock_refusal(session: Session, *, login_name: str, client: str, now: datetime) -> str | None:
    """The locked name's message, for a browser that never logged in to it (None: not locked for it)."""
    lock = session.get(LoginLock, login_name)
    if lock is None or lock.until <= now or known_to_account(session, login_name, client):
        return None
    until = lock.until.astimezone(CLUB_ZONE)
    return LOCKED.format(until=f"{until:%H:%M}", reason=lock.reason)


_WRONG_PASSWORDS = ("неверный пароль", "неверных пароля", "неверных паролей")


def login(
    session: Session, *, name: str, password: str, client: str, address: str, now: datetime, session_days: int
) -> accounts.LoginResult:
    """An admitted attempt, in the password pool's thread: the lock asked again, the password checked, a wrong one
    counted."""
    login_name = accounts.normalize_login(name)
    if refusal := lock_refusal(session, login_name=login_name, client=client, now=now):
        return accounts.LoginResult(None, None, refusal)  # the name was locked while this attempt waited its turn
    result = accounts.login(session, name, password, now=now, session_days=session_days, client=client)
    if result.error == accounts.LOGIN_FAILED:  # a password checked and wrong (not the browser's own lockout)
        count_failure(session, address=address, now=now, login_name=login_name, client=client)
    return result


def count_failure(session: Session, *, address: str, now: datetime, login_name: str, client: str) -> None:
    """A wrong password: one more of the address's, and of the name's when the browser never logged in to it;
    the name's last allowed one locks it."""
    limiter.hit(ADDRESS_LIMIT, address)
    if not known_to_account(session, login_name, client):
        count_guess(session, login_name=login_name, now=now)


def count_guess(session: Session, *, login_name: str, now: datetime) -> None:
    """A guess at this name (a wrong password from an unknown browser, or a wrong current password in the change
    form: a session left open guesses no more freely than a stranger)."""
    limiter.hit(NAME_LIMIT, login_name)
    if limiter.test(NAME_LIMIT, login_name):
        return
    minutes = counted(NAME_LIMIT.get_expiry() // 60, "минуту", "минуты", "минут")
    reason = f"{counted(NAME_LIMIT.amount, *_WRONG_PASSWORDS)} за {minutes} с незнакомых устройств"
    # The write first (SQLite's write lock, PostgreSQL's row lock): two workers' last guesses leave one lock.
    until = now + LOCK
    locked = session.execute(
        update(LoginLock)
        .where(col(LoginLock.login_name) == login_name)
        .values(locked_at=now, until=until, reason=reason)
    )
    if not cast("CursorResult[Any]", locked).rowcount:
        try:
            with session.begin_nested():
                session.add(LoginLock(login_name=login_name, locked_at=now, until=until, reason=reason))
        except sa.exc.IntegrityError:
            pass  # another worker locked it at the same moment
    limiter.clear(NAME_LIMIT, login_name)  # the lock holds the name now; its count starts afresh after it


def locks(session: Session, *, now: datetime) -> list[Lock]:
    """The names locked now, with whose they are (the desk)."""
    rows = session.exec(
        select(LoginLock, User.display_name)
        .join(User, col(User.login_name) == LoginLock.login_name, isouter=True)
        .where(col(LoginLock.until) > now)
        .order_by(col(LoginLock.locked_at))
    ).all()
    return [
        Lock(lock.login_name, name or lock.login_name, lock.locked_at, lock.until, lock.reason) for lock, name in rows
    ]


def lift(session: Session, *, login_name: str, actor_user_id: int, now: datetime) -> None:
    """The organizer opens the name again (audited); a lock already gone is no error: a second press changes
    nothing."""
    lock = session.get(LoginLock, login_name)
    if lock is None:
        return
    record_audit(
        session,
        actor_user_id=actor_user_id,
        action="login.unlock",
        entity="login",
        before={"login_name": login_name, "until": lock.until.isoformat(), "reason": lock.reason},
        now=now,
    )
    session.exec(delete(LoginLock).where(col(LoginLock.login_name) == login_name))
    limiter.clear(NAME_LIMIT, login_name)


def admit_password_change(user_id: int) -> str | None:
    """Why the person may not try a password change now (None: they may): however many tabs one session opens, a
    person's checks stay few, and the logins that share the pool go on."""
    if limiter.hit(CHANGE_LIMIT, str(user_id)):
        return None
    reset = limiter.get_window_stats(CHANGE_LIMIT, str(user_id)).reset_time
    return TOO_MANY_CHANGES.format(minutes=max(1, math.ceil((reset - time.time()) / 60)))


def known_to_account(session: Session, login_name: str, client: str) -> bool:
    """Whether this client has logged in to this account before (its owner's own browser)."""
    if not client:
        return False
    return (
        session.exec(
            select(LoginAttempt.id).where(
                LoginAttempt.login_name == login_name,
                LoginAttempt.client == client,
                col(LoginAttempt.succeeded).is_(True),
            )
        ).first()
        is not None
    )


def site_key(session: Session, name: str) -> bytes:
    """The site's secret of this name, made on first use; every worker reads the same one."""
    row = session.get(SiteKey, name)
    if row is None:
        try:
            with session.begin_nested():
                session.add(SiteKey(name=name, value=secrets.token_hex(32)))
        except sa.exc.IntegrityError:
            pass  # another worker made it first
        row = session.get(SiteKey, name)
    assert row is not None
    return bytes.fromhex(row.value)
