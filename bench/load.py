"""Benchmark: load held. N players (default 52: 13 tables) at once, each an open scheduling page speaking Reflex's
websocket protocol exactly as a browser tab does (the events and deltas a tab exchanges; the server pushes every
change to the pages it concerns) but without a browser's rendering, so the figures are the server's: every player
saves its availability 20 times back to back, then every table proposes its common option and the other three
confirm as soon as their page shows the proposal. Against one site process on SQLite, and against two processes on
PostgreSQL and Redis (`--workers 2`). Prints throughput, p50/p95/max latency and errors (must be 0), and checks the
final database: every player's last save is what is stored and every table is booked exactly once.

    .venv/bin/python bench/load.py                  # one worker, SQLite
    .venv/bin/python bench/load.py --workers 2      # two workers, PostgreSQL + Redis (local servers)

Starts the app like tests/e2e/conftest.py (its helpers; it builds its own front end first). The players'
sessions are created by the accounts service (logging in is bench/login_load.py's subject); everything after that
goes through the site. Not a test: it prints its figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
import uuid
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import simple_websocket  # noqa: E402
from sqlmodel import col, select  # noqa: E402

from services.core.db import session_scope  # noqa: E402
from services.core.models import Booking, User, utc_now  # noqa: E402
from services.league.accounts import start_session  # noqa: E402
from services.league.roster import add_player, current_season  # noqa: E402
from services.scheduling.intervals import SLOTS_PER_DAY, Interval, at_kirov, kirov_date, merge  # noqa: E402
from services.scheduling.repo import availabilities  # noqa: E402
from tests import factories  # noqa: E402
from tests.e2e.conftest import running_app  # noqa: E402

SAVES = 20
WINDOW_DAYS = 8
REDIS_URL = "redis://127.0.0.1:6379/9"
TIMEOUT = 60.0  # seconds for one answer before it counts as an error
NAMESPACE = "/_event"
PAGE_STATE = (
    "reflex___state____state.discard_app___state___auth____auth_state"
    ".discard_app___pages___scheduling___match_schedule_state____match_schedule_state"
)
SAVED_SCRIPT = "window.discardGrid && window.discardGrid.saved()"  # what a successful save sends back


class BenchError(Exception):
    pass


@dataclass
class Table:
    match_id: int
    seats: list[tuple[str, str, int]]  # name, session token, player id
    day_index: int  # the table's final common time: its own day of the window ...
    hours: tuple[int, int]  # ... and hours
    slot: Interval


@dataclass
class Stats:
    saves: list[float] = field(default_factory=list)
    confirmations: list[float] = field(default_factory=list)
    bookings: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, value: float | str) -> None:
        with self.lock:
            getattr(self, kind).append(value)


class Tab:
    """One open /match/N/schedule page: a websocket, the page state's vars as the deltas set them (pushed by the
    server when its match changes: discard_app/live_push.py)."""

    def __init__(self, url: str, token: str, match_id: int) -> None:
        self.path = f"/match/{match_id}/schedule"
        self.router = {"pathname": self.path, "asPath": self.path, "query": {"match_id": str(match_id)}}
        self.vars: dict = {}
        self.scripts: list[str] = []
        self.received = 0  # bytes of the frames received (bench/save_profile.py)
        ws_url = url.replace("http", "ws", 1) + f"{NAMESPACE}/?token={uuid.uuid4()}&EIO=4&transport=websocket"
        # The session cookie as a browser sends it; no Origin header (the client's Host has no port to match it).
        self.ws = simple_websocket.Client.connect(ws_url, headers={"Cookie": f"discard_session={token}"})
        self._expect(lambda frame: frame.startswith("0"))
        hydrate = {"name": "reflex___state____state.hydrate_and_load", "payload": {}, "router_data": self.router}
        self.ws.send(f"40{NAMESPACE}," + json.dumps({"event": hydrate}))
        self.wait(lambda: self.vars.get("allowed") is True, "the page did not load")

    def send(self, handler: str, **payload: object) -> None:
        event = {"name": f"{PAGE_STATE}.{handler}", "payload": payload, "router_data": self.router}
        self.ws.send(f"42{NAMESPACE}," + json.dumps(["event", event]))

    def wait(self, done, what: str) -> None:  # noqa: ANN001
        """Reads frames until `done()`; an error shown fails at once."""
        deadline = time.monotonic() + TIMEOUT
        while not done():
            if self.vars.get("error"):
                raise BenchError(f"{what}: {self.vars['error']}")
            if time.monotonic() > deadline:
                raise BenchError(f"{what}: no answer in {TIMEOUT:.0f} s")
            self._read(timeout=0.05)

    def _expect(self, match) -> str:  # noqa: ANN001
        while True:
            frame = self.ws.receive(timeout=TIMEOUT)
            if frame is None:
                raise BenchError("the connection went silent")
            if match(frame):
                return frame

    def _read(self, timeout: float) -> None:
        frame = self.ws.receive(timeout=timeout)
        if frame is None:
            return
        self.received += len(frame)
        if frame == "2":  # engine.io ping
            self.ws.send("3")
            return
        prefix = f"42{NAMESPACE},"
        if not frame.startswith(prefix):
            return
        _, body = json.loads(frame[len(prefix) :])
        for name, values in (body.get("delta") or {}).items():
            if name == PAGE_STATE:
                self.vars.update({key.removesuffix("_rx_state_"): value for key, value in values.items()})
        for event in body.get("events") or []:
            if event.get("name") == "_call_script":
                self.scripts.append(event["payload"]["javascript_code"])

    def save(self, painted: str) -> float:
        self.scripts.clear()
        self.vars["error"] = ""
        started = time.perf_counter()
        # the grid's form: the painted grid and the tab's one-time key (renewed by each save's delta)
        self.send("save_grid", form={"grid": painted, "action_key": self.vars.get("action_key", "")})
        self.wait(lambda: SAVED_SCRIPT in self.scripts, "save")
        return time.perf_counter() - started

    def close(self) -> None:
        self.ws.close()


def _seed(app, players: int) -> list[Table]:  # noqa: ANN001
    """`players` new players in tables of four, each table a match in one window, each player with a session."""
    first = kirov_date(utc_now()) + timedelta(days=1)
    window = Interval(at_kirov(first), at_kirov(first + timedelta(days=WINDOW_DAYS)))
    engine = app.engine()
    tables = []
    with session_scope(engine) as session:
        season = current_season(session)
        people = []
        for n in range(players):
            name = f"Нагрузка {n:03d}"
            player, _ = add_player(session, season, name, actor_user_id=1)
            user = session.get(User, player.user_id)
            people.append((name, start_session(session, user, now=utc_now(), session_days=1), player.id))
        for t in range(players // 4):
            seats = people[4 * t : 4 * t + 4]
            match = factories.match_for_names(session, [n for n, _, _ in seats], window, table=str(t + 1))
            day_index, hours = 1 + t % 7, (18, 24) if t < 7 else (12, 18)
            slot = _slot(first, day_index, hours)
            tables.append(Table(match.id, seats, day_index, hours, slot))
    engine.dispose()
    return tables


def _slot(first: date, day_index: int, hours: tuple[int, int]) -> Interval:
    """Each table's own day, evening or afternoon, so the one room can take every table."""
    start = at_kirov(first + timedelta(days=day_index), hours[0])
    return Interval(start, start + timedelta(hours=hours[1] - hours[0]))


def _painted(rng: random.Random, table: Table | None) -> str:
    """A grid as the page sends it: a few free evenings and afternoons (three to six spans of one to six hours,
    as people paint them), or, for the last save, only the table's common time."""
    cells = ["0"] * (WINDOW_DAYS * SLOTS_PER_DAY)
    if table is None:
        for _ in range(rng.randint(3, 6)):
            first = rng.randrange(WINDOW_DAYS) * SLOTS_PER_DAY + rng.randrange(16, 40)  # from 08:00 to 20:00
            for cell in range(first, min(first + rng.randint(2, 12), len(cells))):
                cells[cell] = "1"
        return "".join(cells)
    for slot in range(table.hours[0] * 2, table.hours[1] * 2):
        cells[table.day_index * SLOTS_PER_DAY + slot] = "1"
    return "".join(cells)


def _player(url: str, table: Table, seat: int, stats: Stats, ready: threading.Barrier, tabs: list) -> None:  # noqa: PLR0913
    rng = random.Random(table.match_id * 10 + seat)
    tab = None
    try:
        tab = Tab(url, table.seats[seat][1], table.match_id)
        tabs[seat] = tab
        ready.wait()
        for n in range(SAVES):
            stats.add("saves", tab.save(_painted(rng, table if n == SAVES - 1 else None)))
    except Exception as error:  # noqa: BLE001 - a benchmark counts errors instead of stopping
        stats.add("errors", f"{table.seats[seat][0]}: {type(error).__name__}: {str(error)[:200]}")
        ready.abort()


def _table(tabs: list[Tab], stats: Stats) -> None:
    """The first player proposes the page's first common option; the other three confirm at once, each as soon as
    the proposal reaches their open page (pushed); done when every page shows the booking."""
    try:
        proposer = tabs[0]
        proposer.wait(lambda: bool(proposer.vars.get("options")), "options after the last saves")
        option = proposer.vars["options"][0]
        started = time.perf_counter()
        proposer.send("propose", form={"start": option["start"], "end": option["end"], "hanchans": option["hanchans"]})
        confirming = [threading.Thread(target=_confirm, args=(tab, stats)) for tab in tabs[1:]]
        for thread in confirming:
            thread.start()
        for thread in confirming:
            thread.join()
        for tab in tabs:
            tab.wait(lambda tab=tab: bool(tab.vars.get("bookings")), "booking shown")
        stats.add("bookings", time.perf_counter() - started)
    except Exception as error:  # noqa: BLE001
        stats.add("errors", f"table {tabs[0].path}: {type(error).__name__}: {str(error)[:200]}")


def _confirm(tab: Tab, stats: Stats) -> None:
    try:
        tab.wait(lambda: any(p["can_answer"] for p in tab.vars.get("proposals") or []), "proposal shown")
        proposal = next(p for p in tab.vars["proposals"] if p["can_answer"])
        tab.vars["notice"] = ""
        sent = time.perf_counter()
        tab.send("answer", proposal_id=proposal["id"], confirmed=True)
        tab.wait(lambda: bool(tab.vars.get("notice")), "confirmation")
        stats.add("confirmations", time.perf_counter() - sent)
    except Exception as error:  # noqa: BLE001
        stats.add("errors", f"confirmation {tab.path}: {type(error).__name__}: {str(error)[:200]}")


def _run(url: str, tables: list[Table], stats: Stats) -> float:
    tabs = [[None] * 4 for _ in tables]
    opened: list[float] = []  # when every page is open: the saves start together
    ready = threading.Barrier(4 * len(tables), action=lambda: opened.append(time.perf_counter()))
    threads = [
        threading.Thread(target=_player, args=(url, table, seat, stats, ready, tabs[t]))
        for t, table in enumerate(tables)
        for seat in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    saving = time.perf_counter() - (opened[0] if opened else time.perf_counter())
    table_threads = [
        threading.Thread(target=_table, args=(table_tabs, stats)) for table_tabs in tabs if None not in table_tabs
    ]
    for thread in table_threads:
        thread.start()
    for thread in table_threads:
        thread.join()
    for table_tabs in tabs:
        for tab in table_tabs:
            if tab is not None:
                tab.close()
    return saving


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
        stats = Stats()
        load_before = os.getloadavg()
        saving = _run(app.url, tables, stats)
        engine = app.engine()
        wrong = []
        with session_scope(engine) as session:
            ids = [t.match_id for t in tables]
            booked = session.exec(select(Booking).where(col(Booking.match_id).in_(ids), Booking.active)).all()
            for table in tables:  # every player's last save (their table's slot) is what is stored
                stored = availabilities(session, table.match_id)
                wrong += [name for name, _, pid in table.seats if merge(stored.get(pid, [])) != [table.slot]]
        engine.dispose()
    per_match = {m: sum(b.match_id == m for b in booked) for m in ids}
    mode = "SQLite, one worker" if args.workers == 1 else f"PostgreSQL + Redis, {args.workers} workers"
    after = os.getloadavg()[0]
    print(f"== {len(tables) * 4} players, {SAVES} saves each, {len(tables)} tables ({mode}); "
          f"load average before {load_before[0]:.2f}, after {after:.2f}; {os.cpu_count()} cores")  # fmt: skip
    print(f"saves: {len(stats.saves)} in {saving:.1f} s = {len(stats.saves) / max(saving, 1e-9):.1f} saves/s")
    print(_figures("save latency (sent → saved)", stats.saves))
    print(_figures("confirmation latency (sent → answered)", stats.confirmations))
    print(_figures("propose → 3 confirmations → booking on all four pages", stats.bookings))
    print(f"errors: {len(stats.errors)}")
    for error in stats.errors[:10]:
        print("  ", error)
    print(f"last save stored for every player: {'yes' if not wrong else 'NO: ' + ', '.join(wrong[:5])}")
    print(f"each table booked exactly once: {'yes' if set(per_match.values()) == {1} else per_match}")


if __name__ == "__main__":
    main()
