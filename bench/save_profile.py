"""Benchmark: where a save and a confirmation spend their time (issue 26 item 3). The real site (prod mode, one
worker, SQLite; `--redis` for its state in Redis) with bench/save_probe.py loaded into its process; open
/match/N/schedule pages speak Reflex's websocket protocol as in bench/load.py, one event at a time. Per kind of
event it prints the medians of: SQL statements, the whole event in the server, the handler's time (in its one
transaction and outside it), the page's reload, the delta's computation and its size by var, the state's pickling
as a state manager writes it (every touched state of the tab's tree) and reading it back, and the round trip the
tab sees; then the pushes to the match's other open pages. With the disk manager (the default) a state stays
"touched" until the manager's debounced write, so 'state B' can count several events' states; `--redis` writes
after each event, so its figures are one event's.

    .venv/bin/python bench/save_profile.py              # 4 tables: 160 saves, 8 confirmations, 4 bookings
    .venv/bin/python bench/save_profile.py --redis      # the states in Redis (db 12), where every event reads them

Not a test: it prints its figures.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import SAVED_SCRIPT, Tab, _painted, _seed  # noqa: E402
from tests.e2e.conftest import running_app  # noqa: E402

REDIS_URL = "redis://127.0.0.1:6379/12"
SAVES = 10  # per player, after one save not counted


def _sitecustomize(folder: Path) -> Path:
    folder.mkdir()
    (folder / "sitecustomize.py").write_text(
        f"import sys\nsys.path.insert(0, {str(ROOT)!r})\nfrom bench import save_probe\nsave_probe.install()\n"
    )
    return folder


def _drive(url: str, tables: list, seen: dict[str, list[float]]) -> None:
    for table in tables:
        tabs = [Tab(url, token, table.match_id) for _, token, _ in table.seats]
        rng = random.Random(table.match_id)
        for n in range(SAVES + 1):
            for tab in tabs:
                last = n == SAVES
                started = time.perf_counter()
                tab.save(_painted(rng, table if last else None))
                if n:
                    seen["save_grid"].append(time.perf_counter() - started)
                time.sleep(0.1)  # the pushes to the other three pages are done before the next save
        proposer = tabs[0]
        proposer.wait(lambda proposer=proposer: bool(proposer.vars.get("options")), "options")
        option = proposer.vars["options"][0]
        proposer.send("propose", form={**{k: option[k] for k in ("start", "end", "hanchans")},
                                       "action_key": proposer.vars.get("action_key", "")})  # fmt: skip
        for seat, tab in enumerate(tabs[1:], start=1):
            tab.wait(lambda tab=tab: any(p["can_answer"] for p in tab.vars.get("proposals") or []), "proposal")
            proposal = next(p for p in tab.vars["proposals"] if p["can_answer"])
            tab.vars["notice"] = ""
            received = tab.received
            started = time.perf_counter()
            tab.send("answer", proposal_id=proposal["id"], confirmed=True, key=tab.vars.get("action_key", ""))
            tab.wait(lambda tab=tab: bool(tab.vars.get("notice")), "confirmation")
            seen["book" if seat == 3 else "confirm"].append(time.perf_counter() - started)
            seen[("book" if seat == 3 else "confirm") + "_bytes"].append(tab.received - received)
            time.sleep(0.05)
        for tab in tabs:
            tab.wait(lambda tab=tab: bool(tab.vars.get("bookings")), "booking shown")
            tab.close()


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0


def _report(records: list[dict], seen: dict[str, list[float]]) -> None:
    kinds: dict[str, list[dict]] = defaultdict(list)
    answers = [r for r in records if r["event"] == "answer"]
    for n, record in enumerate(answers):  # the third answer of a table books (bench order: three per table)
        record["event"] = "book" if n % 3 == 2 else "confirm"
    for record in records:
        kinds[record["event"]].append(record)
    per_table = 4 * (SAVES + 1)  # each table's four players save in turn; each one's first save is not counted
    kinds["save_grid"] = [r for n, r in enumerate(kinds["save_grid"]) if n % per_table >= 4]
    print(f"{'event':<10} {'n':>3} {'stmts':>5} {'event ms':>8} {'handler':>7} {'in tx':>6} {'outside':>7} "
          f"{'reload':>6} {'delta ms':>8} {'delta B':>7} {'pickle':>6} {'unpick':>6} {'state B':>7} "
          f"{'tree B':>7} {'tab ms':>6}")  # fmt: skip
    for kind in ("save_grid", "confirm", "book", "propose", "push"):
        rows = kinds.get(kind, [])
        if not rows:
            continue

        def med(key: str, rows: list[dict] = rows) -> float:
            return _median([r.get(key, 0) for r in rows])

        # a push has no handler of its own: its whole time is the reload, the delta and the state's lock
        handler = _median([max(r.get("process_ms", 0) - r.get("delta_ms", 0), 0) for r in rows])
        outside = _median(
            [max(r.get("process_ms", 0) - r.get("delta_ms", 0) - r.get("perform_ms", 0), 0) for r in rows]
        )
        delta_bytes = _median([sum(r.get("delta_bytes", {}).values()) for r in rows])
        state_bytes = _median([sum(r.get("pickled", {}).values()) for r in rows])
        print(f"{kind:<10} {len(rows):>3} {med('statements'):>5.0f} {med('total_ms'):>8.2f} {handler:>7.2f} "
              f"{med('perform_ms'):>6.2f} {outside:>7.2f} {med('refresh_ms'):>6.2f} {med('delta_ms'):>8.2f} "
              f"{delta_bytes:>7.0f} {med('pickle_ms'):>6.2f} {med('unpickle_ms'):>6.2f} {state_bytes:>7.0f} "
              f"{med('tree_bytes'):>7.0f} {_median(seen.get(kind, [])) * 1000:>6.1f}")  # fmt: skip
    for kind in ("save_grid", "confirm", "book", "push"):
        rows = kinds.get(kind, [])
        if not rows:
            continue
        by_var: dict[str, list[int]] = defaultdict(list)
        for row in rows:
            for var, size in row.get("delta_bytes", {}).items():
                by_var[var.rsplit("____", 1)[-1]].append(size)
        top = sorted(by_var.items(), key=lambda item: -sum(item[1]))[:6]
        print(f"{kind} delta by var (median bytes, in how many): "
              + ", ".join(f"{var} {_median(sizes):.0f} ({len(sizes)})" for var, sizes in top))  # fmt: skip
        pickled: dict[str, list[int]] = defaultdict(list)
        for row in rows:
            for name, size in row.get("pickled", {}).items():
                pickled[name].append(size)
        if pickled:
            print(
                f"{kind} states pickled (median bytes, in how many): "
                + ", ".join(f"{n.rsplit('___', 1)[-1]} {_median(s):.0f} ({len(s)})" for n, s in pickled.items())
            )
        stmts = {k: _median([r.get(f"{k}_statements", 0) for r in rows]) for k in ("perform", "refresh", "meetings")}
        print(
            f"{kind} statements: in the transaction {stmts['perform']:.0f}, page reload {stmts['refresh']:.0f}, "
            f"meetings {stmts['meetings']:.0f}; (de)serialised by the manager in the event: "
            f"{_median([r.get('serialize_ms', 0) for r in rows]):.2f} / "
            f"{_median([r.get('deserialize_ms', 0) for r in rows]):.2f} ms"
        )
    pushes = kinds.get("push", [])
    print(f"pushes: {len(pushes)} in {len({r['round'] for r in pushes if r['round']})} rounds; "
          f"{sum(r['shared_before'] > 0 for r in pushes)} of them found a board read in their round")  # fmt: skip
    for kind in ("confirm", "book"):
        print(f"{kind}: bytes the answering tab received {_median(seen.get(kind + '_bytes', [])):.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--redis", action="store_true")
    parser.add_argument("--sql", action="store_true", help="also print one save's, confirmation's and push's SQL")
    args = parser.parse_args()
    with ExitStack() as stack:
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        out = workdir / "probe.jsonl"
        env = {"PYTHONPATH": str(_sitecustomize(workdir / "probe")), "SAVE_PROBE_OUT": str(out)}
        if args.sql:
            env["SAVE_PROBE_SQL"] = "1"
        if args.redis:
            env["REFLEX_REDIS_URL"] = REDIS_URL
            env["GRANIAN_WORKERS"] = "1"
        app = stack.enter_context(running_app(workdir, extra_env=env))
        tables = _seed(app, 4 * args.tables)
        out.write_text("")  # the seeding's and the start's lines aside
        seen: dict[str, list[float]] = defaultdict(list)
        _drive(app.url, tables, seen)
        time.sleep(0.3)
        records = [json.loads(line) for line in out.read_text().splitlines() if line]
    mode = "Redis" if args.redis else "disk"
    print(
        f"== {len(tables)} tables, {SAVES} saves per player, SQLite, one worker, states: {mode}; medians; "
        f"'handler' = handler without its delta; 'in tx' = _perform; 'state B' = touched states pickled"
    )
    _report(records, seen)
    if args.sql:
        for kind in ("save_grid", "confirm", "book", "push"):
            record = next((r for r in records[len(records) // 2 :] if r["event"] == kind), None)
            print(f"-- {kind}:", *(record or {}).get("sql", []), sep="\n  ")
    assert SAVED_SCRIPT  # the saves waited for it (bench/load.py)


if __name__ == "__main__":
    main()
