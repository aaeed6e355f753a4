"""Benchmark: /ping while bursts of anonymous logins arrive (the issue's «8 sockets took /ping to 2.5 s»), and a
new browser's correct login while a flood runs (issue 29, finding 2).

Starts the real app in prod mode like tests/e2e/conftest.py, opens N bare websocket tabs on /login, fires one
login each with a fresh wrong name at once, several rounds, and prints /ping p50/p95/max during the bursts against
the quiet baseline. Then floods with wrong logins (invented device cookies, and fresh server-signed ones fetched
per attempt, as a smarter script would) while new browsers log in with the right password, and prints how many
got in and how long it took; last, a flood aimed at one account while its owner's new phone logs in from elsewhere
(127.0.0.2) and from the flood's own address (since issue 42 the name is locked for new browsers after its tenth
wrong password: they are told so, «locked»); last, the club's Wi-Fi: WIFI_SOCKETS browsers that keep their
signed device, each failed once already, flood from one address while new browsers there log in. `--stranger`: during
that Wi-Fi flood, with phones elsewhere (127.0.0.2) logging in all along, one browser at the flood's address types
a wrong password STRANGER_TRIES times in a row, each waiting for its answer (test_secrets' stranger on a match day):
it prints how long each answer took. `--targeted`, `--wifi` and `--stranger` run only that phase. Not a test: it
prints its figures.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from discard_app.pages.account.login import LoginState  # noqa: E402
from discard_app.session_cookie import ADOPT_PATH, DEVICE_COOKIE  # noqa: E402
from tests.e2e.conftest import PLAYERS, App, running_app  # noqa: E402
from tests.e2e.test_login_flood import tab_from  # noqa: E402
from tests.e2e.test_secrets import RawTab  # noqa: E402

TABS = 20
ROUNDS = 3
FLOOD_SOCKETS = 8
FLOOD_SECONDS = 40
NEW_BROWSERS = 4
WIFI_SOCKETS = 64  # each device may guess ten times a minute: this many keep the password pool full
STRANGER_TRIES = 20
STRANGER_PHONES = 3  # sockets elsewhere logging in with the right password all along: the pool never runs dry
ANSWER_SECONDS = 15  # what test_secrets waits for each of its stranger's answers
REFUSED = ("лишком много", "закрыт до")  # the limits' refusals (before issue 42 there was no lock)


def refused(frames: str) -> bool:
    return any(word in frames for word in REFUSED)


class Machine:
    """What the figures were measured on: the load average, and the CPU this bench's own client (the flood's
    threads, the new browsers) took on the same cores as the server while a phase ran."""

    def __init__(self) -> None:
        self.wall, self.cpu = time.perf_counter(), _cpu_seconds()

    def __str__(self) -> str:
        wall, cpu = time.perf_counter() - self.wall, _cpu_seconds() - self.cpu
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        return (
            f"load average {load}; the bench's client took {cpu:.0f} s of CPU in {wall:.0f} s ({os.cpu_count()} cores)"
        )


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def ping_ms(url: str) -> float:
    start = time.perf_counter()
    with urllib.request.urlopen(f"{url}/ping", timeout=30) as response:
        response.read()
    return (time.perf_counter() - start) * 1000


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


def signed_device(url: str) -> str:
    """The device cookie the server hands a browser on its first page."""
    with urllib.request.urlopen(f"{url}/ping", timeout=30) as response:
        for header in response.headers.get_all("Set-Cookie") or []:
            if header.startswith(f"{DEVICE_COOKIE}="):
                return header.split(";", 1)[0]
    raise RuntimeError("no device cookie")


def flood(
    app: App,
    stop: threading.Event,
    counts: dict[str, int],
    *,
    signed: bool,
    target: str | None,
    kept: str | None = None,
) -> None:
    """One flooding socket: wrong logins at invented names (or all at `target`), one after another, as fast as
    it is answered; with the device cookie `kept` throughout, else a fresh one per attempt."""
    n = 0
    while not stop.is_set():
        cookie = kept or (signed_device(app.url) if signed else f"{DEVICE_COOKIE}=invented-{uuid.uuid4().hex}")
        tab = RawTab(app, str(uuid.uuid4()), cookie=cookie)
        form = {"name": target or f"флуд {uuid.uuid4().hex[:6]} {n}", "password": f"x{n}"}
        tab.emit(f"{LoginState.get_full_name()}.submit", {"form": form}, "/login")
        frames = "".join(tab.read(until=lambda f: "Неверное имя" in f or refused(f), seconds=15))
        tab.close()
        counts["checked" if "Неверное имя" in frames else "refused" if refused(frames) else "lost"] += 1
        n += 1


def new_browser_login(app: App, name: str, source: str | None = None) -> float | str | None:
    """A browser that never logged in (from the loopback address `source`, else the flood's): its first page's
    signed cookie, then the right password; seconds to the session's adoption, «locked» when told the name's lock,
    or None when refused otherwise."""
    cookie = signed_device(app.url)
    tab = tab_from(app, source, cookie=cookie) if source else RawTab(app, str(uuid.uuid4()), cookie=cookie)
    start = time.perf_counter()
    tab.emit(
        f"{LoginState.get_full_name()}.submit", {"form": {"name": name, "password": app.passwords[name]}}, "/login"
    )
    frames = "".join(tab.read(until=lambda f: ADOPT_PATH in f or refused(f) or "Неверное" in f, seconds=30))
    tab.close()
    return time.perf_counter() - start if ADOPT_PATH in frames else "locked" if "закрыт до" in frames else None


def flood_phase(app: App, *, signed: bool, target: str | None = None) -> None:
    """The flood for FLOOD_SECONDS; halfway, new browsers log in with the right password: to other accounts
    (a flood at invented names), or to the flood's `target` from elsewhere (127.0.0.2) and from the flood's own
    address."""
    machine = Machine()
    stop = threading.Event()
    counts = {"checked": 0, "refused": 0, "lost": 0}
    threads = [
        threading.Thread(target=flood, args=(app, stop, counts), kwargs={"signed": signed, "target": target})
        for _ in range(FLOOD_SOCKETS)
    ]
    for thread in threads:
        thread.start()
    time.sleep(FLOOD_SECONDS / 2)  # the flood has used up whatever a minute allows
    if target:
        logins = [("elsewhere", target, "127.0.0.2"), ("the flood's address", target, None)]
    else:
        logins = [(f"new browser {k}", PLAYERS[k], None) for k in range(NEW_BROWSERS)]
    results = [(label, new_browser_login(app, name, source)) for label, name, source in logins]
    time.sleep(max(0.0, FLOOD_SECONDS / 2 - sum(r for _, r in results if isinstance(r, float))))
    stop.set()
    for thread in threads:
        thread.join()
    got_in = [r for _, r in results if isinstance(r, float)]
    kind = "fresh signed device cookies" if signed else "invented device cookies"
    aim = f"all at «{target}»" if target else "at invented names"
    print(
        f"flood, {FLOOD_SOCKETS} sockets × {FLOOD_SECONDS} s, {kind}, {aim}: {counts['checked']} password-checked, "
        f"{counts['refused']} refused, {counts['lost']} unanswered; correct logins: {len(got_in)} of "
        f"{len(results)} got in"
        + (f" (slowest {max(got_in):.2f} s, median {statistics.median(got_in):.2f} s)" if got_in else "")
    )
    for label, seconds in results:
        print(
            f"  {label}: " + (f"in after {seconds:.2f} s" if isinstance(seconds, float) else str(seconds or "refused"))
        )
    print(f"  {machine}")


def wifi_phase(app: App) -> None:
    """The club's Wi-Fi: WIFI_SOCKETS flooding browsers that keep their signed device (each has failed once, so
    the address floods) and new browsers at the same address typing the right password while the flood runs."""
    devices = [signed_device(app.url) for _ in range(WIFI_SOCKETS)]
    counts = {"checked": 0, "refused": 0, "lost": 0}
    for device in devices:  # one failure each: the address is past its free failures, every device has failed
        tab = RawTab(app, str(uuid.uuid4()), cookie=device)
        form = {"name": f"флуд {uuid.uuid4().hex[:6]}", "password": "x"}
        tab.emit(f"{LoginState.get_full_name()}.submit", {"form": form}, "/login")
        tab.read(until=lambda f: "Неверное имя" in f or refused(f), seconds=15)
        tab.close()
    machine = Machine()
    stop = threading.Event()
    threads = [
        threading.Thread(target=flood, args=(app, stop, counts), kwargs={"signed": True, "target": None, "kept": d})
        for d in devices
    ]
    for thread in threads:
        thread.start()
    time.sleep(FLOOD_SECONDS / 4)  # the flood fills the line
    results = [(f"new browser {k}", new_browser_login(app, PLAYERS[k])) for k in range(NEW_BROWSERS)]
    time.sleep(max(0.0, FLOOD_SECONDS / 2 - sum(r for _, r in results if isinstance(r, float))))
    stop.set()
    for thread in threads:
        thread.join()
    got_in = [r for _, r in results if isinstance(r, float)]
    print(
        f"Wi-Fi flood, {WIFI_SOCKETS} browsers keeping their signed device, one address: {counts['checked']} "
        f"password-checked, {counts['refused']} refused, {counts['lost']} unanswered; new browsers at that address: "
        f"{len(got_in)} of {len(results)} got in"
        + (f" (slowest {max(got_in):.2f} s, median {statistics.median(got_in):.2f} s)" if got_in else "")
    )
    for label, seconds in results:
        print(
            f"  {label}: " + (f"in after {seconds:.2f} s" if isinstance(seconds, float) else str(seconds or "refused"))
        )
    print(f"  {machine}")


def phones_elsewhere(app: App, stop: threading.Event, times: list[float]) -> None:
    """A phone at another address (127.0.0.2) logging in with the right password, again and again, each time as a
    new browser: a check that is never the flood's."""
    k = 0
    while not stop.is_set():
        seconds = new_browser_login(app, PLAYERS[8 + k % 4], "127.0.0.2")
        times.append(seconds if isinstance(seconds, float) else -1.0)
        k += 1


def stranger_phase(app: App) -> None:
    """The Wi-Fi flood of `wifi_phase` at the default address with phones elsewhere logging in all along; one
    browser at the flood's address fails STRANGER_TRIES times in a row, each attempt waiting for its answer."""
    devices = [signed_device(app.url) for _ in range(WIFI_SOCKETS)]
    for device in devices:  # one failure each: the address floods
        tab = RawTab(app, str(uuid.uuid4()), cookie=device)
        tab.emit(f"{LoginState.get_full_name()}.submit", {"form": {"name": "флуд", "password": "x"}}, "/login")
        tab.read(until=lambda f: "Неверное имя" in f or refused(f), seconds=30)
        tab.close()
    machine = Machine()
    stop = threading.Event()
    counts = {"checked": 0, "refused": 0, "lost": 0}
    phone_times: list[float] = []
    threads = [
        threading.Thread(target=flood, args=(app, stop, counts), kwargs={"signed": True, "target": None, "kept": d})
        for d in devices
    ] + [threading.Thread(target=phones_elsewhere, args=(app, stop, phone_times)) for _ in range(STRANGER_PHONES)]
    for thread in threads:
        thread.start()
    time.sleep(FLOOD_SECONDS / 4)  # the flood fills the line
    stranger = RawTab(app, str(uuid.uuid4()), cookie=signed_device(app.url))
    tries: list[tuple[float, str]] = []
    for n in range(STRANGER_TRIES):
        stranger.received.clear()
        start = time.perf_counter()
        form = {"name": PLAYERS[15], "password": f"угадываю-{n}"}
        stranger.emit(f"{LoginState.get_full_name()}.submit", {"form": form}, "/login")
        frames = "".join(stranger.read(until=lambda f: "Неверное имя" in f or refused(f), seconds=60))
        seconds = time.perf_counter() - start
        kind = (
            "неверный пароль"
            if "Неверное имя" in frames
            else "busy"
            if "Сейчас слишком много" in frames
            else "refused"
            if refused(frames)
            else "none"
        )
        tries.append((seconds, kind))
    stranger.close()
    stop.set()
    for thread in threads:
        thread.join()
    answered = [s for s, kind in tries if kind != "none"]
    late = sum(s > ANSWER_SECONDS or kind == "none" for s, kind in tries)
    phones_in = [t for t in phone_times if t >= 0]
    print(
        f"stranger at the Wi-Fi flood's address ({WIFI_SOCKETS} flooding browsers, {STRANGER_PHONES} phones "
        f"elsewhere logging in): {len(answered)} of {len(tries)} answered, {late} later than {ANSWER_SECONDS} s or "
        f"never; slowest {max(s for s, _ in tries):.2f} s, median {statistics.median(s for s, _ in tries):.2f} s"
    )
    print("  tries: " + ", ".join(f"{s:.1f} s {kind}" for s, kind in tries))
    print(
        f"  flood: {counts['checked']} checked, {counts['refused']} refused, {counts['lost']} unanswered; phones "
        f"elsewhere: {len(phones_in)} of {len(phone_times)} in"
        + (f" (median {statistics.median(phones_in):.2f} s, slowest {max(phones_in):.2f} s)" if phones_in else "")
    )
    print(f"  {machine}")


def main() -> None:
    workdir = Path(tempfile.mkdtemp(prefix="bench-login-"))
    try:
        with running_app(workdir) as app:
            if "--targeted" in sys.argv:  # only the flood aimed at one account (a few minutes less)
                flood_phase(app, signed=True, target=PLAYERS[7])
                return
            if "--wifi" in sys.argv:
                wifi_phase(app)
                return
            if "--stranger" in sys.argv:
                stranger_phase(app)
                return
            machine = Machine()
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
                    frames = "".join(tab.read(until=lambda f: "Неверное имя" in f or refused(f)))
                    answered += "Неверное имя" in frames or refused(frames)
                    tab.close()
                time.sleep(61)  # the per-client window (all tabs come from one address) starts afresh
            flood_phase(app, signed=False)
            time.sleep(61)
            flood_phase(app, signed=True)
            flood_phase(app, signed=True, target=PLAYERS[7])
            time.sleep(61)
            wifi_phase(app)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"{TABS} parallel logins × {ROUNDS} rounds, {answered} answered")
    for label, values in (("quiet", baseline), ("during logins", during)):
        print(
            f"/ping {label:>13}: p50 {statistics.median(values):6.1f} ms, p95 {percentile(values, 0.95):6.1f} ms, "
            f"max {max(values):6.1f} ms ({len(values)} pings)"
        )
    print(f"  {machine}")


if __name__ == "__main__":
    main()
