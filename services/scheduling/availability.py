"""A player's free time for a match: save, read, who answered; withdraws what it no longer covers; imports no reflex."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy import bindparam, insert, update
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, delete, select

from services.core import outbox
from services.core.db import rows, write
from services.core.models import (
    AvailabilityAnswer,
    AvailabilityInterval,
    AvailabilityLevel,
    Booking,
    MeetingProposal,
    ProposalConfirmation,
    saved,
)
from services.core.wording import agreed
from services.scheduling import booking, decide
from services.scheduling.board import Board, MatchBoard, match_board
from services.scheduling.booking import release_booking
from services.scheduling.intervals import Interval, clip, subtract, union
from services.scheduling.repo import (
    LIVE_PROPOSAL,
    SchedulingError,
    availabilities,
    lock_match,
    match_info,
)
from services.scheduling.rules import format_kirov


@dataclasses.dataclass(frozen=True)
class Saved:
    """What a save answers: its notices, and the match's board as it stands after the save (in its transaction)."""

    notices: list[str]
    board: Board
    item: MatchBoard


def save_availability(
    session: Session,
    *,
    match_id: int,
    user_id: int,
    intervals: Sequence[Interval],
    now: datetime,
    if_needed: Sequence[Interval] = (),
    release_ok: bool = True,
) -> list[str]:
    """`save_and_read`'s notices."""
    return save_and_read(
        session,
        match_id=match_id,
        user_id=user_id,
        intervals=intervals,
        now=now,
        if_needed=if_needed,
        release_ok=release_ok,
    ).notices


def save_and_read(
    session: Session,
    *,
    match_id: int,
    user_id: int,
    intervals: Sequence[Interval],
    now: datetime,
    if_needed: Sequence[Interval] = (),
    release_ok: bool = True,
) -> Saved:
    """Replaces the player's intervals (clipped to the window) and marks them answered; returns the notices
    for what the change withdrew. `if_needed`: the time painted «могу, если нужно» (where it overlaps `intervals`,
    the time is free); it counts for options and confirmations like free time, offered after it. The board it
    answers is the one it read under the lock, brought up to date: the page is shown from it without reading again.
    `release_ok=False`: a change that would release a booked meeting raises `ReleaseFirst` (naming the meetings)
    before anything is written, so the page asks first; decided on the board this save reads anyway.
    Only the seated player themself may do it (Регламент §3, §6.4), and not once the
    window is over (from then on the organizer decides: Регламент §6.1). Holds the match lock, so a confirmation
    racing with this repaint sees the withdrawal, or is seen by it."""
    lock_match(session, match_id)
    board, item = match_board(session, match_id, now=now)
    info = item.info
    seat = info.seat_of(user_id)
    if seat is None:
        raise SchedulingError("Отмечать доступность можно только в своих матчах.")
    window = info.window
    if window is None:
        raise SchedulingError("Игровое окно этого матча ещё не назначено.")
    if window.end <= now:
        raise SchedulingError(
            f"Игровое окно закончилось {format_kirov(window.end)}: доступность больше не меняется, "
            "дальше матч решает организатор."
        )
    free = clip(intervals, window)
    maybe = subtract(clip(if_needed, window), free)
    painted = union(free, maybe)  # a confirmation inside «если нужно» time stands
    outcome = decide.repaint(painted, _confirmed(session, item, seat.player_id), open_needs=_open_needs(item), now=now)
    if outcome.released_starts and not release_ok:  # Регламент §6.1: asked first, nothing changed yet
        raise ReleaseFirst(outcome.released_starts)
    had_options = bool(board.options(item))
    write(session, _CLEAR_OWN, {"match_id": match_id, "player_id": seat.player_id})
    if free or maybe:  # one multi-row insert
        write(
            session,
            _NEW_SPANS,
            [
                {"match_id": match_id, "player_id": seat.player_id, "start_at": iv.start, "end_at": iv.end,
                 "level": level}
                for level, spans in ((AvailabilityLevel.FREE, free), (AvailabilityLevel.IF_NEEDED, maybe))
                for iv in spans
            ],
        )  # fmt: skip
    # The board, read under the match lock, says whether the answer's row exists: one statement, no read first.
    if seat.player_id in item.answered:
        write(session, _ANSWERED_AGAIN, {"b_match": match_id, "b_player": seat.player_id, "at": now})
    else:
        write(session, _NEW_ANSWER, [{"match_id": match_id, "player_id": seat.player_id, "answered_at": now}])
    answered = (item.answered | {seat.player_id}) & item.seat_ids
    outbox.emit(
        session, outbox.ANSWERED, match_id, player=seat.name, answered=len(answered), of=len(info.seats), now=now
    )
    _carry_out(session, item, seat.player_id, seat.name, outcome, now)
    if outcome.withdrawn or outcome.released or outcome.reopened or outcome.retired:
        board, item = match_board(session, match_id, now=now)  # proposals and bookings moved: read them again
    else:  # only the player's own time changed: the board read under the lock, with it, is the board after
        item = dataclasses.replace(
            item,
            answered=item.answered | {seat.player_id},
            free={**item.free, seat.player_id: [*free, *maybe]},
            if_needed={**item.if_needed, seat.player_id: list(maybe)},
        )
    has_options = bool(board.options(item))
    if has_options != had_options:
        outbox.emit(
            session, outbox.OPTIONS_FOUND if has_options else outbox.OPTIONS_LOST, match_id, match=info.title, now=now
        )
    return Saved(list(outcome.notices), board, item)


def _open_needs(item: MatchBoard) -> list[int | None]:
    """The needs that already have an open proposal (begun or not: the database holds one per need)."""
    return [p.replaces_booking_id for p in [*item.live, *item.expired]]


def _confirmed(session: Session, item: MatchBoard, player_id: int) -> list[decide.Confirmed]:
    """The match's open and booked proposals the player confirmed, with the booking a booked one holds."""
    found = rows(session, _CONFIRMED, {"match_id": item.match.id, "player_id": player_id})
    return [
        decide.Confirmed(
            proposal_id,
            Interval(start, end),
            replaces,
            booking_id if status == "booked" else None,
        )
        for proposal_id, start, end, replaces, status, booking_id in found
        if status == LIVE_PROPOSAL or booking_id is not None
    ]


# Built once (issue 26, the save's cost): every save reads them, as plain rows
_CONFIRMED = (
    sa_select(
        col(MeetingProposal.id), col(MeetingProposal.start_at), col(MeetingProposal.end_at),
        col(MeetingProposal.replaces_booking_id), col(MeetingProposal.status), col(Booking.id),
    )
    .join(ProposalConfirmation, col(ProposalConfirmation.proposal_id) == MeetingProposal.id)
    .outerjoin(Booking, (col(Booking.proposal_id) == MeetingProposal.id) & col(Booking.active))
    .where(
        col(MeetingProposal.match_id) == bindparam("match_id"),
        col(MeetingProposal.status).in_([LIVE_PROPOSAL, "booked"]),
        col(ProposalConfirmation.player_id) == bindparam("player_id"),
        col(ProposalConfirmation.confirmed),
    )
    .order_by(col(MeetingProposal.id))
)  # fmt: skip
_NEW_SPANS = insert(AvailabilityInterval)
_NEW_ANSWER = insert(AvailabilityAnswer)
_CLEAR_OWN = delete(AvailabilityInterval).where(
    col(AvailabilityInterval.match_id) == bindparam("match_id"),
    col(AvailabilityInterval.player_id) == bindparam("player_id"),
)
_ANSWERED_AGAIN = (
    update(AvailabilityAnswer)
    .where(
        col(AvailabilityAnswer.match_id) == bindparam("b_match"),
        col(AvailabilityAnswer.player_id) == bindparam("b_player"),
    )
    .values(answered_at=bindparam("at"))
)


def _carry_out(
    session: Session, item: MatchBoard, player_id: int, name: str, outcome: decide.Repaint, now: datetime
) -> None:
    """Регламент §6.1: при изменении доступности назначенное время не считается сохранённым без нового подтверждения."""
    info = item.info
    for c in [*outcome.withdrawn, *outcome.released]:
        session.exec(
            delete(ProposalConfirmation).where(
                col(ProposalConfirmation.proposal_id) == c.proposal_id, col(ProposalConfirmation.player_id) == player_id
            )
        )
    for c in outcome.withdrawn:
        when = format_kirov(c.meeting.start)
        outbox.emit(
            session,
            outbox.CONFIRMATION_WITHDRAWN,
            info.match.id,
            player=name,
            when=when,
            proposal_id=c.proposal_id,
            now=now,
        )
    for c in outcome.released:
        booking = session.get_one(Booking, c.booking_id)
        release_booking(
            session, booking, info, reason=f"{name} {agreed(name, 'изменил', 'изменила')} доступность", now=now
        )
    # Retire first: a reopened proposal may take the need a retired one leaves.
    for proposal_id, status in [
        *((p, "withdrawn") for p in outcome.retired),
        *((p, LIVE_PROPOSAL) for p in outcome.reopened),
    ]:
        proposal = session.get_one(MeetingProposal, proposal_id)
        proposal.status = status
        session.add(proposal)
        session.flush()


class ReleaseFirst(SchedulingError):
    """A save that would release booked meetings (their Kirov starts in `released`): nothing was written, the page
    asks first and sends the same grid again with `release_ok=True`."""

    def __init__(self, released: list[str]) -> None:
        super().__init__(", ".join(released))
        self.released = released


def previous_tour_availability(
    session: Session, *, match_id: int, user_id: int, if_needed_only: bool = False
) -> tuple[str, list[Interval]] | None:
    """The caller's own free time in their latest earlier match, moved by whole weeks into this match's window
    (weekdays stay weekdays) and clipped to it, with that match's title; None when there is nothing to copy.
    `if_needed_only`: only its «могу, если нужно» part. Read only: the page fills the grid for the player to review
    and save."""
    info = match_info(session, match_id)
    seat, window = info.seat_of(user_id), info.window
    if seat is None or window is None:
        return None
    others = session.exec(
        select(AvailabilityInterval.match_id)
        .where(AvailabilityInterval.player_id == seat.player_id, AvailabilityInterval.match_id != match_id)
        .distinct()
    ).all()
    earlier = [
        (o.window.start, o)
        for o in (match_info(session, m) for m in others)
        if o.window and o.window.start < window.start
    ]
    if not earlier:
        return None
    source_start, source = max(earlier, key=lambda pair: pair[0])
    shift = timedelta(weeks=round((window.start - source_start) / timedelta(weeks=1)))
    if if_needed_only:
        own = own_if_needed(session, match_id=saved(source.match.id), user_id=user_id)
    else:
        own = availabilities(session, saved(source.match.id)).get(seat.player_id, [])
    return source.title, clip([Interval(iv.start + shift, iv.end + shift) for iv in own], window)


def own_if_needed(session: Session, *, match_id: int, user_id: int) -> list[Interval]:
    """The caller's own «могу, если нужно» intervals for a match (a part of `own_availability`)."""
    seat = match_info(session, match_id).seat_of(user_id)
    if seat is None:
        return []
    rows = select(AvailabilityInterval.start_at, AvailabilityInterval.end_at).where(
        AvailabilityInterval.match_id == match_id,
        AvailabilityInterval.player_id == seat.player_id,
        AvailabilityInterval.level == AvailabilityLevel.IF_NEEDED,
    )
    return [Interval(start, end) for start, end in session.exec(rows).all()]


def own_availability(session: Session, *, match_id: int, user_id: int) -> list[Interval]:
    """The caller's own intervals for a match (empty when they are not seated in it)."""
    seat = match_info(session, match_id).seat_of(user_id)
    return availabilities(session, match_id).get(seat.player_id, []) if seat else []


def cannot_come(
    session: Session, *, booking_id: int, user_id: int, now: datetime, take_time_out: bool = True
) -> Booking:
    """«Не смогу» on a booked meeting (booking.cannot_come), and by default the meeting's time also leaves the
    player's own availability for that match in the same transaction, so the same time is not offered again at
    once (Регламент §3: the site keeps each player's availability). On the binding fallback nothing is released or
    taken out: the warning goes to the organizer (`booking.cannot_come`)."""
    released = booking.cannot_come(session, booking_id=booking_id, user_id=user_id, now=now)
    # Регламент §6.1: the binding fallback stays booked, and so does the player's time for it (the organizer decides)
    if take_time_out and released.match_id is not None and not released.active:
        span = [Interval(released.start_at, released.end_at)]
        match_id = released.match_id
        maybe = own_if_needed(session, match_id=match_id, user_id=user_id)
        free = subtract(own_availability(session, match_id=match_id, user_id=user_id), maybe)
        save_availability(
            session,
            match_id=match_id,
            user_id=user_id,
            intervals=subtract(free, span),
            if_needed=subtract(maybe, span),
            now=now,
        )
    return released


def add_time(session: Session, *, match_id: int, user_id: int, span: Interval, now: datetime) -> list[str]:
    """The blocker's hint «Добавить это время» (issue 44): exactly `span` joins the player's own time for the match
    as fully free, the rest as it was — a save of the grid with that span painted, as the page would send it
    (Регламент §3). Adding withdraws nothing; were a save ever to release a meeting, it is refused, not done."""
    maybe = own_if_needed(session, match_id=match_id, user_id=user_id)
    free = subtract(own_availability(session, match_id=match_id, user_id=user_id), maybe)
    return save_availability(
        session,
        match_id=match_id,
        user_id=user_id,
        intervals=union(free, [span]),
        if_needed=subtract(maybe, [span]),
        now=now,
        release_ok=False,
    )
