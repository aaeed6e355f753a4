"""Benchmark: the organizer's desk and the /schedule overview on a season of 200 players (50 tables × 4 tours,
everyone's availability, a booking for every other match): seconds to build each and the SQL statements each
issues, beside the same figures for a quarter of the season (the statement count must not grow with the matches).

    .venv/bin/python bench/desk.py [--players 200]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import sqlalchemy as sa  # noqa: E402
from sqlmodel import Session  # noqa: E402

from services.core.db import make_engine, migrate, session_scope  # noqa: E402
from services.core.models import Match, Player, Role, Room, Round, Season, Seat, Stage, StageKind, User  # noqa: E402
from services.scheduling import availability  # noqa: E402
from services.scheduling import organizer as scheduling_admin  # noqa: E402
from services.scheduling.intervals import Interval, at_kirov  # noqa: E402
from services.scheduling.view import overview  # noqa: E402
from services.views.desk import build_desk  # noqa: E402

SEASON_START = date(2026, 10, 19)  # a Monday; four two-week windows
NOW = at_kirov(date(2026, 11, 25), 12)  # inside tour 3: tours 1–2 are over, tour 3 ends within a week


def seed(engine: sa.Engine, players: int, rng: random.Random) -> None:
    with session_scope(engine) as session:
        organizer = User(login_name="org", display_name="Организатор", password_hash="-", role=Role.ORGANIZER)
        season = Season(name="Лига")
        session.add_all([organizer, season, Room(name="Зал 1"), Room(name="Зал 2")])
        session.flush()
        stage = Stage(season_id=season.id, kind=StageKind.REGULAR)
        session.add(stage)
        session.flush()
        people = []
        for n in range(players):
            user = User(login_name=f"p{n}", display_name=f"Игрок {n:03d}", password_hash="-")
            session.add(user)
            session.flush()
            player = Player(season_id=season.id, user_id=user.id, registration_order=n + 1)
            session.add(player)
            people.append((user, player))
        session.flush()
        tours = []
        for tour in range(4):
            first = SEASON_START + timedelta(days=14 * tour)
            r = Round(stage_id=stage.id, code=str(tour + 1), window_start=at_kirov(first),
                      window_end=at_kirov(first + timedelta(days=14)))  # fmt: skip
            session.add(r)
            session.flush()
            order = people[:]
            rng.shuffle(order)
            for table in range(players // 4):
                match = Match(round_id=r.id, table=str(table + 1))
                session.add(match)
                session.flush()
                seats = order[4 * table : 4 * table + 4]
                for seed_no, (_, p) in enumerate(seats, start=1):
                    session.add(Seat(match_id=match.id, player_id=p.id, seed=seed_no))
                tours.append((match.id, r, [u.id for u, _ in seats]))
        organizer_id = organizer.id
    for match_id, r, user_ids in tours:
        with session_scope(engine) as session:
            for user_id in user_ids:
                spans = []
                for _ in range(4):
                    day = r.window_start + timedelta(days=rng.randrange(14))
                    start = day + timedelta(hours=rng.randrange(10, 20))
                    spans.append(Interval(start, start + timedelta(hours=rng.randrange(2, 6))))
                availability.save_availability(
                    session, match_id=match_id, user_id=user_id, intervals=spans, now=r.window_start
                )
        if match_id % 2 == 0:
            start = r.window_start + timedelta(days=rng.randrange(13), hours=rng.choice([10, 14, 18]))
            try:
                with session_scope(engine) as session:
                    scheduling_admin.assign_meeting(session, match_id=match_id, start=start, hanchans=3,
                                                    actor_user_id=organizer_id, now=r.window_start)  # fmt: skip
            except Exception:  # noqa: BLE001 - a taken room: this match stays unbooked
                pass


def measure(engine: sa.Engine, label: str, fn) -> tuple[float, int]:  # noqa: ANN001
    seen: list[str] = []

    def count(*args) -> None:  # noqa: ANN002
        seen.append(args[2])

    sa.event.listen(engine, "before_cursor_execute", count)
    with Session(engine) as session:
        began = time.perf_counter()
        fn(session)
        seconds = time.perf_counter() - began
    sa.event.remove(engine, "before_cursor_execute", count)
    print(f"{label:<34} {seconds:7.3f} s {len(seen):5d} SQL statements")
    return seconds, len(seen)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=200)
    args = parser.parse_args()
    counts = {}
    for players in (args.players // 4 // 4 * 4, args.players):
        with tempfile.TemporaryDirectory() as tmp:
            url = f"sqlite:///{tmp}/bench.db"
            migrate(url)
            engine = make_engine(url)
            began = time.perf_counter()
            seed(engine, players, random.Random(1))
            print(f"\n{players} players, {players // 4 * 4} matches: seeded in {time.perf_counter() - began:.1f} s")
            _, desk_sql = measure(engine, "desk (build_desk)", lambda s: build_desk(s, now=NOW))
            _, overview_sql = measure(engine, "/schedule overview (overview)", lambda s: overview(s, now=NOW))
            with Session(engine) as session:
                print(f"desk items: {build_desk(session, now=NOW).count}")
            counts[players] = (desk_sql, overview_sql)
            engine.dispose()
    small, big = counts.values()
    print(f"\nstatements do not grow with the matches: {small == big} ({small} vs {big})")


if __name__ == "__main__":
    main()
