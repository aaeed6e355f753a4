"""Pages that are pushed, not polled: one watcher per web worker, and the open tabs it serves.

An open page registers what it watches when it loads (`watch`: its match, its person or the league, with the stamp
it has just read); afterwards it costs nothing. The worker's one watcher (a lifespan task) reads the league's
`change_stamp` when a change is announced (`services/core/announce.py`: at once for this worker's own commits,
through PostgreSQL `LISTEN discard_changes` for every other process's) and, as the fallback for SQLite and for
a lost notification, every `POLL_SECONDS`. Only when that stamp moved does it read the stamps its registered tabs
watch (one read per distinct watch, not per tab) and, for each tab whose stamp moved, `app.modify_state` runs the
page's own reload for that tab: the tab's per-viewer data is reloaded in the tab's own state and only its delta goes
to that tab's socket. Nothing here is in any state var: the registry is this worker's memory (tokens never reach a
browser), a tab served by another worker is that worker's to push. A tab that reconnects rehydrates and runs its
page's on_load again (Reflex does), which reloads it once and registers it anew.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import dataclasses
import logging
import time
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

import reflex as rx

from services.core import announce
from services.core.changes import LEAGUE, Watch, change_stamp, touched_since, watched_stamp
from services.core.config import settings
from services.core.db import session_scope

if TYPE_CHECKING:
    from reflex.app import App

log = logging.getLogger(__name__)
# The fallback stamp read (one primary-key maximum pair): how another process's change reaches SQLite's pages; on
# PostgreSQL the notification comes first and the read only covers a lost one.
POLL_SECONDS = 0.25 if settings.database_url.startswith("postgresql") else 0.1
MINUTE_SECONDS = 60.0  # pages that also follow the clock (windows and meetings that end) are pushed once a minute
# Under load the rounds follow one another: a round waits until this long after the last one began, so a burst of
# commits (saves back to back) is one round and each concerned page reloads once for it, not once per commit.
# Idle it costs nothing; a lone change is pushed at once.
ROUND_GAP = 0.05


@runtime_checkable
class Pushed(Protocol):
    async def _live_push(self, stamp: str) -> None: ...


@dataclasses.dataclass
class Tab:
    cls: type[rx.State]
    watch: Watch
    page: str  # the page the tab showed when it registered: once it shows another, the registration lapses
    stamp: str
    socket: str  # the connection it registered on: a new one (a reconnect, a closed tab's token reused) re-registers
    minutely: bool = False


# client token -> state's full name -> what that page of the tab watches. This worker's tabs only.
_tabs: dict[str, dict[str, Tab]] = {}
_fresh: set[tuple[str, str]] = set()  # registered since the watcher's last round
_app: App | None = None
_wake: asyncio.Event | None = None
stats = {"reads": 0, "pushes": 0}  # for the benchmark and the tests
# What the pages pushed in one round share: one match's board for its four open pages (`shared`). Only within
# `push_changes` (a context variable: an event handled meanwhile reads its own), and gone when the round ends.
_round: contextvars.ContextVar[dict[Hashable, Any] | None] = contextvars.ContextVar("live_push_round", default=None)
T = TypeVar("T")


def install(app: App) -> None:
    """Called once by the app module: the watcher runs for the app's lifetime."""
    global _app  # noqa: PLW0603
    _app = app
    app.register_lifespan_task(watcher)


def watch(state: rx.State, watch: Watch, stamp: str, *, page: str = "", minutely: bool = False) -> None:
    """Registers the calling tab's page (`state`) as watching `watch`, whose stamp it has just read."""
    token, socket = state.router.session.client_token, state.router.session.session_id
    if not token or not socket:
        return
    name = type(state).get_full_name()
    _tabs.setdefault(token, {})[name] = Tab(type(state), watch, page, stamp, socket, minutely)
    _fresh.add((token, name))  # a change may have been announced between its stamp read and now: look once
    wake()


def seen(state: rx.State, stamp: str) -> None:
    """The tab's page has just read `stamp` itself (its own handler's reload): no push needed for it."""
    if (tab := _tabs.get(state.router.session.client_token, {}).get(type(state).get_full_name())) is not None:
        tab.stamp = stamp


def forget(state: rx.State) -> None:
    if (pages := _tabs.get(state.router.session.client_token)) is not None:
        pages.pop(type(state).get_full_name(), None)


def registered() -> int:
    return sum(len(pages) for pages in _tabs.values())


def wake() -> None:
    """Called from any thread after a commit of this process: the watcher looks at once."""
    if _wake is not None and (loop := _loop) is not None:
        with contextlib.suppress(RuntimeError):  # the loop has closed: the worker is stopping
            loop.call_soon_threadsafe(_wake.set)


_loop: asyncio.AbstractEventLoop | None = None


def _connected(app: App) -> dict[str, str]:
    """The tokens whose socket is on this worker now, with that socket's id."""
    namespace = app.event_namespace
    assert namespace is not None  # the app serves its events' websocket
    manager = namespace._token_manager  # noqa: SLF001 — Reflex's own map of this worker's sockets
    mine = manager.instance_id
    return {token: record.sid for token, record in manager.token_to_socket.items() if record.instance_id == mine}


def _read_stamps(watches: set[Watch], since: str | None) -> dict[Watch, str]:
    """The stamps of the watches that can have moved since the league's stamp `since` (all of them without it):
    a change of one match reads that match's pages' stamps and its four people's, not every open page's."""
    with session_scope() as session:
        touched = touched_since(session, since) if since else None
        if touched is not None:
            matches, people = touched
            watches = {
                w
                for w in watches
                if w[0] == LEAGUE[0] or (w[0] == "match" and w[1] in matches) or (w[0] == "person" and w[1] in people)
            }
        return {w: watched_stamp(session, w) for w in watches}


def _read_league() -> str:
    with session_scope() as session:
        return change_stamp(session)


async def _push(app: App, token: str, name: str, tab: Tab, stamp: str) -> None:
    from discard_app.state.auth import AuthState  # noqa: PLC0415 — the app's states import this module

    async with app.modify_state(rx.BaseStateToken(ident=token, cls=tab.cls)) as root:
        auth = await root.get_state(AuthState)
        if tab.page and auth._page != tab.page:  # noqa: SLF001 — the tab shows another page now
            _tabs.get(token, {}).pop(name, None)
            return
        state = await root.get_state(tab.cls)
        assert isinstance(state, Pushed)  # a LivePage registered it
        await state._live_push(stamp)  # noqa: SLF001
    stats["pushes"] += 1


def shared(key: Hashable, read: Callable[[], T]) -> T:
    """`read()`, once per `key` among the tabs of one push round (outside a round: read each time). The key must
    name what was read as of when: a page keys its match's board by the part of its stamp every viewer shares, so
    a change committed during the round makes a new key, and one viewer's own data is never in it."""
    memo = _round.get()
    if memo is None:
        return read()
    if key not in memo:
        memo[key] = read()
    found: T = memo[key]
    return found


async def push_changes(
    *, since: str | None = None, minute: bool = False, only: set[tuple[str, str]] | None = None
) -> int:
    """Pushes every registered tab (or `only` these) whose watched stamp moved since the league's stamp `since`
    (and, once a minute, the clock-following ones)."""
    token = _round.set({})
    try:
        return await _push_round(since=since, minute=minute, only=only)
    finally:
        _round.reset(token)


async def _push_round(*, since: str | None, minute: bool, only: set[tuple[str, str]] | None) -> int:
    app = _app
    if app is None or app.event_namespace is None:
        return 0
    connected = _connected(app)
    for token, pages in list(_tabs.items()):
        # A page is pushed only on the connection it loaded on, which its session's cookie came with: the tab
        # closed, or its token came back on another connection (a reconnect loads the page again and registers
        # anew; a token alone, without the cookie, never gets here), and the registration lapses.
        for name in [n for n, tab in pages.items() if tab.socket != connected.get(token)]:
            del pages[name]
        if not pages:
            del _tabs[token]
    watches = {
        tab.watch
        for token, pages in _tabs.items()
        for name, tab in pages.items()
        if only is None or (token, name) in only
    }
    if not watches:
        return 0
    stamps = await asyncio.to_thread(_read_stamps, watches, since)
    stats["reads"] += len(stamps)
    concerned = [
        (token, name, tab, stamps.get(tab.watch, ""))
        for token, pages in list(_tabs.items())
        for name, tab in list(pages.items())
        if (tab.watch in stamps and stamps[tab.watch] != tab.stamp) or (minute and tab.minutely)
    ]
    for token, name, tab, stamp in concerned:
        tab.stamp = stamp or tab.stamp
        try:
            await _push(app, token, name, tab, stamp)
        except Exception:  # noqa: BLE001 — one tab's failed reload must not stop the others'
            log.exception("live push to a tab failed")
    return len(concerned)


async def _listen_postgres() -> None:
    """PostgreSQL's notifications of every process's commits wake the watcher (the stamp read stays the judge)."""
    import psycopg  # noqa: PLC0415 — only with PostgreSQL

    url = settings.database_url.replace("postgresql+psycopg://", "postgresql://", 1)
    while True:
        try:
            async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
                await conn.execute(f"LISTEN {announce.CHANNEL}")
                async for _ in conn.notifies():
                    wake()
        except Exception:  # noqa: BLE001 — the database restarting: the stamp poll covers the gap
            log.warning("LISTEN %s lost; retrying in 1 s", announce.CHANNEL)
            await asyncio.sleep(1)


async def watcher() -> None:
    """The worker's one watcher: a lifespan task."""
    global _wake, _loop  # noqa: PLW0603
    _wake, _loop = asyncio.Event(), asyncio.get_running_loop()
    remove = announce.on_commit(wake)
    listener = asyncio.create_task(_listen_postgres()) if settings.database_url.startswith("postgresql") else None
    last, minute_at, round_at = "", time.monotonic(), 0.0
    try:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(_wake.wait(), POLL_SECONDS)
            if (gap := round_at + ROUND_GAP - time.monotonic()) > 0:
                await asyncio.sleep(gap)
            _wake.clear()
            try:
                minute = time.monotonic() - minute_at >= MINUTE_SECONDS
                if not _tabs and not minute:
                    continue  # nobody watches: not even the stamp is read
                fresh = set(_fresh)
                _fresh.clear()
                now = await asyncio.to_thread(_read_league)
                if minute:
                    minute_at = time.monotonic()
                    fresh |= {(t, n) for t, pages in _tabs.items() for n, tab in pages.items() if tab.minutely}
                if now != last:
                    since, last, round_at = last, now, time.monotonic()
                    await push_changes(since=since, minute=minute)
                elif fresh:
                    await push_changes(only=fresh, minute=minute)
            except Exception:  # noqa: BLE001 — the database restarting: the next round retries
                log.exception("live watcher round failed")
    finally:
        remove()
        if listener is not None:
            listener.cancel()
