"""A player's free time for a match: save, read, who answered; withdraws what it no longer covers; imports no reflex."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy import insert
from sqlmodel import Session, delete, select

from services.core import outbox
from services.core.models import (
    AvailabilityAnswer,
    AvailabilityInterval,
    Booking,
    ProposalConfirmation,
    Role,
    User,
    utc_now,
)
from services.scheduling.booking import release_booking
from services.scheduling.intervals import Interval, clip, covers
from services.scheduling.repo import (
    LIVE_PROPOSAL,
    SchedulingError,
    answered_ids,
    availabilities,
    lock_match,
    match_info,
    options_for,
    proposals,
)
from services.scheduling.rules import format_kirov


def save_availability(
    session: Session,
    *,
    match_id: int,
    user_id: int,
    intervals: Sequence[Interval],
    now: datetime | None = None,
) -> list[str]:
    """Replaces the player's intervals (clipped to the window) and marks them answered; returns the notices
    for what the change withdrew. Only the seated player themself may do it (Регламент §3, §6.4); with `now`,
    not once the window is over (from then on the organizer decides: Регламент §6.1). Holds the match lock, so a
    confirmation racing with this repaint sees the withdrawal, or is seen by it."""
    lock_match(session, match_id)
    info = match_info(session, match_id)
    seat = info.seat_of(user_id)
    if seat is None:
        raise SchedulingError("Отмечать доступность можно только в своих матчах.")
    window = info.window
    if window is None:
        raise SchedulingError("Игровое окно этого матча ещё не назначено.")
    if now is not None and window.end <= now:
        raise SchedulingError(
            f"Игровое окно закончилось {format_kirov(window.end)}: доступность больше не меняется, "
            "дальше матч решает организатор."
        )
    free = clip(intervals, window)
    had_options = bool(options_for(session, info))
    session.exec(
        delete(AvailabilityInterval).where(
            AvailabilityInterval.match_id == match_id, AvailabilityInterval.player_id == seat.player_id
        )
    )
    if free:  # one multi-row insert
        session.execute(
            insert(AvailabilityInterval),
            [
                {"match_id": match_id, "player_id": seat.player_id, "start_at": iv.start, "end_at": iv.end}
                for iv in free
            ],
        )
    answer = session.exec(
        select(AvailabilityAnswer).where(
            AvailabilityAnswer.match_id == match_id, AvailabilityAnswer.player_id == seat.player_id
        )
    ).first() or AvailabilityAnswer(match_id=match_id, player_id=seat.player_id)
    answer.answered_at = utc_now()
    session.add(answer)
    session.flush()
    answered = answered_ids(session, match_id) & {s.player_id for s in info.seats}
    outbox.emit(session, outbox.ANSWERED, match_id, player=seat.name, answered=len(answered), of=len(info.seats))
    notices = _withdraw_uncovered(session, info, seat.player_id, seat.name, free)
    has_options = bool(options_for(session, info))
    if has_options != had_options:
        outbox.emit(session, outbox.OPTIONS_FOUND if has_options else outbox.OPTIONS_LOST, match_id, match=info.title)
    return notices


def _withdraw_uncovered(session: Session, info, player_id: int, name: str, free: list[Interval]) -> list[str]:  # noqa: ANN001
    """Регламент §6.1: при изменении доступности назначенное время не считается сохранённым без нового подтверждения."""
    notices: list[str] = []
    for proposal in proposals(session, info.match.id, [LIVE_PROPOSAL, "booked"]):
        meeting = Interval(proposal.start_at, proposal.end_at)
        confirmation = session.exec(
            select(ProposalConfirmation).where(
                ProposalConfirmation.proposal_id == proposal.id,
                ProposalConfirmation.player_id == player_id,
                ProposalConfirmation.confirmed,
            )
        ).first()
        if confirmation is None or covers(free, meeting):
            continue
        session.delete(confirmation)
        when = format_kirov(meeting.start)
        if proposal.status == "booked":
            booking = session.exec(select(Booking).where(Booking.proposal_id == proposal.id, Booking.active)).first()
            if booking is not None:
                release_booking(session, booking, info, reason=f"{name} изменил(а) доступность")
            proposal.status = LIVE_PROPOSAL
            session.add(proposal)
            notices.append(
                f"Встреча {when} больше не входит в вашу доступность: бронь снята, нужно новое подтверждение."
            )
        else:
            outbox.emit(
                session, outbox.CONFIRMATION_WITHDRAWN, info.match.id, player=name, when=when, proposal_id=proposal.id
            )
            notices.append(f"Ваше подтверждение встречи {when} снято: это время больше не входит в вашу доступность.")
    session.flush()
    return notices


def bookings_released_by(session: Session, *, match_id: int, user_id: int, intervals: Sequence[Interval]) -> list[str]:
    """The booked meetings (their Kirov start) that saving `intervals` would release; changes nothing, so the page
    can ask first (Регламент §6.1: a booked time no longer covered needs everyone's confirmation again)."""
    info = match_info(session, match_id)
    seat = info.seat_of(user_id)
    if seat is None or info.window is None:
        return []
    free = clip(intervals, info.window)
    released = []
    for proposal in proposals(session, match_id, ["booked"]):
        meeting = Interval(proposal.start_at, proposal.end_at)
        confirmed = session.exec(
            select(ProposalConfirmation).where(
                ProposalConfirmation.proposal_id == proposal.id,
                ProposalConfirmation.player_id == seat.player_id,
                ProposalConfirmation.confirmed,
            )
        ).first()
        if confirmed is not None and not covers(free, meeting):
            released.append(format_kirov(meeting.start))
    return released


def previous_tour_availability(session: Session, *, match_id: int, user_id: int) -> tuple[str, list[Interval]] | None:
    """The caller's own free time in their latest earlier match, moved by whole weeks into this match's window
    (weekdays stay weekdays) and clipped to it, with that match's title; None when there is nothing to copy.
    Read only: the page fills the grid for the player to review and save."""
    info = match_info(session, match_id)
    seat, window = info.seat_of(user_id), info.window
    if seat is None or window is None:
        return None
    others = session.exec(
        select(AvailabilityInterval.match_id)
        .where(AvailabilityInterval.player_id == seat.player_id, AvailabilityInterval.match_id != match_id)
        .distinct()
    ).all()
    earlier = [o for o in (match_info(session, m) for m in others) if o.window and o.window.start < window.start]
    if not earlier:
        return None
    source = max(earlier, key=lambda o: o.window.start)
    shift = timedelta(weeks=round((window.start - source.window.start) / timedelta(weeks=1)))
    own = availabilities(session, source.match.id).get(seat.player_id, [])
    return source.title, clip([Interval(iv.start + shift, iv.end + shift) for iv in own], window)


def own_availability(session: Session, *, match_id: int, user_id: int) -> list[Interval]:
    """The caller's own intervals for a match (empty when they are not seated in it)."""
    seat = match_info(session, match_id).seat_of(user_id)
    return availabilities(session, match_id).get(seat.player_id, []) if seat else []


def answered_names(session: Session, match_id: int) -> list[tuple[str, bool]]:
    """Who has answered: names only, never the times (Регламент §3)."""
    info = match_info(session, match_id)
    answered = answered_ids(session, match_id)
    return [(s.name, s.player_id in answered) for s in info.seats]


def all_availability(session: Session, *, match_id: int, user: User) -> dict[str, list[Interval]]:
    """Every seated player's intervals by name: the organizer only."""
    if user.role != Role.ORGANIZER:
        raise SchedulingError("Доступность других игроков видит только организатор.")
    info = match_info(session, match_id)
    free = availabilities(session, match_id)
    return {s.name: free.get(s.player_id, []) for s in info.seats}
