"""The login limits kept in the database every web worker shares, and the site's own signing key; imports no
reflex.

One row per key and window (LoginWindow). An attempt is taken by a single conditional UPDATE (`count < limit`,
or a window that has run out), so two workers — or two threads — cannot both take the last attempt: the database
serialises the updates of one row (SQLite's write lock, PostgreSQL's row lock).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import cast

import sqlalchemy as sa
from sqlalchemy.engine import CursorResult
from sqlmodel import Session, col, delete, select, update

from services.core import rate_limit
from services.core.models import LoginAttempt, LoginWindow, SiteKey
from services.core.password_pool import Lane
from services.league import accounts

DEVICE_KEY = "device-cookie"
UNLIMITED = 2**31 - 1
TOO_MANY_FROM_CLIENT = "Слишком много попыток входа с этого устройства. Подождите минуту."
TOO_MANY_FOR_ACCOUNT = (
    "Слишком много попыток входа под этим именем с незнакомых устройств. Попробуйте через {minutes} мин. "
    "или войдите с устройства, с которого уже входили."
)


PASSWORD_CHANGES = 5  # a person's own password changes per ACCOUNT_WINDOW, wrong ones included, all sessions
TOO_MANY_CHANGES = "Слишком много попыток смены пароля. Попробуйте через {minutes} мин."


@dataclass(frozen=True)
class Admission:
    """What a login attempt may do: refused with a message, or checked after `delay` seconds in the password
    pool's `lane`, waiting at most `wait` seconds for its turn there (rate_limit.ANSWER_SECONDS in all)."""

    error: str | None = None
    delay: float = 0.0
    lane: Lane = Lane.OPEN
    wait: float = rate_limit.ANSWER_SECONDS  # an address that does not flood: the whole budget


def take(session: Session, key: str, *, limit: int, window: timedelta, now: datetime) -> int | None:
    """Counts one attempt under `key`; the count in the window including this one, or None when the window's
    `limit` is used up (nothing counted then)."""
    for _ in range(2):
        restarted = cast(
            CursorResult,
            session.execute(
                update(LoginWindow)
                .where(col(LoginWindow.key) == key, col(LoginWindow.started_at) <= now - window)
                .values(started_at=now, count=1)
            ),
        )
        if restarted.rowcount:
            return 1
        counted = session.execute(
            update(LoginWindow)
            .where(col(LoginWindow.key) == key, col(LoginWindow.count) < limit)
            .values(count=col(LoginWindow.count) + 1)
            .returning(col(LoginWindow.count))
        ).first()
        if counted is not None:
            return int(counted[0])
        if session.get(LoginWindow, key) is not None:
            return None  # the window is full
        try:
            with session.begin_nested():
                session.add(LoginWindow(key=key, started_at=now, count=1))
        except sa.exc.IntegrityError:
            continue  # another worker created the row at the same moment: count against it
        # Rows of windows long over go with each new one, so a flood of invented names leaves nothing behind.
        session.execute(delete(LoginWindow).where(col(LoginWindow.started_at) < now - 2 * rate_limit.LONGEST_WINDOW))
        return 1
    return None


def admit(session: Session, *, login_name: str, client: str, address: str, now: datetime) -> Admission:
    """The limits of one login attempt before its password is checked (Регламент §3: the organizer's issued
    passwords are the only way in, so guessing them must stay out of reach, and a flood must not keep the
    players out).

    - per client (`client`: the signed device, else the address): PER_CLIENT_ATTEMPTS a minute, and the lockout
      of a login name after the client's own wrong passwords (`accounts.lockout`), answered at once;
    - per account: after ACCOUNT_UNKNOWN_ATTEMPTS wrong passwords from clients that never logged in to it, such
      clients wait for the window to end (the account's own browsers do not), except from an address that has
      hardly guessed at it, while the account's spare guesses last: a flood from elsewhere does not keep the
      owner's new phone out;
    - per address: a delay that grows with the address's failed logins beyond the free ones, and the flood's
      lane in the password pool — except for a browser that has not failed yet (a new phone on the club's Wi-Fi
      while scripts flood from it), checked ahead of the flood's waiting checks; the delay and the wait for a
    turn share rate_limit.ANSWER_SECONDS, so every attempt is answered within it and its own check.
    There is no total for everyone: strangers flooding from elsewhere cost a new browser nothing.
    """
    if (
        take(
            session, f"client:{client}", limit=rate_limit.PER_CLIENT_ATTEMPTS, window=rate_limit.CLIENT_WINDOW, now=now
        )
        is None
    ):
        return Admission(error=TOO_MANY_FROM_CLIENT)
    # A browser that locked itself out is told so now: its answer needs no password check, so it waits for
    # nothing (before, it waited for its address's delay and its turn in the pool to hear it).
    refusal = accounts.lockout(session, login_name=login_name, client=client, now=now) or account_refusal(
        session, login_name=login_name, client=client, address=address, now=now
    )
    if refusal:
        return Admission(error=refusal)
    delay = _address_delay(session, address, now)
    if not delay:
        return Admission()
    lane = Lane.FLOOD if has_failed(session, client, now=now) else Lane.NEWCOMER
    return Admission(delay=delay, lane=lane, wait=rate_limit.queue_seconds(delay))


def has_failed(session: Session, client: str, *, now: datetime) -> bool:
    """Whether this client is one of a flood's: a wrong password from its signed device in the account window, or
    no signed device at all (its address stands for it, the flood's own)."""
    if not client.startswith("device:"):
        return True
    return _current(session, _client_failures_key(client), window=rate_limit.ACCOUNT_WINDOW, now=now) > 0


def _client_failures_key(client: str) -> str:
    return f"failed:{client}"


def account_refusal(session: Session, *, login_name: str, client: str, address: str, now: datetime) -> str | None:
    """Why an unknown browser may not guess at this account now (None: it may). `admit` asks it before the wait,
    and the password pool asks it again right before the check: attempts admitted together while the last
    guesses were being checked do not all get checked (the budget is counted as guesses fail)."""
    key = f"account:{login_name}"
    guessed = _current(session, key, window=rate_limit.ACCOUNT_WINDOW, now=now)
    if guessed < rate_limit.ACCOUNT_UNKNOWN_ATTEMPTS or _spare_guess(session, login_name, address, guessed, now):
        return None
    if known_to_account(session, login_name, client):
        return None
    row = session.get(LoginWindow, key)
    left = (row.started_at + rate_limit.ACCOUNT_WINDOW - now) if row else rate_limit.ACCOUNT_WINDOW
    return TOO_MANY_FOR_ACCOUNT.format(minutes=max(1, int(left.total_seconds() + 59) // 60))


def admit_password_change(session: Session, *, user_id: int, now: datetime) -> str | None:
    """Why the person may not try a password change now (None: they may). Asked before the password pool: however
    many tabs one session opens, a person's checks stay few, and the logins that share the pool go on."""
    key = f"change:{user_id}"
    if take(session, key, limit=PASSWORD_CHANGES, window=rate_limit.ACCOUNT_WINDOW, now=now) is not None:
        return None
    row = session.get(LoginWindow, key)
    left = (row.started_at + rate_limit.ACCOUNT_WINDOW - now) if row else rate_limit.ACCOUNT_WINDOW
    return TOO_MANY_CHANGES.format(minutes=max(1, int(left.total_seconds() + 59) // 60))


def count_wrong_current(session: Session, *, login_name: str, now: datetime) -> None:
    """A wrong current password in the change form: one of the account's guesses, as a wrong login from an unknown
    browser is, so a session left open cannot guess at its owner's password more freely than a stranger."""
    take(session, f"account:{login_name}", limit=UNLIMITED, window=rate_limit.ACCOUNT_WINDOW, now=now)


def _address_delay(session: Session, address: str, now: datetime) -> float:
    return rate_limit.flood_delay(address_failures(session, address, now=now))


def address_failures(session: Session, address: str, *, now: datetime) -> int:
    """The address's failed logins in the last ADDRESS_WINDOW, as a sliding window: this window's count and the
    previous one's, fading as this one goes on (windows are aligned on the clock, one row each). A fixed window
    started afresh every minute, and for its first free failures a flooding address looked clean: its burst went to
    the open lane undelayed, and a new phone there waited behind it (issue 29, finding 2)."""
    number, into = _address_window(now)
    this, previous = (_window_count(session, _address_key(address, n)) for n in (number, number - 1))
    return this + int(previous * (1 - into))


def _address_window(now: datetime) -> tuple[int, float]:
    """The clock-aligned ADDRESS_WINDOW that `now` falls in (its number) and how far into it (0 to 1)."""
    number, into = divmod(now.timestamp(), rate_limit.ADDRESS_WINDOW.total_seconds())
    return int(number), into / rate_limit.ADDRESS_WINDOW.total_seconds()


def _address_key(address: str, window_number: int) -> str:
    return f"address:{address}:{window_number}"


def _window_count(session: Session, key: str) -> int:
    row = session.get(LoginWindow, key)
    return row.count if row is not None else 0


def _spare_guess(session: Session, login_name: str, address: str, guessed: int, now: datetime) -> bool:
    """Whether an unknown browser may still try an account whose budget is used up: from an address that has
    hardly guessed at it (not the flood's), while the spare guesses last."""
    if guessed >= rate_limit.ACCOUNT_UNKNOWN_ATTEMPTS + rate_limit.ACCOUNT_SPARE_ATTEMPTS:
        return False
    from_here = _current(session, _address_account_key(login_name, address), window=rate_limit.ACCOUNT_WINDOW, now=now)
    return from_here < rate_limit.ACCOUNT_ADDRESS_GUESSES


def _address_account_key(login_name: str, address: str) -> str:
    return f"account-address:{login_name}:{address}"


def count_failure(session: Session, *, address: str, now: datetime, login_name: str = "", client: str = "") -> None:
    """A wrong password from this address: the address's next attempts wait longer (its own successes do not
    count, so the many phones of one Wi-Fi logging in on a match day never wait); when `login_name` is given and
    the client never logged in to it, one more of the account's guesses from unknown browsers is used; a signed
    device that failed waits in the flood's lane from now on (`has_failed`)."""
    window_number, _ = _address_window(now)
    take(session, _address_key(address, window_number), limit=UNLIMITED, window=rate_limit.ADDRESS_WINDOW, now=now)
    if client.startswith("device:"):
        take(session, _client_failures_key(client), limit=UNLIMITED, window=rate_limit.ACCOUNT_WINDOW, now=now)
    if login_name and not known_to_account(session, login_name, client):
        take(session, f"account:{login_name}", limit=UNLIMITED, window=rate_limit.ACCOUNT_WINDOW, now=now)
        take(
            session,
            _address_account_key(login_name, address),
            limit=UNLIMITED,
            window=rate_limit.ACCOUNT_WINDOW,
            now=now,
        )


def _current(session: Session, key: str, *, window: timedelta, now: datetime) -> int:
    row = session.get(LoginWindow, key)
    return row.count if row is not None and row.started_at > now - window else 0


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
