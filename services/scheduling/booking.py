"""Meeting proposals, the four confirmations and the automatic room booking (Регламент §3, §6.1); imports no reflex."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, select

from services.core import outbox
from services.core.audit import record_audit
from services.core.models import AvailabilityInterval, Booking, MeetingProposal, ProposalConfirmation, saved
from services.core.ruleset import SEATS
from services.scheduling import decide, holds
from services.scheduling.board import Board, Hold, MatchBoard, load_board, match_board, neighbour_ids
from services.scheduling.intervals import Interval
from services.scheduling.repo import (
    LIVE_PROPOSAL,
    MatchInfo,
    SchedulingError,
    SeatInfo,
    clashing_booking,
    describe_booking,
    describe_hold,
    lock_match,
    lock_place,
    match_info,
    open_proposal_for,
    place_taken,
)
from services.scheduling.rules import binding_fallback, format_kirov, validate_proposal

log = logging.getLogger(__name__)
FALLBACK_WARNING = "booking.fallback_warning"  # the audit action of a player's warning on the binding fallback
OPEN_PROPOSAL_EXISTS = (
    "У матча уже есть открытое предложение: подтвердите или отклоните его, прежде чем предлагать другое время."
)
TABLE_JUST_TAKEN = "Стол в это время только что заняли: обновите страницу и выберите другой общий вариант."
# SQLSTATEs of a lost booking race on PostgreSQL: exclusion violation, or a deadlock between two inserts.
_RACE_SQLSTATES = {"23P01", "40P01"}


def _meeting_payload(
    info: MatchInfo, start: datetime, end: datetime, hanchans: int, **extra: object
) -> dict[str, object]:
    return {
        "match": info.title,
        "start": start.isoformat(),
        "end": end.isoformat(),
        "when": format_kirov(start),
        "hanchans": hanchans,
        **extra,
    }


def is_booking_race(error: sa.exc.DBAPIError) -> bool:
    """The database refused an overlapping booking (PostgreSQL constraint or deadlock; SQLite trigger)."""
    sqlstate = getattr(error.orig, "sqlstate", None) or getattr(error.orig, "pgcode", None)
    return sqlstate in _RACE_SQLSTATES or "booking_overlap" in str(error.orig)


def is_missing_table(error: sa.exc.DBAPIError) -> bool:
    """The database refused a table the room does not have (the room's tables were just reduced)."""
    return "booking_table" in str(error.orig)


class _Taken(Exception):  # noqa: N818 - not an error: what takes the table, carried out of the savepoint
    def __init__(self, clash: Booking | MeetingProposal) -> None:
        self.clash = clash


def store_booking(
    session: Session,
    booking: Booking,
    meeting: Interval,
    *,
    now: datetime,
    exclude_match: int | None = None,
    overrule: Iterable[int] = (),
    **changes: Any,  # the booking's columns, set by name
) -> Booking | MeetingProposal | None:
    """Applies `changes` and the meeting's times inside a savepoint; returns what takes the table instead: a
    booking, or a live hold of another match than `exclude_match` (Регламент §3: a hold is a promise; only the
    proposals in `overrule`, which the organizer ends, give way). Checked under the table's lock (`lock_place`),
    which a proposal placing its hold takes too, so neither slips past the other; the database guard catches a
    booking a concurrent writer slipped in (PostgreSQL 23P01/40P01, the SQLite trigger)."""
    room_id = int(changes.get("room_id", booking.room_id))
    table_no = int(changes.get("table_no", booking.table_no))
    try:
        with session.begin_nested():
            lock_place(session, room_id, table_no)
            with session.no_autoflush:
                clash = place_taken(
                    session,
                    room_id,
                    table_no,
                    meeting,
                    now=now,
                    exclude_booking=booking.id,
                    exclude_match=exclude_match,
                    overrule=overrule,
                )
            if clash is not None:
                raise _Taken(clash)  # rolls the savepoint back: the table's lock goes with it
            for name, value in changes.items():
                setattr(booking, name, value)
            booking.start_at, booking.end_at, booking.active = meeting.start, meeting.end, True
            session.add(booking)
            session.flush()
    except _Taken as lost:
        return lost.clash
    except (sa.exc.IntegrityError, sa.exc.OperationalError, sa.exc.InternalError) as error:
        if is_missing_table(error):
            raise SchedulingError(f"В помещении нет стола {table_no}: обновите страницу.") from error
        if not is_booking_race(error):
            raise
        log.info("booking race lost for room %s table %s at %s", room_id, table_no, meeting.start)
        taken = clashing_booking(session, room_id, meeting, exclude=booking.id, table_no=table_no)
        return taken or Booking(room_id=room_id, kind="match", title="", start_at=meeting.start, end_at=meeting.end)
    return None


def store_at_first_free(  # noqa: PLR0913
    session: Session,
    booking: Booking,
    meeting: Interval,
    places: list[tuple[int, int]],
    *,
    now: datetime,
    exclude_match: int | None = None,
    **changes: Any,  # the booking's columns, set by name
) -> Booking | MeetingProposal | None:
    """`store_booking` at the first of `places` (room, table) that takes it: a table another writer took or held a
    moment ago gives way to the next free one. Returns the last clash when none takes it."""
    clash = None
    for room_id, table_no in places:
        clash = store_booking(
            session, booking, meeting, now=now, exclude_match=exclude_match, **changes, room_id=room_id,
            table_no=table_no,
        )  # fmt: skip
        if clash is None:
            return None
    return clash


def clash_text(session: Session, clash: Booking | MeetingProposal) -> str:
    if isinstance(clash, MeetingProposal):
        return describe_hold(session, clash)
    return describe_booking(session, clash) if clash.id else "другая бронь, созданная только что"


def _claim_table(
    session: Session, places: list[tuple[int, int]], meeting: Interval, *, now: datetime, match_id: int,
    moving: int | None,
) -> tuple[int, int]:  # fmt: skip
    """The first of `places` still free under its lock (`lock_place`): a proposal's hold never lands on a table a
    concurrent booking or hold just took (Регламент §3: the hold promises the table to the four)."""
    for room_id, table_no in places:
        lock_place(session, room_id, table_no)
        if place_taken(
            session, room_id, table_no, meeting, now=now, exclude_booking=moving, exclude_match=match_id
        ) is None:  # fmt: skip
            return room_id, table_no
    raise SchedulingError(TABLE_JUST_TAKEN)


def _seat(info: MatchInfo, user_id: int) -> SeatInfo:
    seat = info.seat_of(user_id)
    if seat is None:
        raise SchedulingError("Это могут делать только игроки этого матча.")
    return seat


def propose_meeting(
    session: Session,
    *,
    match_id: int,
    user_id: int,
    start: datetime,
    end: datetime,
    hanchans: int,
    now: datetime,
    replaces_booking_id: int | None = None,
) -> MeetingProposal:
    """Any of the four proposes a meeting inside a common option; rescheduling names the booking it moves.
    One open proposal per need (the remaining hanchans, or moving one booking): the database refuses a second."""
    lock_match(session, match_id)
    board, item = match_board(session, match_id, now=now)
    info = item.info
    seat = _seat(info, user_id)
    if info.window is None:
        raise SchedulingError("Игровое окно этого матча ещё не назначено.")
    old = None
    if replaces_booking_id is not None:
        old = next((b for b in item.bookings if b.id == replaces_booking_id), None)
        if old is None:
            raise SchedulingError("Переносить можно только действующую бронь этого матча.")
    options = board.options(item, replaces_booking_id)
    errors = validate_proposal(
        start,
        end,
        hanchans,
        window=info.window,
        option_intervals=[o.interval for o in options],
        hanchans_remaining=_remaining(item, old),
        final_hanchans=info.rules.final_hanchans if info.is_final else None,
        hanchan_minutes=info.hanchan_minutes,
        now=now,
        waiting_for=item.not_answered,
    )
    if errors:
        raise SchedulingError(" ".join(errors))
    for stale in item.expired:  # a proposal whose time has begun no longer holds its need (Регламент §3)
        if stale.replaces_booking_id == replaces_booking_id:
            fail_proposal(session, stale, info, decide.BEGUN, now)
    session.flush()
    if open_proposal_for(session, match_id, replaces_booking_id) is not None:
        raise SchedulingError(OPEN_PROPOSAL_EXISTS)
    meeting = Interval(start, end)
    # The lowest free table of the options holding the meeting: the proposal holds it until the four answer.
    places = sorted({r for o in options if o.interval.contains(meeting) for r in o.rooms})
    room, table_no = _claim_table(session, places, meeting, now=now, match_id=match_id, moving=replaces_booking_id)
    proposal = MeetingProposal(
        match_id=match_id,
        room_id=room,
        table_no=table_no,
        hold_until=holds.hold_until(now, meeting.start, info.rules.proposal_hold_hours),
        proposed_by_player_id=seat.player_id,
        start_at=meeting.start,
        end_at=meeting.end,
        hanchans=hanchans,
        replaces_booking_id=replaces_booking_id,
        created_at=now,
    )
    try:
        with session.begin_nested():
            session.add(proposal)
            session.flush()
    except sa.exc.IntegrityError as error:  # the unique index: a concurrent proposal for this need won
        raise SchedulingError(OPEN_PROPOSAL_EXISTS) from error
    # Регламент §3: proposing a time is agreeing to it — the proposer's confirmation is recorded with the proposal
    # (the time lies inside a common option, so inside the proposer's own availability).
    _answer(session, proposal, seat.player_id, True, now)
    payload = _meeting_payload(info, meeting.start, meeting.end, hanchans, by=seat.name, proposal_id=proposal.id)
    outbox.emit(session, outbox.PROPOSED, match_id, reschedule=replaces_booking_id is not None, **payload, now=now)
    tell_hold_neighbours(session, proposal, now=now)
    return proposal


def _remaining(item: MatchBoard, moving: Booking | None) -> int:
    """The hanchans a new meeting may hold: the match's remaining ones, or those of the booking being moved."""
    if moving is None:
        return item.remaining
    booked = item.booked_hanchans - (moving.hanchans or 0)
    return decide.remaining_hanchans(item.match.planned_hanchans, booked, item.hanchans)


def _locked_proposal(session: Session, proposal_id: int) -> MeetingProposal:
    """Locks the proposal's match first (the order every scheduling change takes: no deadlock), then reads
    the proposal afresh: two confirmations, or a confirmation and a repaint, queue and see each other (§3)."""
    match_id = session.exec(select(MeetingProposal.match_id).where(MeetingProposal.id == proposal_id)).first()
    if match_id is None:
        raise SchedulingError("Такого предложения нет.")
    lock_match(session, match_id)
    stmt = (
        select(MeetingProposal)
        .where(MeetingProposal.id == proposal_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    proposal = session.exec(stmt).first()
    if proposal is None:
        raise SchedulingError("Такого предложения нет.")
    return proposal


def _answers(session: Session, proposal_id: int) -> list[ProposalConfirmation]:
    return list(session.exec(select(ProposalConfirmation).where(ProposalConfirmation.proposal_id == proposal_id)))


def _answer(  # noqa: PLR0913
    session: Session,
    proposal: MeetingProposal,
    player_id: int,
    confirmed: bool,
    now: datetime,
    *,
    rows: list[ProposalConfirmation] | None = None,
) -> dict[int, bool]:
    """Stores one player's answer; returns every answer to the proposal (player id -> confirmed), this one included.
    `rows`: the proposal's answers, when already read under the match lock."""
    rows = _answers(session, saved(proposal.id)) if rows is None else rows
    row = next((r for r in rows if r.player_id == player_id), None)
    row = row or ProposalConfirmation(proposal_id=saved(proposal.id), player_id=player_id, confirmed=confirmed)
    row.confirmed, row.at = confirmed, now
    session.add(row)
    session.flush()
    return {**{r.player_id: r.confirmed for r in rows}, player_id: confirmed}


@dataclass(frozen=True)
class Answered:
    """An answer stored: the proposal as it now stands, and its match as read under the match's lock (an answer
    changes neither the match nor its seats, so the page can show the news without reading them again)."""

    proposal: MeetingProposal
    info: MatchInfo


def answer_meeting(session: Session, *, proposal_id: int, user_id: int, confirmed: bool, now: datetime) -> Answered:
    """A seated player confirms or declines a live proposal (§3). The fourth confirmation books the room at once,
    in this transaction; a refusal ends the proposal. A time that has begun is not confirmed into a booking."""
    proposal = _locked_proposal(session, proposal_id)
    rows = _answers(session, proposal_id)
    # Under the lock only what an answer needs: the match and its seats, the player's own time. The whole board
    # (the club's rooms, bookings, holds, every seated player's meetings) is read only when this answer can be the
    # fourth confirmation, which books (issue 26: 9 statements instead of 20 for the others).
    read = None
    if confirmed and sum(r.confirmed for r in rows) >= SEATS - 1:
        read = match_board(session, proposal.match_id, now=now)
        info = read[1].info
    else:
        info = match_info(session, proposal.match_id)
    seat = _seat(info, user_id)
    if proposal.status != LIVE_PROPOSAL:  # booked, withdrawn, or ended by the organizer's meeting: say why
        raise SchedulingError(
            f"Это предложение уже не действует. {proposal.failure_reason}"
            if proposal.failure_reason
            else "Это предложение уже не действует: обновите страницу."
        )
    meeting = Interval(proposal.start_at, proposal.end_at)
    own_free = (
        read[1].free.get(seat.player_id, []) if read else _own_time(session, saved(info.match.id), seat.player_id)
    )
    refusal = decide.answer_refusal(meeting, now=now, own_free=own_free, confirmed=confirmed)
    if refusal is not None:
        raise SchedulingError(refusal)
    payload = _meeting_payload(info, meeting.start, meeting.end, proposal.hanchans, by=seat.name)
    answers = _answer(session, proposal, seat.player_id, confirmed, now, rows=rows)
    if not confirmed:
        proposal.status = "declined"
        session.add(proposal)
        outbox.emit(session, outbox.DECLINED, info.match.id, proposal_id=proposal.id, **payload, now=now)
        tell_hold_neighbours(session, proposal, now=now)
        return Answered(proposal, info)
    seat_ids = {s.player_id for s in info.seats}
    yes = [p for p, ok in answers.items() if ok and p in seat_ids]
    outbox.emit(
        session,
        outbox.CONFIRMED,
        info.match.id,
        confirmed=len(yes),
        of=SEATS,
        proposal_id=proposal.id,
        **payload,
        now=now,
    )
    if decide.fully_confirmed(yes, seat_ids):  # Регламент §3: the fourth confirmation books, on the whole board
        board, item = read or match_board(session, proposal.match_id, now=now)
        book_proposal(session, proposal, board, item, now=now)
    return Answered(proposal, info)


def _own_time(session: Session, match_id: int, player_id: int) -> list[Interval]:
    """The player's painted time for the match, both levels («если нужно» counts for a confirmation: Регламент §3)."""
    rows = select(AvailabilityInterval.start_at, AvailabilityInterval.end_at).where(
        AvailabilityInterval.match_id == match_id, AvailabilityInterval.player_id == player_id
    )
    return [Interval(start, end) for start, end in session.exec(rows).all()]


def fail_proposal(session: Session, proposal: MeetingProposal, info: MatchInfo, reason: str, now: datetime) -> None:
    """The proposal ends unbooked, with its reason; the four hear it (its table's hold ends with it)."""
    was_live = proposal.status == LIVE_PROPOSAL
    proposal.status, proposal.failure_reason = "failed", reason
    session.add(proposal)
    payload = _meeting_payload(info, proposal.start_at, proposal.end_at, proposal.hanchans, reason=reason)
    outbox.emit(session, outbox.BOOKING_FAILED, info.match.id, proposal_id=proposal.id, **payload, now=now)
    if was_live:
        tell_hold_neighbours(session, proposal, now=now)


def book_proposal(
    session: Session, proposal: MeetingProposal, board: Board, item: MatchBoard, *, now: datetime
) -> Booking | None:
    """Books a room for a fully confirmed proposal, or marks it failed with the reason; no one else approves. The
    confirmed room if it is still free, else another free room (the four agreed on the time, not the table). The
    caller holds the match lock (`lock_match`) and read `board` after it."""
    info = item.info
    meeting = Interval(proposal.start_at, proposal.end_at)
    booking = None
    if proposal.replaces_booking_id is not None:
        booking = session.get(Booking, proposal.replaces_booking_id)
    moving = booking is not None and booking.active
    refusal = decide.booking_refusal(
        proposal.hanchans, remaining=_remaining(item, booking if moving else None), planned=info.match.planned_hanchans
    ) or decide.busy_refusal(meeting, board.meetings_of(item, proposal.replaces_booking_id))
    if refusal is not None:
        fail_proposal(session, proposal, info, refusal, now)
        return None
    if booking is None:  # a proposal booked before and released keeps its booking row (stable calendar UID)
        booking = session.exec(select(Booking).where(Booking.proposal_id == proposal.id)).first()
    # The held table if it is still free (the hold kept it), else the lowest free one no other match's live proposal
    # holds (Регламент §3: a hold is a promise, whether or not this proposal's own has ended). None left: the held
    # table, where the store names what takes it (a booking or another hold) and takes nothing.
    held = (proposal.room_id, proposal.table_no)
    seats = board.seating(meeting, proposal.replaces_booking_id, info.match.id, preferred=held)
    places = [place for place, _ in seats] or [held]
    old_proposal_id = booking.proposal_id if booking else None
    changes: dict[str, Any] = {
        "match_id": info.match.id,
        "proposal_id": proposal.id,
        "hanchans": proposal.hanchans,
        "title": f"Матч: {info.title}",
    }
    if booking is None:
        booking = Booking(
            kind="match", start_at=meeting.start, end_at=meeting.end, created_at=now, room_id=held[0], **changes
        )
    else:
        changes["sequence"] = booking.sequence + 1  # every change of a published event raises SEQUENCE (RFC 5545)
    clash = store_at_first_free(session, booking, meeting, places, now=now, exclude_match=info.match.id, **changes)
    if clash is not None:
        reason = f"Помещение уже занято: {clash_text(session, clash)}. Бронь не создана; выберите другой общий вариант."
        fail_proposal(session, proposal, info, reason, now)
        return None
    proposal.status = "booked"
    session.add(proposal)
    if moving and old_proposal_id and old_proposal_id != proposal.id:
        old = session.get_one(MeetingProposal, old_proposal_id)
        old.status = "withdrawn"
        session.add(old)
    kind = outbox.MOVED if moving else outbox.BOOKED
    payload = _meeting_payload(info, meeting.start, meeting.end, proposal.hanchans, booking_id=booking.id)
    outbox.emit(session, kind, info.match.id, room=booking.room_id, **payload, now=now)
    tell_neighbours(session, booking, now=now)
    return booking


def release_booking(
    session: Session, booking: Booking, info: MatchInfo, *, reason: str, now: datetime, by_organizer: bool = False
) -> None:
    """Регламент §6.1: the time is not kept without confirmation; the calendar publishes it as cancelled."""
    booking.active = False
    booking.sequence += 1
    session.add(booking)
    payload = _meeting_payload(info, booking.start_at, booking.end_at, booking.hanchans or 0, booking_id=booking.id)
    outbox.emit(session, outbox.RELEASED, info.match.id, reason=reason, by_organizer=by_organizer, **payload, now=now)
    tell_neighbours(session, booking, now=now)


def cannot_come(session: Session, *, booking_id: int, user_id: int, now: datetime) -> Booking:
    """A seated player cannot come to a booked meeting: the room is released at once and the meeting's proposal
    counts as declined, so the four agree on another time (Регламент §3, §6.1: no time is kept without all four).
    The binding §6.1 fallback (`rules.binding_fallback`) stays booked: the player's warning is recorded once and the
    organizers are told; the booking returned is still active."""
    booking = session.get(Booking, booking_id)
    if booking is None or booking.match_id is None:
        raise SchedulingError("Этой брони уже нет: обновите страницу.")
    lock_match(session, booking.match_id)  # then decide on what the lock holder sees: it may have just moved
    session.refresh(booking)
    if not booking.active:
        raise SchedulingError("Этой брони уже нет: обновите страницу.")
    if booking.start_at <= now:
        raise SchedulingError("Встреча уже началась: снять её бронь может только организатор.")
    info = match_info(session, booking.match_id)
    seat = _seat(info, user_id)
    if binding_fallback(info.window, booking.start_at, booking.proposal_id):
        _warn_organizer(session, booking, info, seat, now=now)
        return booking
    release_booking(session, booking, info, reason=f"{seat.name} не сможет прийти", now=now)
    proposal = session.get(MeetingProposal, booking.proposal_id) if booking.proposal_id else None
    if proposal is not None:
        _answer(session, proposal, seat.player_id, False, now)
        proposal.status = "declined"
        session.add(proposal)
    return booking


def _warn_organizer(session: Session, booking: Booking, info: MatchInfo, seat: SeatInfo, *, now: datetime) -> None:
    """Регламент §5 «без предупреждения»: the warning is recorded (the audit row the desk reads) and the organizers
    get a message, once per player and booking however often it is pressed; whether the reason is valid, and a move
    to the next tour or a substitute, is the organizer's decision (Регламент §6.1, §6.3)."""
    event = outbox.emit_once(
        session,
        outbox.FALLBACK_WARNED,
        f"fallback-warned:{booking.id}:{seat.user_id}",
        now=now,
        match=info.title,
        match_id=None,
        name=seat.name,
        start=booking.start_at.isoformat(),
    )
    if event is not None:
        record_audit(
            session,
            actor_user_id=seat.user_id,
            action=FALLBACK_WARNING,
            entity="booking",
            entity_id=booking.id,
            after={"match": info.match.id, "player": seat.player_id},
            reason=f"{seat.name} не сможет прийти на запасную дату",
            now=now,
        )


def tell_neighbours(session: Session, booking: Booking, *, now: datetime) -> None:
    """A booking made or released changes the options of the other matches whose window it crosses: each whose
    options (as they are without this booking) touch its time gets an event, so its card and open pages follow
    (Регламент §3: one calendar for every match)."""
    span = Interval(booking.start_at, booking.end_at)
    session.flush()
    ids = neighbour_ids(session, span, booking.match_id)
    if not ids:
        return
    board = load_board(session, now=now, match_ids=ids)
    for item in board.matches:
        if item.remaining < 1 or not item.seat_ids <= item.answered:
            continue
        if not any(o.interval.overlaps(span) for o in board.options(item, booking.id)):
            continue
        after = board.options(item)
        kind = outbox.OPTIONS_CHANGED if after else outbox.OPTIONS_LOST
        outbox.emit(session, kind, item.match.id, match=item.info.title, options=len(after), now=now)


def tell_hold_neighbours(session: Session, proposal: MeetingProposal, *, now: datetime) -> None:
    """A live proposal's hold made or ended (declined, failed, withdrawn, reopened) changes what other matches whose
    window crosses its time are offered: a held table is not (Регламент §3). Each whose options or state differ with
    and without the hold gets an event, so its card and open pages follow (issue 43 item 5). A hold that has ended by
    time (`hold_until` or the start passed) changes nothing now: the notifier's minute look re-renders for time."""
    if proposal.hold_until is None or proposal.hold_until <= now or proposal.start_at <= now:
        return
    span = Interval(proposal.start_at, proposal.end_at)
    session.flush()
    ids = neighbour_ids(session, span, proposal.match_id)
    if not ids:
        return
    board = load_board(session, now=now, match_ids=ids)
    others = [h for h in board.holds if h.proposal_id != proposal.id]
    hold = Hold(saved(proposal.id), proposal.match_id, (proposal.room_id, proposal.table_no), span, proposal.hold_until)
    held, free = board.with_holds([*others, hold]), board.with_holds(others)
    for item in board.matches:
        if item.remaining < 1 or not item.seat_ids <= item.answered or _shown(held, item) == _shown(free, item):
            continue
        after = board.options(item)
        kind = outbox.OPTIONS_CHANGED if after else outbox.OPTIONS_LOST
        outbox.emit(session, kind, item.match.id, match=item.info.title, options=len(after), now=now)


def _shown(board: Board, item: MatchBoard) -> tuple[str, list[tuple[Interval, int, int]]]:
    """What the match's views show of its options: its state and each option's time, hanchans and «если нужно»."""
    return board.state(item), [(o.interval, o.hanchans_fit, o.if_needed) for o in board.options(item)]
