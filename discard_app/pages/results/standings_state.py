"""The live standings shared by every open page: one linked state, recomputed when a result changes."""

from __future__ import annotations

from typing import TypedDict

import reflex as rx
from reflex.event import EventSpec

from discard_app.state.auth import AuthState
from services.core.db import session_scope
from services.results.view import season_standings

LINK = "standings"  # the shared token; Reflex forbids "_" in it


class StandingsRowView(TypedDict):
    place: str
    player_id: str
    name: str
    total: str
    matches: str
    hanchans: str
    average: str
    tie: str
    top: str
    line: str


class LiveStandingsState(rx.SharedState):
    """One copy for every linked browser. The rows are a backend var so no browser can set them (the generic
    setvar is refused for backend vars); the browsers get the computed `rows`. Only logged-in users link."""

    _rows: list[StandingsRowView] = []

    @rx.var
    def rows(self) -> list[StandingsRowView]:
        return self._rows

    @rx.var
    def has_tie(self) -> bool:
        return any(r["tie"] for r in self._rows)

    @rx.event
    async def join(self) -> EventSpec | None:
        auth = await self.get_state(AuthState)
        if auth._viewer() is None:
            return auth._redirect_to_login()
        linked = await self._link_to(LINK)
        with session_scope() as session:
            # ignore: the service's rows are plain dicts; the TypedDict names their keys for the page
            linked._rows = season_standings(session)  # type: ignore[assignment]
        return None


async def publish_standings(state: rx.State) -> None:
    """Recompute the standings into the shared state: every linked browser gets them within milliseconds."""
    live = await state.get_state(LiveStandingsState)
    linked = await live._link_to(LINK)
    with session_scope() as session:
        # ignore: the service's rows are plain dicts; the TypedDict names their keys for the page
        linked._rows = season_standings(session)  # type: ignore[assignment]
