"""The Sunday reminder and the reminder of a proposal a day before its start, written to the outbox by whichever
process first sees their moment pass; imports no telegram.

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

A proposal a day before its start (issue 23): an open proposal some of its four have not answered is recalled to them
privately, once (`once_key` per proposal), by the same processes at the same cadence (`queue_proposal_reminders`);
when it is delivered only those who still have not answered get it, and nothing once its start has come. A booked
meeting a day before its start (issue 44) is recalled the same way to the four, with its «Не смогу»
(`queue_meeting_reminders`).
"""

from __future__ import annotations

from datetime import datetime, time

from sqlmodel import Session, col, select

from services.core import outbox as kinds
from services.core.models import Booking, MeetingProposal, OutboxEvent, saved
from services.notifier.snapshot import MatchSnapshot, window_matches
from services.notifier.sunday import due_reminder_at, is_late, reminder_day
from services.scheduling.board import load_board
from services.scheduling.decide import PROPOSAL_REMINDER_BEFORE, meeting_reminder_due, proposal_reminder_due
from services.scheduling.intervals import Interval
from services.scheduling.repo import LIVE_PROPOSAL


def reminder_key(at: datetime) -> str:
    """One key per Sunday (its Kirov date); the same key the bot's Sunday job wrote before."""
    return f"{kinds.REMINDER}:{reminder_day(at).isoformat()}"


def pending_matches(session: Session, *, at: datetime, now: datetime) -> list[MatchSnapshot]:
    """What the reminder due at `at` is about, as it stands at `now`: matches still being scheduled whose window
    contained the reminder's moment and is still open (a closed window is the organizer's, Регламент §6.1)."""
    return window_matches(session, at, open_at=now)


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


def proposal_reminder_key(proposal_id: int) -> str:
    return f"{kinds.PROPOSAL_SOON}:{proposal_id}"


def queue_proposal_reminders(session: Session, *, now: datetime) -> list[OutboxEvent]:
    """Writes, once per proposal, the reminder of every open proposal due at `now` (`decide.proposal_reminder_due`:
    a day before its start, not all four answered, proposed before that day) into the caller's transaction; the
    written events. Cheap when none is due: one indexed read of the open proposals starting within a day."""
    soon = session.exec(
        select(MeetingProposal.id, MeetingProposal.match_id).where(
            MeetingProposal.status == LIVE_PROPOSAL,
            MeetingProposal.start_at > now,
            MeetingProposal.start_at <= now + PROPOSAL_REMINDER_BEFORE,
        )
    ).all()
    if not soon:
        return []
    keys = {proposal_reminder_key(saved(pid)): saved(pid) for pid, _ in soon}
    written = set(session.exec(select(OutboxEvent.once_key).where(col(OutboxEvent.once_key).in_(list(keys)))).all())
    todo = {keys[k] for k in keys if k not in written}
    if not todo:
        return []
    board = load_board(session, now=now, match_ids=sorted({mid for pid, mid in soon if pid in todo}))
    out = []
    for item in board.matches:
        for p in item.live:
            pid = saved(p.id)
            answered = item.confirmed.get(pid, set()) | item.declined.get(pid, set())
            due = proposal_reminder_due(
                Interval(p.start_at, p.end_at), proposed_at=p.created_at, now=now, answered=answered,
                seat_ids=item.seat_ids,
            )  # fmt: skip
            if pid in todo and due:
                event = kinds.emit_once(
                    session, kinds.PROPOSAL_SOON, proposal_reminder_key(pid), now=now, match_id=item.match.id,
                    proposal_id=pid,
                )  # fmt: skip
                if event is not None:
                    out.append(event)
    return out


def meeting_reminder_key(booking: Booking) -> str:
    """Once per booking and start: a meeting moved to another day is recalled again before its new start."""
    return f"{kinds.MEETING_SOON}:{booking.id}:{booking.start_at:%Y%m%d%H%M}"


def queue_meeting_reminders(session: Session, *, now: datetime) -> list[OutboxEvent]:
    """Writes, once per booking and start, the reminder of every booked meeting due at `now`
    (`decide.meeting_reminder_due`: a day before its start, booked before that day) into the caller's transaction;
    the written events. Cheap when none is due: one read of the meetings starting within a day."""
    soon = session.exec(
        select(Booking).where(
            Booking.kind == "match",
            col(Booking.active),
            Booking.start_at > now,
            Booking.start_at <= now + PROPOSAL_REMINDER_BEFORE,
        )
    ).all()
    due = {
        meeting_reminder_key(b): b
        for b in soon
        if meeting_reminder_due(Interval(b.start_at, b.end_at), booked_at=b.created_at, now=now)
    }
    if not due:
        return []
    written = set(session.exec(select(OutboxEvent.once_key).where(col(OutboxEvent.once_key).in_(list(due)))).all())
    out = []
    for key, meeting in due.items():
        if key not in written:
            event = kinds.emit_once(
                session, kinds.MEETING_SOON, key, now=now, match_id=meeting.match_id, booking_id=meeting.id
            )
            if event is not None:
                out.append(event)
    return out
