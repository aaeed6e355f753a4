"""Database reads for scheduling: a match's window, seats, availabilities, room bookings, options; imports no reflex."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Session, col, select

from services.core.db import lock_row, sqlite_write_lock
from services.core.errors import LeagueError
from services.core.models import (
    AvailabilityAnswer,
    AvailabilityInterval,
    Booking,
    Match,
    MeetingProposal,
    Player,
    ProposalConfirmation,
    Room,
    Round,
    Season,
    Seat,
    Stage,
    StageKind,
    User,
)
from services.core.ruleset import Ruleset, of_season
from services.core.wording import match_title, place
from services.scheduling.intervals import Interval
from services.scheduling.rules import format_kirov

LIVE_PROPOSAL = "open"  # a proposal still collecting confirmations


class SchedulingError(LeagueError):
    """A scheduling action that cannot be done; the message is Russian and shown as is."""


@dataclass(frozen=True)
class SeatInfo:
    player_id: int
    user_id: int
    name: str


@dataclass(frozen=True)
class MatchInfo:
    match: Match
    round: Round
    window_round: Round
    stage_kind: str
    season: Season
    seats: tuple[SeatInfo, ...]

    @property
    def window(self) -> Interval | None:
        r = self.window_round
        return Interval(r.window_start, r.window_end) if r.window_start and r.window_end else None

    @property
    def is_final(self) -> bool:
        return self.stage_kind == StageKind.PLAYOFF and self.round.code == "F"

    @property
    def rules(self) -> Ruleset:
        return of_season(self.season)

    @property
    def hanchan_minutes(self) -> int:
        """The season's planning length of a hanchan (its ruleset's)."""
        return self.rules.hanchan_minutes

    @property
    def title(self) -> str:
        return match_title(self.stage_kind, self.round.code, self.match.table)

    def seat_of(self, user_id: int) -> SeatInfo | None:
        return next((s for s in self.seats if s.user_id == user_id), None)


def lock_for_write(session: Session) -> None:
    """SQLite: take the write lock before the first read (BEGIN IMMEDIATE), so check-then-book is atomic.
    PostgreSQL relies on row locks and the exclusion constraint instead."""
    connection = session.connection()
    if connection.dialect.name != "sqlite":
        return
    sqlite_write_lock(connection)


def lock_match(session: Session, match_id: int) -> None:
    """Serialises every read-decide-write on one match's scheduling: SQLite takes the write lock (BEGIN
    IMMEDIATE), PostgreSQL locks the match row, so a second caller waits, then reads what the first wrote.
    Call it before the first read of the match; afterwards re-read (populate_existing) what was loaded before.
    The four seated players' rows are locked too (in id order: no deadlock): one person sits in one meeting at a
    time, so two matches sharing a player book one after the other and the second sees the first's meeting."""
    lock_row(session, Match, match_id)
    if session.connection().dialect.name != "sqlite":  # SQLite's write lock already serialises every writer
        seated = select(Seat.player_id).where(Seat.match_id == match_id)
        players = select(Player.id).where(col(Player.id).in_(seated)).order_by(col(Player.id))
        session.exec(players.with_for_update(key_share=True)).all()


def lock_place(session: Session, room_id: int, table_no: int) -> None:
    """Serialises every write that takes a table: a booking stored at it and a proposal's hold placed on it, so the
    second reads what the first committed (Регламент §3: a hold is a promise; one table, one meeting). SQLite: the
    write lock every scheduling change holds already (BEGIN IMMEDIATE); PostgreSQL: a transaction advisory lock on
    (room, table) — the two-key space, apart from the notifier's one-key claim lock (`notifier/claims.py`)."""
    connection = session.connection()
    if connection.dialect.name == "sqlite":
        lock_for_write(session)
        return
    session.execute(sa.text("SELECT pg_advisory_xact_lock(:room, :table_no)"), {"room": room_id, "table_no": table_no})


def holding_proposals(
    session: Session, room_id: int, table_no: int, meeting: Interval, *, now: datetime, exclude_match: int | None
) -> list[MeetingProposal]:
    """Other matches' open proposals whose hold on the table covers part of the meeting as of `now` (a hold ends at
    `hold_until` or the proposal's start: `holds.py`), read afresh."""
    stmt = select(MeetingProposal).where(
        MeetingProposal.status == LIVE_PROPOSAL,
        MeetingProposal.room_id == room_id,
        MeetingProposal.table_no == table_no,
        col(MeetingProposal.hold_until) > now,
        MeetingProposal.start_at > now,
        MeetingProposal.start_at < meeting.end,
        MeetingProposal.end_at > meeting.start,
    )
    if exclude_match is not None:
        stmt = stmt.where(MeetingProposal.match_id != exclude_match)
    return list(session.exec(stmt.order_by(col(MeetingProposal.id)).execution_options(populate_existing=True)))


def place_taken(  # noqa: PLR0913
    session: Session,
    room_id: int,
    table_no: int,
    meeting: Interval,
    *,
    now: datetime,
    exclude_booking: int | None = None,
    exclude_match: int | None = None,
    overrule: Iterable[int] = (),
) -> Booking | MeetingProposal | None:
    """What takes the table during the meeting: an active booking, or another match's live hold (none of the
    proposals in `overrule`, which the organizer is ending: Регламент §3, §6.3). None when it is free."""
    clash = clashing_booking(session, room_id, meeting, exclude=exclude_booking, table_no=table_no)
    if clash is not None:
        return clash
    allowed = set(overrule)
    held = holding_proposals(session, room_id, table_no, meeting, now=now, exclude_match=exclude_match)
    return next((p for p in held if p.id not in allowed), None)


def match_info(session: Session, match_id: int) -> MatchInfo:
    """The match with its round, stage and season (one statement) and its seats (another)."""
    found = session.exec(
        select(Match, Round, Stage.kind, Season)
        .join(Round, col(Round.id) == Match.round_id)
        .join(Stage, col(Stage.id) == Round.stage_id)
        .join(Season, col(Season.id) == Stage.season_id)
        .where(Match.id == match_id)
    ).first()
    if found is None:
        raise SchedulingError("Такого матча нет.")
    match, round_, stage_kind, season = found
    window_round = session.get(Round, match.window_round_id) if match.window_round_id else round_
    rows = session.exec(
        select(Seat.player_id, Player.user_id, User.display_name)
        .join(Player, col(Player.id) == Seat.player_id)
        .join(User, col(User.id) == Player.user_id)
        .where(Seat.match_id == match_id)
        .order_by(col(Seat.seed))
    ).all()
    seats = tuple(SeatInfo(player_id=p, user_id=u, name=n) for p, u, n in rows)
    return MatchInfo(match, round_, window_round or round_, stage_kind, season, seats)


def availabilities(session: Session, match_id: int) -> dict[int, list[Interval]]:
    """Player id -> personal intervals. Регламент §6.4: never pass these to another player's browser."""
    out: dict[int, list[Interval]] = {}
    rows = select(AvailabilityInterval.player_id, AvailabilityInterval.start_at, AvailabilityInterval.end_at).where(
        AvailabilityInterval.match_id == match_id
    )  # plain rows: a painted grid is a few hundred spans, and ORM objects would be most of a page's time
    for player_id, start, end in session.exec(rows).all():
        out.setdefault(player_id, []).append(Interval(start, end))
    return out


def answered_ids(session: Session, match_id: int) -> set[int]:
    rows = session.exec(select(AvailabilityAnswer.player_id).where(AvailabilityAnswer.match_id == match_id))
    return set(rows.all())


def clashing_booking(
    session: Session, room_id: int, meeting: Interval, exclude: int | None = None, table_no: int = 1
) -> Booking | None:
    """The active booking at the room's table `table_no` overlapping the meeting (one table, one meeting)."""
    rows = session.exec(
        select(Booking).where(
            Booking.room_id == room_id,
            Booking.table_no == table_no,
            Booking.active,
            Booking.start_at < meeting.end,
            Booking.end_at > meeting.start,
        )
    ).all()
    return next((b for b in rows if b.id != exclude), None)


def describe_booking(session: Session, booking: Booking) -> str:
    room = session.get_one(Room, booking.room_id)
    where = place(room.name, room.tables, booking.table_no)
    return f"«{booking.title}», {format_kirov(booking.start_at)}–{format_kirov(booking.end_at)[-5:]}, {where}"


def describe_hold(session: Session, proposal: MeetingProposal) -> str:
    """Another match's live proposal holding a table, for a refusal: «стол удерживает предложение матча «…», …»."""
    room = session.get_one(Room, proposal.room_id)
    where = place(room.name, room.tables, proposal.table_no)
    title = match_info(session, proposal.match_id).title
    span = f"{format_kirov(proposal.start_at)}–{format_kirov(proposal.end_at)[-5:]}"
    return f"стол удерживает предложение матча «{title}», {span}, {where}"


def active_bookings(session: Session, match_id: int) -> list[Booking]:
    stmt = select(Booking).where(Booking.match_id == match_id, Booking.active).order_by(col(Booking.start_at))
    return list(session.exec(stmt).all())


def open_proposal_for(session: Session, match_id: int, replaces_booking_id: int | None) -> MeetingProposal | None:
    """The open proposal for the same need: the match's remaining hanchans, or moving that booking."""
    stmt = select(MeetingProposal).where(MeetingProposal.match_id == match_id, MeetingProposal.status == LIVE_PROPOSAL)
    if replaces_booking_id is None:
        stmt = stmt.where(col(MeetingProposal.replaces_booking_id).is_(None))
    else:
        stmt = stmt.where(MeetingProposal.replaces_booking_id == replaces_booking_id)
    return session.exec(stmt.execution_options(populate_existing=True)).first()


def proposals(session: Session, match_id: int, statuses: Iterable[str] | None = None) -> list[MeetingProposal]:
    stmt = select(MeetingProposal).where(MeetingProposal.match_id == match_id)
    if statuses is not None:
        stmt = stmt.where(col(MeetingProposal.status).in_(list(statuses)))
    return list(session.exec(stmt.order_by(col(MeetingProposal.id))).all())


def confirmations(session: Session, proposal_id: int) -> dict[int, bool]:
    rows = session.exec(select(ProposalConfirmation).where(ProposalConfirmation.proposal_id == proposal_id)).all()
    return {r.player_id: r.confirmed for r in rows}
