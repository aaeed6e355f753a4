"""Linking a user's Telegram account by a one-time code; imports no telegram and no reflex."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from sqlmodel import Session, col, delete, select

from services.core.models import TelegramLinkCode, User

CODE_TTL = timedelta(minutes=30)
_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: a code may be typed by hand


def create_link_code(session: Session, user_id: int, *, now: datetime) -> TelegramLinkCode:
    """A fresh code for the user; their earlier codes stop working."""
    session.exec(delete(TelegramLinkCode).where(col(TelegramLinkCode.user_id) == user_id))
    code = TelegramLinkCode(
        code="".join(secrets.choice(_ALPHABET) for _ in range(10)), user_id=user_id, expires_at=now + CODE_TTL
    )
    session.add(code)
    session.flush()
    return code


def deep_link(bot_username: str, code: str) -> str:
    return f"https://t.me/{bot_username.lstrip('@')}?start={code}"


def redeem_link_code(
    session: Session, code: str, *, telegram_user_id: int, telegram_username: str | None, now: datetime
) -> User | None:
    """Links the Telegram account to the code's user; the code is used up. None if it is unknown or expired."""
    row = session.get(TelegramLinkCode, code.strip().upper()) if code.strip() else None
    if row is None:
        return None
    session.delete(row)
    if row.expires_at <= now:
        return None
    # One Telegram account belongs to one player: a re-link moves it.
    for other in session.exec(select(User).where(User.telegram_user_id == telegram_user_id, User.id != row.user_id)):
        other.telegram_user_id = other.telegram_username = None
        other.telegram_private_messages = False
    user = session.get_one(User, row.user_id)
    user.telegram_user_id = telegram_user_id
    user.telegram_username = telegram_username
    session.flush()
    return user


def unlink(session: Session, user: User) -> None:
    user.telegram_user_id = None
    user.telegram_username = None
    user.telegram_private_messages = False
    session.flush()


def unlink_telegram(session: Session, telegram_user_id: int) -> User | None:
    """`/stop`: the user that was linked to this account, now unlinked; None if there was none."""
    user = session.exec(select(User).where(User.telegram_user_id == telegram_user_id)).first()
    if user is not None:
        unlink(session, user)
    return user


def set_private_messages(session: Session, user: User, enabled: bool) -> bool:
    """Only a linked account can receive private messages; returns the stored value."""
    user.telegram_private_messages = bool(enabled and user.telegram_user_id is not None)
    session.flush()
    return user.telegram_private_messages
