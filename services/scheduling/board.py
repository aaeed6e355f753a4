"""The scheduling read model: for a set of matches, everything any view shows — who answered, remaining hanchans,
common options, open proposals and who confirmed them, bookings, the state — read in a fixed number of statements
(no query per match); imports no reflex.

The scheduling page, the home to-do list, the Telegram card, the organizer's desk and /schedule all render from it,
and the scheduling actions decide on it (`decide`): nothing else derives a match's state. Each table is read once
and the rows are grouped in Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import Select

from services.core.db import rows as rows_of
from services.core.models import (
    AvailabilityAnswer,
    AvailabilityInterval,
    AvailabilityLevel,
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
    saved,
)
from services.core.wording import plural
from services.scheduling.decide import (
    entry_refusal,
    hint_from,
    need_options,
    pair_unblock_times,
    played_meetings,
    remaining_hanchans,
    seating,
    split_plan,
    unblock_times,
    with_levels,
)
from services.scheduling.intervals import Interval, merge, subtract, window_slice
from services.scheduling.repo import LIVE_PROPOSAL, MatchInfo, SchedulingError, SeatInfo
from services.scheduling.rules import (
    BOOKED,
    COMPLETE,
    NO_FREE_TABLE,
    NOBODY_ANSWERED,
    OPTIONS,
    PLAYING,
    REPLACED,
    STEP_ADD_TIME,
    STEP_COME,
    STEP_CONFIRM,
    STEP_ENTER,
    STEP_NONE,
    STEP_ORGANIZER,
    STEP_PAINT,
    STEP_PAINT_MORE,
    STEP_PROPOSE,
    STEP_WAIT,
    WAITING,
    Option,
    Place,
    fallback_meeting,
    hanchans_word,
    scheduling_state,
)


@dataclass(frozen=True)
class Meeting:
    """A booked meeting one of the players sits in."""

    interval: Interval
    booking_id: int
    match_id: int
    table_no: int = 1


@dataclass(frozen=True)
class Hold:
    """An open proposal holding its table until `until` (services/scheduling/holds.py): not offered to others."""

    proposal_id: int
    match_id: int
    place: Place
    interval: Interval
    until: datetime


def _done(participle: str, n: int) -> str:
    """«Сыгран 1 ханчан», «Сыграно 3 ханчана»: the short participle agreeing with the count."""
    return plural(n, participle, participle + "о", participle + "о")


@dataclass
class MatchBoard:
    """One match's scheduling: who answered, its live proposals, bookings, recorded hanchans."""

    info: MatchInfo
    answered: set[int] = field(default_factory=set)
    free: dict[int, list[Interval]] = field(default_factory=dict)  # Регламент §6.4: never to a player's browser
    # the part of `free` painted «могу, если нужно» (offered after the fully free times); as private as `free`
    if_needed: dict[int, list[Interval]] = field(default_factory=dict)
    bookings: list[Booking] = field(default_factory=list)  # active, by start
    live: list[MeetingProposal] = field(default_factory=list)  # open proposals not yet begun, oldest first
    expired: list[MeetingProposal] = field(default_factory=list)  # open proposals whose start has passed
    confirmed: dict[int, set[int]] = field(default_factory=dict)  # open proposal id → seated players who confirmed
    declined: dict[int, set[int]] = field(default_factory=dict)  # open proposal id → seated players who declined
    failed: list[MeetingProposal] = field(default_factory=list)  # failed proposals newer than any booking
    # seated player id → the times of this match's proposals they declined (or «Не смогу»): never hinted to them
    refused: dict[int, list[Interval]] = field(default_factory=dict)
    hanchans: int = 0  # recorded, not superseded

    @property
    def match(self) -> Match:
        return self.info.match

    @property
    def seat_ids(self) -> set[int]:
        return {s.player_id for s in self.info.seats}

    @property
    def meetings(self) -> list[tuple[datetime, int]]:
        """The bookings' starts and hanchans, by start: what `decide.entry_refusal` reads."""
        return [(b.start_at, b.hanchans or 0) for b in self.bookings]

    @property
    def booked_hanchans(self) -> int:
        return sum(b.hanchans or 0 for b in self.bookings)

    def settled_part(self) -> str:
        """What of a match with hanchans still to book is settled already, as every view says it: «Забронирован
        1 ханчан из 3», «Сыграно 2 ханчана из 3», «Сыгран 1 ханчан, забронирован ещё 1 ханчан из 3»; empty when
        nothing is, or nothing is left."""
        planned, booked, played = self.match.planned_hanchans, self.booked_hanchans, self.hanchans
        if self.remaining <= 0 or not (booked or played):
            return ""
        if not played:
            return f"{_done('Забронирован', booked)} {hanchans_word(booked)} из {planned}"
        if played >= booked:
            return f"{_done('Сыгран', played)} {hanchans_word(played)} из {planned}"
        more = booked - played
        booked_more = f"{_done('забронирован', more)} ещё {hanchans_word(more)}"
        return f"{_done('Сыгран', played)} {hanchans_word(played)}, {booked_more} из {planned}"

    def with_booked_part(self, text: str) -> str:
        """`text` (the state of what is left) after the part already settled, when some is and some is not:
        «Забронирован 1 ханчан из 3; остальные: нет общего времени». The overview, the desk and the page say it so."""
        settled = self.settled_part()
        return f"{settled}; остальные: {text[:1].lower() + text[1:]}" if settled else text

    @property
    def remaining(self) -> int:
        """Hanchans that still need a meeting (neither booked nor recorded)."""
        if self.complete:
            return 0
        return remaining_hanchans(self.match.planned_hanchans, self.booked_hanchans, self.hanchans)

    @property
    def complete(self) -> bool:
        return self.match.status in (MatchStatus.COMPLETE, MatchStatus.REPLAY)

    @property
    def fully_booked(self) -> bool:
        """Nothing left to book: every hanchan has a meeting or a result."""
        return not self.complete and self.remaining <= 0

    @property
    def played(self) -> bool:
        """Settled for scheduling: complete, or every hanchan has its meeting and some are on the table. A split
        match with hanchans still to book is not: its rest stays visible and actionable everywhere."""
        return self.complete or (self.hanchans > 0 and self.remaining <= 0)

    @property
    def movable(self) -> list[Booking]:
        """The bookings the organizer may still move or release: none of their hanchans recorded (a meeting that
        began without results — a no-show — is the organizer's to release or move, Регламент §5, §6.1)."""
        played = played_meetings([(saved(b.id), b.hanchans or 0) for b in self.bookings], self.hanchans)
        return [b for b in self.bookings if b.id not in played]

    @property
    def not_answered(self) -> list[str]:
        return [s.name for s in self.info.seats if s.player_id not in self.answered]

    def fully_free(self, player_id: int) -> list[Interval]:
        """The player's time painted «свободен», without their «если нужно»."""
        spans = self.free.get(player_id, [])
        maybe = self.if_needed.get(player_id)
        return subtract(spans, maybe) if maybe else spans

    def fallback_ahead(self, now: datetime | None) -> Interval | None:
        """Регламент §6.1: the fallback meeting the four are told of in advance — from the window's opening until
        the fallback's start, while hanchans remain to book; None otherwise."""
        window, fallback = self.info.window, self.fallback()
        if window is None or fallback is None or now is None or self.complete:
            return None
        return fallback if window.start <= now < fallback.start else None

    def fallback(self) -> Interval | None:
        """Регламент §6.1: the fallback meeting for the hanchans not yet booked, or None when there is none."""
        window = self.info.window
        if window is None or self.remaining < 1:
            return None
        try:
            meeting = fallback_meeting(window, self.remaining, self.info.hanchan_minutes)
        except ValueError:
            return None
        # A split match's own meeting that Sunday evening is played first; its remaining hanchans follow it.
        own_end = max(
            (b.end_at for b in self.bookings if meeting.overlaps(Interval(b.start_at, b.end_at))), default=None
        )
        if own_end is not None and own_end > meeting.start:
            return Interval(own_end, own_end + meeting.duration)
        return meeting


@dataclass
class Board:
    matches: list[MatchBoard]
    rooms: dict[int, str]  # room id → name
    room_bookings: dict[int, list[Meeting]]  # every active booking, per room, by start
    player_meetings: dict[int, list[Meeting]]  # the loaded matches' players → every meeting they sit in
    now: datetime | None = None
    tables: dict[int, int] = field(default_factory=dict)  # room id → its tables (a room missing here has one)
    holds: list[Hold] = field(default_factory=list)  # open proposals holding a table as of `now`
    _busy: dict[Place, list[Interval]] = field(default_factory=dict)  # per table, merged
    # `fallback_plan.fallback_place`'s plan of the §6.1 fallback meetings, made once per board when first asked
    fallback_seats: dict[int, Place | None] | None = None
    # `options` and `unblock_hints` per match board (by identity: an action that changes one makes a new one) and
    # excluded booking: a page asks for the options four times, a save twice more, a push round's pages share them
    _options: dict[tuple[int, int | None], tuple[MatchBoard, list[Option]]] = field(default_factory=dict)
    _hints: dict[int, tuple[MatchBoard, dict[int, list[Option]]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._busy = {place: merge(m.interval for m in spans) for place, spans in self.place_bookings().items()}

    def with_holds(self, holds: list[Hold]) -> Board:
        """The same board with these holds instead of its own (what a hold made or ended changes for others)."""
        return Board(
            self.matches, self.rooms, self.room_bookings, self.player_meetings, self.now, self.tables, list(holds)
        )

    def place_bookings(self) -> dict[Place, list[Meeting]]:
        """Every table of every room (a free table too) with its active bookings, by start."""
        out: dict[Place, list[Meeting]] = {}
        for room, spans in self.room_bookings.items():
            for t in range(1, max(self.tables.get(room, 1), 1) + 1):
                out[(room, t)] = []
            for m in spans:
                out.setdefault((room, m.table_no), []).append(m)
        return out

    def busy_by_room(
        self,
        window: Interval,
        exclude_booking: int | None = None,
        exclude_match: int | None = None,
        *,
        with_holds: bool = True,
    ) -> dict[Place, list[Interval]]:
        """Each table's bookings inside the window (bisection over the merged calendar), without `exclude_booking`,
        with the tables held by open proposals of other matches than `exclude_match` (Регламент §3: a proposal
        holds its table until the four answer). Keyed by (room, table): the decisions take the lowest free one."""
        if exclude_booking is None:
            out = {place: list(window_slice(busy, window)) for place, busy in self._busy.items()}
        else:
            out = {
                place: merge(
                    m.interval for m in spans if m.booking_id != exclude_booking and m.interval.overlaps(window)
                )
                for place, spans in self.place_bookings().items()
            }
        held = [h for h in self.holds if h.match_id != exclude_match and h.interval.overlaps(window)]
        for h in held if with_holds else []:
            if h.place in out:
                out[h.place] = merge([*out[h.place], h.interval])
        return out

    def seating(  # noqa: PLR0913
        self,
        meeting: Interval,
        exclude_booking: int | None = None,
        exclude_match: int | None = None,
        *,
        preferred: Place | None = None,
        room_id: int | None = None,
        overrule: bool = False,
    ) -> list[tuple[Place, tuple[int, ...]]]:
        """`decide.seating` on this board: the tables (of `room_id`, or of every room) free of bookings for the
        meeting, with the open proposals of other matches than `exclude_match` holding them as of `now`."""
        busy = self.busy_by_room(meeting, exclude_booking, exclude_match, with_holds=False)
        if room_id is not None:
            busy = {p: spans for p, spans in busy.items() if p[0] == room_id}
        held: dict[Place, list[int]] = {}
        for h in self.holds:
            if h.match_id != exclude_match and h.interval.overlaps(meeting):
                held.setdefault(h.place, []).append(h.proposal_id)
        return seating(meeting, busy, held, preferred=preferred, overrule=overrule)

    def meetings_of(self, item: MatchBoard, exclude_booking: int | None = None) -> dict[str, list[Interval]]:
        """Each seated player's booked meetings (this match's and others'), by name."""
        return {
            s.name: [m.interval for m in self.player_meetings.get(s.player_id, []) if m.booking_id != exclude_booking]
            for s in item.info.seats
        }

    def options(self, item: MatchBoard, exclude_booking: int | None = None) -> list[Option]:
        """Common options for the match's remaining hanchans (Регламент §3), or for moving its booking
        `exclude_booking` (another match's: the calendar as it was without it); none once nothing is left to book."""
        known = self._options.get((id(item), exclude_booking))
        if known is None or known[0] is not item:
            known = self._options[(id(item), exclude_booking)] = (item, self._find_options(item, exclude_booking))
        return list(known[1])

    def _find_options(self, item: MatchBoard, exclude_booking: int | None) -> list[Option]:
        window = item.info.window
        moving = exclude_booking is not None and any(b.id == exclude_booking for b in item.bookings)
        if window is None or not item.info.seats or (not moving and item.remaining < 1):
            return []
        loose = self._need_options(item, [item.free.get(s.player_id, []) for s in item.info.seats], exclude_booking)
        if loose and any(item.if_needed.get(s.player_id) for s in item.info.seats):
            fully = [item.fully_free(s.player_id) for s in item.info.seats]
            loose = with_levels(self._need_options(item, fully, exclude_booking), loose, fully)
        # Регламент §2: an option that holds all the remaining hanchans in one meeting comes first, whatever it
        # needs, so the first option taken does not book part of the match (issue 45 item 9); the order stays
        # within each part (fully free before «если нужно»)
        return sorted(loose, key=lambda o: o.hanchans_fit < item.remaining) if not moving else loose

    def _need_options(
        self,
        item: MatchBoard,
        availabilities: list[list[Interval]],
        exclude_booking: int | None,
        *,
        since: datetime | None = None,
        tables_free: bool = False,
    ) -> list[Option]:
        """`need_options` for the match on this board; `tables_free`: as if no table were taken (the people's time
        alone, `tables_short`)."""
        window = item.info.window
        assert window is not None
        busy = self.busy_by_room(window, exclude_booking, exclude_match=item.match.id)
        return need_options(
            window,
            availabilities,
            {room: [] for room in busy} if tables_free else busy,
            [iv for spans in self.meetings_of(item, exclude_booking).values() for iv in spans],
            now=since or self.now,
            hanchan_minutes=item.info.hanchan_minutes,
        )

    def unblock_hints(self, item: MatchBoard) -> dict[int, list[Option]]:
        """The one who blocks is told: when the four answered and share no time for the remaining hanchans in one
        meeting, per seated player (by player id) the best times at which the other three are free, none of the four
        sits in a meeting and a table is free — what would become an option if that player could come
        (`unblock_times`). With no option at all, any such time; when the options hold only part of the remaining
        hanchans (`short_of_time`), only times that would hold them all, so the match can still be booked in one
        meeting rather than left to the fallback for its rest. Only times from a day ahead (`decide.hint_from`): the
        other three must still confirm, so a time tonight would only push a usable one out of the hint. A player
        with no such time of their own may share one with another (`pair_unblock_times`: the other two are free
        then; `Option.shared`). For that player's eyes only."""
        known = self._hints.get(id(item))
        if known is None or known[0] is not item:
            known = self._hints[id(item)] = (item, self._find_hints(item))
        return dict(known[1])

    def _find_hints(self, item: MatchBoard) -> dict[int, list[Option]]:
        window = item.info.window
        if (
            window is None
            or item.remaining < 1
            or item.live
            or (self.now is not None and window.end <= self.now)
            or not item.info.seats
            or any(s.player_id not in item.answered for s in item.info.seats)
        ):
            return {}
        options = self.options(item)
        if options and not self.short_of_time(item, options):
            return {}
        seat_ids = [s.player_id for s in item.info.seats]
        free = {p: item.free.get(p, []) for p in seat_ids}

        def hinted(availabilities: list[list[Interval]], shared: bool = False) -> list[Option]:
            return self._need_options(item, availabilities, None, since=hint_from(self.now, shared=shared))

        at_least = item.remaining if options else 1
        minutes = item.info.hanchan_minutes
        alone = unblock_times(
            seat_ids, free, hinted, window, need=item.remaining, at_least=at_least, hanchan_minutes=minutes,
            refused=item.refused,
        )  # fmt: skip
        # Регламент §3: when the one who blocks cannot or will not come, two others together may (issue 23)
        pairs = pair_unblock_times(
            seat_ids,
            free,
            lambda availabilities: hinted(availabilities, shared=True),
            window,
            need=item.remaining,
            at_least=at_least,
            asked=alone,
            hanchan_minutes=minutes,
            refused=item.refused,
        )
        return {**pairs, **alone}

    def short_of_time(self, item: MatchBoard, options: list[Option] | None = None) -> bool:
        """The four share time, but no option holds the match's remaining hanchans in one meeting (Регламент §2
        allows several meetings; one is what the four are asked for first)."""
        options = self.options(item) if options is None else options
        return bool(options) and item.remaining > 0 and max(o.hanchans_fit for o in options) < item.remaining

    def split_plan(self, item: MatchBoard, earliest: datetime | None = None) -> list[Interval]:
        """The meetings that would hold the remaining hanchans when no option holds them at once (`decide.split_plan`),
        from `earliest` (default: now) on; the page suggests proposing the first. Empty otherwise."""
        start = earliest or self.now
        if start is None or item.live:
            return []
        return split_plan(self.options(item), item.remaining, earliest=start, hanchan_minutes=item.info.hanchan_minutes)

    def state(self, item: MatchBoard) -> str:
        """A key of STATE_LABELS: the one state every view shows."""
        if item.complete:
            return REPLACED if item.match.status == MatchStatus.REPLAY else COMPLETE
        if self.in_play(item) or (item.remaining <= 0 and item.hanchans):
            return PLAYING
        if item.remaining <= 0:
            return BOOKED
        shown = self.shown_proposal(item)
        answered = [s.player_id in item.answered for s in item.info.seats]
        options = len(self.options(item))
        return scheduling_state(
            answered,
            options_count=options,
            proposal_confirmations=len(item.confirmed.get(saved(shown.id), ())) if shown is not None else None,
            tables_short=not options and all(answered) and self.tables_short(item),
        )

    def step(self, item: MatchBoard, player_id: int | None) -> str:
        """What the seated player `player_id` is asked to do next (a `rules.STEP_*` key): the one rule behind the
        home card, the Sunday reminder and the private messages. Anyone not seated only waits."""
        if item.complete:
            return STEP_NONE
        if self.in_play(item):
            return STEP_ENTER  # Регламент §6.2: the results of a meeting that has begun
        if item.remaining <= 0:
            return STEP_COME
        if item.info.window is None or self.window_over(item):
            return STEP_ORGANIZER  # Регламент §6.1: after the window the organizer decides what is left
        seated = player_id is not None and player_id in item.seat_ids
        if (shown := self.shown_proposal(item)) is not None:
            return STEP_CONFIRM if seated and player_id not in item.confirmed.get(saved(shown.id), ()) else STEP_WAIT
        if seated and player_id not in item.answered:
            return STEP_PAINT
        state = self.state(item)
        if state == NO_FREE_TABLE:
            return STEP_ORGANIZER  # Регламент §3, §6.3: painting more would not help
        if state in (NOBODY_ANSWERED, WAITING) or not seated:
            return STEP_WAIT
        if state == OPTIONS:
            return STEP_PROPOSE
        return STEP_ADD_TIME if player_id in self.unblock_hints(item) else STEP_PAINT_MORE

    def in_play(self, item: MatchBoard) -> bool:
        """A meeting has begun whose hanchans are not all recorded (on now, or over without its results), or the
        match is marked as being played: its results are what is asked for (Регламент §6.2)."""
        if item.complete:
            return False
        if item.match.status == MatchStatus.PLAYING:
            return True
        now = self.now
        return now is not None and entry_refusal(item.meetings, item.hanchans + 1, now=now) is None

    def unrecorded(self, item: MatchBoard) -> list[Booking]:
        """The meetings that are over while the match has fewer hanchans recorded than they held: the organizer's to
        settle (the results, or a no-show: Регламент §5). Empty when there is none."""
        now = self.now
        if item.complete or now is None:
            return []
        held = [b for b in item.bookings if b.end_at <= now]
        return held if item.hanchans < sum(b.hanchans or 0 for b in held) else []

    def window_over(self, item: MatchBoard) -> bool:
        """The match's game window has ended (Регламент §6.1: what is left is the organizer's to decide)."""
        window = item.info.window
        return window is not None and self.now is not None and window.end <= self.now

    def shown_proposal(self, item: MatchBoard) -> MeetingProposal | None:
        """The live proposal every view shows and the state counts: the most confirmed by seated players, ties to
        the newest."""
        best: MeetingProposal | None = None
        for p in item.live:  # oldest first
            if best is None or len(item.confirmed.get(saved(p.id), ())) >= len(item.confirmed.get(saved(best.id), ())):
                best = p
        return best

    def tables_short(self, item: MatchBoard) -> bool:
        """The four share time for the remaining hanchans (painted, «если нужно» included, none of them sitting in a
        meeting, not begun), but no table is free then: every one booked, or held by another match's live proposal.
        The true reason a match with no option waits (issue 43 item 4): painting more would not help."""
        window = item.info.window
        if window is None or not item.info.seats or item.remaining < 1 or self.options(item):
            return False
        seats = [item.free.get(s.player_id, []) for s in item.info.seats]
        return bool(self._need_options(item, seats, None, tables_free=True))

    def item(self, match_id: int) -> MatchBoard:
        return next(m for m in self.matches if m.match.id == match_id)


# The board's statements are built once, with bind parameters for what varies (issue 26, the save's cost: building
# and keying a dozen selects afresh for every save and every pushed page cost more than running them). Column reads
# go as plain rows (`db.rows`); the match, its bookings and its proposals are ORM objects the actions change.
_IDS: sa.BindParameter[list[int]] = sa.bindparam("ids", expanding=True)


@cache
def _matches_statement(by_season: bool, by_ids: bool) -> Select[Match, Round, str, Season]:
    stmt = (
        select(Match, Round, Stage.kind, Season)  # the stage's kind, not an object: the board needs no more of it
        .join(Round, col(Round.id) == Match.round_id)
        .join(Stage, col(Stage.id) == Round.stage_id)
        .join(Season, col(Season.id) == Stage.season_id)
    )
    stmt = stmt.where(Match.status != MatchStatus.DRAFT).order_by(col(Match.id))
    if by_season:
        stmt = stmt.where(Stage.season_id == sa.bindparam("season_id"))
    if by_ids:
        stmt = stmt.where(col(Match.id).in_(sa.bindparam("match_ids", expanding=True)))
    return stmt.execution_options(populate_existing=True)


_ROUNDS = select(Round).where(col(Round.id).in_(_IDS))
_SEATS = (
    select(Seat.match_id, Seat.player_id, Player.user_id, User.display_name)
    .join(Player, col(Player.id) == Seat.player_id)
    .join(User, col(User.id) == Player.user_id)
    .where(col(Seat.match_id).in_(_IDS))
    .order_by(col(Seat.match_id), col(Seat.seed))
)
_ROOMS = select(Room.id, Room.name, Room.tables).order_by(col(Room.id))
_ACTIVE_BOOKINGS = (
    sa.select(
        col(Booking.id),
        col(Booking.room_id),
        col(Booking.table_no),
        col(Booking.match_id),
        col(Booking.start_at),
        col(Booking.end_at),
    )  # fmt: skip
    .where(col(Booking.active))
    .order_by(col(Booking.start_at))
)
_HOLDS = sa.select(
    col(MeetingProposal.id), col(MeetingProposal.match_id), col(MeetingProposal.room_id),
    col(MeetingProposal.table_no), col(MeetingProposal.start_at), col(MeetingProposal.end_at),
    col(MeetingProposal.hold_until),
).where(col(MeetingProposal.status) == LIVE_PROPOSAL, col(MeetingProposal.hold_until).is_not(None))  # fmt: skip
_HOLDS_AT = _HOLDS.where(
    col(MeetingProposal.hold_until) > sa.bindparam("now"), col(MeetingProposal.start_at) > sa.bindparam("now")
)
_PLAYER_MEETINGS = (
    sa.select(col(Seat.player_id), col(Booking.id), col(Booking.match_id), col(Booking.start_at), col(Booking.end_at))
    .join(Seat, col(Seat.match_id) == Booking.match_id)
    .where(col(Booking.active), col(Seat.player_id).in_(_IDS))
    .order_by(col(Booking.start_at))
)
_ANSWERS = select(AvailabilityAnswer.match_id, AvailabilityAnswer.player_id).where(
    col(AvailabilityAnswer.match_id).in_(_IDS)
)
# The biggest read (every painted span of the season): plain rows, not ORM objects.
_SPANS = sa.select(
    col(AvailabilityInterval.match_id), col(AvailabilityInterval.player_id), col(AvailabilityInterval.start_at),
    col(AvailabilityInterval.end_at), col(AvailabilityInterval.level),
).where(col(AvailabilityInterval.match_id).in_(_IDS))  # fmt: skip
_BOOKINGS = (
    select(Booking)
    .where(col(Booking.match_id).in_(_IDS), Booking.active)
    .order_by(col(Booking.start_at))
    .execution_options(populate_existing=True)
)
_OPEN_PROPOSALS = (  # open, failed (the last reason) and declined (the times refused)
    select(MeetingProposal)
    .where(
        col(MeetingProposal.match_id).in_(_IDS),
        col(MeetingProposal.status).in_([LIVE_PROPOSAL, "failed", "declined"]),
    )
    .order_by(col(MeetingProposal.id))
    .execution_options(populate_existing=True)
)
_ANSWERS_TO = select(
    ProposalConfirmation.proposal_id, ProposalConfirmation.player_id, ProposalConfirmation.confirmed
).where(col(ProposalConfirmation.proposal_id).in_(_IDS))
_HANCHANS = select(Hanchan.match_id).where(col(Hanchan.match_id).in_(_IDS), col(Hanchan.superseded_by_id).is_(None))


def load_board(
    session: Session,
    *,
    now: datetime | None = None,
    season_id: int | None = None,
    match_ids: list[int] | None = None,
) -> Board:
    """Every non-draft match (of one season, or of `match_ids`, when given) with its scheduling data as of `now`:
    about a dozen statements in all, however many matches."""
    rows = session.exec(
        _matches_statement(season_id is not None, match_ids is not None),
        params={"season_id": season_id, "match_ids": list(match_ids or ())},
    ).all()
    # A match moved to another tour plays in that round's window: only those rounds are read (none, mostly),
    # not every round and season of the league
    rounds = {r.id: r for _, r, _, _ in rows}
    if moved := {m.window_round_id for m, _, _, _ in rows if m.window_round_id} - set(rounds):
        rounds |= {r.id: r for r in session.exec(_ROUNDS, params={"ids": list(moved)}).all()}
    ids = [saved(m.id) for m, _, _, _ in rows]
    seats: dict[int, list[SeatInfo]] = {}
    seat_rows = rows_of(session, _SEATS, {"ids": ids})
    for match_id, player_id, user_id, name in seat_rows:
        seats.setdefault(match_id, []).append(SeatInfo(player_id, user_id, name))
    items: dict[int, MatchBoard] = {}
    for match, round_, stage_kind, season in rows:
        window_round = rounds.get(match.window_round_id) if match.window_round_id else round_
        info = MatchInfo(match, round_, window_round or round_, stage_kind, season, ())
        items[saved(match.id)] = MatchBoard(info=_with_seats(info, seats.get(saved(match.id), [])))
    _fill(session, items, ids, now)
    room_rows = rows_of(session, _ROOMS)
    rooms = {room_id: name for room_id, name, _ in room_rows}
    by_room: dict[int, list[Meeting]] = {room_id: [] for room_id in rooms}
    for booking_id, room_id, table_no, match_id, start, end in rows_of(session, _ACTIVE_BOOKINGS):
        by_room.setdefault(room_id, []).append(Meeting(Interval(start, end), booking_id, match_id, table_no))
    tables = {room_id: n for room_id, _, n in room_rows}
    players = _player_meetings(session, seat_rows)
    return Board(list(items.values()), rooms, by_room, players, now, tables, _holds(session, now))


def _holds(session: Session, now: datetime | None) -> list[Hold]:
    """Every open proposal of the club still holding its table at `now` (a condition on read: no timer ends a
    hold, it simply stops counting once `hold_until` or the meeting's start has passed)."""
    found = rows_of(session, _HOLDS) if now is None else rows_of(session, _HOLDS_AT, {"now": now})
    return [
        Hold(pid, match_id, (room, table), Interval(start, end), until)
        for pid, match_id, room, table, start, end, until in found
    ]


def neighbour_ids(session: Session, span: Interval, match_id: int | None) -> list[int]:
    """The matches still being scheduled, other than `match_id`, whose game window crosses `span`."""
    window_round = sa.func.coalesce(Match.window_round_id, Match.round_id)
    found = session.exec(
        select(Match.id)
        .join(Round, col(Round.id) == window_round)
        .where(
            Match.status == MatchStatus.SCHEDULING,
            Match.id != (match_id or -1),
            col(Round.window_start) < span.end,
            col(Round.window_end) > span.start,
        )
    ).all()
    return [saved(found_id) for found_id in found]


def _player_meetings(session: Session, seat_rows: Sequence[Sequence[Any]]) -> dict[int, list[Meeting]]:
    """Every active meeting of every match the loaded players sit in (one statement)."""
    players = sorted({row[1] for row in seat_rows})
    out: dict[int, list[Meeting]] = {}
    if not players:
        return out
    for player_id, booking_id, match_id, start, end in rows_of(session, _PLAYER_MEETINGS, {"ids": players}):
        out.setdefault(player_id, []).append(Meeting(Interval(start, end), booking_id, match_id))
    return out


def _with_seats(info: MatchInfo, seats: list[SeatInfo]) -> MatchInfo:
    return MatchInfo(info.match, info.round, info.window_round, info.stage_kind, info.season, tuple(seats))


def _fill(session: Session, items: dict[int, MatchBoard], ids: list[int], now: datetime | None) -> None:
    for match_id, player_id in rows_of(session, _ANSWERS, {"ids": ids}):
        items[match_id].answered.add(player_id)
    for match_id, player_id, start, end, level in rows_of(session, _SPANS, {"ids": ids}):
        span = Interval(start, end)
        items[match_id].free.setdefault(player_id, []).append(span)
        if level == AvailabilityLevel.IF_NEEDED:
            items[match_id].if_needed.setdefault(player_id, []).append(span)
    last_booking: dict[int, datetime] = {}
    for b in session.exec(_BOOKINGS, params={"ids": ids}).all():
        assert b.match_id is not None  # read by their matches' ids
        items[b.match_id].bookings.append(b)
        last_booking[b.match_id] = max(last_booking.get(b.match_id, b.created_at), b.created_at)
    open_: dict[int, MatchBoard] = {}
    declined: dict[int, MeetingProposal] = {}
    for p in session.exec(_OPEN_PROPOSALS, params={"ids": ids}).all():
        item = items[p.match_id]
        if p.status == LIVE_PROPOSAL:
            open_[saved(p.id)] = item
            (item.expired if now is not None and p.start_at < now else item.live).append(p)
        elif p.status == "declined":
            declined[saved(p.id)] = p
        elif p.match_id not in last_booking or p.created_at > last_booking[p.match_id]:
            item.failed.append(p)
    for proposal_id, player_id, yes in rows_of(session, _ANSWERS_TO, {"ids": [*open_, *declined]}):
        if proposal_id in declined:
            if not yes:
                p = declined[proposal_id]
                items[p.match_id].refused.setdefault(player_id, []).append(Interval(p.start_at, p.end_at))
            continue
        item = open_[proposal_id]
        if player_id in item.seat_ids:
            (item.confirmed if yes else item.declined).setdefault(proposal_id, set()).add(player_id)
    for (match_id,) in rows_of(session, _HANCHANS, {"ids": ids}):
        items[match_id].hanchans += 1


def match_board(session: Session, match_id: int, *, now: datetime | None) -> tuple[Board, MatchBoard]:
    """The read model of one match (for its page, its card and the actions on it)."""
    board = load_board(session, now=now, match_ids=[match_id])
    if not board.matches:
        raise SchedulingError("Такого матча нет.")
    return board, board.matches[0]


def options_for(
    session: Session, match_id: int, *, now: datetime | None, exclude_booking: int | None = None
) -> list[Option]:
    board, item = match_board(session, match_id, now=now)
    return board.options(item, exclude_booking)


def state_of(session: Session, match_id: int, *, now: datetime | None) -> str:
    board, item = match_board(session, match_id, now=now)
    return board.state(item)
