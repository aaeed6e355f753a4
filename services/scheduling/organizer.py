"""The organizer's scheduling actions: assign, move, fallback, next window, rooms, activities; imports no reflex."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlmodel import Session, col, select

from services.core import outbox
from services.core.audit import record_audit
from services.core.models import Booking, Match, MatchStatus, MeetingProposal, Room, Round, saved
from services.core.wording import counted, place
from services.scheduling import decide
from services.scheduling.board import Board, MatchBoard, load_board, match_board
from services.scheduling.booking import (
    clash_text,
    fail_proposal,
    release_booking,
    store_booking,
    tell_hold_neighbours,
    tell_neighbours,
)
from services.scheduling.fallback_plan import fallback_place
from services.scheduling.intervals import Interval
from services.scheduling.repo import (
    LIVE_PROPOSAL,
    MatchInfo,
    SchedulingError,
    lock_for_write,
    lock_match,
    match_info,
    place_taken,
)
from services.scheduling.rules import (
    LAST_TOUR,
    fallback_meeting,
    format_kirov,
    format_span,
    hanchans_word,
    meeting_end,
    too_short,
)

ACTIVITY = "activity"


ALL_BOOKED = "Все ханчаны матча уже забронированы: чтобы сменить время, перенесите бронь."
# Регламент §3, §6.3: the organizer sets the schedule; a held table is taken only when no other is free, and the four
# whose proposal held it hear why.
HOLD_OVERRULED = (
    "Организатор назначил на этот стол встречу матча «{title}» ({when}), других свободных столов не было: "
    "предложение снято, стол больше не удерживается. Выберите другой общий вариант."
)
Seats = list[tuple[tuple[int, int], tuple[int, ...]]]  # (room, table) in the order to try, the holds each would end


def _locked_booking(session: Session, booking_id: int) -> Booking | None:
    """The booking read afresh after its match's lock (activities only need the SQLite write lock)."""
    lock_for_write(session)
    match_id = session.exec(select(Booking.match_id).where(Booking.id == booking_id)).first()
    if match_id is not None:
        lock_match(session, match_id)
    stmt = select(Booking).where(Booking.id == booking_id).execution_options(populate_existing=True)
    return session.exec(stmt).first()


def _room(session: Session, room_id: int | None) -> Room:
    room = session.get(Room, room_id) if room_id else session.exec(select(Room).order_by(col(Room.id))).first()
    if room is None:
        raise SchedulingError("Помещение не найдено: добавьте помещение клуба.")
    return room


def _meeting(start: datetime, end: datetime, now: datetime) -> Interval:
    if not start < end:
        raise SchedulingError("Окончание должно быть позже начала.")
    if start < now:
        raise SchedulingError("Нельзя назначить встречу на прошедшее время.")
    return Interval(start, end)


def _require_in_window(info: MatchInfo, meeting: Interval) -> None:
    """Регламент §2: все встречи должны состояться в пределах игрового окна тура или раунда. The organizer moves
    the match to the next tour first (`move_to_next_window`, with a reason) to meet later."""
    window = info.window
    if window is None:
        raise SchedulingError("Игровое окно этого матча ещё не назначено.")
    if not window.contains(meeting):
        raise SchedulingError(
            f"Встреча должна пройти в пределах игрового окна: {format_span(window.start, window.end)}. "
            "Позже — только после переноса матча на следующий тур."
        )


def _require_unplayed(match: Match, refused: str) -> None:
    """Nothing moves a played match: its results stay where they were recorded."""
    if match.status in (MatchStatus.COMPLETE, MatchStatus.REPLAY):
        raise SchedulingError(f"Матч уже сыгран: {refused}")


def _require_movable(item: MatchBoard, booking: Booking, refused: str) -> None:
    """A meeting whose hanchans are recorded stays where it is: its results were played there (a split match's
    later meetings are still the organizer's to move)."""
    if booking not in item.movable:
        raise SchedulingError(f"В этой встрече уже сыграны ханчаны: {refused}")


def _room_for(board: Board, item: MatchBoard, meeting: Interval, room_id: int | None) -> Seats:
    """The free tables (lowest first) of the room the organizer named, or of every room, for the whole meeting: those
    no other match's live proposal holds, else the held ones with the proposals each would end (`decide.seating`:
    the organizer decides only when nothing else is free); refused when one of the four already sits in another
    meeting then (one person, one table)."""
    if (busy := decide.busy_refusal(meeting, board.meetings_of(item))) is not None:
        raise SchedulingError(busy)
    if (room_id is not None and room_id not in board.rooms) or not board.rooms:
        raise SchedulingError("Помещение не найдено: добавьте помещение клуба.")
    seats = board.seating(meeting, exclude_match=item.match.id, room_id=room_id, overrule=True)
    return seats or [((room_id or min(board.rooms), 1), ())]  # taken everywhere: the store names the clash


def _store_or_refuse(  # noqa: PLR0913
    session: Session,
    booking: Booking,
    meeting: Interval,
    refused: str,
    plan: Callable[[bool], Seats] | None = None,
    *,
    now: datetime,
    exclude_match: int | None = None,
    **changes: Any,  # the booking's columns, set by name
) -> list[str]:
    """Store the booking at `meeting` (at the first seat of `plan` that takes it, when given, else where it is); a
    taken table is refused naming the clash, then `refused`. A seat held by other matches' proposals ends them
    (`_overrule`); returns those matches and times, for the audit. A hold placed since
    the board was read (found under the table's lock) sends the plan round once more, on a fresh board
    (`plan(True)`), as a sequential call would have seen it."""
    clash: Booking | MeetingProposal | None = None
    if plan is None:
        clash = store_booking(session, booking, meeting, now=now, exclude_match=exclude_match, **changes)
        if clash is not None:
            raise SchedulingError(f"Помещение занято: {clash_text(session, clash)}. {refused}")
        return []
    for fresh in (False, True):
        seats = plan(fresh)
        _lock_holders(session, [pid for _, ids in seats for pid in ids])
        for (room_id, table_no), holding in seats:
            clash = store_booking(
                session, booking, meeting, now=now, exclude_match=exclude_match, overrule=holding, **changes,
                room_id=room_id, table_no=table_no,
            )  # fmt: skip
            if clash is None:
                return _overrule(session, holding, booking, now=now)
        if not isinstance(clash, MeetingProposal):
            break
    assert clash is not None  # a plan names at least one seat, and none took the booking
    raise SchedulingError(f"Помещение занято: {clash_text(session, clash)}. {refused}")


def _lock_holders(session: Session, proposal_ids: list[int]) -> None:
    """The matches whose proposals a held seat would end are locked (in id order) while no table is (a table's lock
    goes with the savepoint that found it taken), as their own actions lock them first: a confirmation of the
    proposal being ended waits, then reads that it has ended."""
    if not proposal_ids:
        return
    stmt = select(MeetingProposal.match_id).where(col(MeetingProposal.id).in_(proposal_ids))
    for match_id in sorted(set(session.exec(stmt).all())):
        lock_match(session, match_id)


def _overrule(session: Session, proposal_ids: tuple[int, ...], booking: Booking, *, now: datetime) -> list[str]:
    """Регламент §3, §6.3: the organizer's meeting took a table other matches' live proposals held, none other being
    free; each such proposal ends with its reason, its four are told (the outbox) and the desk shows it. Returns
    «матч», time of each: the audit row's `overruled`, what the page asked about first (`assignment_overrules`)."""
    ended = []
    title = booking.title.removeprefix("Матч: ")
    for proposal_id in proposal_ids:
        stmt = select(MeetingProposal).where(MeetingProposal.id == proposal_id)
        proposal = session.exec(stmt.execution_options(populate_existing=True)).first()
        if proposal is None or proposal.status != LIVE_PROPOSAL:
            continue
        info = match_info(session, proposal.match_id)
        reason = HOLD_OVERRULED.format(title=title, when=format_kirov(booking.start_at))
        fail_proposal(session, proposal, info, reason, now)
        ended.append(f"«{info.title}», {format_kirov(proposal.start_at)}")
    return ended


def _held_names(session: Session, seats: Seats) -> list[str]:
    """The matches and times whose holds the first seat would end (what the page asks about before)."""
    ids = list(seats[0][1]) if seats else []
    rows = session.exec(
        select(MeetingProposal).where(col(MeetingProposal.id).in_(ids)).order_by(col(MeetingProposal.id))
    )
    return [f"«{match_info(session, p.match_id).title}», {format_kirov(p.start_at)}" for p in rows]


def assignable_hanchans(session: Session, match_id: int, *, now: datetime | None) -> list[int]:
    """The hanchan counts the organizer may assign to a match: 1 … its remaining ones (neither booked nor played),
    the last being the default; the total is the season's ruleset's (Регламент §2: a regular match 3, the final 5),
    so a regular match is never offered 5. Empty when nothing is left."""
    _, item = match_board(session, match_id, now=now)
    return list(range(1, max(item.remaining, 0) + 1))


def assign_meeting(  # noqa: PLR0913
    session: Session,
    *,
    match_id: int,
    start: datetime,
    hanchans: int,
    actor_user_id: int,
    now: datetime,
    room_id: int | None = None,
    end: datetime | None = None,
    reason: str = "",
) -> Booking:
    """Регламент §3: организатор вправе назначить матч без подтверждений игроков, проверив занятость помещения.
    Without a room, the first one free for the whole meeting. The match lock makes two simultaneous assignments
    queue: the second sees the first one's hanchans."""
    return _assign(
        session, match_id=match_id, start=start, hanchans=hanchans, actor_user_id=actor_user_id, now=now,
        room_id=room_id, end=end, reason=reason,
    )[0]  # fmt: skip


def _assign(  # noqa: PLR0913
    session: Session,
    *,
    match_id: int,
    start: datetime,
    hanchans: int,
    actor_user_id: int,
    now: datetime,
    room_id: int | None = None,
    end: datetime | None = None,
    reason: str = "",
) -> tuple[Booking, list[str]]:
    """`assign_meeting`, with the other matches' holds it ended («матч», time of each)."""
    lock_match(session, match_id)
    board, item = match_board(session, match_id, now=now)
    info = item.info
    _require_unplayed(info.match, "назначать встречу не нужно.")
    remaining = item.remaining
    if remaining < 1:
        raise SchedulingError(ALL_BOOKED)
    if not 1 <= hanchans <= remaining:
        raise SchedulingError(f"Можно назначить от 1 до {hanchans_word(remaining)}: остальные уже забронированы.")
    meeting = _assigned_meeting(item, start, hanchans, end, now)
    seats = _room_for(board, item, meeting, room_id)

    def plan(fresh: bool) -> Seats:
        return _room_for(*match_board(session, match_id, now=now), meeting, room_id) if fresh else seats

    booking = Booking(
        room_id=seats[0][0][0],
        table_no=seats[0][0][1],
        kind="match",
        title=f"Матч: {info.title}",
        start_at=meeting.start,
        end_at=meeting.end,
        match_id=match_id,
        hanchans=hanchans,
        created_by_user_id=actor_user_id,
        created_at=now,
    )
    overruled = _store_or_refuse(
        session, booking, meeting, "Встреча не назначена.", plan, now=now, exclude_match=match_id
    )
    _end_proposals_left_out(session, item, meeting, left=remaining - hanchans, now=now)
    record_audit(
        session,
        actor_user_id=actor_user_id,
        action="meeting.assign",
        entity="booking",
        entity_id=booking.id,
        after={"match": match_id, "start": meeting.start, "end": meeting.end, **_told(overruled)},
        reason=reason,
        now=now,
    )
    outbox.emit(
        session,
        outbox.BOOKED,
        match_id,
        match=info.title,
        start=meeting.start.isoformat(),
        end=meeting.end.isoformat(),
        when=format_kirov(meeting.start),
        hanchans=hanchans,
        booking_id=booking.id,
        by_organizer=True,
        now=now,
    )
    tell_neighbours(session, booking, now=now)
    return booking, overruled


def _assigned_meeting(
    item: MatchBoard, start: datetime, hanchans: int, end: datetime | None, now: datetime
) -> Interval:
    """The meeting an assignment asks for, refused when it is in the past, outside the window or too short."""
    info = item.info
    meeting = _meeting(start, end or meeting_end(start, hanchans, info.hanchan_minutes), now)
    _require_in_window(info, meeting)
    if (short := too_short(meeting, hanchans, info.hanchan_minutes)) is not None:
        raise SchedulingError(short)
    return meeting


def _told(overruled: list[str]) -> dict[str, list[str]]:
    return {"overruled": overruled} if overruled else {}


def assignment_overrules(  # noqa: PLR0913
    session: Session,
    *,
    match_id: int,
    start: datetime,
    hanchans: int,
    now: datetime,
    room_id: int | None = None,
    end: datetime | None = None,
) -> list[str]:
    """What the page asks before an assignment (Регламент §3, §6.3: the organizer decides): the other matches'
    live proposals — «Тур 1, стол 3», пт 20.11.2026 18:00 — whose held table it would take because no other is
    free; empty when it takes none. A refusal the assignment would give is raised the same."""
    board, item = match_board(session, match_id, now=now)
    return _held_names(session, _room_for(board, item, _assigned_meeting(item, start, hanchans, end, now), room_id))


def fallback_overrules(session: Session, *, match_id: int, now: datetime) -> list[str]:
    """`assignment_overrules` for the §6.1 fallback meeting (the desk's and /schedule's «Запасная дата»)."""
    meeting = fallback_for(session, match_id, now=now)
    return assignment_overrules(session, match_id=match_id, start=meeting.start, end=meeting.end, hanchans=1, now=now)


def move_overrules(session: Session, *, booking_id: int, start: datetime, end: datetime, now: datetime) -> list[str]:
    """`assignment_overrules` for moving a booking: the holds its new time would take in its room."""
    booking = session.get(Booking, booking_id)
    if booking is None or booking.match_id is None:
        return []
    board, _ = match_board(session, booking.match_id, now=now)
    return _held_names(session, _move_seats(board, booking, _meeting(start, end, now)))


def _move_seats(board: Board, booking: Booking, meeting: Interval) -> Seats:
    """Its table if free at the new time, else the room's lowest free one; held tables only when no other is free;
    taken everywhere: its own table, where the store names the clash."""
    here = (booking.room_id, booking.table_no)
    seats = board.seating(meeting, booking.id, booking.match_id, preferred=here, room_id=booking.room_id, overrule=True)
    return seats or [(here, ())]


def move_booking(
    session: Session,
    *,
    booking_id: int,
    start: datetime,
    end: datetime,
    actor_user_id: int,
    now: datetime,
    reason: str = "",
) -> Booking:
    """Moves a booking (match or activity) keeping its calendar UID; SEQUENCE grows; a clash is refused by name."""
    if not booking_id:
        raise SchedulingError("Выберите бронь.")
    booking = _locked_booking(session, booking_id)
    if booking is None or not booking.active:
        raise SchedulingError("Эта бронь уже снята: выберите действующую.")
    meeting = _meeting(start, end, now)
    if (meeting.start, meeting.end) == (booking.start_at, booking.end_at):
        raise SchedulingError("Время брони не изменилось: укажите новое начало или окончание.")
    reason = " ".join(reason.split())
    plan = None
    if booking.match_id is not None:
        board, item = match_board(session, booking.match_id, now=now)
        info = item.info
        _require_unplayed(info.match, "его встречу не переносят.")
        _require_movable(item, booking, "её не переносят.")
        _require_in_window(info, meeting)
        if (busy := decide.busy_refusal(meeting, board.meetings_of(item, booking.id))) is not None:
            raise SchedulingError(busy)
        if (short := too_short(meeting, booking.hanchans or 0, info.hanchan_minutes)) is not None:
            raise SchedulingError(short)
        if not reason:  # Регламент §3: the four agreed on the old time; the organizer decides with a reason
            raise SchedulingError("Укажите причину переноса: игроки её увидят.")
        seats = _move_seats(board, booking, meeting)
        match_id = booking.match_id

        def plan(fresh: bool) -> Seats:
            return _move_seats(match_board(session, match_id, now=now)[0], booking, meeting) if fresh else seats

    before = {"start": booking.start_at, "end": booking.end_at}
    overruled = _store_or_refuse(
        session, booking, meeting, "Бронь не перенесена.", plan, now=now, exclude_match=booking.match_id,
        sequence=booking.sequence + 1,
    )  # fmt: skip
    # The players' confirmed proposal no longer describes the meeting: the organizer's time rules (§3).
    _retire(session, booking.proposal_id, now)
    if booking.match_id is not None:
        _end_proposals_left_out(session, item, meeting, left=item.remaining, now=now, moved=booking.id)
    record_audit(
        session,
        actor_user_id=actor_user_id,
        action="booking.move",
        entity="booking",
        entity_id=booking.id,
        before=before,
        after={"start": meeting.start, "end": meeting.end, **_told(overruled)},
        reason=reason,
        now=now,
    )
    if booking.match_id is not None:
        outbox.emit(
            session,
            outbox.MOVED,
            booking.match_id,
            match=booking.title,
            start=meeting.start.isoformat(),
            end=meeting.end.isoformat(),
            when=format_kirov(meeting.start),
            booking_id=booking.id,
            by_organizer=True,
            reason=reason,
            now=now,
        )
    tell_neighbours(session, booking, now=now)
    return booking


def cancel_booking(session: Session, *, booking_id: int, actor_user_id: int, reason: str, now: datetime) -> Booking:
    """The organizer releases a booking with a reason; a match's players are told and agree on a time again
    (Регламент §3: nothing is kept without all four; §6.1: the organizer decides with a reason)."""
    reason = " ".join(reason.split())
    if not reason:
        raise SchedulingError("Укажите причину: игроки увидят её в сообщении.")
    booking = _locked_booking(session, booking_id)
    if booking is None or not booking.active:
        raise SchedulingError("Эта бронь уже снята.")
    if booking.match_id is not None:
        _, item = match_board(session, booking.match_id, now=now)
        info = item.info
        _require_unplayed(info.match, "его бронь не снимают.")
        _require_movable(item, booking, "её бронь не снимают.")
        release_booking(session, booking, info, reason=reason, now=now, by_organizer=True)
        _retire(session, booking.proposal_id, now)
    else:
        booking.active, booking.sequence = False, booking.sequence + 1
        session.add(booking)
        tell_neighbours(session, booking, now=now)
    record_audit(
        session,
        actor_user_id=actor_user_id,
        action="booking.cancel",
        entity="booking",
        entity_id=booking.id,
        reason=reason,
        now=now,
    )
    return booking


def fallback_for(session: Session, match_id: int, *, now: datetime | None = None) -> Interval:
    """Регламент §6.1: последнее воскресенье игрового окна, 18:00 по Кирову, на оставшиеся ханчаны."""
    return _fallback(match_board(session, match_id, now=now)[1])


def _fallback(item: MatchBoard) -> Interval:
    if item.info.window is None:
        raise SchedulingError("Игровое окно этого матча ещё не назначено.")
    if item.remaining < 1:
        raise SchedulingError("Все ханчаны матча уже забронированы.")
    try:
        fallback_meeting(item.info.window, item.remaining, item.info.hanchan_minutes)
    except ValueError as error:
        raise SchedulingError(str(error)) from error
    meeting = item.fallback()  # the read model's: after the match's own meeting that evening, if it has one
    assert meeting is not None  # its window, the hanchans left and the Sunday are checked above
    return meeting


NO_TABLE_HINT = (
    "назначьте встречу в другом помещении или в другое время окна, либо перенесите матч на следующий тур "
    "(Регламент §6.1)."
)


def apply_fallback(session: Session, *, match_id: int, actor_user_id: int, now: datetime) -> Booking:
    """Shows and books the §6.1 fallback meeting for the match's remaining hanchans in one action, at a free table;
    only before it, for a match that is not played (a split match's rest included). No free table left: refused
    saying so and what the organizer can do instead."""
    return _apply_fallback(session, match_id=match_id, actor_user_id=actor_user_id, now=now)[0]


def _apply_fallback(session: Session, *, match_id: int, actor_user_id: int, now: datetime) -> tuple[Booking, list[str]]:
    """`apply_fallback`, with the other matches' holds it ended (`_assign`)."""
    lock_match(session, match_id)
    board, item = match_board(session, match_id, now=now)
    _require_unplayed(item.match, "запасная дата ему не нужна.")
    meeting = _fallback(item)
    if meeting.start < now:
        raise SchedulingError(
            f"Запасная дата ({format_kirov(meeting.start)}) уже прошла: назначьте встречу или перенесите матч "
            "на следующий тур."
        )
    if decide.busy_refusal(meeting, board.meetings_of(item)) is None and fallback_place(board, item) is None:
        raise SchedulingError(f"В запасное время ({format_kirov(meeting.start)}) все столы заняты: {NO_TABLE_HINT}")
    return _assign(
        session,
        match_id=match_id,
        start=meeting.start,
        end=meeting.end,
        hanchans=item.remaining,
        actor_user_id=actor_user_id,
        reason="Регламент §6.1: запасная дата",
        now=now,
    )


@dataclass(frozen=True)
class WindowFallback:
    """What the window's fallback did: the matches seated (title, table text), those that did not fit (title, why),
    with what the organizer can do for them, and the holds it ended."""

    placed: tuple[tuple[str, str], ...]
    unplaced: tuple[tuple[str, str], ...]
    overruled: tuple[str, ...] = ()  # the other matches' holds its meetings ended («матч», time)

    @property
    def summary(self) -> str:
        parts = [f"Запасная дата назначена: {counted(len(self.placed), 'матчу', 'матчам', 'матчам')}."]
        if self.unplaced:
            names = "; ".join(f"{title} — {why}" for title, why in self.unplaced)
            parts.append(f"Не поместились: {names}. Для них {NO_TABLE_HINT}")
        if self.overruled:  # Регламент §3, §6.3: asked first; the holders are told why
            parts.append(f"Снятые удержания других матчей: {'; '.join(self.overruled)}.")
        return " ".join(parts)


def apply_window_fallback(session: Session, *, round_id: int, actor_user_id: int, now: datetime) -> WindowFallback:
    """Регламент §6.1: every match of the tour's window not agreed yet is booked on the window's last Sunday at 18:00
    while tables last (in the order of `fallback_plan`); each of the others is named with the reason."""
    lock_for_write(session)
    board = load_board(session, now=now)
    todo = [
        (meeting.start, saved(m.match.id), m)
        for m in board.matches
        if m.info.window_round.id == round_id
        and not m.complete
        and m.remaining > 0
        and (meeting := m.fallback()) is not None
    ]
    if not todo:
        raise SchedulingError("В этом туре нет матчей, которым нужна запасная дата.")
    todo.sort(key=lambda t: t[:2])
    placed, unplaced, overruled = [], [], []
    for _, match_id, item in todo:
        try:
            with session.begin_nested():
                b, ended = _apply_fallback(session, match_id=match_id, actor_user_id=actor_user_id, now=now)
        except SchedulingError as error:
            unplaced.append((item.info.title, str(error)))
            continue
        room = session.get_one(Room, b.room_id)
        placed.append((item.info.title, f"{place(room.name, room.tables, b.table_no)}, {format_kirov(b.start_at)}"))
        overruled += ended
    return WindowFallback(tuple(placed), tuple(unplaced), tuple(overruled))


def window_fallback_overrules(session: Session, *, round_id: int, actor_user_id: int, now: datetime) -> list[str]:
    """`fallback_overrules` for the whole tour (the desk's «Запасная дата для всего тура»): the other matches' live
    proposals whose held tables its meetings would take, each match seated as `apply_window_fallback` seats them —
    which is run and then rolled back whole, so the question names exactly what the action would end. Writes nothing:
    call it on a session of its own. A refusal the action would give is raised the same."""
    try:
        result = apply_window_fallback(session, round_id=round_id, actor_user_id=actor_user_id, now=now)
    finally:
        session.rollback()
    return list(result.overruled)


def move_to_next_window(session: Session, *, match_id: int, actor_user_id: int, reason: str, now: datetime) -> Round:
    """Регламент §6.1: при уважительной причине организатор переносит матч на период следующего тура. What was
    played stays; the meetings not yet begun are released, and the rest is agreed in the new window."""
    if not reason.strip():
        raise SchedulingError("Укажите уважительную причину переноса.")
    lock_match(session, match_id)
    _, item = match_board(session, match_id, now=now)
    info = item.info
    _require_unplayed(info.match, "на следующий тур его не переносят.")
    if item.played:
        raise SchedulingError(
            "В матче уже сыграны ханчаны, остальные забронированы: на следующий тур его не переносят."
        )
    rounds = session.exec(select(Round).where(Round.stage_id == info.round.stage_id).order_by(col(Round.id))).all()
    later = [r for r in rounds if saved(r.id) > saved(info.window_round.id)]
    if not later:
        raise SchedulingError(LAST_TOUR)
    target = later[0]
    if target.window_start is None or target.window_end is None:
        raise SchedulingError("У следующего тура нет игрового окна: сначала задайте его.")
    for booking in item.movable:
        release_booking(session, booking, info, reason="матч перенесён на следующий тур", now=now, by_organizer=True)
        _retire(session, booking.proposal_id, now)
    for proposal in [*item.live, *item.expired]:  # the old window's times no longer hold (Регламент §2)
        _retire(session, proposal.id, now)
    info.match.window_round_id = target.id
    session.add(info.match)
    record_audit(
        session,
        actor_user_id=actor_user_id,
        action="match.next_window",
        entity="match",
        entity_id=match_id,
        before={"window_round": info.window_round.code},
        after={"window_round": target.code},
        reason=reason,
        now=now,
    )
    outbox.emit(
        session,
        outbox.MATCH_MOVED,
        match_id,
        match=info.title,
        to_tour=target.code,
        window_start=target.window_start.isoformat(),
        window_end=target.window_end.isoformat(),
        now=now,
    )
    return target


def _end_proposals_left_out(
    session: Session, item: MatchBoard, meeting: Interval, *, left: int, now: datetime, moved: int | None = None
) -> None:
    """The players' live proposals that the organizer's meeting (assigned, or the booking `moved` to it) leaves no
    hanchans or time for end, and the four hear why (Регламент §3: the organizer's time needs no confirmations)."""
    for proposal in item.live:
        if moved is not None and proposal.replaces_booking_id == moved:
            continue  # the players' own move of that meeting: still a time they may agree on instead
        ends = decide.assignment_ends(
            Interval(proposal.start_at, proposal.end_at),
            proposal.hanchans,
            assigned=meeting,
            left=left,
            planned=item.match.planned_hanchans,
            moves_booking=proposal.replaces_booking_id is not None,
        )
        if ends is not None:
            fail_proposal(session, proposal, item.info, ends, now)


def _retire(session: Session, proposal_id: int | None, now: datetime) -> None:
    """The players' proposal no longer describes a meeting: it is not booked, nor reopened by a repaint. An open one's
    hold ends with it: the other matches it held a table from are told."""
    proposal = session.get(MeetingProposal, proposal_id) if proposal_id else None
    if proposal is not None:
        was_live = proposal.status == LIVE_PROPOSAL
        proposal.status = "withdrawn"
        session.add(proposal)
        if was_live:
            tell_hold_neighbours(session, proposal, now=now)


MAX_TABLES = 50


def add_room(session: Session, *, name: str, actor_user_id: int, now: datetime | None = None, tables: int = 1) -> Room:
    """A club room with its tables, in one step (issue 45 item 10: not one table, then a second form)."""
    name = " ".join(name.split())
    if not name:
        raise SchedulingError("Укажите название помещения.")
    if not 1 <= tables <= MAX_TABLES:
        raise SchedulingError(f"Число столов — целое от 1 до {MAX_TABLES}.")
    if session.exec(select(Room).where(Room.name == name)).first() is not None:
        raise SchedulingError(f"Помещение «{name}» уже есть.")
    room = Room(name=name, tables=tables)
    session.add(room)
    session.flush()
    record_audit(
        session,
        actor_user_id=actor_user_id,
        action="room.add",
        entity="room",
        entity_id=room.id,
        after={"name": name, "tables": tables},
        now=now,
    )
    return room


def set_room_tables(session: Session, *, room_id: int, tables: int, actor_user_id: int, now: datetime) -> Room:
    """The organizer sets how many mahjong tables a room has (one match meeting takes one). Fewer tables are
    refused while a meeting or activity not yet over sits at a table that would go (move or release it first)."""
    if not 1 <= tables <= MAX_TABLES:
        raise SchedulingError(f"Число столов — целое от 1 до {MAX_TABLES}.")
    lock_for_write(session)
    room = session.exec(select(Room).where(Room.id == room_id).with_for_update()).first()
    if room is None:
        raise SchedulingError("Помещение не найдено: обновите страницу.")
    beyond = session.exec(
        select(Booking)
        .where(Booking.room_id == room_id, Booking.active, Booking.table_no > tables, Booking.end_at > now)
        .order_by(col(Booking.start_at))
    ).first()
    if beyond is not None:
        raise SchedulingError(
            f"За столом {beyond.table_no} есть бронь: {clash_text(session, beyond)}. "
            "Перенесите или снимите её, прежде чем убирать стол."
        )
    before, room.tables = room.tables, tables
    session.add(room)
    session.flush()
    record_audit(
        session,
        actor_user_id=actor_user_id,
        action="room.tables",
        entity="room",
        entity_id=room.id,
        before={"tables": before},
        after={"tables": tables},
        now=now,
    )
    return room


def book_activity(
    session: Session,
    *,
    title: str,
    start: datetime,
    end: datetime,
    actor_user_id: int,
    now: datetime,
    room_id: int | None = None,
    tables: int | None = None,
) -> Booking:
    """Another club activity (D&D and others) in the same calendar (§3): the whole room (`tables` None: every
    table free for all of it) or `tables` of its tables (the lowest free ones), one booking row per table.
    Returns the first row."""
    title = " ".join(title.split())
    if not title:
        raise SchedulingError("Укажите название занятия, например «D&D».")
    lock_for_write(session)
    meeting = _meeting(start, end, start)  # a club activity may be entered afterwards, for the record
    room = _room(session, room_id)
    if tables is not None and not 1 <= tables <= room.tables:
        raise SchedulingError(f"В помещении «{room.name}» столов: {room.tables}; укажите от 1 до {room.tables}.")
    numbers = list(range(1, room.tables + 1))
    if tables is not None:
        free = [t for t in numbers if place_taken(session, saved(room.id), t, meeting, now=now) is None]
        numbers = (free if len(free) >= tables else numbers)[:tables]  # too few free: the store names the clash
    rows = []
    for table_no in numbers:
        booking = Booking(
            room_id=saved(room.id),
            table_no=table_no,
            kind=ACTIVITY,
            title=title,
            start_at=meeting.start,
            end_at=meeting.end,
            created_by_user_id=actor_user_id,
            created_at=now,
        )
        # Регламент §3: a proposal's hold is a promise an activity does not break (the store names it)
        _store_or_refuse(session, booking, meeting, "Занятие не добавлено.", now=now)
        rows.append(booking)
    for booking in rows:
        tell_neighbours(session, booking, now=now)
    record_audit(
        session,
        actor_user_id=actor_user_id,
        action="activity.add",
        entity="booking",
        entity_id=rows[0].id,
        after={"title": title, "start": meeting.start, "end": meeting.end, "tables": numbers},
        now=now,
    )
    return rows[0]
