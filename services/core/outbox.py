"""The notification outbox: what the bot must report, in the caller's transaction; imports no reflex or telegram."""

from __future__ import annotations

import json
from typing import Any

from sqlmodel import Session

from services.core.models import OutboxEvent

# Kinds the scheduling flow writes (the notifier turns them into messages).
ANSWERED = "availability_answered"
OPTIONS_FOUND = "options_found"
OPTIONS_LOST = "options_lost"
PROPOSED = "meeting_proposed"
CONFIRMED = "meeting_confirmed"
DECLINED = "meeting_declined"
CONFIRMATION_WITHDRAWN = "confirmation_withdrawn"
BOOKED = "meeting_booked"
BOOKING_FAILED = "meeting_failed"
RELEASED = "meeting_released"
MOVED = "meeting_moved"
MATCH_MOVED = "match_moved"
# Written by the draw's approval (no match_id: one message for the whole season).
DRAW_APPROVED = "draw_approved"
JUDGE_CALLED = "judge_called"  # Регламент §6.2: a private message to the judge (no match_id: not a card change)


def emit(session: Session, kind: str, match_id: int | None = None, **payload: Any) -> OutboxEvent:
    """Adds the event to the caller's transaction: it is sent only if the change commits.
    Регламент §6.4: payloads carry names, counts and meeting times, never personal intervals."""
    event = OutboxEvent(
        kind=kind,
        match_id=match_id,
        payload=json.dumps(payload, ensure_ascii=False, default=str, sort_keys=True),
    )
    session.add(event)
    return event
