"""Benchmark: standings of a 1 000-player season (4 tours, 3 hanchans a match), from a season file and from the
database; imports no reflex or telegram. Run: python3 bench/standings.py"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from services.core.ruleset import DEFAULT  # noqa: E402
from services.results.scoring import Hanchan, Match, Penalty, TableResult, score_match  # noqa: E402
from services.results.season_file import Season, dump_season, load_season  # noqa: E402
from services.results.standings import Player, StandingsRow, compute_standings  # noqa: E402

PLAYERS = 1000
TOURS = 4
SEED = 2026


def random_hanchan(rng: random.Random, number: int, seats: list[int]) -> Hanchan:
    """A valid table: points in hundreds summing to 120 000 with the sticks left; now and then a chombo."""
    sticks = rng.choice((0, 0, 0, 1, 1, 2, 3))
    while True:
        first = [rng.randrange(50, 600) * 100 for _ in range(3)]
        last = DEFAULT.table_total - sticks * 1000 - sum(first)
        if -20000 <= last <= 80000:
            break
    points = [*first, last]
    rng.shuffle(points)
    return Hanchan(
        number,
        sticks,
        tuple(TableResult(p, pts, int(rng.random() < 0.01)) for p, pts in zip(seats, points, strict=True)),
    )


def generate_season(players: int = PLAYERS, tours: int = TOURS, seed: int = SEED) -> Season:
    """Every tour seats everyone at random tables of four; each match has its three hanchans; a few no-shows."""
    rng = random.Random(seed)
    roster = tuple(Player(i, f"Игрок {i}", "main") for i in range(1, players + 1))
    matches: list[Match] = []
    for tour in range(1, tours + 1):
        order = [p.id for p in roster]
        rng.shuffle(order)
        for table in range(players // 4):
            seats = order[table * 4 : table * 4 + 4]
            hanchans = tuple(random_hanchan(rng, n, seats) for n in range(1, DEFAULT.hanchans_per_match + 1))
            no_show = Penalty(seats[0], -DEFAULT.no_show_penalty, "неявка")
            penalties = (no_show,) if rng.random() < 0.01 else ()
            matches.append(Match(len(matches) + 1, "regular", tour, table + 1, hanchans, penalties, rules=DEFAULT))
    return Season(roster, tuple(matches), DEFAULT)  # no season here: the regulation's numbers, said so


def standings_from_file(path: Path) -> list[StandingsRow]:
    """What `discard standings --season` does: parse and validate the file, score every match, rank."""
    season = load_season(path)
    return compute_standings(season.players, [score_match(m) for m in season.matches])


def measure(work: Callable[[], Any]) -> tuple[float, int]:
    """Seconds of one run without tracing, then peak traced memory of a second run."""
    started = time.perf_counter()
    work()
    seconds = time.perf_counter() - started
    tracemalloc.start()
    work()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return seconds, peak


def bench_season_file(season: Season) -> tuple[float, int]:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "season.json"
        path.write_text(json.dumps(dump_season(season), ensure_ascii=False), encoding="utf-8")
        size = path.stat().st_size
        seconds, peak = measure(lambda: standings_from_file(path))
    print(f"season file ({size / 1e6:.1f} MB): {seconds:.3f} s, peak {peak / 2**20:.1f} MiB")
    return seconds, peak


def write_database(season: Season, url: str) -> int:
    """The same season in a fresh migrated database (bulk inserts, explicit ids); returns the season id."""
    from sqlalchemy import insert

    from services.core import models
    from services.core.db import make_engine, migrate, session_scope

    migrate(url)
    engine = make_engine(url)
    now = models.utc_now()  # core inserts skip the models' default factories
    with session_scope(engine) as session:
        session.execute(
            insert(models.User),
            [
                {
                    "id": 1,
                    "login_name": "организатор",
                    "display_name": "Организатор",
                    "password_hash": "-",
                    "role": "organizer",
                    "created_at": now,
                }
            ],
        )
        session.execute(
            insert(models.User),
            [
                {
                    "id": 1 + p.id,
                    "login_name": f"игрок {p.id}",
                    "display_name": p.name,
                    "password_hash": "-",
                    "created_at": now,
                }
                for p in season.players
            ],
        )
        session.execute(insert(models.Season), [{"id": 1, "name": "Бенчмарк"}])
        session.execute(
            insert(models.Player),
            [
                {"id": p.id, "season_id": 1, "user_id": 1 + p.id, "status": p.status, "registration_order": p.id}
                for p in season.players
            ],
        )
        session.execute(insert(models.Stage), [{"id": 1, "season_id": 1, "kind": "regular"}])
        session.execute(insert(models.Round), [{"id": t, "stage_id": 1, "code": str(t)} for t in range(1, TOURS + 1)])
        session.execute(
            insert(models.Match),
            [{"id": m.id, "round_id": m.round, "table": str(m.table), "status": "complete"} for m in season.matches],
        )
        session.execute(
            insert(models.Seat),
            [
                {"match_id": m.id, "player_id": r.player, "seed": i}
                for m in season.matches
                for i, r in enumerate(m.hanchans[0].results, 1)
            ],
        )
        hanchans, results, penalties = [], [], []
        for m in season.matches:
            for h in m.hanchans:
                hid = len(hanchans) + 1
                hanchans.append(
                    {"id": hid, "match_id": m.id, "number": h.number, "riichi_left": h.riichi_left, "entered_at": now}
                )
                results += [
                    {"hanchan_id": hid, "player_id": r.player, "points": r.points, "chombo": r.chombo}
                    for r in h.results
                ]
            penalties += [
                {
                    "match_id": m.id,
                    "player_id": p.player,
                    "points": p.points,
                    "kind": "no_show",
                    "reason": p.reason,
                    "decided_by_user_id": 1,
                    "decided_at": now,
                }
                for p in m.penalties
            ]
        session.execute(insert(models.Hanchan), hanchans)
        session.execute(insert(models.HanchanResult), results)
        if penalties:
            session.execute(insert(models.Penalty), penalties)
    engine.dispose()
    return 1


def bench_database(season: Season) -> tuple[float, int]:
    """The same season written to SQLite, then what the standings page does: load effective rows, score, rank."""
    from services.core.db import make_engine, session_scope
    from services.results.repo import db_standings

    with tempfile.TemporaryDirectory() as directory:
        url = f"sqlite:///{Path(directory) / 'league.db'}"
        started = time.perf_counter()
        season_id = write_database(season, url)
        print(f"database written in {time.perf_counter() - started:.1f} s")
        engine = make_engine(url)

        def work() -> list[StandingsRow]:
            with session_scope(engine) as session:
                return db_standings(session, season_id)

        rows = work()
        assert rows == standings_from_season(season), "the database and the season file disagree"
        seconds, peak = measure(work)
        engine.dispose()
    print(f"database (SQLite): {seconds:.3f} s, peak {peak / 2**20:.1f} MiB")
    return seconds, peak


def standings_from_season(season: Season) -> list[StandingsRow]:
    return compute_standings(season.players, [score_match(m) for m in season.matches])


def main() -> None:
    season = generate_season()
    hanchans = sum(len(m.hanchans) for m in season.matches)
    print(f"{len(season.players)} players, {TOURS} tours, {len(season.matches)} matches, {hanchans} hanchans")
    bench_season_file(season)
    bench_database(season)


if __name__ == "__main__":
    main()
