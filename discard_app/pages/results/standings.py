"""Live regular-stage standings: every open page is linked to one shared state and updates without reload."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex.event import EventSpec

from discard_app import texts
from discard_app.components.live import LivePage
from discard_app.components.wide_table import wide_table
from discard_app.layout import page
from discard_app.pages.results.standings_state import LiveStandingsState, StandingsRowView, publish_standings
from discard_app.pages.results.standings_ties import tie_forms
from discard_app.state.auth import AuthState
from services.core.db import session_scope
from services.core.models import User, saved
from services.core.wording import counted
from services.results.repo import current_player_id, current_season_id, season_rules


class StandingsViewerState(LivePage, AuthState):
    """Per browser: which row is mine, and the poll that brings in results entered by any process."""

    my_player_id: str = ""
    hint: str = ""  # quotes the season's playoff size (the line under the last place that goes on)

    @rx.event
    def load(self) -> EventSpec | None:
        user = self._viewer()
        if user is None:
            return None  # LiveStandingsState.join sends the visitor to the login page
        self._stamp = self._live_stamp()
        with session_scope() as session:
            player_id = current_player_id(session, saved(user.id))
            top = season_rules(session, current_season_id(session)).playoff_size
        self.my_player_id = str(player_id) if player_id else ""
        self.hint = texts.STANDINGS_HINT.format(places=counted(top, *texts.STANDINGS_PLACE_FORMS))
        self._start_live()
        return None

    async def _live_reload(self, user: User, before: str, now: str) -> None:  # noqa: ARG002
        """A result entered by the bot, the command line or the Pantheon import: recompute the shared standings."""
        self._stamp = now
        await publish_standings(self)


def _row(row: StandingsRowView) -> rx.Component:
    return rx.table.row(
        rx.table.cell(row["place"], white_space="nowrap"),
        rx.table.row_header_cell(rx.link(row["name"], href="/player/" + row["player_id"])),
        # "+43 200" must not break at its thousands space on a phone
        rx.table.cell(row["total"], white_space="nowrap"),
        rx.table.cell(row["matches"], white_space="nowrap"),
        rx.table.cell(row["hanchans"], white_space="nowrap"),
        rx.table.cell(row["average"], white_space="nowrap"),
        # Регламент §1: the playoff line is a thick border under the last place that goes on (the ruleset's eighth).
        border_bottom=rx.cond(row["line"] == "1", "3px solid var(--accent-9)", "none"),
        background=rx.cond(row["top"] == "1", "var(--accent-a2)", "transparent"),
        aria_label=row["name"],
        class_name=rx.cond(row["player_id"] == StandingsViewerState.my_player_id, "mine", ""),
    )


def standings_table(rows: rx.Var[Any]) -> rx.Component:
    # On a phone the table scrolls sideways under the player's name, which stays in view.
    return wide_table(
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
            size="1",
        ),
        rows,
        sticky_column=2,
        # Issue 28: place, name, total and the average place stay on a phone; matches and hanchans behind a tap.
        keys=(1, 2, 3, 6),
        columns=6,
        min_width="32em",
    )


def standings_page() -> rx.Component:
    return page(
        texts.STANDINGS_TITLE,
        rx.text(StandingsViewerState.hint, color_scheme="gray", size="2"),
        rx.cond(StandingsViewerState.my_player_id != "", rx.text(texts.STANDINGS_MINE, color_scheme="gray", size="2")),
        rx.cond(
            LiveStandingsState.rows.length() > 0,
            standings_table(LiveStandingsState.rows),
            rx.text(texts.STANDINGS_EMPTY),
        ),
        rx.cond(LiveStandingsState.has_tie, rx.text(texts.STANDINGS_TIE_NOTE, size="2", color_scheme="amber")),
        tie_forms(),
    )
