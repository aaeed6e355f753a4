"""Live regular-stage standings: every open page is linked to one shared state and updates without reload."""

from __future__ import annotations

import reflex as rx

from discard_app import texts
from discard_app.layout import page
from discard_app.pages.results.standings_state import LiveStandingsState, StandingsRowView
from discard_app.pages.results.standings_ties import tie_forms


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
