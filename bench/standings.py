"""Benchmark: standings of a 1 000-player season (4 tours, 3 hanchans a match). Season-file half; imports no
reflex or telegram. Run: python3 bench/standings.py"""

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

from services.scoring import MATCH_HANCHANS, TABLE_TOTAL, Hanchan, Match, Penalty, TableResult, score_match  # noqa: E402
from services.season_file import Season, dump_season, load_season  # noqa: E402
from services.standings import Player, StandingsRow, compute_standings  # noqa: E402

PLAYERS = 1000
TOURS = 4
SEED = 2026


def random_hanchan(rng: random.Random, number: int, seats: list[int]) -> Hanchan:
    """A valid table: points in hundreds summing to 120 000 with the sticks left; now and then a chombo."""
    sticks = rng.choice((0, 0, 0, 1, 1, 2, 3))
    while True:
        first = [rng.randrange(50, 600) * 100 for _ in range(3)]
        last = TABLE_TOTAL - sticks * 1000 - sum(first)
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
            hanchans = tuple(random_hanchan(rng, n, seats) for n in range(1, MATCH_HANCHANS + 1))
            penalties = (Penalty(seats[0], -80000, "неявка"),) if rng.random() < 0.01 else ()
            matches.append(Match(len(matches) + 1, "regular", tour, table + 1, hanchans, penalties))
    return Season(roster, tuple(matches))


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


# The database half (the same season loaded into the tables, standings computed from the database) goes here as
# bench_database(season), called from main() after bench_season_file.


def main() -> None:
    season = generate_season()
    hanchans = sum(len(m.hanchans) for m in season.matches)
    print(f"{len(season.players)} players, {TOURS} tours, {len(season.matches)} matches, {hanchans} hanchans")
    bench_season_file(season)


if __name__ == "__main__":
    main()
