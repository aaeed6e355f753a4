"""The notifier's state for the organizer: connected, last delivery, events waiting, last error; no reflex."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlmodel import Session, col, func, select

from services.core.models import BotStatus, OutboxEvent

STATUS_ID = 1
STALE_AFTER = timedelta(minutes=2)  # no heartbeat for this long: the bot process is not running
MAX_ERROR = 500


@dataclass(frozen=True)
class BotStatusView:
    connected: bool
    bot_username: str | None
    heartbeat_at: datetime | None
    last_delivery_at: datetime | None
    waiting: int
    last_error: str | None
    last_error_at: datetime | None


def _row(session: Session) -> BotStatus:
    """The one status row. Two bot processes starting at once both find it missing: the primary key lets one
    insert it, the other's savepoint rolls back and it reads the row (it crashed there before)."""
    row = session.get(BotStatus, STATUS_ID)
    if row is not None:
        return row
    try:
        with session.begin_nested():
            row = BotStatus(id=STATUS_ID)
            session.add(row)
            session.flush()
    except sa.exc.IntegrityError:
        row = session.get(BotStatus, STATUS_ID, populate_existing=True)
    assert row is not None  # the insert lost to another process's: its row is there
    return row


def record_heartbeat(session: Session, *, now: datetime, connected: bool, bot_username: str | None = None) -> None:
    row = _row(session)
    row.connected = connected
    row.heartbeat_at = now
    if bot_username:
        row.bot_username = bot_username


def record_delivery(session: Session, *, now: datetime) -> None:
    row = _row(session)
    row.connected = True
    row.heartbeat_at = row.last_delivery_at = now


def record_error(session: Session, *, now: datetime, error: str, connected: bool) -> None:
    row = _row(session)
    row.connected = connected
    row.heartbeat_at = row.last_error_at = now
    row.last_error = error[:MAX_ERROR]


def record_stopped(session: Session, *, now: datetime) -> None:
    row = _row(session)
    row.connected = False
    row.heartbeat_at = now


def waiting_events(session: Session) -> int:
    return session.exec(
        select(func.count()).select_from(OutboxEvent).where(col(OutboxEvent.delivered_at).is_(None))
    ).one()


def bot_status(session: Session, *, now: datetime) -> BotStatusView:
    """A bot whose heartbeat is older than STALE_AFTER counts as disconnected, whatever it last wrote."""
    row = session.get(BotStatus, STATUS_ID) or BotStatus(id=STATUS_ID)
    alive = row.heartbeat_at is not None and now - row.heartbeat_at <= STALE_AFTER
    return BotStatusView(
        connected=bool(row.connected and alive),
        bot_username=row.bot_username,
        heartbeat_at=row.heartbeat_at,
        last_delivery_at=row.last_delivery_at,
        waiting=waiting_events(session),
        last_error=row.last_error,
        last_error_at=row.last_error_at,
    )
