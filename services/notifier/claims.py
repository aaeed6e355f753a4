"""Claims on outbox events: which bot process delivers what, so two processes never send one event; no telegram.

A claim is an owner and an expiry on each event row, taken one claimer at a time (SQLite's write lock; on
PostgreSQL a transaction advisory lock, the rows read with FOR UPDATE SKIP LOCKED). An event whose match another
live claim holds is left alone: a match's card is posted and edited by one process at a time. A pass renews the
claim of what it is about to send right before each call; a claim that ran out and was taken by another process
is not renewed, and the pass leaves those events to it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlmodel import Session, col, select

from services.core.db import session_scope, sqlite_write_lock
from services.core.models import OutboxEvent

BATCH = 500
# How long a claim holds: longer than one group's delivery with the gateway's retries; a crashed process's
# events are taken over by another one after it.
LEASE = timedelta(minutes=2)  # TELEGRAM_CLAIM_SECONDS in the bot process
_CLAIM_LOCK = 12_012  # PostgreSQL advisory lock: claims are decided one at a time (a few milliseconds each)


def _serialise_claims(session: Session) -> bool:
    """SQLite: the write lock (BEGIN IMMEDIATE); PostgreSQL: an advisory lock till commit. True on PostgreSQL."""
    connection = session.connection()
    if connection.dialect.name == "sqlite":
        sqlite_write_lock(connection)
        return False
    session.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": _CLAIM_LOCK})
    return True


def claim_events(bind: sa.Engine | None, owner: str, *, now: datetime, lease: timedelta = LEASE) -> list[OutboxEvent]:
    """Claims the undelivered events no live claim holds, skipping every match another owner is delivering
    (its card must be posted by one process only); the claim lasts `lease`."""
    with session_scope(bind) as session:
        postgres = _serialise_claims(session)
        free = sa.or_(
            col(OutboxEvent.claimed_until).is_(None),
            col(OutboxEvent.claimed_until) <= now,
            col(OutboxEvent.claimed_by) == owner,
        )
        busy = set(
            session.exec(
                select(OutboxEvent.match_id).where(
                    col(OutboxEvent.delivered_at).is_(None), col(OutboxEvent.match_id).is_not(None), sa.not_(free)
                )
            ).all()
        )
        stmt = (
            select(OutboxEvent)
            .where(col(OutboxEvent.delivered_at).is_(None), free)
            .order_by(col(OutboxEvent.id))
            .limit(BATCH)
        )
        if postgres:
            stmt = stmt.with_for_update(skip_locked=True)
        events = [e for e in session.exec(stmt).all() if e.match_id is None or e.match_id not in busy]
        for event in events:
            event.claimed_by, event.claimed_until = owner, now + lease
            session.add(event)
        return events


def renew_claims(bind: sa.Engine | None, ids: list[int], owner: str, *, until: datetime) -> bool:
    """Moves the claim on `ids` to `until` when `owner` still holds every one of them; else changes nothing and
    returns False: another process took one after the claim ran out (or it was delivered), so it is not ours to send."""
    with session_scope(bind) as session:
        renewed = session.execute(
            sa.update(OutboxEvent)
            .where(col(OutboxEvent.id).in_(ids), col(OutboxEvent.claimed_by) == owner)
            .values(claimed_until=until)
        )
        assert isinstance(renewed, sa.CursorResult)  # an UPDATE's result counts its rows
        if renewed.rowcount != len(set(ids)):
            session.rollback()
            return False
        return True
