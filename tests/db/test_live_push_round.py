"""Which open tabs a web worker's round reloads (discard_app/live_push.py `push_changes`): a tab whose watched
stamp moved, and, once a minute, the pages that follow the clock (the desk: windows and meetings that end) — not
a tab whose stamp stayed, nor a clock-following one between minutes.

The real app's worker state: its socket registry (Reflex's token manager) and the tabs registered as pages register
them; the stamps read from the database as the worker reads them. Each tab's reload itself (`_push`, a page's own
`_live_push` in `app.modify_state`) is recorded instead of run: the browser tests show it on the page."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from sqlmodel import Session

import discard_app.discard_app  # noqa: F401  (the app: it installs itself as the worker's)
from discard_app import live_push
from discard_app.pages.league.home import HomeState
from discard_app.pages.scheduling.match_schedule_state import MatchScheduleState
from discard_app.state.desk import DeskState
from services.core.changes import LEAGUE, match_watch, person_watch, watched_stamp
from services.core.db import session_scope, use_database
from services.scheduling import availability
from services.scheduling.intervals import Interval
from tests import factories as f
from tests.factories import NOW, kirov


@pytest.fixture
def worker(engine: sa.Engine, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, str]]]:
    """This test's tabs only, on its database; the tabs the round reloads, as (tab token, what it watches)."""
    previous = use_database(engine.url.render_as_string(hide_password=False))
    app = live_push._app  # noqa: SLF001
    assert app is not None and app.event_namespace is not None
    monkeypatch.setattr(live_push, "_tabs", {})
    monkeypatch.setattr(app.event_namespace._token_manager, "token_to_socket", {})  # noqa: SLF001
    pushed: list[tuple[str, str]] = []

    async def reload(app, token: str, name: str, tab: live_push.Tab, stamp: str) -> None:  # noqa: ANN001, ARG001
        pushed.append((token, tab.watch[0]))

    monkeypatch.setattr(live_push, "_push", reload)
    yield pushed
    use_database(previous)


async def _open(token: str, cls: type, watch: tuple, *, minutely: bool = False) -> None:
    """A tab connected to this worker whose page has just read the stamp it watches and registered."""
    app = live_push._app  # noqa: SLF001
    assert app is not None and app.event_namespace is not None
    socket = f"socket-{token}"
    await app.event_namespace._token_manager.link_token_to_sid(token, socket)  # noqa: SLF001
    with session_scope() as session:
        stamp = watched_stamp(session, watch)
    live_push._tabs.setdefault(token, {})[cls.get_full_name()] = live_push.Tab(  # noqa: SLF001
        cls, watch, "", stamp, socket, minutely
    )


def _league_stamp() -> str:
    with session_scope() as session:
        return watched_stamp(session, LEAGUE)


@pytest.mark.asyncio
async def test_a_round_reloads_the_tabs_whose_stamp_moved_and_on_the_minute_the_clock_following_ones(
    engine: sa.Engine, worker: list[tuple[str, str]]
) -> None:
    with Session(engine, expire_on_commit=False) as session:
        league = f.league(session, players=8)
        other = f.match(session, league.rounds[0], league.players[4:], table="2")
        session.commit()
    me, them = league.users[0].id, league.users[4].id
    await _open("mine", MatchScheduleState, match_watch(league.match.id, me))
    await _open("theirs", MatchScheduleState, match_watch(other.id, them))
    await _open("home", HomeState, person_watch(them))
    await _open("desk", DeskState, LEAGUE, minutely=True)
    start = _league_stamp()

    assert await live_push.push_changes(since=start) == 0  # nothing moved
    assert worker == []
    await live_push.push_changes(since=start, minute=True)  # the minute turned: the desk only
    assert worker == [("desk", "league")]
    worker.clear()

    with session_scope() as session:  # a table-mate answers in my match
        availability.save_availability(
            session, match_id=league.match.id, user_id=league.users[1].id,
            intervals=[Interval(kirov(20, 17), kirov(20, 23))], now=NOW,
        )  # fmt: skip
    await live_push.push_changes(since=start)
    assert sorted(worker) == [("desk", "league"), ("mine", "match")]
    worker.clear()
    assert await live_push.push_changes(since=_league_stamp()) == 0  # each reloaded tab holds the new stamp now
    assert await live_push.push_changes(since=start) == 0
