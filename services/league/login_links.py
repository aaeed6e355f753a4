"""One-time login links from the bot's private chat (issue 44): «Открыть на сайте» opens a match's page logged in.

A link is made for the person whose linked Telegram account tapped the button, and only sent to that private chat;
it holds a random code whose digest alone is stored, lives a few minutes (`LINK_TTL`) and is used up by its first
opening, which starts the same session as the login form (`accounts.start_session`).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlmodel import Session, col

from services.core import security
from services.core.models import LoginLink, User
from services.league import accounts

LINK_TTL = timedelta(minutes=5)


def create_login_link(session: Session, *, user_id: int, match_id: int, now: datetime) -> str:
    """A fresh code for the person and the match; expired links are cleared on the way."""
    session.exec(sa.delete(LoginLink).where(col(LoginLink.expires_at) <= now))
    code = secrets.token_urlsafe(24)
    session.add(
        LoginLink(code_hash=security.token_digest(code), user_id=user_id, match_id=match_id, expires_at=now + LINK_TTL)
    )
    session.flush()
    return code


@dataclass(frozen=True)
class Opened:
    token: str  # the new session's token, for the HttpOnly cookie
    match_id: int


def open_login_link(session: Session, code: str, *, now: datetime, session_days: int) -> Opened | None:
    """Uses the code up (a second opening finds nothing) and starts a session for its person; None when it is
    unknown, used or expired."""
    digest = security.token_digest(code)
    link = session.get(LoginLink, digest)
    if link is None:
        return None
    user_id, match_id, expires_at = link.user_id, link.match_id, link.expires_at
    # Used up by exactly one opening: a second one at the same moment deletes nothing and gets nothing.
    taken = session.exec(sa.delete(LoginLink).where(col(LoginLink.code_hash) == digest)).rowcount
    session.expunge(link)
    user = session.get(User, user_id)
    if taken != 1 or user is None or expires_at <= now:
        return None
    return Opened(accounts.start_session(session, user, now=now, session_days=session_days), match_id)
