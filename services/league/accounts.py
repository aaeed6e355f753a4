"""Accounts, logins and server-side sessions; imports no reflex."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from sqlmodel import Session, col, delete, select

from services.core import security
from services.core.audit import record_audit
from services.core.errors import LeagueError
from services.core.models import AuthSession, LoginAttempt, Role, User, saved
from services.core.text_limits import PERSON_NAME_MAX, limit_for, person_name_problem
from services.league.roster_csv import has_invisible

LOGIN_FAILED = "Неверное имя или пароль."
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
NAME_MAX_LENGTH = limit_for("name")  # a typed login: the form's ceiling, not the rule of a new person's name
PASSWORD_MIN_LENGTH = security.PASSWORD_MIN_LENGTH
PASSWORD_MAX_LENGTH = security.PASSWORD_MAX_LENGTH


class AccountError(LeagueError):
    """A refused account action; the message is shown to the person as it is."""


class WrongCurrentPassword(AccountError):
    """The password change's current password is wrong: one of the account's guesses (login_guard)."""


@dataclass(frozen=True)
class LoginResult:
    user: User | None
    token: str | None
    error: str | None


def normalize_login(name: str) -> str:
    """The form a login name is compared in: case, extra spaces and ё/е do not matter."""
    return " ".join(name.split()).casefold().replace("ё", "е")


def clean_display_name(name: str) -> str:
    """The name as it will be shown, or AccountError: empty, too long or with invisible characters."""
    # A name with invisible or direction characters looks like another person's name.
    if has_invisible(name):
        raise AccountError("В имени есть невидимые или управляющие символы: наберите его заново.")
    name = " ".join(name.split())
    if not name:
        raise AccountError("Укажите имя.")
    if len(name) > PERSON_NAME_MAX:
        raise AccountError(f"Имя длиннее {PERSON_NAME_MAX} символов.")
    return name


def new_person_name(name: str) -> str:
    """A new person's name as it will be shown, or AccountError saying why it cannot be one: the one rule of names
    (`text_limits.person_name_problem`), for the ways in that make a person outside the roster's own checks."""
    name = clean_display_name(name)
    if (problem := person_name_problem(name)) is not None:
        raise AccountError(problem[0].upper() + problem[1:] + ".")
    return name


def find_user(session: Session, login_name: str) -> User | None:
    return session.exec(select(User).where(User.login_name == normalize_login(login_name))).first()


def create_user(
    session: Session,
    *,
    display_name: str,
    role: Role = Role.PLAYER,
    login_name: str | None = None,
    password: str | None = None,
    actor_user_id: int | None = None,
    now: datetime | None = None,
) -> tuple[User, str]:
    """Creates a user with a generated (or given) password; returns the password once. `now`: the instant it is
    recorded at (the column's default until every caller passes it)."""
    display_name = clean_display_name(display_name)
    if role not in set(Role):
        raise AccountError(f"Неизвестная роль: {role}.")
    login = normalize_login(login_name or display_name)
    if find_user(session, login) is not None:
        raise AccountError(f"Пользователь «{display_name}» уже есть.")
    issued = password is None
    password = password or security.generate_password()
    user = User(
        login_name=login,
        display_name=display_name,
        password_hash=security.hash_issued_password(password) if issued else security.hash_password(password),
        role=Role(role),
    )
    if now is not None:
        user.created_at = now
    session.add(user)
    session.flush()
    record_audit(
        session,
        actor_user_id=actor_user_id,
        action="user.create",
        entity="user",
        entity_id=user.id,
        after={"display_name": display_name, "role": str(role)},
        now=now,
    )
    return user, password


def reset_password(session: Session, user: User, *, actor_user_id: int | None) -> str:
    """Issues a new password, ends the user's sessions and revokes their calendar feed link; returns the
    password once."""
    password = security.generate_password()
    user.password_hash = security.hash_issued_password(password)
    user.calendar_token = None  # a reset means the account may be in other hands: the feed link goes too
    session.add(user)
    session.exec(delete(AuthSession).where(col(AuthSession.user_id) == user.id))
    record_audit(
        session,
        actor_user_id=actor_user_id,
        action="user.reset_password",
        entity="user",
        entity_id=user.id,
    )
    return password


def login(
    session: Session,
    name: str,
    password: str,
    *,
    now: datetime,
    session_days: int,
    client: str = "",
) -> LoginResult:
    """Checks the password. Failures lock one login name for one client (`client`: the browser's device
    digest, or its address): a stranger's wrong passwords lock the stranger out, never the account's owner."""
    login_name = normalize_login(name)
    refusal = lockout(session, login_name=login_name, client=client, now=now)
    if refusal:
        return LoginResult(None, None, refusal)
    user = find_user(session, login_name)
    ok = security.verify_password(password, user.password_hash if user else None)
    session.add(LoginAttempt(login_name=login_name, client=client, at=now, succeeded=ok))
    if not ok or user is None:
        return LoginResult(None, None, LOGIN_FAILED)
    if security.needs_rehash(user.password_hash):
        user.password_hash = security.hash_password(password)  # an issued password's first use: argon2 from now on
        session.add(user)
    return LoginResult(user, start_session(session, user, now=now, session_days=session_days), None)


def lockout(session: Session, *, login_name: str, client: str, now: datetime) -> str | None:
    """Why this client may not try this login name now (its own failures locked it), or None. Asked before a
    login waits for anything (`login_guard.admit`), and again right before its password is checked."""
    failures = session.exec(
        select(LoginAttempt.at).where(
            LoginAttempt.login_name == login_name,
            LoginAttempt.client == client,
            col(LoginAttempt.succeeded).is_(False),
            LoginAttempt.at > _last_success(session, login_name, client),
        )
    ).all()
    until = security.locked_until(failures, now)
    if until is None:
        return None
    minutes = max(1, int((until - now).total_seconds() + 59) // 60)
    return f"Слишком много неудачных попыток. Попробуйте через {minutes} мин."


def start_session(session: Session, user: User, *, now: datetime, session_days: int) -> str:
    """A new session for the user; returns the browser's token (the database keeps its digest)."""
    token = security.new_token()
    session.add(
        AuthSession(
            token_hash=security.token_digest(token),
            user_id=saved(user.id),
            created_at=now,
            expires_at=now + timedelta(days=session_days),
        )
    )
    return token


def change_password(
    session: Session, user: User, current: str, new: str, repeated: str, *, keep_session_digest: str
) -> None:
    """The user's own change: the current password, the new one twice. Every other session of the user ends. The
    same password again is no error: a refusal of its own would confirm a guessed current password silently."""
    if not current:
        raise AccountError("Введите текущий пароль.")
    if not security.verify_password(current, user.password_hash):
        raise WrongCurrentPassword("Текущий пароль неверен.")
    if new != repeated:
        raise AccountError("Новый пароль и повтор не совпадают.")
    if (problem := security.password_problem(new, user.login_name, normalize_login)) is not None:
        raise AccountError(problem)
    user.password_hash = security.hash_password(new)
    session.add(user)
    session.exec(
        delete(AuthSession).where(
            col(AuthSession.user_id) == user.id, col(AuthSession.token_hash) != keep_session_digest
        )
    )
    record_audit(session, actor_user_id=user.id, action="user.change_password", entity="user", entity_id=user.id)


def _last_success(session: Session, login_name: str, client: str) -> datetime:
    last = session.exec(
        select(LoginAttempt.at)
        .where(
            LoginAttempt.login_name == login_name,
            LoginAttempt.client == client,
            col(LoginAttempt.succeeded).is_(True),
        )
        .order_by(col(LoginAttempt.at).desc())
    ).first()
    return last or EPOCH


def user_for_token(session: Session, token: str, *, now: datetime) -> User | None:
    """The user a browser's token belongs to, or None if unknown or expired."""
    return user_for_digest(session, security.token_digest(token), now=now) if token else None


def user_for_digest(session: Session, digest: str, *, now: datetime) -> User | None:
    """The user of the session whose token has this digest (what the web shell holds), or None."""
    if not digest:
        return None
    return session.exec(_USER_FOR_DIGEST, params={"digest": digest, "now": now}).first()


# Built once: every event of every tab looks its session up (issue 26, the save's cost)
_USER_FOR_DIGEST = (
    select(User)
    .join(AuthSession, col(AuthSession.user_id) == User.id)
    .where(AuthSession.token_hash == sa.bindparam("digest"), AuthSession.expires_at > sa.bindparam("now"))
)


def logout(session: Session, token: str) -> None:
    logout_digest(session, security.token_digest(token))


def logout_digest(session: Session, digest: str) -> None:
    session.exec(delete(AuthSession).where(col(AuthSession.token_hash) == digest))


def purge_expired_sessions(session: Session, *, now: datetime) -> int:
    result = session.exec(delete(AuthSession).where(col(AuthSession.expires_at) <= now))
    return result.rowcount or 0
