"""Benchmark: load held. N players (default 52: 13 tables) in their own browsers at once, each saving its
availability 20 times, then every table proposing and confirming its meeting, against one site process on SQLite
and against two processes on PostgreSQL and Redis (`--workers 2`). Prints throughput, p50/p95/max latency and
errors (must be 0), and checks the final database: every player's last save is what is stored and every table is
booked exactly once.

    .venv/bin/python bench/load.py                  # one worker, SQLite
    .venv/bin/python bench/load.py --workers 2      # two workers, PostgreSQL + Redis (local servers)

Starts the app like tests/e2e/conftest.py (its helpers and its `.web.lock`). Not a test: it prints its figures.
A save's latency is measured in the page, from the click to the grid marked saved.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.async_api import Page, async_playwright  # noqa: E402
from sqlmodel import col, select  # noqa: E402

from services.core.db import session_scope  # noqa: E402
from services.core.models import Booking, utc_now  # noqa: E402
from services.league.roster import add_player, current_season  # noqa: E402
from services.scheduling.intervals import Interval, at_kirov, kirov_date, merge  # noqa: E402
from services.scheduling.repo import availabilities  # noqa: E402
from tests import factories  # noqa: E402
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, running_app  # noqa: E402

SAVES = 20
WEEKDAYS = ("пн", "вт", "ср", "чт", "пт", "сб", "вс")
REDIS_URL = "redis://127.0.0.1:6379/9"
TIMEOUT_MS = 60_000


def _slot(table: int, first_day) -> tuple[str, tuple[int, int], Interval]:  # noqa: ANN001
    """Each table's final common time: its own day, evening or afternoon, so the one room can take every table."""
    day = first_day + timedelta(days=1 + table % 7)
    hours = (18, 24) if table < 7 else (12, 18)
    start = at_kirov(day, hours[0])
    return f"{WEEKDAYS[day.weekday()]} {day:%d.%m}", hours, Interval(start, start + timedelta(hours=6))


def _seed(app, players: int) -> list[tuple[int, list[tuple[str, str]], tuple[str, tuple[int, int]]]]:  # noqa: ANN001
    """`players` new players in tables of four, each table a match in one window; returns (match, seats, slot)."""
    first = kirov_date(utc_now()) + timedelta(days=1)
    window = Interval(at_kirov(first), at_kirov(first + timedelta(days=8)))
    engine = app.engine()
    tables = []
    with session_scope(engine) as session:
        season = current_season(session)
        organizer_id = 1
        seats = []
        for n in range(players):
            player, password = add_player(session, season, f"Нагрузка {n:03d}", actor_user_id=organizer_id)
            seats.append((f"Нагрузка {n:03d}", password, player.id))
        for t in range(players // 4):
            names = seats[4 * t : 4 * t + 4]
            match = factories.match_for_names(session, [n for n, _, _ in names], window, table=str(t + 1))
            tables.append((match.id, names, _slot(t, first)))
    engine.dispose()
    return tables


async def _login(page: Page, url: str, name: str, password: str, path: str) -> None:
    await page.goto(f"{url}/login")
    await page.get_by_label("Имя").fill(name)
    await page.get_by_label("Пароль").fill(password)
    await page.get_by_role("button", name="Войти").click()
    await page.wait_for_url(lambda u: "/login" not in u, timeout=TIMEOUT_MS)
    await page.goto(f"{url}{path}")
    await page.wait_for_function("window.discardGrid !== undefined", timeout=TIMEOUT_MS)


PAINT = """([seed, day, from, to]) => {
  const cells = Array.from(document.querySelectorAll('[data-cell]'));
  let x = seed;
  const random = () => { x = (x * 1103515245 + 12345) % 2147483648; return x / 2147483648; };
  const painted = cells.map((c) => {
    if (c.dataset.state === 'x') return '0';
    if (day === null) return random() < 0.3 ? '1' : '0';
    const label = c.getAttribute('aria-label');
    const hour = Number(label.slice(-5, -3));
    return label.startsWith(day + ' ') && hour >= from && hour < to ? '1' : '0';
  }).join('');
  window.discardGrid.load(painted);
  return window.discardGrid.serialize();
}"""


async def _save(page: Page, seed: int, day: str | None, hours: tuple[int, int]) -> tuple[float, str]:
    painted = await page.evaluate(PAINT, [seed, day, hours[0], hours[1]])
    started = time.perf_counter()
    await page.get_by_role("button", name="Сохранить доступность").click()
    await page.wait_for_function("!window.discardGrid.isDirty()", timeout=TIMEOUT_MS)
    return time.perf_counter() - started, painted


async def _player(browser, url, match_id, name, password, slot, stats, seed):  # noqa: ANN001, PLR0913
    context = await browser.new_context(locale="ru-RU", timezone_id="Europe/Kirov")
    page = await context.new_page()
    try:
        await _login(page, url, name, password, f"/match/{match_id}/schedule")
        for n in range(SAVES):
            final = n == SAVES - 1  # the last save is the table's common time
            seconds, _ = await _save(page, seed * 100 + n, slot[0] if final else None, slot[1])
            stats["saves"].append(seconds)
        return page
    except Exception as error:  # noqa: BLE001 - a benchmark counts errors instead of stopping
        stats["errors"].append(f"{name}: {type(error).__name__}: {str(error)[:200]}")
        return page


async def _table(pages: list[Page], stats: dict) -> None:
    """The first player proposes the common option; the other three confirm at once."""
    try:
        started = time.perf_counter()
        await pages[0].reload()
        await pages[0].get_by_role("button", name="Предложить встречу").click(timeout=TIMEOUT_MS)
        for page in pages[1:]:
            await page.get_by_role("button", name="Подтвердить").wait_for(timeout=TIMEOUT_MS)
        await asyncio.gather(*(page.get_by_role("button", name="Подтвердить").click() for page in pages[1:]))
        await pages[0].get_by_text("Забронировано:").first.wait_for(timeout=TIMEOUT_MS)
        stats["bookings"].append(time.perf_counter() - started)
    except Exception as error:  # noqa: BLE001
        stats["errors"].append(f"table: {type(error).__name__}: {str(error)[:200]}")


async def _run(app, tables, stats) -> None:  # noqa: ANN001
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        jobs = [
            _player(browser, app.url, match_id, name, password, slot, stats, seed=t * 4 + s)
            for t, (match_id, seats, slot) in enumerate(tables)
            for s, (name, password, _) in enumerate(seats)
        ]
        started = time.perf_counter()
        pages = await asyncio.gather(*jobs)
        stats["save_seconds"] = time.perf_counter() - started
        await asyncio.gather(*(_table(pages[4 * t : 4 * t + 4], stats) for t in range(len(tables))))
        await browser.close()


def _figures(label: str, values: list[float]) -> str:
    if not values:
        return f"{label}: none"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return (f"{label}: n={len(values)} p50 {statistics.median(ordered) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
            f"max {ordered[-1] * 1000:.0f} ms")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=52)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    with ExitStack() as stack:
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        database_url, env = None, {}
        if args.workers > 1:
            from tests.conftest import fresh_postgres_database

            database_url = stack.enter_context(fresh_postgres_database())
            env = {"REFLEX_REDIS_URL": REDIS_URL, "GRANIAN_WORKERS": str(args.workers)}
        app = stack.enter_context(running_app(workdir, database_url=database_url, extra_env=env))
        tables = _seed(app, args.players - args.players % 4)
        stats: dict = {"saves": [], "bookings": [], "errors": []}
        random.seed(1)
        asyncio.run(_run(app, tables, stats))
        engine = app.engine()
        wrong = []
        with session_scope(engine) as session:
            ids = [m for m, _, _ in tables]
            booked = session.exec(select(Booking).where(col(Booking.match_id).in_(ids), Booking.active)).all()
            for match_id, seats, slot in tables:  # every player's last save (their table's slot) is what is stored
                stored = availabilities(session, match_id)
                wrong += [name for name, _, player_id in seats if merge(stored.get(player_id, [])) != [slot[2]]]
        engine.dispose()
    per_match = {m: sum(b.match_id == m for b in booked) for m in ids}
    mode = "SQLite, one worker" if args.workers == 1 else f"PostgreSQL + Redis, {args.workers} workers"
    print(f"== {len(tables) * 4} players, {SAVES} saves each, {len(tables)} tables ({mode}); load {os.getloadavg()}")
    print(f"saves: {len(stats['saves'])} in {stats.get('save_seconds', 0):.1f} s = "
          f"{len(stats['saves']) / max(stats.get('save_seconds', 1), 1e-9):.1f} saves/s")  # fmt: skip
    print(_figures("save latency", stats["saves"]))
    print(_figures("propose → 3 confirmations → booking shown", stats["bookings"]))
    print(f"errors: {len(stats['errors'])}")
    for error in stats["errors"][:10]:
        print("  ", error)
    print(f"last save stored for every player: {'yes' if not wrong else 'NO: ' + ', '.join(wrong[:5])}")
    print(f"each table booked exactly once: {'yes' if set(per_match.values()) == {1} else per_match}")


if __name__ == "__main__":
    main()
