"""Every match's scheduling data read in a fixed number of statements (no query per match); imports no reflex.

The organizer's overview and desk show all the season's matches at once: reading them one by one costs about ten
statements per match. Here each table is read once and the rows are grouped in Python.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlmodel import Session, col, select

from services.core.models import (
    AvailabilityAnswer,
    AvailabilityInterval,
    Booking,
    Hanchan,
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
from services.scheduling.intervals import Interval, merge, window_slice
from services.scheduling.repo import LIVE_PROPOSAL, MatchInfo, SeatInfo
from services.scheduling.rules import (
    BOOKED,
    Option,
    common_options_multi,
    fallback_meeting,
    scheduling_state,
)


@dataclass
class MatchBoard:
    """One match as the organizer sees it: who answered, its live proposals, bookings, recorded hanchans."""

    info: MatchInfo
    answered: set[int] = field(default_factory=set)
    free: dict[int, list[Interval]] = field(default_factory=dict)  # Регламент §6.4: never to a player's browser
    bookings: list[Booking] = field(default_factory=list)  # active, by start
    live: list[MeetingProposal] = field(default_factory=list)  # the live proposals, oldest first
    confirmed: dict[int, set[int]] = field(default_factory=dict)  # live proposal id → seated players who confirmed
    failed: list[MeetingProposal] = field(default_factory=list)  # failed proposals newer than any booking
    hanchans: int = 0  # recorded, not superseded

    @property
    def match(self) -> Match:
        return self.info.match

    @property
    def live_confirmations(self) -> list[int]:
        """Per live proposal, how many seated players confirmed it."""
        return [len(self.confirmed.get(p.id, ())) for p in self.live]

    @property
    def booked_hanchans(self) -> int:
        return sum(b.hanchans or 0 for b in self.bookings)

    @property
    def remaining(self) -> int:
        return self.match.planned_hanchans - self.booked_hanchans

    @property
    def fully_booked(self) -> bool:
        return bool(self.bookings) and self.remaining <= 0

    @property
    def not_answered(self) -> list[str]:
        return [s.name for s in self.info.seats if s.player_id not in self.answered]

    @property
    def played(self) -> bool:
        return self.match.status != MatchStatus.SCHEDULING or self.hanchans > 0

    def fallback(self) -> Interval | None:
        """Регламент §6.1: the fallback meeting for the hanchans not yet booked, or None when there is none."""
        window = self.info.window
        if window is None or self.remaining < 1:
            return None
        try:
            return fallback_meeting(window, self.remaining, self.info.hanchan_minutes)
        except ValueError:
            return None


@dataclass
class Board:
    matches: list[MatchBoard]
    busy_by_room: dict[int, list[Interval]]  # every active booking, per room, merged and sorted
    rooms: dict[int, str]  # room id → name

    def options(self, item: MatchBoard) -> list[Option]:
        """Common options of the four (Регламент §3), against the whole calendar read once."""
        window = item.info.window
        if window is None or not item.info.seats:
            return []
        return common_options_multi(
            window,
            [item.free.get(s.player_id, []) for s in item.info.seats],
            # only the bookings inside the window (bisection): the season's calendar is not rescanned per match
            {room: window_slice(busy, window) for room, busy in self.busy_by_room.items()},
            hanchan_minutes=item.info.hanchan_minutes,
        )

    def state(self, item: MatchBoard) -> str:
        """A key of STATE_LABELS, as `repo.state_of` computes it for one match."""
        if item.fully_booked:
            return BOOKED
        counts = item.live_confirmations
        return scheduling_state(
            [s.player_id in item.answered for s in item.info.seats],
            options_count=len(self.options(item)),
            proposal_confirmations=max(counts) if counts else None,
        )


def load_board(session: Session, *, season_id: int | None = None, match_ids: list[int] | None = None) -> Board:
    """Every non-draft match (of one season, or of `match_ids`, when given) with its scheduling data: a dozen
    statements in all, however many matches."""
    stmt = (
        select(Match, Round, Stage)
        .join(Round, col(Round.id) == Match.round_id)
        .join(Stage, col(Stage.id) == Round.stage_id)
    )
    stmt = stmt.where(Match.status != MatchStatus.DRAFT).order_by(col(Match.id))
    if season_id is not None:
        stmt = stmt.where(Stage.season_id == season_id)
    if match_ids is not None:
        stmt = stmt.where(col(Match.id).in_(match_ids))
    rows = session.exec(stmt).all()
    rounds = {r.id: r for r in session.exec(select(Round)).all()}
    seasons = {s.id: s for s in session.exec(select(Season)).all()}
    ids = [m.id for m, _, _ in rows]
    seats: dict[int, list[SeatInfo]] = {}
    seat_rows = session.exec(
        select(Seat.match_id, Seat.player_id, Player.user_id, User.display_name)
        .join(Player, col(Player.id) == Seat.player_id)
        .join(User, col(User.id) == Player.user_id)
        .where(col(Seat.match_id).in_(ids))
        .order_by(col(Seat.match_id), col(Seat.seed))
    ).all()
    for match_id, player_id, user_id, name in seat_rows:
        seats.setdefault(match_id, []).append(SeatInfo(player_id, user_id, name))
    items: dict[int, MatchBoard] = {}
    for match, round_, stage in rows:
        window_round = rounds.get(match.window_round_id) if match.window_round_id else round_
        info = MatchInfo(match, round_, window_round or round_, stage.kind, seasons[stage.season_id], ())
        items[match.id] = MatchBoard(info=_with_seats(info, seats.get(match.id, [])))
    _fill(session, items, ids)
    busy: dict[int, list[Interval]] = {}
    for room_id, start, end in session.exec(
        select(Booking.room_id, Booking.start_at, Booking.end_at).where(Booking.active)
    ):
        busy.setdefault(room_id, []).append(Interval(start, end))
    rooms = dict(session.exec(select(Room.id, Room.name)).all())
    for room_id in rooms:
        busy.setdefault(room_id, [])
    return Board(list(items.values()), {room_id: merge(spans) for room_id, spans in busy.items()}, rooms)


def _with_seats(info: MatchInfo, seats: list[SeatInfo]) -> MatchInfo:
    return MatchInfo(info.match, info.round, info.window_round, info.stage_kind, info.season, tuple(seats))


def _fill(session: Session, items: dict[int, MatchBoard], ids: list[int]) -> None:
    for match_id, player_id in session.exec(
        select(AvailabilityAnswer.match_id, AvailabilityAnswer.player_id).where(
            col(AvailabilityAnswer.match_id).in_(ids)
        )
    ).all():
        items[match_id].answered.add(player_id)
    # The biggest read (every painted span of the season): plain rows, not ORM objects.
    spans = select(
        AvailabilityInterval.match_id, AvailabilityInterval.player_id, AvailabilityInterval.start_at,
        AvailabilityInterval.end_at,
    ).where(col(AvailabilityInterval.match_id).in_(ids))  # fmt: skip
    for match_id, player_id, start, end in session.exec(spans).all():
        items[match_id].free.setdefault(player_id, []).append(Interval(start, end))
    last_booking: dict[int, datetime] = {}
    for b in session.exec(
        select(Booking).where(col(Booking.match_id).in_(ids), Booking.active).order_by(col(Booking.start_at))
    ).all():
        items[b.match_id].bookings.append(b)
        last_booking[b.match_id] = max(last_booking.get(b.match_id, b.created_at), b.created_at)
    live: dict[int, MatchBoard] = {}
    for p in session.exec(
        select(MeetingProposal)
        .where(col(MeetingProposal.match_id).in_(ids), col(MeetingProposal.status).in_([LIVE_PROPOSAL, "failed"]))
        .order_by(col(MeetingProposal.id))
    ).all():
        if p.status == LIVE_PROPOSAL:
            live[p.id] = items[p.match_id]
            items[p.match_id].live.append(p)
        elif p.match_id not in last_booking or p.created_at > last_booking[p.match_id]:
            items[p.match_id].failed.append(p)
    for proposal_id, player_id in session.exec(
        select(ProposalConfirmation.proposal_id, ProposalConfirmation.player_id).where(
            col(ProposalConfirmation.proposal_id).in_(list(live)), ProposalConfirmation.confirmed
        )
    ).all():
        item = live[proposal_id]
        if any(s.player_id == player_id for s in item.info.seats):
            item.confirmed.setdefault(proposal_id, set()).add(player_id)
    for match_id in session.exec(
        select(Hanchan.match_id).where(col(Hanchan.match_id).in_(ids), col(Hanchan.superseded_by_id).is_(None))
    ).all():
        items[match_id].hanchans += 1
