"""Benchmark: a whole regular stage through the services on a simulated clock, then the league's invariants.

N players with uneven weekly availability (some busy, some answering only after the Sunday reminder), rooms of
a number of tables (default one room of 4; an open proposal holds its table 48 h), the bot off for tour 2, one
no-show and one dispute a tour, the organizer's fallback at each window's end
(bench/season_sim.py, bench/season_people.py). It prints the share of matches the players booked alone, the share
whose four had any common time (the ceiling), the share played, days from a window's opening to a booking,
organizer actions, SQL statements per match and wall time; then checks the invariants (bench/season_checks.py)
and exits 1 listing every one that broke. Seeded and deterministic; imports no reflex or telegram. `--explain`
prints, per match whose four shared time but which the players did not book alone, its reason in one line
(`miss_reason`), the common time and the hanchans it holds, its bookings and who made them, and its story
(proposals, declines, refusals, the hints read — shared by two or not —, what the page offered and what the options
lost to tables and meetings); then a tally of the reasons.

    .venv/bin/python bench/season.py --players 16 --rooms 1 --tables 4 --seed 1   # the club: one room, 4 tables
    .venv/bin/python bench/season.py --players 48 --rooms 3 --tables 1            # the old variants stay selectable
    .venv/bin/python bench/season.py --all    # N ∈ {16, 48, 200} × {1×4, 1×1, 3×1}: one markdown table
    .venv/bin/python bench/season.py --players 48 --explain   # why each match with common time was not booked alone
    .venv/bin/python bench/season.py --database-url postgresql+psycopg://…/empty_db
    .venv/bin/python bench/season.py --players 48 --model hard --seeds 1,2,3 --remote both   # issues 43, 44 item 5

`--model hard` (bench/season_people.py `HARD`): about half of the foursomes share no painted time, very busy
people and people who answer only after the Sunday reminder, declines, repaints after a booking and «Не смогу»
(availability.cannot_come, the page's service), D&D taking the first room on about a third of the evenings
(organizer.book_activity), and the organizer at the desk every evening (views/desk.py's items: the fallback
Sunday, or an assignment). `--remote on`: linked people with private messages tap the proposal's and the hint's
buttons through services/notifier/remote.py's `press` after `season_people.tap_delay` (Exp(mean 2 h), nights
waiting for 08:00; a tenth left for the site). `--seeds`: the last table is the worst over the seeds.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlmodel import col, func, select  # noqa: E402

from bench import season_checks as checks  # noqa: E402
from bench.season_people import MODELS, OLD, Model  # noqa: E402
from bench.season_sim import Simulation  # noqa: E402
from services.core.models import (  # noqa: E402
    Booking,
    Hanchan,
    Match,
    MatchCard,
    MatchStatus,
    OutboxEvent,
    Room,
    Round,
    Seat,
    TelegramSend,
)
from services.notifier.cards import card_text  # noqa: E402
from services.notifier.snapshot import snapshots  # noqa: E402
from services.results.repo import db_standings  # noqa: E402
from services.scheduling.intervals import Interval  # noqa: E402
from services.scheduling.repo import availabilities  # noqa: E402
from services.scheduling.rules import players_free, short_span  # noqa: E402

HANCHAN = timedelta(minutes=90)  # the season's planning length of a hanchan

CHECKS = (
    "no table double-booked",
    "no player in two meetings at once",
    "no match over its hanchans",
    "no meeting outside its window",
    "standings equal an independent sum",
    "every outbox event delivered exactly once",
    "services raised only their domain errors",
    "every card equals the read model's text at the end",
)


@dataclass
class Report:
    players: int
    rooms: int
    seed: int
    tables: int = 1  # per room
    model: str = "old"
    remote: bool = False  # linked people answer from the private messages' buttons (issue 44 item 5)
    matches: int = 0
    bookings: int = 0  # the matches' active bookings at the end
    by_players: int = 0  # of them, booked by the players' four confirmations
    alone: int = 0
    ceiling: int = 0
    alone_of_ceiling: int = 0
    # the capacity-aware ceiling: their four shared time at which a table was free of every other booking and none
    # of them sat in another match's meeting (the bookings as they stand at the end)
    capacity: int = 0
    alone_of_capacity: int = 0
    whole: int = 0  # their four had common time for all three hanchans (in one meeting or several)
    alone_of_whole: int = 0
    played: int = 0
    days: list[float] = field(default_factory=list)
    organizer_actions: int = 0
    statements: int = 0
    seconds: float = 0.0
    violations: dict[str, list[str]] = field(default_factory=dict)
    unbooked: list[str] = field(default_factory=list)  # per match with common time not booked alone: why (--explain)
    checked: list[str] = field(default_factory=list)
    sim: Simulation | None = None

    def share(self, n: int, of: int | None = None) -> str:
        of = self.matches if of is None else of
        return f"{100 * n / of:.0f} % ({n}/{of})" if of else "—"

    def quantile(self, q: float) -> str:
        if not self.days:
            return "—"
        ordered = sorted(self.days)
        return f"{ordered[min(len(ordered) - 1, int(q * len(ordered)))]:.1f}"

    @property
    def broken(self) -> list[str]:
        return [name for name in self.checked if self.violations.get(name)]


def check(sim: Simulation) -> dict[str, list[str]]:
    """Reads back what the services stored and runs every invariant; each name maps to its violations."""
    with sim.session() as s:
        meetings = sim.active_meetings(s)
        seats: dict[int, list[int]] = {}
        for match_id, player_id in s.exec(select(Seat.match_id, Seat.player_id)).all():
            seats.setdefault(match_id, []).append(player_id)
        rounds = {r.id: r for r in s.exec(select(Round)).all()}
        windows, planned, earlier = {}, {}, {}
        for m in s.exec(select(Match)).all():
            r = rounds[m.window_round_id or m.round_id]
            windows[m.id], planned[m.id] = (r.window_start, r.window_end), m.planned_hanchans
            passed = [rounds[i] for i in sorted(rounds) if m.round_id <= i < r.id]  # the windows it moved out of
            earlier[m.id] = [(p.window_start, p.window_end) for p in passed if p.stage_id == r.stage_id]
        played = dict(
            s.exec(
                select(Hanchan.match_id, func.count())
                .where(col(Hanchan.superseded_by_id).is_(None))
                .group_by(col(Hanchan.match_id))
            ).all()
        )
        db_totals = {int(row.player): row.total for row in db_standings(s, sim.season_id)}
        events = s.exec(select(func.count()).select_from(OutboxEvent)).one()
        undelivered = s.exec(
            select(func.count()).select_from(OutboxEvent).where(col(OutboxEvent.delivered_at).is_(None))
        ).one()
        recorded = list(s.exec(select(MatchCard.message_id)).all()) + list(
            s.exec(select(TelegramSend.message_id)).all()
        )
        posted = dict(s.exec(select(MatchCard.match_id, MatchCard.message_id)).all())
        truth = {snap.match_id: card_text(snap) for snap in snapshots(s, sorted(posted), now=sim.now)}
    independent = checks.independent_totals(
        {st.id: ([p.player_id for p in st.seats], st.hanchans, st.penalties, 3) for st in sim.states.values()}
    )
    return {
        CHECKS[0]: checks.room_double_bookings(meetings),
        CHECKS[1]: checks.player_clashes(meetings, seats),
        CHECKS[2]: checks.over_hanchans(meetings, planned, played),
        CHECKS[3]: checks.outside_window(meetings, windows, earlier),
        CHECKS[4]: checks.standings_mismatch(db_totals, independent),
        CHECKS[5]: checks.outbox_violations(
            events=events,
            undelivered=undelivered,
            delivered_by_passes=sim.stats.delivered,
            sent_ids=[m[0] for m in sim.gateway.sent],
            recorded_ids=recorded,
        ),
        CHECKS[6]: list(sim.stats.failures),
        CHECKS[7]: checks.stale_cards(truth, {mid: sim.gateway.shown.get(message) for mid, message in posted.items()}),
    }


def measure(sim: Simulation, report: Report) -> None:
    """The figures: who booked each match, whether its four ever shared time, whether it was played."""
    with sim.session() as s:
        by_match: dict[int, list[Booking]] = {}
        for b in s.exec(select(Booking).where(Booking.active, col(Booking.match_id).is_not(None))).all():
            by_match.setdefault(b.match_id, []).append(b)
        status = dict(s.exec(select(Match.id, Match.status)).all())
        meetings = sim.active_meetings(s)
        places = [(room, t) for room, n in s.exec(select(Room.id, Room.tables)).all() for t in range(1, n + 1)]
        by_player: dict[int, list[checks.Meeting]] = {}
        for m in meetings:
            for p in sim.states[m.match_id].seats if m.match_id in sim.states else ():
                by_player.setdefault(p.player_id, []).append(m)
        report.bookings = sum(len(v) for v in by_match.values())
        report.by_players = sum(b.proposal_id is not None for v in by_match.values() for b in v)
        for state in sim.states.values():
            own = by_match.get(state.id, [])
            alone = bool(own) and all(b.proposal_id is not None for b in own) and sum(b.hanchans or 0 for b in own) >= 3
            free = availabilities(s, state.id)
            common = players_free(state.window, [free.get(p.player_id, []) for p in state.seats])
            shared = any(iv.duration >= HANCHAN for iv in common)
            whole = sum(iv.duration // HANCHAN for iv in common) >= 3
            others = [m for m in meetings if m.match_id != state.id]
            sitting = [
                Interval(m.start, m.end)
                for p in state.seats
                for m in by_player.get(p.player_id, [])
                if m.match_id != state.id
            ]
            capacity = any(iv.duration >= HANCHAN for iv in checks.table_free_time(common, others, places, sitting))
            if shared and not alone:
                report.unbooked.append(explain(state, common, own, free))
            report.alone += alone
            report.ceiling += shared
            report.alone_of_ceiling += alone and shared
            report.capacity += capacity
            report.alone_of_capacity += alone and capacity
            report.whole += whole
            report.alone_of_whole += alone and whole
            report.played += status.get(state.id) == MatchStatus.COMPLETE
    report.matches = len(sim.states)


def miss_reason(state, common, own: list[Booking]) -> str:  # noqa: ANN001
    """One line: why the four of a match with common time did not book it alone, read from its figures and story
    (the first that applies)."""
    holds = sum(iv.duration // HANCHAN for iv in common)
    by_players = sum(b.hanchans or 0 for b in own if b.proposal_id is not None)
    notes = state.notes
    late = sum("declined: too late" in n for n in notes)
    read = [n for n in notes if "read the hint" in n]
    followed = [n for n in notes if "followed the hint" in n]
    too_soon = any("too soon or too short" in n or "the window ends within a day" in n for n in notes)
    if state.penalties:
        return "a meeting the players booked was cancelled after the tour's no-show (the organizer booked the rest)"
    if late:
        return f"a proposal was not confirmed by all four before it began ({late} too late)"
    if holds <= by_players:
        who = sorted({n.split("player ", 1)[1].split(" ", 1)[0] for n in read})
        shared = sum("shared" in n for n in read + followed)
        return (
            f"common time held {holds} hanchan(s), all booked by them; the rest needed added time: "
            f"hints not taken {len(read)}× (by players {', '.join(who) or '—'}; {shared} shared), "
            f"followed {len(followed)}×"
            + ("; a time added came within a day, too late to propose" if followed and too_soon else "")
        )
    if too_soon:
        return f"the common time left ({holds - by_players} hanchan(s)) came within a day: too late to propose"
    if any("none offered" in n for n in notes):
        return "the common time left was taken by other matches' tables or the four's meetings"
    return "other (see the story)"


def explain(state, common, own: list[Booking], free) -> str:  # noqa: ANN001
    """Why a match whose four shared time was not booked by them alone: the reason in one line (`miss_reason`),
    the common time in its (last) window and the hanchans each span holds, its bookings and who made them, then
    its story (`MatchState.notes`)."""
    spans = ", ".join(f"{short_span(iv.start, iv.end)} ({iv.duration // HANCHAN})" for iv in common)
    holds = sum(iv.duration // HANCHAN for iv in common)
    lines = [
        f"match {state.id} (tour {state.tour}, moved {state.moves}×): common time holds {holds} hanchan(s): {spans}",
        f"  reason: {miss_reason(state, common, own)}",
    ]
    painted = {p.player_id: sum((iv.duration for iv in free.get(p.player_id, [])), timedelta()) for p in state.seats}
    lines.append("  painted hours per player: " + ", ".join(f"{h / timedelta(hours=1):.1f}" for h in painted.values()))
    for b in sorted(own, key=lambda b: b.start_at):
        who = "players" if b.proposal_id is not None else "organizer"
        lines.append(f"  booking {short_span(b.start_at, b.end_at)}: {b.hanchans} hanchan(s) by the {who}")
    lines += [f"  {note}" for note in state.notes]
    return "\n".join(lines)


def run_season(
    players: int,
    rooms: int,
    seed: int,
    *,
    days: int | None = None,
    database_url: str | None = None,
    tables: int = 1,
    model: Model = OLD,
    remote: bool = False,
) -> Report:
    began = time.perf_counter()
    report = Report(players, rooms, seed, tables, model.name, remote)
    with tempfile.TemporaryDirectory() as tmp:
        url = database_url or f"sqlite:///{Path(tmp) / 'season.db'}"
        sim = Simulation(players, rooms, seed, url=url, tables=tables, model=model, remote=remote)
        sim.setup()
        sim.run(days=days)
        measure(sim, report)
        report.violations = check(sim)
        report.checked = list(report.violations)
        sim.engine.dispose()
    report.days = sim.stats.booking_days
    report.organizer_actions = sum(v for k, v in sim.stats.organizer.items() if not k.startswith("left"))
    report.statements = sim.stats.statements
    report.seconds = time.perf_counter() - began
    report.sim = sim
    return report


def print_report(r: Report, *, explain: bool = False) -> None:
    st = r.sim.stats
    if explain:
        print(f"\nmatches whose four shared time but were not booked by them alone ({len(r.unbooked)}):")
        for text in r.unbooked:
            print(text)
        kinds = Counter(
            line.split("reason: ", 1)[1].split(":", 1)[0].split(" (", 1)[0]
            for text in r.unbooked
            for line in text.splitlines()
            if line.startswith("  reason: ")
        )
        print("why, in short:")
        for kind, n in kinds.most_common():
            print(f"  {n:4d} × {kind}")
    print(
        f"\n{r.players} players, {r.rooms} room(s) × {r.tables} table(s), seed {r.seed}, the {r.model} model, "
        f"the remote {'on' if r.remote else 'off'}: {r.matches} matches"
    )
    print(f"booked by the players alone:          {r.share(r.alone)}")
    print(f"their four had any common time:       {r.share(r.ceiling)}  (the ceiling)")
    print(f"players alone, of those with time:    {r.share(r.alone_of_ceiling, r.ceiling)}")
    print(f"common time with a table free:        {r.share(r.capacity)}  (the capacity-aware ceiling, as booked)")
    print(f"players alone, of those:              {r.share(r.alone_of_capacity, r.capacity)}")
    print(f"common time for all three hanchans:   {r.share(r.whole)}; of those booked by the players alone: "
          f"{r.share(r.alone_of_whole, r.whole)}")  # fmt: skip
    print(f"played (all three hanchans):          {r.share(r.played)}")
    print(f"days from a window's opening to a players' booking: median {r.quantile(0.5)}, p90 {r.quantile(0.9)}"
          f" ({len(r.days)} bookings)")  # fmt: skip
    print(f"bookings the players made:            {r.share(r.by_players, r.bookings)} of the matches' bookings")
    print(f"the blocker's hint followed:          {st.by_players['hint followed']} time(s)"
          f" ({st.by_players['shared hint followed']} of them shared by two)")  # fmt: skip
    print(f"what the players did themselves:      {dict(sorted(st.by_players.items()))}")
    print(f"a proposal's reminder looked at:      {st.by_players['proposal reminder read']} time(s)")
    print(f"organizer actions needed:             {r.organizer_actions}  {dict(sorted(st.organizer.items()))}")
    print(f"SQL statements per match:             {r.statements / max(r.matches, 1):.0f}"
          f" ({r.statements} while playing; setup {st.setup_seconds:.1f} s)")  # fmt: skip
    print(
        f"outbox: {st.delivered} events delivered, {len(r.sim.gateway.sent)} messages sent, {r.sim.gateway.edits} edits"
    )
    print(f"wall time:                            {r.seconds:.1f} s (playing {st.play_seconds:.1f} s)")
    print(f"domain errors the people met ({sum(st.domain_errors.values())}):")
    for what, n in st.domain_errors.most_common():
        print(f"  {n:5d} × {what}")
    for what, examples in st.findings.items():
        print(f"found: {what}: {len(examples)}, e.g. {examples[0]}")
    for name in r.checked:
        bad = r.violations[name]
        print(f"[{'BROKEN' if bad else 'ok'}] {name}" + (f": {len(bad)}" if bad else ""))
        for line in first_of_each_kind(bad):
            print(f"    e.g. {line}")


def first_of_each_kind(violations: list[str]) -> list[str]:
    """The first violation of each kind (the words in parentheses, when there are any)."""
    seen: dict[str, str] = {}
    for line in violations:
        kind = line.split("(", 1)[1].split(")", 1)[0] if "(" in line else ""
        seen.setdefault(kind, line)
    return list(seen.values())[:3]


def table(reports: list[Report]) -> str:
    head = (
        "| players | rooms × tables | players alone | ceiling (any common time) | alone of ceiling "
        "| ceiling with a table free | alone of it "
        "| alone of time for 3 | played | days median | days p90 | organizer actions | SQL / match | wall s "
        "| broken invariants |"
    )
    lines = [head, "|" + "---|" * 15]
    for r in reports:
        lines.append(
            f"| {r.players} | {r.rooms} × {r.tables} | {r.share(r.alone)} | {r.share(r.ceiling)} | "
            f"{r.share(r.alone_of_ceiling, r.ceiling)} | {r.share(r.capacity)} | "
            f"{r.share(r.alone_of_capacity, r.capacity)} | {r.share(r.alone_of_whole, r.whole)} | "
            f"{r.share(r.played)} | {r.quantile(0.5)} | "
            f"{r.quantile(0.9)} | {r.organizer_actions} | {r.statements / max(r.matches, 1):.0f} | "
            f"{r.seconds:.0f} | {', '.join(r.broken) or 'none'} |"
        )
    return "\n".join(lines)


def worst(reports: list[Report]) -> str:
    """One row per model, players, rooms and remote: the worst over the seeds (the least booked alone, played and
    booked by the players, the most days to a booking, every invariant any seed broke)."""
    head = (
        "| model | players | rooms × tables | remote | seeds | players alone (min) | players' share of bookings (min) "
        "| played (min) | days median (max) | days p90 (max) | organizer actions (max) | wall s (max) "
        "| broken invariants |"
    )
    lines = [head, "|" + "---|" * 13]
    groups: dict[tuple[str, int, int, int, bool], list[Report]] = {}
    for r in reports:
        groups.setdefault((r.model, r.players, r.rooms, r.tables, r.remote), []).append(r)
    for (model, players, rooms, tables, remote), rs in groups.items():
        low = min(rs, key=lambda r: r.alone / max(r.matches, 1))
        share = min(rs, key=lambda r: r.by_players / max(r.bookings, 1))
        played = min(rs, key=lambda r: r.played / max(r.matches, 1))
        median = max(float(r.quantile(0.5)) if r.days else 0.0 for r in rs)
        p90 = max(float(r.quantile(0.9)) if r.days else 0.0 for r in rs)
        broken = sorted({name for r in rs for name in r.broken})
        lines.append(
            f"| {model} | {players} | {rooms} × {tables} | {'on' if remote else 'off'} | "
            f"{','.join(str(r.seed) for r in rs)} | {low.share(low.alone)} | "
            f"{share.share(share.by_players, share.bookings)} | {played.share(played.played)} | {median:.1f} | "
            f"{p90:.1f} | {max(r.organizer_actions for r in rs)} | {max(r.seconds for r in rs):.0f} | "
            f"{', '.join(broken) or 'none'} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--rooms", type=int, default=1)
    parser.add_argument("--tables", type=int, default=4, help="mahjong tables per room (1: the old one-table room)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seeds", default=None, help="several seeds, e.g. 1,2,3: the summary takes the worst")
    parser.add_argument("--model", choices=sorted(MODELS), default=OLD.name, help="the people and the club (hard: "
                        "issue 43 item 5)")  # fmt: skip
    parser.add_argument(
        "--remote", choices=("off", "on", "both"), default="off",
        help="linked people answer from the private messages' buttons (issue 44 item 5); both: before and after",
    )  # fmt: skip
    parser.add_argument("--days", type=int, default=None, help="stop the clock after this many days")
    parser.add_argument(
        "--all", action="store_true", help="N ∈ {16, 48, 200} × (1 room of 4 tables, 1 room of 1, 3 rooms of 1)"
    )
    parser.add_argument(
        "--explain", action="store_true", help="per match with common time not booked alone: why (its story)"
    )
    parser.add_argument("--database-url", default=None, help="an empty database to migrate (default: SQLite)")
    args = parser.parse_args(argv)
    seeds = [int(s) for s in args.seeds.split(",")] if args.seeds else [args.seed]
    remotes = {"off": [False], "on": [True], "both": [False, True]}[args.remote]
    if args.database_url and (args.all or len(seeds) * len(remotes) > 1):
        parser.error("--database-url takes one run (an empty database each time)")
    variants = ((1, 4), (1, 1), (3, 1))  # (rooms, tables per room)
    runs = [(n, k, t) for n in (16, 48, 200) for k, t in variants] if args.all else [
        (args.players, args.rooms, args.tables)
    ]  # fmt: skip
    reports = []
    for players, rooms, tables in runs:
        for remote in remotes:
            for seed in seeds:
                report = run_season(
                    players, rooms, seed, days=args.days, database_url=args.database_url, tables=tables,
                    model=MODELS[args.model], remote=remote,
                )  # fmt: skip
                print_report(report, explain=args.explain)
                reports.append(report)
    print("\n" + table(reports))
    print("\n" + worst(reports))
    broken = [(r, name) for r in reports for name in r.broken]
    if broken:
        print("\nBROKEN INVARIANTS:", file=sys.stderr)
        for r, name in broken:
            bad = r.violations[name]
            print(
                f"  {r.players} players, {r.rooms} room(s) × {r.tables}, seed {r.seed}, {r.model}, remote "
                f"{'on' if r.remote else 'off'}: {name} — {len(bad)}:",
                file=sys.stderr,
            )
            for line in first_of_each_kind(bad):
                print(f"    {line}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
