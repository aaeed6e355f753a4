"""The notification outbox: what the bot must report, in the caller's transaction; imports no reflex or telegram.

The one list of event kinds: the services write them, the notifier (`services/notifier/outbox.py`) reads them,
and the tests generate them through the services.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session

from services.core.models import OutboxEvent

# Kinds the scheduling flow writes (the notifier turns them into messages).
ANSWERED = "availability_answered"
OPTIONS_FOUND = "options_found"
OPTIONS_LOST = "options_lost"
OPTIONS_CHANGED = "options_changed"  # another match's booking or release changed them
PROPOSED = "meeting_proposed"
CONFIRMED = "meeting_confirmed"
DECLINED = "meeting_declined"
CONFIRMATION_WITHDRAWN = "confirmation_withdrawn"
BOOKED = "meeting_booked"
BOOKING_FAILED = "meeting_failed"
RELEASED = "meeting_released"
MOVED = "meeting_moved"
MATCH_MOVED = "match_moved"
WINDOW_CHANGED = "window_changed"  # the organizer set or changed the game window the match plays in
# Written by the draw's approval (no match_id: one message for the whole season).
DRAW_APPROVED = "draw_approved"
# Without a match: the organizer's announcement; the Sunday reminder (one a week, `once_key`).
ANNOUNCEMENT = "announcement"
REMINDER = "sunday_reminder"
JUDGE_CALLED = "judge_called"  # Регламент §6.2: a private message to the judge (no match_id: not a card change)
# Регламент §6.2 «при невозможности связаться — к организатору»: a call unanswered for ESCALATE_AFTER, once per call
# (`once_key` "judge-call-unanswered-<id>"), a private message to the organizers.
JUDGE_CALL_UNANSWERED = "judge_call_unanswered"
# Регламент §5, §6.1: a player warned they cannot come to the binding fallback meeting (it stays booked); a private
# message to the organizers, who decide (`once_key` "fallback-warned:<booking>:<user>": one per player and booking).
FALLBACK_WARNED = "fallback_warned"
# Регламент §6.1: a technical substitute took a seat; the match's card and open pages show the new four.
SUBSTITUTE_SEATED = "substitute_seated"
# Регламент §4: a hanchan of the match was entered (the last one makes it «Сыгран»): its card shows the state.
RESULT_ENTERED = "result_entered"
# Регламент §3: an open proposal a day before its start, not yet answered by all four: those who have not answered
# are reminded privately, once per proposal (`once_key` "proposal-soon:<id>", services/notifier/reminders.py).
PROPOSAL_SOON = "proposal_soon"
# Time alone changed what the match's card shows (an option's or a proposal's start passed, the §6.1 fallback Sunday
# gone by, a neighbour's hold ended): written by the bot's minute look (services/notifier/freshness.py) so the card is
# edited and the match's open pages reload.
TIME_PASSED = "time_passed"
# Issue 44: a booked meeting a day before its start is recalled privately to the four, with its «Не смогу», once per
# booking and start (`once_key` "meeting_soon:<id>:<start>", services/notifier/reminders.py).
MEETING_SOON = "meeting_soon"


def emit(
    session: Session, kind: str, match_id: int | None = None, *, now: datetime | None = None, **payload: Any
) -> OutboxEvent:
    """Adds the event to the caller's transaction: it is sent only if the change commits; `now` is the change's
    instant (the column's own default only until every caller passes it).
    Регламент §6.4: payloads carry names, counts and meeting times, never personal intervals."""
    fields: dict[str, Any] = {"kind": kind, "match_id": match_id, "created_at": now}
    if now is None:
        del fields["created_at"]
    # every field given that has a value: the model's own defaults cost a signature look-up each (issue 26)
    event = OutboxEvent(
        id=None,
        **fields,
        payload=json.dumps(payload, ensure_ascii=False, default=str, sort_keys=True),
        delivered_at=None,
        attempts=0,
        last_error=None,
        claimed_by=None,
        claimed_until=None,
        once_key=None,
    )
    session.add(event)
    return event


def emit_once(
    session: Session,
    kind: str,
    once_key: str,
    *,
    now: datetime | None = None,
    match_id: int | None = None,
    **payload: Any,
) -> OutboxEvent | None:
    """Adds an event that must exist once (the key is unique in the database); None when it already does,
    however many processes tried at the same moment."""
    try:
        with session.begin_nested():
            event = emit(session, kind, match_id, now=now, **payload)
            event.once_key = once_key
            session.flush()
    except sa.exc.IntegrityError:
        return None
    return event
