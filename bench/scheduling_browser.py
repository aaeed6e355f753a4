"""Benchmark, browser half: p50/p95 of three delays, in Debian's Chromium against the real app in prod mode.

1. the fourth player's confirmation click → the booking shown on their own page (20 samples, each clicked half a
   second after the button appeared, as a person would);
2. that click → the booking shown in ANOTHER player's open page of the same match (30 samples; the change is
   pushed to the pages that watch the match once its transaction commits, `discard_app/live_push.py`);
3. a confirmation made by another process through the services (as the bot or the CLI would) → the booking shown
   in an open page (30 samples);
4. the same confirmation as (1) sent by a page without a browser (bench/load.py's protocol-level tab) once the
   browsers are closed: the site's own share of (1), without a browser drawing on the same cores (20 samples).

(1) is also split where the page's socket sends the click's event and receives the delta with the booking
(Chromium's DevTools protocol clock): between those two frames is the server and the wire; the rest is the page
(the click's own handling, then parsing the delta, React, layout). For scale, the same split of an event that does
no database work at all: «Не смогу» on each booked page (it only opens a question; «Я приду» closes it) — its time
between frames is what the framework and the socket cost one event on this machine, whatever the handler does.

Starts the app like tests/e2e/conftest.py (its helpers; it builds its own front end first), seeds matches whose
proposals three players already confirmed. Not a test: it prints its figures.
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import CDPSession, Page, expect, sync_playwright  # noqa: E402
from sqlmodel import select  # noqa: E402

from bench.load import Tab  # noqa: E402
from discard_app import texts  # noqa: E402
from services.core.db import session_scope  # noqa: E402
from services.core.models import Booking, User, utc_now  # noqa: E402
from services.league.accounts import start_session  # noqa: E402
from services.scheduling.availability import save_availability  # noqa: E402
from services.scheduling.booking import answer_meeting, propose_meeting  # noqa: E402
from services.scheduling.intervals import Interval, at_kirov, kirov_date  # noqa: E402
from tests import factories  # noqa: E402
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, PLAYERS, App, login, running_app  # noqa: E402

CONFIRMATIONS = 20
READING_MS = 500
LIVE_SAMPLES = 30
SEATED = list(PLAYERS[:4])

# Armed before the click: the click's own time (capture phase, in the page) and the first frame where the awaited
# text (the booking line) is in the DOM. Both are performance.now() in the page: Playwright's overhead is not counted.
ARM = """(text) => {
  window.__bench = {click: null, shown: null};
  // the person's click only (trusted): a script's click on the page is not the tap being timed
  const clicked = (event) => {
    if (!event.isTrusted) return;
    window.__bench.click = performance.now();
    document.removeEventListener('click', clicked, {capture: true});
  };
  document.addEventListener('click', clicked, {capture: true});
  const seen = () => document.body.innerText.includes(text);
  const observer = new MutationObserver(() => {
    if (window.__bench.click !== null && seen()) { window.__bench.shown = performance.now(); observer.disconnect(); }
  });
  observer.observe(document.body, {childList: true, subtree: true, characterData: true});
}"""


@contextmanager
def bench_app() -> Iterator[App]:
    """The e2e fixture's app, in a temporary folder removed afterwards."""
    workdir = Path(tempfile.mkdtemp(prefix="bench-app-"))
    print("building the front end and starting the app …", file=sys.stderr, flush=True)
    try:
        with running_app(workdir) as app:
            yield app
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


# Armed in the watching page before the change: wall-clock time (Date.now(), the same clock as the other page and
# this process) of the first frame where the booking line is in its DOM.
WATCH = """() => {
  window.__seen = null;
  const observer = new MutationObserver(() => {
    if (document.body.innerText.includes('Забронировано: ')) { window.__seen = Date.now(); observer.disconnect(); }
  });
  observer.observe(document.body, {childList: true, subtree: true, characterData: true});
}"""
CLICK_CLOCK = """() => { window.__click = null;
  const clicked = (event) => {
    if (!event.isTrusted) return;  // not the live tick's hidden button
    window.__click = Date.now();
    document.removeEventListener('click', clicked, {capture: true});
  };
  document.addEventListener('click', clicked, {capture: true}); }"""


def seed_matches(app: App, count: int, offset: int = 0) -> list[tuple[int, int]]:
    """`count` matches of the same four, one evening each on different days; three of four have confirmed.
    Returns (match id, open proposal id)."""
    engine = app.engine()
    first = kirov_date(utc_now()) + timedelta(days=2 + offset)
    seeded = []
    with session_scope(engine) as session:
        users = [session.exec(select(User).where(User.display_name == n)).one() for n in SEATED]
    for k in range(count):
        day = first + timedelta(days=k)
        with session_scope(engine) as session:
            match = factories.match_for_names(session, SEATED, Interval(at_kirov(day), at_kirov(day + timedelta(1))))
            match_id = match.id
        evening = Interval(at_kirov(day, 18), at_kirov(day, 23))
        for user in users:
            with session_scope(engine) as session:
                save_availability(session, match_id=match_id, user_id=user.id, intervals=[evening], now=utc_now())
        with session_scope(engine) as session:
            proposal = propose_meeting(
                session,
                match_id=match_id,
                user_id=users[0].id,
                start=evening.start,
                end=at_kirov(day, 22, 30),
                hanchans=3,
                now=utc_now(),
            ).id
        for user in users[:3]:
            with session_scope(engine) as session:
                answer_meeting(session, confirmed=True, proposal_id=proposal, user_id=user.id, now=utc_now())
        seeded.append((match_id, proposal))
    engine.dispose()
    return seeded


class SocketFrames:
    """The page's websocket frames with Chromium's own timestamps (seconds), through the DevTools protocol."""

    def __init__(self, page: Page) -> None:
        self.frames: list[tuple[str, float, str]] = []
        cdp: CDPSession = page.context.new_cdp_session(page)
        cdp.send("Network.enable")
        for kind in ("Sent", "Received"):
            cdp.on(f"Network.webSocketFrame{kind}", self._keep(kind))

    def _keep(self, kind: str):  # noqa: ANN202
        return lambda e: self.frames.append((kind, e["timestamp"], e["response"]["payloadData"]))

    def between(self, event: str, delta_var: str) -> float:
        """ms from the frame sending `event` to the first delta frame that carries `delta_var`; then forgets."""
        sent = next(t for kind, t, data in self.frames if kind == "Sent" and event in data)
        got = next(t for kind, t, data in self.frames if kind == "Received" and t >= sent and delta_var in data)
        self.frames.clear()
        return (got - sent) * 1000


def confirm_and_time(page: Page, frames: SocketFrames, app: App, match_id: int) -> tuple[float, float]:
    """(1): in-page ms from the click to the booking line, and the part of it between the socket's frames."""
    took = click_and_time(page, app, match_id, "Подтвердить", "Забронировано: ")
    return took, frames.between(".answer", '"bookings')


def empty_event_between_frames(page: Page, frames: SocketFrames, app: App, match_id: int) -> float:
    """«Не смогу» (sets one var, no database work): ms between its event's frame and its delta's."""
    click_and_time(page, app, match_id, texts.SCHED_CANNOT, texts.SCHED_CANNOT_TITLE)
    page.get_by_role("button", name=texts.SCHED_CANNOT_BACK).click()  # nothing is released
    expect(page.get_by_text(texts.SCHED_CANNOT_TITLE)).to_have_count(0)
    return frames.between(".ask_cannot", '"cannot_booking')


def click_and_time(page: Page, app: App, match_id: int, button_name: str, shows: str) -> float:
    page.goto(f"{app.url}/match/{match_id}/schedule")
    button = page.get_by_role("button", name=button_name, exact=True)
    expect(button).to_be_visible()
    button.scroll_into_view_if_needed()
    # A person reads the page before tapping: the click is not queued behind the page's own loading events
    # (those are the page load's time, not the confirmation's).
    page.wait_for_timeout(READING_MS)
    box = button.bounding_box()
    page.evaluate(ARM, shows)
    # One trusted press and release where the button is, as a person's: `button.click()` would also run
    # Playwright's checks and waits around the click, on the same two cores as the server (≈30 ms more here).
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_function("window.__bench.shown !== null", timeout=15_000, polling=100)
    took = page.evaluate("window.__bench.shown - window.__bench.click")
    page.wait_for_timeout(50)  # the DevTools protocol's frame events arrive after the page drew
    return took


def open_watching(page: Page, app: App, match_id: int) -> None:
    page.goto(f"{app.url}/match/{match_id}/schedule")
    expect(page.get_by_text("Пока не забронировано.")).to_be_visible()
    page.evaluate(WATCH)


def confirm_seen_elsewhere(page: Page, watcher: Page, app: App, match_id: int) -> float:
    """The fourth player confirms in `page`; how long until `watcher` (another player) shows the booking."""
    open_watching(watcher, app, match_id)
    page.goto(f"{app.url}/match/{match_id}/schedule")
    button = page.get_by_role("button", name="Подтвердить", exact=True)
    expect(button).to_be_visible()
    page.evaluate(CLICK_CLOCK)
    button.click()
    watcher.wait_for_function("window.__seen !== null", timeout=15_000)
    return watcher.evaluate("window.__seen") - page.evaluate("window.__click")


def confirm_from_another_process(watcher: Page, app: App, match_id: int, proposal_id: int, user_id: int) -> float:
    """This benchmark process (not the web server) confirms through the services; the open page must notice."""
    open_watching(watcher, app, match_id)
    engine = app.engine()
    with session_scope(engine) as session:
        answer_meeting(session, confirmed=True, proposal_id=proposal_id, user_id=user_id, now=utc_now())
    committed = time.time() * 1000
    engine.dispose()
    watcher.wait_for_function("window.__seen !== null", timeout=15_000)
    return watcher.evaluate("window.__seen") - committed


def confirm_without_browser(app: App, user_id: int, match_id: int, proposal_id: int) -> float:
    """(4): a protocol-level tab of the fourth player, settled, sends the confirmation; ms until its delta books."""
    engine = app.engine()
    with session_scope(engine) as session:
        token = start_session(session, session.get(User, user_id), now=utc_now(), session_days=1)
    engine.dispose()
    tab = Tab(app.url, token, match_id)
    try:
        settled = time.monotonic() + READING_MS / 1000
        tab.wait(lambda: time.monotonic() > settled, "settling")  # reading frames and ticking meanwhile
        sent = time.perf_counter()
        tab.send("answer", proposal_id=str(proposal_id), confirmed=True)
        tab.wait(lambda: bool(tab.vars.get("bookings")), "booking")
        return (time.perf_counter() - sent) * 1000
    finally:
        tab.close()


def report(title: str, times: list[float]) -> None:
    print(f"{title}, {len(times)} samples:")
    print(
        f"  p50 {statistics.median(times):.1f} ms, p95 {percentile(times, 95):.1f} ms, "
        f"min {min(times):.1f} ms, max {max(times):.1f} ms"
    )


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]  # nearest rank


def main() -> None:
    expect.set_options(timeout=15_000)
    with bench_app() as app:
        own = seed_matches(app, CONFIRMATIONS)
        elsewhere = seed_matches(app, LIVE_SAMPLES, offset=CONFIRMATIONS)
        other_process = seed_matches(app, LIVE_SAMPLES, offset=CONFIRMATIONS + LIVE_SAMPLES)
        without_browser = seed_matches(app, CONFIRMATIONS, offset=CONFIRMATIONS + 2 * LIVE_SAMPLES)
        engine = app.engine()
        with session_scope(engine) as session:
            fourth = session.exec(select(User).where(User.display_name == SEATED[3])).one().id
        engine.dispose()
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_context(locale="ru-RU", timezone_id="Europe/Kirov").new_page()
            watcher = browser.new_context(locale="ru-RU", timezone_id="Europe/Kirov").new_page()
            login(page, app, SEATED[3])
            expect(page.get_by_role("button", name="Выйти")).to_be_visible()
            login(watcher, app, SEATED[0])
            expect(watcher.get_by_role("button", name="Выйти")).to_be_visible()
            frames = SocketFrames(page)
            clicks = [confirm_and_time(page, frames, app, match_id) for match_id, _ in own]
            empty = [empty_event_between_frames(page, frames, app, match_id) for match_id, _ in own]
            seen = [confirm_seen_elsewhere(page, watcher, app, match_id) for match_id, _ in elsewhere]
            remote = [confirm_from_another_process(watcher, app, m, p, fourth) for m, p in other_process]
            browser.close()
        protocol = [confirm_without_browser(app, fourth, m, p) for m, p in without_browser]
        engine = app.engine()
        with session_scope(engine) as session:
            booked = session.exec(select(Booking).where(Booking.active, Booking.kind == "match")).all()
        engine.dispose()
    expected = 2 * CONFIRMATIONS + 2 * LIVE_SAMPLES
    assert len(booked) == expected, f"{len(booked)} bookings, expected {expected}"
    report("confirmation click → booking shown on the same page (in-page performance.now())", [t for t, _ in clicks])
    report("  … of which between the socket's frames (the server and the wire)", [b for _, b in clicks])
    report("  … of which in the page (the click, the delta drawn)", [t - b for t, b in clicks])
    report("an event with no database work («Не смогу»): between the socket's frames", empty)
    report("confirmation click → booking shown in another player's open page (Date.now())", seen)
    report("confirmation by another process (services) → booking shown in an open page (Date.now())", remote)
    report("confirmation sent by a page without a browser → the booking in its delta (the site's share)", protocol)
    print(f"{len(booked)} bookings created")


if __name__ == "__main__":
    started = time.monotonic()
    main()
    print(f"(whole run incl. app start: {time.monotonic() - started:.0f} s)", file=sys.stderr)
