"""One-time login links from the bot's private chat (issue 44): «Открыть на сайте» opens a match's page logged in.

A link is made for the person whose linked Telegram account tapped the button, and only sent to that private chat;
it holds a random code whose digest alone is stored, lives a few minutes (`LINK_TTL`) and is used up by its first
opening, which starts the same session as the login form (`accounts.start_session`). A person has at most one live
link per match: a second tap while the first link is unused and unexpired makes none (a double tap is answered as
the first). The code travels in the link's fragment (`urls.login_link_url`), which browsers never send, so no access
log or proxy sees it; the site's page posts it (`discard_app/api.py`).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlmodel import Session, col, select

from services.core import security
from services.core.db import lock_row
from services.core.models import LoginLink, User
from services.league import accounts

LINK_TTL = timedelta(minutes=5)


@dataclass(frozen=True)
class NewLink:
    code: str | None  # None: the person's earlier link to this match is still live, and no second one is made
    expires_at: datetime


def create_login_link(session: Session, *, user_id: int, match_id: int, now: datetime) -> NewLink:
    """A fresh code for the person and the match, unless their earlier one is still live (then its expiry alone:
    one live code per person and match); expired links are cleared on the way."""
    lock_row(session, User, user_id)  # two taps at once: the second waits, then finds the first's link
    session.exec(sa.delete(LoginLink).where(col(LoginLink.expires_at) <= now))
    live = session.exec(
        select(LoginLink.expires_at).where(LoginLink.user_id == user_id, LoginLink.match_id == match_id)
    ).first()
    if live is not None:
        return NewLink(None, live)
    code = secrets.token_urlsafe(24)
    session.add(
        LoginLink(code_hash=security.token_digest(code), user_id=user_id, match_id=match_id, expires_at=now + LINK_TTL)
    )
    session.flush()
    return NewLink(code, now + LINK_TTL)


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
