"""Pages that are pushed, not polled (discard_app/live_push.py): a change made by another process (a service call
from this test process, as the bot or the command line make them) shows on the open pages, and the reload pushed to
one tab carries nothing of it to another viewer's tab. How fast is the benchmark's to show, on a quiet machine
(bench/scheduling_browser.py, delay 3): a wall-clock bound here measured the load of the test run, not the push."""

from __future__ import annotations

import re
import time
from datetime import timedelta

from playwright.sync_api import Browser, Page, WebSocketRoute, expect
from sqlmodel import select

from services.core.db import session_scope
from services.core.models import User, utc_now
from services.scheduling import availability
from services.scheduling.intervals import Interval, at_kirov
from tests.e2e.conftest import PLAYERS, App
from tests.e2e.test_scheduling import _match, _open

# The fallback stamp read is every 100 ms on SQLite (no notification crosses processes), the reload a few ms: without
# a push the page never changes, so this bound only says how long a loaded test machine may take to show one.
PUSHED_WITHIN_MS = 5_000
WATCH_ANSWERS = """(names) => {
  window.__answered = {};
  const look = () => {
    const text = document.body.innerText;
    for (const name of names) {
      if (!window.__answered[name] && text.includes(name + " — ответил")) window.__answered[name] = Date.now();
    }
  };
  new MutationObserver(look).observe(document.body, {subtree: true, childList: true, characterData: true});
}"""


def _user_id(app: App, name: str) -> int:
    engine = app.engine()
    with session_scope(engine) as session:
        user_id = session.exec(select(User).where(User.display_name == name)).one().id
    engine.dispose()
    return user_id


def _answer(app: App, match_id: int, name: str, intervals: list[Interval]) -> float:
    """Another process's change, through the services; returns when it committed (ms since the epoch)."""
    engine = app.engine()
    with session_scope(engine) as session:
        availability.save_availability(
            session, match_id=match_id, user_id=_user_id(app, name), intervals=intervals, now=utc_now()
        )
    committed = time.time() * 1000
    engine.dispose()
    return committed


def test_another_processes_change_is_pushed_to_an_open_page(page: Page, app: App) -> None:
    names = list(PLAYERS[12:16])
    engine, match_id, day = _match(app, names)
    engine.dispose()
    _open(page, app, names[0], match_id)
    others = names[1:]
    for name in others:
        expect(page.get_by_text(f"{name} — ещё не ответил")).to_be_visible()
    page.evaluate(WATCH_ANSWERS, others)
    delays = []
    for k, name in enumerate(others):
        time.sleep(0.3 + 0.1 * k)  # not in step with the worker's stamp read
        committed = _answer(app, match_id, name, [Interval(at_kirov(day, 18), at_kirov(day, 22))])
        expect(page.get_by_text(f"{name} — ответил")).to_be_visible(timeout=PUSHED_WITHIN_MS)
        delays.append(page.evaluate("(name) => window.__answered[name]", name) - committed)
    print(f"another process's change on the open page after {', '.join(f'{d:.0f}' for d in delays)} ms")


def test_a_pushed_reload_sends_one_viewers_own_data_to_that_viewer_only(browser: Browser, app: App) -> None:
    """A player's answer saved elsewhere (another tab, the bot) reloads their own grid in their open tab; the other
    player's open tab is pushed too (the answer count), but receives no grid, nothing of the first one's answer."""
    names = list(PLAYERS[12:16])
    engine, match_id, day = _match(app, names)
    engine.dispose()
    contexts = [browser.new_context(locale="ru-RU", timezone_id="Europe/Kirov") for _ in range(2)]
    mine, theirs = (context.new_page() for context in contexts)
    frames: dict[str, list[str]] = {"mine": [], "theirs": []}
    try:
        for key, tab, name in (("mine", mine, names[0]), ("theirs", theirs, names[1])):
            _open(tab, app, name, match_id)
            expect(tab.get_by_text(f"{names[0]} — ещё не ответил")).to_be_visible()
            tab.on("websocket", lambda ws, key=key: ws.on("framereceived", lambda d: frames[key].append(str(d))))
        # the sockets were opened before the listeners: reload both so their frames are captured from the start
        for tab in (mine, theirs):
            tab.reload()
            expect(tab.get_by_role("heading", name="Моя доступность")).to_be_visible()
            tab.wait_for_function("window.discardGrid !== undefined")
        for key in frames:
            frames[key].clear()
        secret = Interval(at_kirov(day + timedelta(days=1), 3), at_kirov(day + timedelta(days=1), 5, 30))
        _answer(app, match_id, names[0], [secret])
        for tab in (mine, theirs):
            expect(tab.get_by_text(f"{names[0]} — ответил")).to_be_visible(timeout=PUSHED_WITHIN_MS)
        time.sleep(0.5)  # any later frame of the same push
        mine_traffic, their_traffic = "".join(frames["mine"]), "".join(frames["theirs"])
        assert "cells" in mine_traffic  # my own grid came to me: the check below can fail
        assert "ответил" in their_traffic  # the other tab was pushed its own reload
        assert "cells" not in their_traffic and "marks" not in their_traffic
        assert not [s for s in ("03:00", "05:30", secret.start.isoformat()[:16]) if s in their_traffic]
    finally:
        for context in contexts:
            context.close()


def test_a_tab_that_reconnects_shows_what_changed_meanwhile_having_reloaded_once(page: Page, app: App) -> None:
    """The page's socket drops (the network, a worker restart); another process changes the match before the page's
    socket is back, so no push can bring it; the page reconnects, rehydrates, reloads its data once and shows the
    change, and then stays quiet: one connection, one hydrate (with its on_load), no reload loop."""
    names = list(PLAYERS[12:16])
    engine, match_id, day = _match(app, names)
    engine.dispose()
    meanwhile: list = []  # the change to make while the page is disconnected, before its socket reaches the server
    sockets: list[list[str]] = []  # per connection the page opened, the frames it sent

    def route(ws: WebSocketRoute) -> None:
        while meanwhile:
            meanwhile.pop()()
        sent: list[str] = []
        sockets.append(sent)
        server = ws.connect_to_server()
        ws.on_message(lambda message: (sent.append(str(message)), server.send(message)))
        server.on_message(ws.send)
        routes.append(ws)

    routes: list[WebSocketRoute] = []
    page.route_web_socket(re.compile(r".*/_event.*"), route)
    _open(page, app, names[0], match_id)
    expect(page.get_by_text(f"{names[1]} — ещё не ответил")).to_be_visible()
    before = len(sockets)
    meanwhile.append(lambda: _answer(app, match_id, names[1], [Interval(at_kirov(day, 18), at_kirov(day, 22))]))
    routes[-1].close()
    expect(page.get_by_text(f"{names[1]} — ответил")).to_be_visible(timeout=5_000)
    page.wait_for_timeout(1_500)  # any further reload would come now
    after = sockets[before:]
    assert not meanwhile  # the change was made while the page was disconnected
    assert len(after) == 1, [s[:1] for s in after]
    assert [m for m in after[0] if "hydrate" in m] == [after[0][0]]  # one hydrate_and_load, in the connect packet
    expect(page.get_by_text(f"{names[1]} — ответил")).to_be_visible()
