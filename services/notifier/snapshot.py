"""Read-only queries building what a match card shows; imports no telegram and no reflex.

A card is always rendered from the current database state, so a bot that was off brings every
card up to date instead of replaying stale events.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, select

from services.core.models import (
    AvailabilityAnswer,
    AvailabilityInterval,
    Booking,
    Match,
    MatchStatus,
    MeetingProposal,
    Player,
    ProposalConfirmation,
    Room,
    Round,
    Season,
    Seat,
    Stage,
    User,
)
from services.scheduling.intervals import Interval
from services.scheduling.rules import BOOKED, common_options_multi, scheduling_state


@dataclass(frozen=True)
class SeatView:
    player_id: int
    user_id: int
    name: str
    telegram_user_id: int | None
    telegram_username: str | None
    private_messages: bool
    answered: bool


@dataclass(frozen=True)
class OptionView:
    """A common option: where all four and a room are free. Never one player's own interval."""

    start: datetime
    end: datetime
    hanchans_fit: int


@dataclass(frozen=True)
class ProposalView:
    id: int
    start: datetime
    end: datetime
    hanchans: int
    room: str
    confirmed: frozenset[int]  # player ids
    declined: frozenset[int]


@dataclass(frozen=True)
class BookingView:
    start: datetime
    end: datetime
    room: str
    hanchans: int | None


@dataclass(frozen=True)
class MatchSnapshot:
    match_id: int
    stage_kind: str
    round_code: str
    table: str
    status: str
    planned_hanchans: int
    window_start: datetime | None
    window_end: datetime | None
    seats: tuple[SeatView, ...]
    options: tuple[OptionView, ...]
    proposal: ProposalView | None
    bookings: tuple[BookingView, ...]
    state: str

    def players(self, ids: frozenset[int] | set[int]) -> list[SeatView]:
        return [s for s in self.seats if s.player_id in ids]


def _seats(session: Session, match_id: int) -> list[SeatView]:
    rows = session.exec(
        select(Seat, Player, User)
        .join(Player, col(Player.id) == Seat.player_id)
        .join(User, col(User.id) == Player.user_id)
        .where(Seat.match_id == match_id)
        .order_by(col(Seat.seed))
    ).all()
    answered = set(session.exec(select(AvailabilityAnswer.player_id).where(AvailabilityAnswer.match_id == match_id)))
    return [
        SeatView(
            player_id=player.id,
            user_id=user.id,
            name=user.display_name,
            telegram_user_id=user.telegram_user_id,
            telegram_username=user.telegram_username if user.telegram_user_id is not None else None,
            private_messages=bool(user.telegram_private_messages and user.telegram_user_id is not None),
            answered=player.id in answered,
        )
        for seat, player, user in rows
    ]


def _options(
    session: Session, match_id: int, window: Interval | None, seats: list[SeatView], hanchan_minutes: int
) -> list[OptionView]:
    # Personal intervals are read only to intersect them; nothing but the intersection leaves here.
    if window is None or not seats or not all(s.answered for s in seats):
        return []
    by_player: dict[int, list[Interval]] = defaultdict(list)
    for iv in session.exec(select(AvailabilityInterval).where(AvailabilityInterval.match_id == match_id)):
        by_player[iv.player_id].append(Interval(iv.start_at, iv.end_at))
    busy: dict[int, list[Interval]] = {room_id: [] for room_id in session.exec(select(Room.id))}
    for b in session.exec(
        select(Booking).where(
            col(Booking.active).is_(True), Booking.start_at < window.end, Booking.end_at > window.start
        )
    ):
        busy.setdefault(b.room_id, []).append(Interval(b.start_at, b.end_at))
    if not busy:
        return []
    options = common_options_multi(
        window, [by_player.get(s.player_id, []) for s in seats], busy, hanchan_minutes=hanchan_minutes
    )
    return [OptionView(o.start, o.end, o.hanchans_fit) for o in options]


def _proposal(session: Session, match_id: int) -> ProposalView | None:
    """The live proposal with the most confirmations (ties: the newest)."""
    best: ProposalView | None = None
    proposals = session.exec(
        select(MeetingProposal, Room)
        .join(Room, col(Room.id) == MeetingProposal.room_id)
        .where(MeetingProposal.match_id == match_id, MeetingProposal.status == "open")
        .order_by(col(MeetingProposal.id))
    ).all()
    for proposal, room in proposals:
        answers = session.exec(select(ProposalConfirmation).where(ProposalConfirmation.proposal_id == proposal.id))
        answers = list(answers)
        view = ProposalView(
            id=proposal.id,
            start=proposal.start_at,
            end=proposal.end_at,
            hanchans=proposal.hanchans,
            room=room.name,
            confirmed=frozenset(a.player_id for a in answers if a.confirmed),
            declined=frozenset(a.player_id for a in answers if not a.confirmed),
        )
        if best is None or len(view.confirmed) >= len(best.confirmed):
            best = view
    return best


def _bookings(session: Session, match_id: int) -> list[BookingView]:
    rows = session.exec(
        select(Booking, Room)
        .join(Room, col(Room.id) == Booking.room_id)
        .where(Booking.match_id == match_id, col(Booking.active).is_(True))
        .order_by(col(Booking.start_at))
    ).all()
    return [BookingView(b.start_at, b.end_at, room.name, b.hanchans) for b, room in rows]


def match_snapshot(session: Session, match_id: int) -> MatchSnapshot | None:
    """Everything a card shows about one match, or None when the match does not exist."""
    match = session.get(Match, match_id)
    if match is None:
        return None
    round_ = session.get(Round, match.round_id)
    stage = session.get(Stage, round_.stage_id)
    season = session.get(Season, stage.season_id)
    window_round = round_
    moved_to = getattr(match, "window_round_id", None)  # Регламент §6.1: a moved match uses the next window
    if moved_to:
        window_round = session.get(Round, moved_to) or round_
    window = None
    if window_round.window_start and window_round.window_end:
        window = Interval(window_round.window_start, window_round.window_end)
    seats = _seats(session, match_id)
    hanchan_minutes = season.hanchan_minutes if season else 90
    options = _options(session, match_id, window, seats, hanchan_minutes)
    proposal = _proposal(session, match_id)
    bookings = _bookings(session, match_id)
    booked_hanchans = sum(b.hanchans or match.planned_hanchans for b in bookings)
    state = scheduling_state(
        [s.answered for s in seats] or [False],
        options_count=len(options),
        proposal_confirmations=len(proposal.confirmed) if proposal else None,
        booked=bool(bookings) and booked_hanchans >= match.planned_hanchans,
    )
    return MatchSnapshot(
        match_id=match.id,
        stage_kind=stage.kind,
        round_code=round_.code,
        table=match.table,
        status=match.status,
        planned_hanchans=match.planned_hanchans,
        window_start=window.start if window else None,
        window_end=window.end if window else None,
        seats=tuple(seats),
        options=tuple(options),
        proposal=proposal,
        bookings=tuple(bookings),
        state=state,
    )


def window_matches(session: Session, now: datetime) -> list[MatchSnapshot]:
    """Matches still being scheduled whose game window contains `now` (Регламент §3: Sunday reminder)."""
    ids = session.exec(
        select(Match.id)
        .join(Round, col(Round.id) == Match.round_id)
        .where(Match.status == MatchStatus.SCHEDULING)
        .order_by(col(Round.id), col(Match.table))
    ).all()
    out = []
    for match_id in ids:
        snap = match_snapshot(session, match_id)
        # The snapshot's window, not the round's: a moved match is reminded of in its new window.
        if snap and snap.window_start and snap.window_start <= now < snap.window_end and snap.state != BOOKED:
            out.append(snap)
    return out


def user_match_snapshots(session: Session, telegram_user_id: int) -> tuple[User | None, list[MatchSnapshot]]:
    """The linked user's own matches (drafts stay hidden: Регламент §2)."""
    user = session.exec(select(User).where(User.telegram_user_id == telegram_user_id)).first()
    if user is None:
        return None, []
    ids = session.exec(
        select(Match.id)
        .join(Seat, col(Seat.match_id) == Match.id)
        .join(Player, col(Player.id) == Seat.player_id)
        .join(Round, col(Round.id) == Match.round_id)
        .where(Player.user_id == user.id, Match.status != MatchStatus.DRAFT)
        .order_by(col(Round.id), col(Match.table))
    ).all()
    return user, [s for s in (match_snapshot(session, i) for i in ids) if s is not None]
