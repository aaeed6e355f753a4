"""Announcements by the organizer, kept on the site and queued for the Telegram topic; imports no reflex."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlmodel import Session, col, select

from services.core import outbox
from services.core.audit import record_audit
from services.core.models import Announcement, Season, saved
from services.core.text_limits import ANNOUNCEMENT_MAX
from services.league.accounts import AccountError

MAX_LENGTH = ANNOUNCEMENT_MAX  # the Telegram message adds a heading and must stay within 4096 characters


def publish_announcement(
    session: Session, season: Season, text: str, *, author_user_id: int, now: datetime
) -> Announcement:
    """Регламент §6.4: official information goes to the site and the announcements topic."""
    text = text.strip()
    if not text:
        raise AccountError("Напишите текст объявления.")
    if len(text) > MAX_LENGTH:
        raise AccountError(f"Объявление длиннее {MAX_LENGTH} символов: сократите его.")
    announcement = Announcement(season_id=saved(season.id), text=text, author_user_id=author_user_id, created_at=now)
    session.add(announcement)
    session.flush()
    # Same transaction as the announcement: the bot posts it even if it is off right now.
    outbox.emit(session, outbox.ANNOUNCEMENT, now=now, announcement_id=announcement.id)
    record_audit(
        session,
        actor_user_id=author_user_id,
        action="announcement.publish",
        entity="announcement",
        entity_id=announcement.id,
        after={"text": text},
        now=now,
    )
    return announcement


def list_announcements(session: Session, season_id: int) -> Sequence[Announcement]:
    return session.exec(
        select(Announcement).where(Announcement.season_id == season_id).order_by(col(Announcement.id).desc())
    ).all()
