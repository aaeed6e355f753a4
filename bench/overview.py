"""Benchmark: the organizer's /schedule overview for 16, 200 and 400 matches, on SQLite and on PostgreSQL:
milliseconds to build it and the SQL statements it issues (the count must not grow with the matches).

The season is bench/desk.py's: four two-week tours, everyone's availability, a booking for every other match.
PostgreSQL is the local server of the tests (tests/conftest.py); without it only SQLite is measured.

    .venv/bin/python bench/overview.py
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import sqlalchemy as sa  # noqa: E402
from sqlmodel import Session  # noqa: E402

from bench.desk import NOW, seed  # noqa: E402
from services.core.db import make_engine, migrate  # noqa: E402
from services.scheduling.view import overview  # noqa: E402
from tests.conftest import _postgres_available, fresh_postgres_database  # noqa: E402

MATCHES = (16, 200, 400)  # four tours: a player per match
RUNS = 7


def measure(engine: sa.Engine) -> tuple[float, float, int, int]:
    """The median and the fastest of RUNS builds (ms), the statements of one build, the rows it shows."""
    statements: list[str] = []
    sa.event.listen(engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    times = []
    for _ in range(RUNS):
        statements.clear()
        with Session(engine) as session:
            began = time.perf_counter()
            rows = overview(session, now=NOW)
            times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times), min(times), len(statements), len(rows)


def main() -> None:
    results = {}
    for matches in MATCHES:
        with tempfile.TemporaryDirectory() as tmp:
            url = f"sqlite:///{tmp}/bench.db"
            migrate(url)
            results.setdefault("SQLite", []).extend(run_one("SQLite", url, matches))
    if _postgres_available():
        for matches in MATCHES:
            with fresh_postgres_database() as url:
                results.setdefault("PostgreSQL", []).extend(run_one("PostgreSQL", url, matches))
    else:
        print("PostgreSQL на 127.0.0.1:5432 недоступен: измерен только SQLite")
    for label, counts in results.items():
        print(f"{label}: statements do not grow with the matches: {len(set(counts)) == 1} {counts}")


def run_one(label: str, url: str, matches: int) -> list[int]:
    engine = make_engine(url)
    began = time.perf_counter()
    seed(engine, matches, random.Random(1))
    seeded = time.perf_counter() - began
    ms, fastest, statements, rows = measure(engine)
    engine.dispose()
    print(f"{label:<10} {matches:4d} matches  median {ms:6.1f} ms (fastest {fastest:6.1f})  "
          f"{statements:3d} SQL statements  ({rows} rows; seeded in {seeded:.0f} s)")  # fmt: skip
    return [statements]


if __name__ == "__main__":
    main()
