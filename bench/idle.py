"""Benchmark: the cost of open pages while nobody acts, and how fast another process's change reaches them.

N open /match/N/schedule pages (default 16, 100 and 300, opened one after another in one app run), each speaking
Reflex's websocket protocol as a browser tab does (the pages of an older checkout also press their live tick every
second, as its browsers did) but without rendering. For each N: the server processes' CPU time over `--seconds` of
nobody acting, read from /proc (every process the app started), as % of one core and as ms per open tab per second
above the server's own with no page open; then `--changes` availability saves made through the services by this
process (another process than the site, as the bot or the command line) and the time from each commit until every
open page of that match got its delta. One worker on SQLite, or `--workers 2` on PostgreSQL + Redis (local servers).

    .venv/bin/python bench/idle.py                                  # this checkout, one worker, SQLite
    .venv/bin/python bench/idle.py --workers 2                      # two workers, PostgreSQL + Redis
    .venv/bin/python bench/idle.py --checkout /work/wt-push-old     # another checkout (e.g. main) for old vs new

Starts the app like tests/e2e/conftest.py (that checkout's helpers; it builds its own front end first).
Not a test: it prints.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from datetime import timedelta
from pathlib import Path

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--tabs", default="16,100,300", help="open pages, comma-separated, increasing")
parser.add_argument("--seconds", type=float, default=10.0, help="idle time measured per N")
parser.add_argument("--changes", type=int, default=10, help="changes by another process per N")
parser.add_argument("--workers", type=int, default=1)
parser.add_argument("--checkout", default=str(Path(__file__).resolve().parent.parent))
ARGS = parser.parse_args()
CHECKOUT = Path(ARGS.checkout).resolve()
sys.path.insert(0, str(CHECKOUT))

import simple_websocket  # noqa: E402

import services.core.security  # noqa: E402
from services.core.db import session_scope  # noqa: E402
from services.core.models import User, utc_now  # noqa: E402
from services.league.accounts import start_session  # noqa: E402
from services.league.roster import add_player, current_season  # noqa: E402
from services.scheduling import availability  # noqa: E402
from services.scheduling.intervals import Interval, at_kirov, kirov_date  # noqa: E402
from tests import factories  # noqa: E402
from tests.e2e.conftest import running_app  # noqa: E402

NAMESPACE = "/_event"
REDIS_URL = "redis://127.0.0.1:6379/8"
PAGE_STATE = (
    "reflex___state____state.discard_app___state___auth____auth_state"
    ".discard_app___pages___scheduling___match_schedule_state____match_schedule_state"
)
# An older checkout's pages poll: its browsers press the hidden live button every second.
TICKS = "TICK_MS" in (CHECKOUT / "discard_app" / "components" / "live.py").read_text()
WINDOW_DAYS = 8
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


class Tab:
    """One open page: a websocket read by its own thread, which answers pings (and ticks on an older checkout)
    and notes when a delta of the page's state arrived."""

    def __init__(self, url: str, token: str, match_id: int) -> None:
        path = f"/match/{match_id}/schedule"
        self.router = {"pathname": path, "asPath": path, "query": {"match_id": str(match_id)}}
        self.vars: dict = {}
        self.last_delta = 0.0
        self.running = True
        ws_url = url.replace("http", "ws", 1) + f"{NAMESPACE}/?token={uuid.uuid4()}&EIO=4&transport=websocket"
        self.ws = simple_websocket.Client.connect(ws_url, headers={"Cookie": f"discard_session={token}"})
        while not (self.ws.receive(timeout=60) or "").startswith("0"):
            pass
        hydrate = {"name": "reflex___state____state.hydrate_and_load", "payload": {}, "router_data": self.router}
        self.ws.send(f"40{NAMESPACE}," + json.dumps({"event": hydrate}))
        deadline = time.monotonic() + 60
        while self.vars.get("allowed") is not True:
            if time.monotonic() > deadline:
                raise RuntimeError("the page did not load")
            self._read(0.05)
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _loop(self) -> None:
        last_tick = time.monotonic()
        while self.running:
            if TICKS and time.monotonic() - last_tick >= 1.0:
                event = {"name": f"{PAGE_STATE}.tick", "payload": {}, "router_data": self.router}
                self.ws.send(f"42{NAMESPACE}," + json.dumps(["event", event]))
                last_tick = time.monotonic()
            try:
                self._read(0.2)
            except Exception:  # noqa: BLE001 — closed at the end
                return

    def _read(self, timeout: float) -> None:
        frame = self.ws.receive(timeout=timeout)
        if frame is None:
            return
        if frame == "2":
            self.ws.send("3")
            return
        prefix = f"42{NAMESPACE},"
        if not frame.startswith(prefix):
            return
        _, body = json.loads(frame[len(prefix) :])
        for name, values in (body.get("delta") or {}).items():
            if name == PAGE_STATE:
                self.vars.update({key.removesuffix("_rx_state_"): value for key, value in values.items()})
                self.last_delta = time.perf_counter()

    def close(self) -> None:
        self.running = False
        self.ws.close()


def _descendants() -> list[int]:
    """Every process this one started (the app's CLI, its server, its workers), by their parent ids in /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, frontier = [], [os.getpid()]
    while frontier:
        parent = frontier.pop()
        children = [pid for pid, ppid in parents.items() if ppid == parent]
        found += children
        frontier += children
    return found


def _cpu_seconds(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / CLOCK_TICKS


def _seed(app, players: int) -> list[tuple[int, list[tuple[str, int]]]]:  # noqa: ANN001
    """Tables of four new players, each table a match; (match id, [(session token, user id)]) per table."""
    services.core.security.hash_password = lambda password: "bench-hash"  # nobody logs in: no argon2 here
    first = kirov_date(utc_now()) + timedelta(days=1)
    window = Interval(at_kirov(first), at_kirov(first + timedelta(days=WINDOW_DAYS)))
    engine = app.engine()
    tables = []
    with session_scope(engine) as session:
        season = current_season(session)
        for t in range(players // 4):
            seats, names = [], []
            for s in range(4):
                name = f"Простой {t:03d}-{s}"
                player, _ = add_player(session, season, name, actor_user_id=1)
                user = session.get(User, player.user_id)
                seats.append((start_session(session, user, now=utc_now(), session_days=1), user.id))
                names.append(name)
            match = factories.match_for_names(session, names, window, table=str(t + 1))
            tables.append((match.id, seats))
    engine.dispose()
    return tables


def _change(app, match_id: int, user_id: int, k: int) -> float:  # noqa: ANN001
    """A save through the services from this process; returns when it committed."""
    day = kirov_date(utc_now()) + timedelta(days=2 + k % 5)
    engine = app.engine()
    with session_scope(engine) as session:
        availability.save_availability(session, match_id=match_id, user_id=user_id, now=utc_now(),
                                       intervals=[Interval(at_kirov(day, 10 + k % 8), at_kirov(day, 20))])  # fmt: skip
    committed = time.perf_counter()
    engine.dispose()
    return committed


def _idle(seconds: float) -> float:
    """The app's processes' CPU time per second of wall time over `seconds` (1.0 = one core)."""
    pids = _descendants()
    before, started = _cpu_seconds(pids), time.perf_counter()
    time.sleep(seconds)
    return (_cpu_seconds(pids) - before) / (time.perf_counter() - started)


def _percentiles(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"p50 {statistics.median(ordered) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms"


def main() -> None:
    counts = [int(n) for n in ARGS.tabs.split(",")]
    with ExitStack() as stack:
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        database_url, env = None, {}
        if ARGS.workers > 1:
            from tests.conftest import fresh_postgres_database  # noqa: PLC0415

            database_url = stack.enter_context(fresh_postgres_database())
            env = {"REFLEX_REDIS_URL": REDIS_URL, "GRANIAN_WORKERS": str(ARGS.workers)}
        app = stack.enter_context(running_app(workdir, database_url=database_url, extra_env=env))
        tables = _seed(app, max(counts))
        mode = "SQLite, one worker" if ARGS.workers == 1 else f"PostgreSQL + Redis, {ARGS.workers} workers"
        print(f"== {CHECKOUT.name} ({'polling pages' if TICKS else 'pushed pages'}), {mode}, {os.cpu_count()} cores")
        tabs: list[tuple[int, int, Tab]] = []  # (table index, seat, tab)
        change_no = 0
        base = _idle(ARGS.seconds)  # the server with no page open: its own timers
        previous: tuple[int, float] | None = None
        print(f"   0 open pages: idle server CPU {base * 100:5.1f} % of a core")
        try:
            for count in counts:
                with ThreadPoolExecutor(8) as pool:  # opened eight at a time, as a crowd does
                    places = [divmod(n, 4) for n in range(len(tabs), count)]
                    opened = pool.map(lambda place: Tab(app.url, tables[place[0]][1][place[1]][0],
                                                        tables[place[0]][0]), places)  # fmt: skip
                    tabs += [(t, seat, tab) for (t, seat), tab in zip(places, opened, strict=True)]
                time.sleep(3)  # the last pages' loads settle
                share = _idle(ARGS.seconds)
                per_tab = max(share - base, 0.0) / count * 1000
                # what one more open page costs: above the previous N's (the worker's own fixed costs left out)
                marginal = max(share - previous[1], 0.0) / (count - previous[0]) * 1000 if previous else per_tab
                previous = (count, share)
                delays = []
                for _ in range(ARGS.changes):
                    t = change_no % (count // 4)
                    watching = [tab for tt, _, tab in tabs if tt == t]
                    for tab in watching:
                        tab.last_delta = 0.0
                    time.sleep(0.35 + 0.05 * (change_no % 7))  # not in step with any poll
                    committed = _change(app, tables[t][0], tables[t][1][change_no % 4][1], change_no)
                    deadline = time.perf_counter() + 10
                    while any(tab.last_delta == 0.0 for tab in watching) and time.perf_counter() < deadline:
                        time.sleep(0.005)
                    delays += [tab.last_delta - committed for tab in watching if tab.last_delta]
                    missed = sum(tab.last_delta == 0.0 for tab in watching)
                    if missed:
                        print(f"   {missed} page(s) of match {tables[t][0]} got no delta within 10 s")
                    change_no += 1
                print(f"{count:4d} open pages: idle server CPU {share * 100:5.1f} % of a core, {per_tab:.3f} ms "
                      f"per page per second above the empty server's ({marginal:.3f} ms for each page above the "
                      f"previous N); another process's change → the match's "
                      f"{len(watching)} pages: {_percentiles(delays)}")  # fmt: skip
        finally:
            for _, _, tab in tabs:
                tab.close()


if __name__ == "__main__":
    main()
