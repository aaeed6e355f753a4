"""Benchmark: /ping while bursts of anonymous logins arrive (the issue's «8 sockets took /ping to 2.5 s»).

Starts the real app in prod mode like tests/e2e/conftest.py, opens N bare websocket tabs on /login, fires one
login each with a fresh wrong name at once, several rounds, and prints /ping p50/p95/max during the bursts against
the quiet baseline. Not a test: it prints its figures.
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from discard_app.pages.account.login import LoginState  # noqa: E402
from tests.e2e.conftest import running_app  # noqa: E402
from tests.e2e.test_secrets import RawTab  # noqa: E402

TABS = 20
ROUNDS = 3


def ping_ms(url: str) -> float:
    start = time.perf_counter()
    with urllib.request.urlopen(f"{url}/ping", timeout=30) as response:
        response.read()
    return (time.perf_counter() - start) * 1000


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


def main() -> None:
    workdir = Path(tempfile.mkdtemp(prefix="bench-login-"))
    try:
        with running_app(workdir) as app:
            baseline = [ping_ms(app.url) for _ in range(50)]
            during: list[float] = []
            answered = 0
            for round_ in range(ROUNDS):
                tabs = [RawTab(app, str(uuid.uuid4())) for _ in range(TABS)]
                for tab in tabs:
                    tab.emit(f"{LoginState.get_full_name()}.load", {}, "/login")
                for tab in tabs:
                    tab.read(until=lambda f: f.startswith("42/_event"), seconds=10)
                for n, tab in enumerate(tabs):
                    form = {"name": f"нет такого {round_}-{n}", "password": "x"}
                    tab.emit(f"{LoginState.get_full_name()}.submit", {"form": form}, "/login")
                deadline = time.monotonic() + 3
                while time.monotonic() < deadline:
                    during.append(ping_ms(app.url))
                    time.sleep(0.02)
                for tab in tabs:
                    frames = "".join(tab.read(until=lambda f: "Неверное имя" in f or "лишком много" in f))
                    answered += "Неверное имя" in frames or "лишком много" in frames
                    tab.close()
                time.sleep(61)  # the per-client window (all tabs come from one address) starts afresh
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"{TABS} parallel logins × {ROUNDS} rounds, {answered} answered")
    for label, values in (("quiet", baseline), ("during logins", during)):
        print(
            f"/ping {label:>13}: p50 {statistics.median(values):6.1f} ms, p95 {percentile(values, 0.95):6.1f} ms, "
            f"max {max(values):6.1f} ms ({len(values)} pings)"
        )


if __name__ == "__main__":
    main()
