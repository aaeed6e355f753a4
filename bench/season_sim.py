"""The season bench's simulation (bench/season.py): a regular stage played through the services on a simulated
clock. Players answer, propose and confirm; tables enter results; the organizer penalises a no-show, settles a
dispute and applies the fallback; the bot delivers the outbox except during one tour. Imports no reflex."""

from __future__ import annotations

import asyncio
import inspect
import random
import time
from collections import Counter
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from functools import cache
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col, select

from bench.season_checks import HanchanRecord, Meeting
from bench.season_people import (
    OLD,
    Model,
    Person,
    answer_hint,
    chance,
    free_time,
    if_needed_time,
    linked_to_bot,
    make_person,
    reads_reminder,
    table_points,
    takes_added_span,
    tap_delay,
)
from services.core import security
from services.core.config import Settings
from services.core.db import make_engine, migrate, session_scope
from services.core.models import Booking, Match, MeetingProposal, Player, Role, Round, Seat, TelegramButton, User
from services.league.accounts import create_user
from services.league.closing import ClosingMethod, close_registration
from services.league.draw_season import approve_draw, make_draft
from services.league.roster import add_player
from services.league.seasons import create_season
from services.notifier import cards, remote
from services.notifier.cards import SOON  # the words of a proposal's private reminder
from services.notifier.linking import create_link_code, redeem_link_code, set_private_messages
from services.notifier.outbox import Notifier, Target
from services.notifier.reminders import queue_due_reminder, queue_proposal_reminders
from services.notifier.remote import Keyboard
from services.notifier.sunday import reminder_time_of
from services.playoff.hanchan_entry import enter_hanchan
from services.results.entry import Entry
from services.results.hanchans import correct_hanchan, dispute_hanchan, resolve_dispute
from services.results.penalties import add_no_show
from services.results.scoring import TableResult
from services.scheduling import availability, booking, decide
from services.scheduling import organizer as org
from services.scheduling.board import load_board, match_board
from services.scheduling.intervals import Interval, at_kirov, ceil_to_grid, kirov_date, merge, subtract, to_kirov
from services.scheduling.repo import (
    confirmations,
    open_proposal_for,
)
from services.scheduling.rules import fallback_slot, players_free, short_span
from services.scheduling.tour_windows import set_windows
from services.views.desk import FALLBACK, build_desk

REMINDER_AT = reminder_time_of(Settings(reminder_time="19:00"))  # the deployment's default Sunday reminder

SEASON_START = date(2026, 10, 19)  # a Monday; four two-week windows, as the demo league has
TOUR_DAYS = 14
STEP = timedelta(hours=12)  # the clock's step: 09:00 and 21:00 Kirov, when people look at the site
LEAD = timedelta(hours=24)  # people propose a meeting a day or two ahead, so the others can confirm
NO_SHOW = -80_000  # Регламент §5: первая неявка — −80 000 за матч
HANCHAN = timedelta(minutes=90)
ADD_LABEL = "Добавить "  # the hint's button (cards.add_button)
TELEGRAM_IDS = 500_000  # a linked person's Telegram id: this plus their user id


@cache
def _accepts_now(fn: Callable[..., Any]) -> bool:
    return "now" in inspect.signature(fn).parameters


def call(fn: Callable[..., Any], *args: Any, now: datetime, **kwargs: Any) -> Any:
    """Calls a service with the simulated clock when it takes one (more of them will: the bench follows)."""
    return fn(*args, **({"now": now} if _accepts_now(fn) else {}), **kwargs)


def done(result: Any) -> bool:
    """What `Simulation._try` returned was the service's result, not the error the person read."""
    return not isinstance(result, Exception)


@contextmanager
def cheap_passwords():
    """Accounts are not what is measured: argon2 costs ~0.1 s a user, so setup hashes with a stub."""
    real = security.hash_password
    security.hash_password = lambda password: f"bench:{len(password)}"
    try:
        yield
    finally:
        security.hash_password = real


class VirtualSeconds:
    """The notifier's pace on a clock of its own: waiting for Telegram's per-chat limits advances it instead of
    sleeping, so a paced backlog costs no wall time (what is sent, and in which order, is the same)."""

    def __init__(self) -> None:
        self.t = 0.0

    def monotonic(self) -> float:
        return self.t

    async def sleep(self, seconds: float) -> None:
        self.t += max(seconds, 0.0)


class RecordingGateway:
    """A Telegram that accepts everything and remembers what was sent: no network."""

    def __init__(self) -> None:
        self.sent: list[tuple[int, int, int | None, str]] = []
        self.edits = 0
        self.shown: dict[int, str] = {}  # message id → its text as the chat shows it now (edits included)
        self.buttons: dict[int, Keyboard] = {}  # message id → the buttons it was sent with

    async def send(self, chat_id: int, text: str, *, thread_id: int | None = None, buttons: Keyboard = ()) -> int:
        self.sent.append((len(self.sent) + 1, chat_id, thread_id, text))
        self.shown[len(self.sent)] = text
        self.buttons[len(self.sent)] = buttons
        return len(self.sent)

    async def edit(self, chat_id: int, message_id: int, text: str, *, buttons: Keyboard = ()) -> None:
        self.edits += 1
        self.shown[message_id] = text


def _span(iv: Interval) -> str:
    return short_span(iv.start, iv.end)


@dataclass
class MatchState:
    id: int
    tour: int
    seats: list[Person]
    window: Interval
    answer_at: dict[int, datetime | None] = field(default_factory=dict)
    answered: set[int] = field(default_factory=set)
    proposal: int | None = None
    proposal_span: Interval | None = None
    waiting: set[int] = field(default_factory=set)
    pending: list[tuple[int, Interval, int]] = field(default_factory=list)  # booked meetings not played yet
    hanchans: dict[int, HanchanRecord] = field(default_factory=dict)
    penalties: list[tuple[int, int]] = field(default_factory=list)
    moves: int = 0
    refused: list[Interval] = field(default_factory=list)  # times someone declined: not proposed again
    notes: list[str] = field(default_factory=list)  # what happened to it, for `bench/season.py --explain`
    hints_seen: set[str] = field(default_factory=set)  # the blocker's hints a player of it has considered

    def note(self, now: datetime, text: str) -> None:
        """One line of the match's story; a line equal to the last one is not repeated (a step that changed
        nothing)."""
        if not self.notes or self.notes[-1].split("  ", 1)[1] != text:
            self.notes.append(f"{to_kirov(now):%d.%m %H:%M}  {text}")

    @property
    def complete(self) -> bool:
        return len(self.hanchans) >= 3


@dataclass
class Stats:
    domain_errors: Counter = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)  # exceptions other than a service's domain error
    organizer: Counter = field(default_factory=Counter)
    findings: dict[str, list[str]] = field(default_factory=dict)
    booking_days: list[float] = field(default_factory=list)
    delivered: int = 0
    by_players: Counter = field(default_factory=Counter)  # what the players did themselves, not the organizer
    statements: int = 0
    setup_seconds: float = 0.0
    play_seconds: float = 0.0

    def find(self, what: str, example: str) -> None:
        self.findings.setdefault(what, []).append(example)

    def refused(self, fn: Callable[..., Any], error: Exception) -> None:
        self.domain_errors[f"{fn.__name__}: {str(error)[:70]}"] += 1


class Simulation:
    def __init__(
        self,
        players: int,
        rooms: int,
        seed: int,
        *,
        url: str,
        bot_off_tour: int = 2,
        tables: int = 1,
        model: Model = OLD,
        remote: bool = False,
    ) -> None:
        self.rng = random.Random(seed)
        self.players, self.rooms, self.seed, self.bot_off_tour = players, rooms, seed, bot_off_tour
        self.tables = tables  # per room (issue 27: the club's room has several mahjong tables)
        self.model, self.remote = model, remote  # remote: linked people answer from the private message's buttons
        self.taps: list[tuple[datetime, int, int]] = []  # (when, user id, message id): the remote's taps to come
        self.withdrawals_seen: set[tuple[int, int]] = set()  # (booking, player) whose «Не смогу» was drawn
        self.repaints: list[tuple[MatchState, Person, int]] = []  # after a booking: who repaints at the next look
        migrate(url)
        self.engine = make_engine(url)
        self.stats = Stats()
        self.gateway = RecordingGateway()
        self.now = at_kirov(SEASON_START - timedelta(days=7), 12)
        pace_clock = VirtualSeconds()
        self.notifier = Notifier(
            self.gateway, Target(-1001, 2, 3), bind=self.engine, clock=lambda: self.now,
            sleep=pace_clock.sleep, monotonic=pace_clock.monotonic,
        )  # fmt: skip
        self.states: dict[int, MatchState] = {}
        self.people: dict[int, Person] = {}
        self.meetings: dict[int, dict[int, Interval]] = {}  # player id -> booking id -> meeting (what they know)
        self.windows: list[Interval] = []
        self.no_show_done: set[int] = set()
        self.dispute_done: set[int] = set()
        self.disputes: list[tuple[MatchState, int, int]] = []
        self.fallback_done: set[int] = set()
        self._booking_match: dict[int, int] = {}  # booking id -> its match, for the people's own calendars
        self.reminded: set[int] = set()  # the users who got a proposal's private reminder in this step
        sa.event.listen(self.engine, "before_cursor_execute", self._count)
        self._counting = False

    def _count(self, *args: Any) -> None:
        if self._counting:
            self.stats.statements += 1

    def session(self):  # noqa: ANN201
        return session_scope(self.engine)

    # --- the season, through the league's services ---------------------------------------------------------

    def setup(self) -> None:
        began = time.perf_counter()
        with cheap_passwords(), self.session() as s:
            organizer, _ = create_user(s, display_name="Богдан Бойко", role=Role.ORGANIZER)
            self.organizer_id = organizer.id
            season = create_season(s, "Бенчмарк сезона", actor_user_id=organizer.id, now=self.now)
            for room in range(self.rooms):
                added = org.add_room(s, name=f"Зал {room + 1}", actor_user_id=organizer.id)
                if self.tables > 1:
                    org.set_room_tables(s, room_id=added.id, tables=self.tables, actor_user_id=organizer.id,
                                        now=self.now)  # fmt: skip
            for n in range(self.players):
                add_player(s, season, f"Игрок {n + 1:03d}", actor_user_id=organizer.id, password="bench-password")
            close_registration(s, season, ClosingMethod.AS_IS, actor_user_id=organizer.id, now=self.now)
            make_draft(s, season, seed=self.seed, actor_user_id=organizer.id, now=self.now)
            starts = [at_kirov(SEASON_START + timedelta(days=TOUR_DAYS * k)) for k in range(season.tours + 1)]
            self.windows = [Interval(a, b) for a, b in zip(starts, starts[1:], strict=False)]
            set_windows(s, season, [(w.start, w.end) for w in self.windows], actor_user_id=organizer.id, now=self.now)
            approve_draw(s, season, actor_user_id=organizer.id, now=self.now)
            self.season_id = season.id
            rows = s.exec(
                select(Seat.match_id, Seat.player_id, Round.code, col(User.id))
                .join(Match, col(Match.id) == Seat.match_id)
                .join(Round, col(Round.id) == Match.round_id)
                .join(Player, col(Player.id) == Seat.player_id)
                .join(User, col(User.id) == Player.user_id)
                .order_by(col(Seat.match_id), col(Seat.seed))
            ).all()
        for match_id, player_id, code, user_id in rows:
            person = self.people.get(player_id) or make_person(self.rng, player_id, user_id, self.model)
            self.people[player_id] = person
            tour = int(code)
            state = self.states.get(match_id) or MatchState(match_id, tour, [], self.windows[tour - 1])
            self.states[match_id] = state
            state.seats.append(person)
        for state in self.states.values():
            self._reset_answers(state, state.window.start)
        self.by_user = {p.user_id: p for p in self.people.values()}
        self.book_activities()
        with self.session() as s:  # most link the bot with private messages (through the linking service)
            for person in self.people.values():
                person.linked = linked_to_bot(person.player_id)
                if person.linked:
                    code = create_link_code(s, person.user_id, now=self.now).code
                    user = redeem_link_code(
                        s, code, telegram_user_id=TELEGRAM_IDS + person.user_id, telegram_username=None, now=self.now
                    )
                    set_private_messages(s, user, True)
        self.stats.setup_seconds = time.perf_counter() - began

    def _reset_answers(self, state: MatchState, since: datetime) -> None:
        state.answered.clear()
        for p in state.seats:
            delay = timedelta(hours=self.rng.uniform(9, 24 * 4))
            # Without a reminder a late player notices the match on the site in the second week.
            state.answer_at[p.player_id] = since + (timedelta(days=9.5) if p.late else delay)

    # --- the clock ---------------------------------------------------------------------------------------------

    def run(self, days: int | None = None) -> None:
        began = time.perf_counter()
        self._counting = True
        self.now = self.windows[0].start + timedelta(hours=9)
        end = self.windows[-1].end + timedelta(days=2)
        if days is not None:
            end = min(end, self.windows[0].start + timedelta(days=days))
        while self.now <= end:
            self.step()
            look = self.now
            self.tap_until(look + STEP)
            self.now = look + STEP
        self.notifier.queue_stale_cards()  # the bot is on at the end: everything is caught up, time's changes too
        self.deliver(force=True)
        self._counting = False
        self.stats.play_seconds = time.perf_counter() - began

    def bot_on(self) -> bool:
        off = self.windows[self.bot_off_tour - 1] if 0 < self.bot_off_tour <= len(self.windows) else None
        return off is None or not off.contains_instant(self.now)

    def step(self) -> None:
        # Регламент §3: the Sunday reminder is written by whichever process sees its moment pass (the site here,
        # whether or not the bot is up) and delivered once the bot is.
        with self.session() as s:
            if queue_due_reminder(s, now=self.now, reminder_time=REMINDER_AT) is not None:
                self._reminded()
            # Регламент §3: a proposal a day before its start, recalled privately to those who have not answered
            queue_proposal_reminders(s, now=self.now)
        sent_before = len(self.gateway.sent)
        if self.bot_on():
            self.notifier.queue_stale_cards()  # the bot's minute job: cards time alone made stale (issue 43 item 5)
            self.deliver()
        self.reminded = {
            chat - TELEGRAM_IDS for _, chat, _, text in self.gateway.sent[sent_before:] if SOON in text
        }  # user ids that read a proposal's reminder in this step
        self.plan_taps(sent_before)
        self.withdraw_and_repaint()
        for state in self.states.values():
            for meeting in [m for m in state.pending if m[1].end <= self.now]:
                self.play(state, *meeting)
        for state, hanchan_id, number in self.disputes:
            self.settle(state, hanchan_id, number)
        self.disputes.clear()
        for state in self.states.values():
            if state.window.contains_instant(self.now) and not state.complete:
                self.schedule(state)
        if self.model.desk and to_kirov(self.now).hour >= 18:
            self.desk_evening()
        for number, window in enumerate(self.windows, start=1):
            if number not in self.fallback_done and self.now >= fallback_slot(window) - timedelta(hours=21):
                self.fallback_done.add(number)
                self.fallback(window)
        if self.remote and self.bot_on():  # the bot is live: this look's proposals and hints reach the chats now
            sent_before = len(self.gateway.sent)
            self.deliver()
            self.plan_taps(sent_before)

    def deliver(self, force: bool = False) -> None:
        if not force and not self.bot_on():
            return
        while True:
            result = asyncio.run(self.notifier.deliver_pending())
            self.stats.delivered += result.delivered
            if result.delivered == 0 and result.failed == 0:
                return

    def _reminded(self) -> None:
        for state in self.states.values():
            if state.window.contains_instant(self.now):
                for p in state.seats:
                    if p.late and p.player_id not in state.answered:
                        state.answer_at[p.player_id] = self.now + timedelta(hours=self.rng.uniform(10, 36))

    # --- players --------------------------------------------------------------------------------------------

    def _try(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """One action in its own transaction, as a page's handler does; a domain error is what a person reads."""
        try:
            with self.session() as s:
                return call(fn, s, *args, now=self.now, **kwargs)
        except ValueError as error:  # SchedulingError, ResultsError, …: the person reads it and reacts
            self.stats.refused(fn, error)
            return error
        except Exception as error:  # noqa: BLE001 - anything else is a failure of the service: recorded, the run goes on
            detail = " ".join(str(getattr(error, "orig", None) or error).split())[:160]
            named = ", ".join(f"{k}={v}" for k, v in kwargs.items() if k.endswith("_id"))
            self.stats.failures.append(
                f"{fn.__name__}({named}) at {to_kirov(self.now):%d.%m %H:%M}: {type(error).__name__}: {detail}"
            )
            return error

    def schedule(self, state: MatchState) -> None:
        for p in state.seats:
            due = state.answer_at.get(p.player_id)
            if p.player_id not in state.answered and due is not None and due <= self.now:
                spans = free_time(self.rng, p, state.window, self.now, self.model)
                maybe = if_needed_time(p, state.window, spans)
                saved = self._try(
                    availability.save_availability, match_id=state.id, user_id=p.user_id, intervals=spans,
                    if_needed=maybe,
                )  # fmt: skip
                if done(saved):
                    state.answered.add(p.player_id)
        if len(state.answered) < len(state.seats):
            return
        if state.proposal is not None:
            self.answer(state)
        else:
            self.propose(state)

    def _clashes(self, person: Person, span: Interval, match_id: int) -> bool:
        """The person's own calendar: a meeting of another match at that time (the home page lists them)."""
        own = self.meetings.get(person.player_id, {})
        return any(iv.overlaps(span) for bid, iv in own.items() if self._booking_match.get(bid) != match_id)

    def propose(self, state: MatchState) -> None:
        with self.session() as s:  # what the match page shows: its remaining hanchans and options (the read model)
            board, item = match_board(s, state.id, now=self.now)
            remaining, options = item.remaining, board.options(item)
            if remaining < 1:
                return
        if self.follow_hints(state, board, item):
            return  # the one who blocked added time: the four see the new options at their next look
        begun = [o for o in options if o.start < self.now]
        if begun:
            self.stats.find(
                "options offered that have already begun",
                f"match {state.id} at {to_kirov(self.now):%d.%m %H:%M}: "
                f"an option from {to_kirov(begun[0].start):%d.%m %H:%M}",
            )
        proposer = self.rng.choice(state.seats)
        earliest = ceil_to_grid(self.now + LEAD)
        choices = []
        why = Counter()
        for o in options:
            start = max(o.start, earliest)
            fit = min(remaining, (o.end - start) // HANCHAN) if o.end > start else 0
            if fit < 1:
                why["too soon or too short"] += 1
                continue
            span = Interval(start, start + fit * HANCHAN)
            if self._clashes(proposer, span, state.id):
                why["clashes with the proposer's meeting"] += 1
            elif any(r.overlaps(span) for r in state.refused):
                why["declined before"] += 1
            else:
                choices.append((fit < remaining, -fit, start, span))
        plan = board.split_plan(item, earliest) if choices and all(c[0] for c in choices) else []
        if (
            plan
            and not self._clashes(proposer, plan[0], state.id)
            and not any(r.overlaps(plan[0]) for r in state.refused)
        ):
            # the page's plan (Регламент §2: several meetings): the first of the meetings that hold the whole rest
            choices = [(True, 0, plan[0].start, plan[0])]
            state.note(self.now, "the page's plan: " + ", ".join(_span(iv) for iv in plan))
        if not choices:
            state.note(
                self.now,
                f"no option to propose for {remaining} hanchan(s): {self._why_none(item, board, options, why)}",
            )
            return
        _, fit, _, span = min(choices)  # the whole match if it fits, else the plan's first meeting or the biggest part
        fit = (span.end - span.start) // HANCHAN
        made = self._try(
            booking.propose_meeting,
            match_id=state.id,
            user_id=proposer.user_id,
            start=span.start,
            end=span.end,
            hanchans=fit,
        )
        if done(made):
            state.proposal, state.proposal_span = made.id, span
            state.waiting = {p.player_id for p in state.seats if p is not proposer}
            state.note(self.now, f"proposed {_span(span)} for {fit} of {remaining} hanchan(s)"
                       f" ({len(options)} option(s) shown)")  # fmt: skip
        else:
            state.note(self.now, f"proposing {_span(span)} refused: {str(made)[:90]}")
        if not done(made) and str(made) == booking.OPEN_PROPOSAL_EXISTS:
            self.adopt_open_proposal(state)

    def follow_hints(self, state: MatchState, board: Any, item: Any) -> bool:
        """Each player told privately that their time blocks the match (the read model's `unblock_hints`: the page,
        the home card, the bot) reads it when they look at the site (their usual chance, a draw of its own) and may
        add the time (`season_people.answer_hint`); each hint is considered once. True when one added time that
        alone makes an option (not a time shared with another player: the page then shows what it showed)."""
        hints = board.unblock_hints(item)
        for p in state.seats:
            hint = hints.get(p.player_id)
            if not hint:
                continue
            key = f"{state.id}:" + ",".join(o.start.isoformat() + o.end.isoformat() for o in hint)
            if key in state.hints_seen:
                continue
            looks = random.Random(f"look:{p.player_id}:{key}:{self.now.isoformat()}").random() < p.confirm_chance
            if not looks:
                continue
            state.hints_seen.add(key)
            fully = item.fully_free(p.player_id)
            extra = answer_hint(
                p, [o.interval for o in hint], fully, hanchans=item.remaining,
                earliest=ceil_to_grid(self.now + LEAD), key=str(state.id), hanchan=HANCHAN,
            )  # fmt: skip
            shared = " shared with another player" if hint[0].shared else ""
            if extra is None:
                state.note(self.now, f"player {p.player_id} read the hint{shared} ({_span(hint[0].interval)}…): "
                           "not taken")  # fmt: skip
                continue
            saved = self._try(
                availability.save_availability, match_id=state.id, user_id=p.user_id,
                intervals=merge([*fully, extra]), if_needed=subtract(item.if_needed.get(p.player_id, []), [extra]),
            )  # fmt: skip
            state.note(self.now, f"player {p.player_id} followed the hint{shared}: added {_span(extra)}"
                       + ("" if done(saved) else f" — refused: {str(saved)[:60]}"))  # fmt: skip
            if done(saved):
                self.stats.by_players["hint followed"] += 1
                self.stats.by_players["shared hint followed"] += bool(shared)
                if not shared:  # a time shared by two makes no option until the other adds it too
                    return True
        return False

    def _why_none(self, item: Any, board: Any, options: list, why: Counter) -> str:
        """Why the page offers nothing to propose: the four's common painted time ahead, the hanchans it holds,
        and what the options lost to meetings and tables."""
        window = item.info.window
        start = max(window.start, ceil_to_grid(self.now + LEAD))
        if start >= window.end:
            return "the window ends within a day"
        ahead = Interval(start, window.end)
        common = players_free(ahead, [item.free.get(s.player_id, []) for s in item.info.seats])
        # the match's own meetings are not time left for it
        common = subtract(common, [Interval(b.start_at, b.end_at) for b in item.bookings])
        holds = sum(iv.duration // HANCHAN for iv in common)
        parts = [f"common time ahead, besides its own meetings, {len(common)} span(s) holding {holds} hanchan(s)"]
        if options:
            parts.append(f"{len(options)} option(s), " + ", ".join(f"{n} {w}" for w, n in why.items()))
        elif holds:
            parts.append("none offered (tables or the four's meetings take it)")
        return "; ".join(parts)

    def adopt_open_proposal(self, state: MatchState) -> None:
        """The page shows a proposal still open: the four answer it (it may be one from before the match moved)."""
        with self.session() as s:
            live = open_proposal_for(s, state.id, None)
            if live is None:
                return
            answered = set(confirmations(s, live.id))
        span = Interval(live.start_at, live.end_at)
        if not state.window.contains(span):
            self.stats.find(
                "an open proposal outlives its match's move to the next window",
                f"match {state.id}: proposal {live.id} for {to_kirov(span.start):%d.%m %H:%M}, "
                f"window now from {to_kirov(state.window.start):%d.%m}",
            )
        state.proposal, state.proposal_span = live.id, span
        state.waiting = {p.player_id for p in state.seats if p.player_id not in answered}

    def answer(self, state: MatchState) -> None:
        for p in state.seats:
            if p.player_id not in state.waiting or state.proposal is None:
                continue
            if self.rng.random() > p.confirm_chance:
                if not (p.user_id in self.reminded and reads_reminder(p, state.proposal)):
                    continue  # has not looked yet (nor after the bot's private reminder)
                state.note(self.now, f"player {p.player_id} looked after the proposal's reminder")
                self.stats.by_players["proposal reminder read"] += 1
            if self._answer_one(state, p):
                return

    def _answer_one(self, state: MatchState, p: Person, tap: tuple[int, dict[str, str]] | None = None) -> bool:
        """One person answers the match's live proposal: on the page, or (`tap`: the private message's id and its
        buttons' tokens by kind) from the chat through the remote. True when the proposal is no longer open."""
        span, proposal_id = state.proposal_span, state.proposal
        stale = span.start < self.now + timedelta(hours=1) or not state.window.contains(span)
        changed = bool(self.model.decline) and chance("decline", p.player_id, proposal_id) < self.model.decline
        ok = not stale and not changed and not self._clashes(p, span, state.id)
        if tap is None:
            answered = self._try(booking.answer_meeting, proposal_id=proposal_id, user_id=p.user_id, confirmed=ok)
            refused = None if done(answered) else str(answered)
        else:
            message_id, tokens = tap
            said = self._press(tokens[remote.CONFIRM if ok else remote.DECLINE], p, message_id)
            with self.session() as s:
                recorded = p.player_id in confirmations(s, proposal_id)
            refused = None if recorded else said
            self.stats.by_players["answered from the chat"] += 1
        state.waiting.discard(p.player_id)
        if not ok:
            state.refused.append(span)
            why = "too late" if stale else "plans changed" if changed else "own meeting then"
            state.note(self.now, f"{_span(span)} declined: {why}" + (" (from the chat)" if tap else ""))
        if refused is not None:
            state.note(self.now, f"answer refused: {refused[:90]}")
            state.proposal = None
            return True
        with self.session() as s:
            proposal = s.get(MeetingProposal, proposal_id)
            status, reason = proposal.status, proposal.failure_reason
        if status == "failed":
            state.note(self.now, f"{_span(span)} not booked: {(reason or '')[:90]}")
        if status == "booked":
            with self.session() as s:
                row = s.exec(select(Booking).where(Booking.proposal_id == proposal_id, Booking.active)).first()
            self._booked(state, row.id, Interval(row.start_at, row.end_at), row.hanchans or 0)
            state.note(self.now, f"booked {_span(span)} ({row.hanchans} hanchan(s), table {row.table_no})"
                       + (" from the chat" if tap else ""))  # fmt: skip
            self.stats.booking_days.append((self.now - state.window.start) / timedelta(days=1))
            self.stats.by_players["booked from the chat"] += tap is not None
            if self.model.repaint:
                self.repaints += [
                    (state, q, row.id)
                    for q in state.seats
                    if chance("repaint", q.player_id, row.id) < self.model.repaint
                ]
        if status != "open":
            state.proposal = None
            return True
        return False

    # --- the remote (issue 44 item 5) ----------------------------------------------------------------------

    def plan_taps(self, sent_before: int) -> None:
        """The private messages just sent with a proposal's or a hint's buttons: a linked person taps one after
        `season_people.tap_delay` (the remote on; the others, and the tenth left for the site, answer as before)."""
        if not self.remote:
            return
        for message_id, chat, thread, _ in self.gateway.sent[sent_before:]:
            person = self.by_user.get(chat - TELEGRAM_IDS) if thread is None else None
            labels = {b.label for row in self.gateway.buttons.get(message_id, ()) for b in row if b.token}
            wanted = cards.BUTTON_CONFIRM in labels or any(label.startswith(ADD_LABEL) for label in labels)
            delay = tap_delay(person, message_id, self.now) if person is not None and wanted else None
            if delay is not None:
                self.taps.append((self.now + delay, person.user_id, message_id))

    def tap_until(self, limit: datetime) -> None:
        """The taps due before the next look, each at its own moment (the clock stands there meanwhile)."""
        due = sorted(t for t in self.taps if t[0] < limit)
        self.taps = [t for t in self.taps if t[0] >= limit]
        for when, user_id, message_id in due:
            self.now = when
            self.tap(self.by_user[user_id], message_id)

    def tap(self, p: Person, message_id: int) -> None:
        tokens = [b.token for row in self.gateway.buttons[message_id] for b in row if b.token]
        with self.session() as s:
            rows = [s.get(TelegramButton, token) for token in tokens]
            by_kind = {r.kind: r for r in rows if r is not None}
            adds = [r for r in rows if r is not None and r.kind == remote.ADD]
        first = next(iter(by_kind.values()), None)
        state = self.states.get(first.match_id) if first is not None else None
        if state is None or state.complete or not state.window.contains_instant(self.now):
            return
        if remote.CONFIRM in by_kind or remote.DECLINE in by_kind:
            proposal_id = (by_kind.get(remote.CONFIRM) or by_kind[remote.DECLINE]).subject_id
            if state.proposal == proposal_id and p.player_id in state.waiting and remote.CONFIRM in by_kind:
                self._answer_one(state, p, (message_id, {k: r.token for k, r in by_kind.items()}))
            return
        with self.session() as s:
            own = availability.own_availability(s, match_id=state.id, user_id=p.user_id)
        for button in adds:
            start, end = (datetime.fromisoformat(x) for x in button.detail.split("/"))
            if not takes_added_span(p, Interval(start, end), own, key=str(state.id), hanchan=HANCHAN):
                continue
            said = self._press(button.token, p, message_id)
            state.note(self.now, f"player {p.player_id} tapped «{cards.add_button(start, end)}»: {said[:60]}")
            self.stats.by_players["hint added from the chat"] += 1
            return

    def _press(self, token: str, p: Person, message_id: int) -> str:
        """The bot's press path (services/notifier/remote.py): the same services and decision core as the page."""
        try:
            return remote.press(
                self.engine, token, telegram_user_id=TELEGRAM_IDS + p.user_id, now=self.now, message_id=message_id
            ).answer
        except Exception as error:  # noqa: BLE001 - a failure of the service: recorded, the run goes on
            self.stats.failures.append(
                f"remote.press at {to_kirov(self.now):%d.%m %H:%M}: {type(error).__name__}: {error}"
            )
            return str(error)

    # --- the harder model: withdrawals, repaints, other activities, the desk -----------------------------

    def withdraw_and_repaint(self) -> None:
        """«Не смогу» two days before a meeting at the latest (the page's service, its time taken out), and the
        repaints after a booking (a new week drawn, the match's own meetings kept: nothing released)."""
        for state, p, booking_id in self.repaints:
            if state.complete or not state.window.contains_instant(self.now):
                continue
            keep = [
                iv for bid, iv in self.meetings.get(p.player_id, {}).items() if self._booking_match.get(bid) == state.id
            ]
            spans = merge([*free_time(self.rng, p, state.window, self.now, self.model), *keep])
            saved = self._try(availability.save_availability, match_id=state.id, user_id=p.user_id, intervals=spans,
                              release_ok=False)  # fmt: skip
            state.note(self.now, f"player {p.player_id} repainted after booking {booking_id}"
                       + ("" if done(saved) else f" — refused: {str(saved)[:60]}"))  # fmt: skip
        self.repaints = []
        if not self.model.cannot:
            return
        for state in self.states.values():
            for booking_id, span, _ in list(state.pending):
                if not self.now + timedelta(hours=6) < span.start <= self.now + timedelta(days=2):
                    continue
                for p in state.seats:
                    if (booking_id, p.player_id) in self.withdrawals_seen:
                        continue
                    self.withdrawals_seen.add((booking_id, p.player_id))
                    if chance("cannot", p.player_id, booking_id) >= self.model.cannot:
                        continue
                    gone = self._try(availability.cannot_come, booking_id=booking_id, user_id=p.user_id)
                    state.note(self.now, f"player {p.player_id}: «Не смогу» for {_span(span)}"
                               + ("" if done(gone) else f" — refused: {str(gone)[:60]}"))  # fmt: skip
                    if done(gone) and gone.active:  # Регламент §6.1: the binding fallback stays; the organizer
                        self.stats.by_players["«Не смогу» on the fallback (kept, organizer warned)"] += 1
                        continue  # keeps the time (the bench's organizer moves nothing on a warning)
                    if done(gone):
                        self.stats.by_players["«Не смогу»"] += 1
                        self._released(state, booking_id)
                        break

    def book_activities(self) -> None:
        """Other club activities (D&D and others) take the first room 18:00–23:00 on some evenings of the stage,
        entered by the organizer beforehand through the calendar's service."""
        if not self.model.activities:
            return
        first = kirov_date(self.windows[0].start)
        for k in range((kirov_date(self.windows[-1].end) - first).days):
            day = first + timedelta(days=k)
            if chance("activity", self.seed, day.isoformat()) < self.model.activities:
                made = self._try(org.book_activity, title="D&D", start=at_kirov(day, 18), end=at_kirov(day, 23),
                                 actor_user_id=self.organizer_id)  # fmt: skip
                self.stats.organizer["activity entered"] += done(made)

    def desk_evening(self) -> None:
        """The organizer's evening at the desk (services/views/desk.py), as the regulation's days come: once the
        window's first Sunday reminder has passed (Регламент §3: with no common time the four turn to the
        organizer), a match the desk lists under «Нет общего времени» or «Общее время есть, столы заняты» (or, in
        the window's last week, «Окно заканчивается…» with all four answered and no common option) gets a meeting:
        the fallback Sunday when the desk offers it (Регламент §6.1: they could not agree), else the first free time
        a day ahead (Регламент §3: the organizer may assign without confirmations); a window that is over moves its
        match on (Регламент §6.1). The fallback at the window's end stays for the rest (`fallback`)."""
        with self.session() as s:
            items = build_desk(s, now=self.now).items
        for item in items:
            kind, _, target = item.key.rpartition("-")
            stuck = (
                kind in ("nct", "nft")
                or kind == "soon"
                and all(words in item.detail for words in ("Ответили все четверо.", "Общих вариантов нет."))
            )  # «soon» (the window's last week) says first what «nct»/«nft» would
            state = self.states.get(int(target)) if (stuck or kind == "over") and target.isdigit() else None
            if state is None or state.complete:
                continue
            if kind == "over":
                self.move(state)
                continue
            if self.now < state.window.start + timedelta(days=7) or not state.window.contains_instant(self.now):
                continue
            with self.session() as s:
                remaining = match_board(s, state.id, now=self.now)[1].remaining
            if remaining < 1:
                continue
            if item.action == FALLBACK:  # Регламент §6.1: they could not agree, the fallback Sunday binds them
                made = self._try(org.apply_fallback, match_id=state.id, actor_user_id=self.organizer_id)
                if done(made):
                    self.stats.organizer["fallback from the desk"] += 1
                    self._booked(state, made.id, Interval(made.start_at, made.end_at), made.hanchans or 0)
                    state.note(self.now, f"the organizer's fallback from the desk ({item.group})")
                    continue
            if self.another_time(state, remaining, earliest=self.now + LEAD, why="from the desk"):
                state.note(self.now, f"the organizer assigned {remaining} hanchan(s) from the desk ({item.group})")

    def _booked(self, state: MatchState, booking_id: int, span: Interval, hanchans: int) -> None:
        state.pending.append((booking_id, span, hanchans))
        self._booking_match[booking_id] = state.id
        for p in state.seats:
            self.meetings.setdefault(p.player_id, {})[booking_id] = span

    def _released(self, state: MatchState, booking_id: int) -> None:
        state.pending = [m for m in state.pending if m[0] != booking_id]
        for p in state.seats:
            self.meetings.get(p.player_id, {}).pop(booking_id, None)

    # --- the table and the organizer ---------------------------------------------------------------------------

    def play(self, state: MatchState, booking_id: int, span: Interval, hanchans: int) -> None:
        state.pending = [m for m in state.pending if m[0] != booking_id]
        with self.session() as s:
            if not s.get(Booking, booking_id).active:
                return
            organizer = s.get(User, self.organizer_id)
        if state.tour not in self.no_show_done and not state.hanchans:
            self.no_show_done.add(state.tour)  # one no-show a tour: penalised, the meeting did not happen
            absent = self.rng.choice(state.seats)
            if done(self._try(add_no_show, organizer, state.id, absent.player_id)):
                self.stats.organizer["no-show penalty"] += 1
                state.penalties.append((absent.player_id, NO_SHOW))
            reason = "неявка без предупреждения: встреча не состоялась"
            cancelled = self._try(
                org.cancel_booking, booking_id=booking_id, actor_user_id=self.organizer_id, reason=reason
            )
            if done(cancelled):
                self.stats.organizer["cancel after no-show"] += 1
                self._released(state, booking_id)
            return
        for _ in range(hanchans):
            sticks = self.rng.choice((0, 0, 0, 1, 1, 2))
            points = table_points(self.rng, sticks)
            chombo = {p.player_id: int(self.rng.random() < 0.01) for p in state.seats}
            results = tuple(
                TableResult(p.player_id, pts, chombo[p.player_id]) for p, pts in zip(state.seats, points, strict=True)
            )
            with self.session() as s:
                enterer = s.get(User, state.seats[0].user_id)
            hanchan = self._try(enter_hanchan, enterer, state.id, Entry(results, sticks))
            if not done(hanchan):
                continue
            by_player = {p.player_id: pts for p, pts in zip(state.seats, points, strict=True)}
            state.hanchans[hanchan.number] = HanchanRecord(by_player, chombo, sticks)
            if state.tour not in self.dispute_done:
                self.dispute_done.add(state.tour)
                with self.session() as s:
                    disputer = s.get(User, state.seats[1].user_id)
                note = "очки третьего игрока записаны неверно"
                if done(self._try(dispute_hanchan, disputer, hanchan.id, note)):
                    self.disputes.append((state, hanchan.id, hanchan.number))

    def settle(self, state: MatchState, hanchan_id: int, number: int) -> None:
        """The organizer keeps the result in even tours and corrects it in odd ones (Регламент §6.2)."""
        with self.session() as s:
            organizer = s.get(User, self.organizer_id)
        if state.tour % 2 == 0:
            if done(self._try(resolve_dispute, organizer, hanchan_id, "результат верен")):
                self.stats.organizer["dispute kept"] += 1
            return
        old = state.hanchans[number]
        a, b = list(old.points)[2:4]
        points = {**old.points, a: old.points[b], b: old.points[a]}
        results = tuple(TableResult(p, points[p], old.chombo.get(p, 0)) for p in points)
        fixed = self._try(
            correct_hanchan,
            organizer,
            hanchan_id,
            Entry(results, old.sticks),
            reason="перепутаны очки двух игроков",
            decision="исправлено по протоколу",
        )
        if done(fixed):
            self.stats.organizer["dispute corrected"] += 1
            state.hanchans[number] = HanchanRecord(points, old.chombo, old.sticks)

    def fallback(self, window: Interval) -> None:
        """Регламент §6.1 at the window's last Saturday evening: every match still not booked gets the fallback."""
        for state in self.states.values():
            if state.window != window or state.complete:
                continue
            with self.session() as s:
                remaining = match_board(s, state.id, now=self.now)[1].remaining
            if remaining < 1:
                continue
            made = self._try(org.apply_fallback, match_id=state.id, actor_user_id=self.organizer_id)
            state.note(self.now, f"organizer's fallback for {remaining} hanchan(s): "
                       + ("booked" if done(made) else f"refused ({str(made)[:70]})"))  # fmt: skip
            if done(made):
                self.stats.organizer["fallback"] += 1
                self._booked(state, made.id, Interval(made.start_at, made.end_at), made.hanchans or 0)
                continue
            with self.session() as s:
                slot = fallback_slot(window)
                meeting = Interval(slot, slot + remaining * HANCHAN)
                rooms = decide.free_tables(
                    meeting, load_board(s, match_ids=[state.id]).busy_by_room(meeting, with_holds=False)
                )
            example = f"match {state.id}, {to_kirov(slot):%d.%m %H:%M}: «{made}» (free rooms then: {rooms})"
            if "уже сыграны" in str(made):
                self.stats.find("fallback refuses the rest of a split match", example)
            elif "Помещение занято" in str(made) and rooms:
                self.stats.find("fallback takes the first room though another is free", example)
            if rooms:  # the organizer books the same time in a free room by hand
                assigned = self._try(
                    org.assign_meeting,
                    match_id=state.id,
                    start=meeting.start,
                    end=meeting.end,
                    hanchans=remaining,
                    room_id=rooms[0][0],  # (room, table): the assignment takes the room's lowest free table
                    actor_user_id=self.organizer_id,
                    reason="Регламент §6.1: запасная дата",
                )
                if done(assigned):
                    self.stats.organizer["assign at the fallback time"] += 1
                    self._booked(state, assigned.id, meeting, remaining)
                    continue
            if self.another_time(state, remaining):
                continue
            self.move(state)

    def another_time(
        self, state: MatchState, remaining: int, earliest: datetime | None = None, why: str = "no table at the fallback"
    ) -> bool:
        """What the fallback's refusal tells the organizer to do before the next tour: another time in the window
        (Регламент §3: he may assign without the players' confirmations) — the first half hour from an hour ahead
        with a free table and none of the four in another meeting, as the read model shows it."""
        length = remaining * HANCHAN
        start = ceil_to_grid(earliest or self.now + timedelta(hours=1))
        with self.session() as s:
            board, item = match_board(s, state.id, now=self.now)
        while start + length <= state.window.end:
            meeting = Interval(start, start + length)
            busy = board.busy_by_room(meeting, exclude_match=state.id, with_holds=False)
            if decide.busy_refusal(meeting, board.meetings_of(item)) is None and decide.free_tables(meeting, busy):
                reason = "запасная дата занята: другое время окна"
                if why == "from the desk":
                    reason = "Регламент §3: общего времени или стола нет, встречу назначает организатор"
                assigned = self._try(org.assign_meeting, match_id=state.id, start=meeting.start, end=meeting.end,
                                     hanchans=remaining, actor_user_id=self.organizer_id, reason=reason)  # fmt: skip
                if not done(assigned):
                    return False
                self.stats.organizer[f"assign at another time ({why})"] += 1
                self._booked(state, assigned.id, meeting, remaining)
                return True
            start += timedelta(minutes=30)
        return False

    def move(self, state: MatchState) -> None:
        later = [w for w in self.windows if w.start >= state.window.end]
        if not later:
            self.stats.organizer["left unplayed (no later window)"] += 1
            return
        reason = "нет свободного помещения в запасное время"
        moved = self._try(org.move_to_next_window, match_id=state.id, actor_user_id=self.organizer_id, reason=reason)
        if not done(moved):
            self.stats.organizer["left unplayed (move refused)"] += 1
            return
        self.stats.organizer["move to the next window"] += 1
        state.note(self.now, "moved to the next window")
        for booking_id, *_ in list(state.pending):
            self._released(state, booking_id)
        state.window, state.moves, state.proposal = later[0], state.moves + 1, None
        self._reset_answers(state, max(self.now, later[0].start))

    # --- what the checks read back ----------------------------------------------------------------------------

    def active_meetings(self, s: Session) -> list[Meeting]:
        rows = s.exec(select(Booking).where(Booking.active)).all()
        return [Meeting(b.id, b.match_id, b.room_id, b.start_at, b.end_at, b.hanchans or 0, b.table_no) for b in rows]
