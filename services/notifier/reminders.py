"""The Sunday reminder written to the outbox by whichever process first sees its moment pass; imports no telegram.

Регламент §3: «В воскресенье вечером бот напоминает о незавершённом согласовании». The site (a lifespan task, once a
minute), the bot (at start and every minute) and `discard reminders` (for a timer) all call `queue_due_reminder`
with their own `now`; the outbox's unique `once_key` (one per Sunday) makes it exactly once across processes, and the
bot delivers it whenever it is up.

Late reminders, decided: a Sunday passed with nobody writing or delivering the reminder (every process down, or only
the bot) is caught up afterwards — written on Monday (or later that week) and marked late, its text saying which Sunday
it is from («Напоминание с воскресенья 13.12 …»), because the players it names can still act while their window is
open. It is about the matches whose window contained Sunday's reminder moment, as they stand when it is sent, and only
those whose window is still open: once every such window has closed nothing is written, and an event already written
sends nothing (the organizer handles what is left, Регламент §6.1). Only the latest Sunday is ever due: a bot down for
weeks sends at most one reminder, not one per missed week.
"""

from __future__ import annotations

from datetime import datetime, time

from sqlmodel import Session, select

from services.core import outbox as kinds
from services.core.models import OutboxEvent
from services.notifier.snapshot import MatchSnapshot, window_matches
from services.notifier.sunday import due_reminder_at, is_late, reminder_day


def reminder_key(at: datetime) -> str:
    """One key per Sunday (its Kirov date); the same key the bot's Sunday job wrote before."""
    return f"{kinds.REMINDER}:{reminder_day(at).isoformat()}"


def pending_matches(session: Session, *, at: datetime, now: datetime) -> list[MatchSnapshot]:
    """What the reminder due at `at` is about, as it stands at `now`: matches still being scheduled whose window
    contained the reminder's moment and is still open (a closed window is the organizer's, Регламент §6.1)."""
    return [snap for snap in window_matches(session, at) if snap.window_end is not None and now < snap.window_end]


def queue_due_reminder(session: Session, *, now: datetime, reminder_time: time) -> OutboxEvent | None:
    """Writes the due Sunday's reminder into the caller's transaction, once per Sunday however many processes try at
    the same moment; None when it is not due, already written, or about nothing (no match of a window still open
    needs scheduling). Cheap when already written: one indexed read. `reminder_time`: the deployment's
    (`sunday.reminder_time_of(settings)`), passed in by the process that asks."""
    at = due_reminder_at(now, reminder_time)
    key = reminder_key(at)
    if session.exec(select(OutboxEvent.id).where(OutboxEvent.once_key == key)).first() is not None:
        return None
    if not pending_matches(session, at=at, now=now):
        return None
    # The unique index on once_key decides between racing processes (emit_once catches the loser's IntegrityError
    # inside a savepoint, so the caller's transaction goes on).
    return kinds.emit_once(session, kinds.REMINDER, key, now=now, at=at.isoformat(), late=is_late(at, now))
