"""Accounts, logins and server-side sessions; imports no reflex."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlmodel import Session, col, delete, select

from services.core import security
from services.core.audit import record_audit
from services.core.models import AuthSession, LoginAttempt, Role, User

LOGIN_FAILED = "Неверное имя или пароль."
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class AccountError(ValueError):
    """A refused account action; the message is shown to the person as it is."""


@dataclass(frozen=True)
class LoginResult:
    user: User | None
    token: str | None
    error: str | None


def normalize_login(name: str) -> str:
    return " ".join(name.split()).casefold()


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
) -> tuple[User, str]:
    """Creates a user with a generated (or given) password; returns the password once."""
    display_name = " ".join(display_name.split())
    if not display_name:
        raise AccountError("Укажите имя.")
    if len(display_name) > 80:
        raise AccountError("Имя длиннее 80 символов.")
    if role not in set(Role):
        raise AccountError(f"Неизвестная роль: {role}.")
    login = normalize_login(login_name or display_name)
    if find_user(session, login) is not None:
        raise AccountError(f"Пользователь «{display_name}» уже есть.")
    password = password or security.generate_password()
    user = User(
        login_name=login,
        display_name=display_name,
        password_hash=security.hash_password(password),
        role=Role(role),
    )
    session.add(user)
    session.flush()
    record_audit(
        session,
        actor_user_id=actor_user_id,
        action="user.create",
        entity="user",
        entity_id=user.id,
        after={"display_name": display_name, "role": str(role)},
    )
    return user, password


def reset_password(session: Session, user: User, *, actor_user_id: int | None) -> str:
    """Issues a new password and ends the user's sessions; returns the password once."""
    password = security.generate_password()
    user.password_hash = security.hash_password(password)
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


def login(session: Session, name: str, password: str, *, now: datetime, session_days: int) -> LoginResult:
    """Checks the password, counting failures per login name (the lockout is per name)."""
    login_name = normalize_login(name)
    failures = session.exec(
        select(LoginAttempt.at).where(
            LoginAttempt.login_name == login_name,
            col(LoginAttempt.succeeded).is_(False),
            LoginAttempt.at > _last_success(session, login_name),
        )
    ).all()
    until = security.locked_until(failures, now)
    if until is not None:
        minutes = max(1, int((until - now).total_seconds() + 59) // 60)
        return LoginResult(None, None, f"Слишком много неудачных попыток. Попробуйте через {minutes} мин.")
    user = find_user(session, login_name)
    ok = security.verify_password(password, user.password_hash if user else None)
    session.add(LoginAttempt(login_name=login_name, at=now, succeeded=ok))
    if not ok or user is None:
        return LoginResult(None, None, LOGIN_FAILED)
    token = security.new_token()
    session.add(
        AuthSession(
            token_hash=security.token_digest(token),
            user_id=user.id,
            created_at=now,
            expires_at=now + timedelta(days=session_days),
        )
    )
    return LoginResult(user, token, None)


def _last_success(session: Session, login_name: str) -> datetime:
    last = session.exec(
        select(LoginAttempt.at)
        .where(LoginAttempt.login_name == login_name, col(LoginAttempt.succeeded).is_(True))
        .order_by(col(LoginAttempt.at).desc())
    ).first()
    return last or EPOCH


def user_for_token(session: Session, token: str, *, now: datetime) -> User | None:
    """The user a browser's token belongs to, or None if unknown or expired."""
    if not token:
        return None
    row = session.exec(select(AuthSession).where(AuthSession.token_hash == security.token_digest(token))).first()
    if row is None or row.expires_at <= now:
        return None
    return session.get(User, row.user_id)


def logout(session: Session, token: str) -> None:
    session.exec(delete(AuthSession).where(col(AuthSession.token_hash) == security.token_digest(token)))


def purge_expired_sessions(session: Session, *, now: datetime) -> int:
    result = session.exec(delete(AuthSession).where(col(AuthSession.expires_at) <= now))
    return result.rowcount or 0
