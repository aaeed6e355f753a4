"""Live regular-stage standings: every open page is linked to one shared state and updates without reload."""

from __future__ import annotations

from typing import TypedDict

import reflex as rx

from discard_app import texts
from discard_app.layout import page
from discard_app.state.auth import AuthState
from services.db import session_scope
from services.results_view import season_standings

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
    async def join(self) -> rx.event.EventSpec | None:
        auth = await self.get_state(AuthState)
        if auth._require_user() is None:
            return auth._redirect_to_login()
        linked = await self._link_to(LINK)
        with session_scope() as session:
            linked._rows = season_standings(session)
        return None


async def publish_standings(state: rx.State) -> None:
    """Recompute the standings into the shared state: every linked browser gets them within milliseconds."""
    live = await state.get_state(LiveStandingsState)
    linked = await live._link_to(LINK)
    with session_scope() as session:
        linked._rows = season_standings(session)


def _row(row: StandingsRowView) -> rx.Component:
    return rx.table.row(
        rx.table.cell(row["place"], white_space="nowrap"),
        rx.table.row_header_cell(rx.link(row["name"], href="/player/" + row["player_id"])),
        # "+43 200" must not break at its thousands space on a phone
        rx.table.cell(row["total"], white_space="nowrap"),
        rx.table.cell(row["matches"], white_space="nowrap"),
        rx.table.cell(row["hanchans"], white_space="nowrap"),
        rx.table.cell(row["average"], white_space="nowrap"),
        # Регламент §1: the top-8 line is a thick border under the eighth place.
        border_bottom=rx.cond(row["line"] == "1", "3px solid var(--accent-9)", "none"),
        background=rx.cond(row["top"] == "1", "var(--accent-a2)", "transparent"),
        aria_label=row["name"],
    )


def standings_table(rows: rx.Var) -> rx.Component:
    return rx.box(
        rx.table.root(
            rx.table.header(
                rx.table.row(
                    *[
                        rx.table.column_header_cell(t, white_space="nowrap")
                        for t in (
                            texts.COL_PLACE,
                            texts.COL_PLAYER,
                            texts.COL_TOTAL,
                            texts.COL_MATCHES,
                            texts.COL_HANCHANS,
                            texts.COL_AVERAGE,
                        )
                    ]
                )
            ),
            rx.table.body(rx.foreach(rows, _row)),
            width="100%",
            # on a phone the table scrolls sideways inside its box instead of cutting the last column
            min_width="32em",
            size="1",
        ),
        overflow_x="auto",
        width="100%",
    )


def standings_page() -> rx.Component:
    from discard_app.pages.standings_ties import tie_forms  # it imports publish_standings from here

    return page(
        texts.STANDINGS_TITLE,
        rx.text(texts.STANDINGS_HINT, color_scheme="gray", size="2"),
        rx.cond(
            LiveStandingsState.rows.length() > 0,
            standings_table(LiveStandingsState.rows),
            rx.text(texts.STANDINGS_EMPTY),
        ),
        rx.cond(LiveStandingsState.has_tie, rx.text(texts.STANDINGS_TIE_NOTE, size="2", color_scheme="amber")),
        tie_forms(),
    )
