"""Benchmark: common options for 500 matches against 5 000 bookings. Pure; imports no database, reflex or telegram.

`--browser` runs the browser half instead (bench/scheduling_browser.py): confirmation click → booking shown.
"""

from __future__ import annotations

import random
import sys
import time
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from services.core.ruleset import DEFAULT  # noqa: E402
from services.scheduling.intervals import Interval, at_kirov, merge, window_slice  # noqa: E402
from services.scheduling.rules import common_options_multi  # noqa: E402

MATCHES = 500
PLAYERS = 4
INTERVALS_PER_PLAYER = 40
BOOKINGS = 5_000
ROOMS = 5
SEASON_START = date(2026, 10, 19)  # Monday
SEASON_WEEKS = 36
WINDOW_DAYS = 14
HALF_HOUR = timedelta(minutes=30)


def make_calendar(rng: random.Random) -> dict[int, list[Interval]]:
    """Per room, bookings one after another with random gaps: no two overlap in a room, as in the database."""
    per_room = BOOKINGS // ROOMS
    calendar: dict[int, list[Interval]] = {}
    for room in range(1, ROOMS + 1):
        cursor = at_kirov(SEASON_START)
        bookings: list[Interval] = []
        for _ in range(per_room):
            cursor += HALF_HOUR * rng.randint(0, 16)
            end = cursor + HALF_HOUR * rng.randint(2, 8)
            bookings.append(Interval(cursor, end))
            cursor = end
        calendar[room] = bookings
    return calendar


def make_matches(rng: random.Random) -> list[tuple[Interval, list[list[Interval]]]]:
    matches = []
    for _ in range(MATCHES):
        first = SEASON_START + timedelta(weeks=rng.randrange(SEASON_WEEKS - 2))
        window = Interval(at_kirov(first), at_kirov(first + timedelta(days=WINDOW_DAYS)))
        slots = WINDOW_DAYS * 48
        players = []
        for _ in range(PLAYERS):
            intervals = []
            for _ in range(INTERVALS_PER_PLAYER):
                start = window.start + HALF_HOUR * rng.randrange(slots - 1)
                length = HALF_HOUR * rng.randint(1, 12)
                intervals.append(Interval(start, min(start + length, window.end)))
            players.append(intervals)
        matches.append((window, players))
    return matches


def main() -> None:
    rng = random.Random(2026)
    calendar = make_calendar(rng)
    matches = make_matches(rng)
    print(
        f"{MATCHES} matches × {PLAYERS} players × {INTERVALS_PER_PLAYER} intervals; "
        f"{sum(map(len, calendar.values()))} bookings in {ROOMS} rooms"
    )

    # 1. What the app does: bookings of the window only (the database query), all rooms.
    began = time.perf_counter()
    indexed = {room: merge(bookings) for room, bookings in calendar.items()}
    found = 0
    for window, players in matches:
        busy = {room: window_slice(merged, window) for room, merged in indexed.items()}
        found += len(common_options_multi(window, players, busy, hanchan_minutes=DEFAULT.hanchan_minutes))
    multi = time.perf_counter() - began
    print(
        f"all rooms, window-sliced calendar: {multi:.3f} s total, "
        f"{multi / MATCHES * 1000:.2f} ms per match, {found} options"
    )

    # 2. Worst case: every match handed the whole 5 000-booking calendar as one room's busy list.
    everything = [b for bookings in calendar.values() for b in bookings]
    began = time.perf_counter()
    found = sum(
        len(common_options_multi(window, players, {0: everything}, hanchan_minutes=DEFAULT.hanchan_minutes))
        for window, players in matches
    )
    naive = time.perf_counter() - began
    print(
        f"one room, whole calendar each time: {naive:.3f} s total, "
        f"{naive / MATCHES * 1000:.2f} ms per match, {found} options"
    )
    print(f"total seconds: {multi + naive:.3f}")


if __name__ == "__main__":
    if "--browser" in sys.argv[1:]:  # the browser half: starts the app, needs Chromium
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from scheduling_browser import main as browser_main

        browser_main()
    else:
        main()
