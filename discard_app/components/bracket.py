"""The bracket's table cards and the view rows behind them; no state of its own."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypedDict

import reflex as rx
from reflex.event import EventSpec

from discard_app import texts
from discard_app.components.wide_table import wide_table
from services.core.wording import format_average, format_signed
from services.playoff import stage as playoff
from services.playoff.bracket import ROUND_NAMES, WINDS, Table
from services.scheduling.rules import format_span

OUTCOME_COLORS = {"upper": "jade", "final": "jade", "champion": "amber", "second": "amber", "out": "gray"}


class RowView(TypedDict):
    place: str
    name: str
    total: str
    average: str
    outcome: str
    color: str


class TableView(TypedDict):
    title: str
    status: str
    known: bool
    rows: list[RowView]
    winds: str
    match_id: str
    can_draw: bool


def table_view(
    round_: str, table: Table | None, view: playoff.PlayoffView, drawn: dict[int, tuple[int, ...]], mine: set[int]
) -> TableView:
    """One table card; `mine`: the match ids where this user may draw the winds."""
    title = ROUND_NAMES[round_][0].upper() + ROUND_NAMES[round_][1:]
    if table is None:
        return TableView(
            title=title, status=texts.PLAYOFF_NOT_KNOWN, known=False, rows=[], winds="", match_id="", can_draw=False
        )
    names = view.names
    rows: list[RowView] = []
    for line in table.ranking:
        outcome = table.advance.get(line.player, "")
        label = texts.PLAYOFF_OUTCOMES.get(outcome, "" if line.main else texts.PLAYOFF_SUBSTITUTE)
        rows.append(
            RowView(
                place="—" if line.place is None else f"{line.place}{'=' if line.unresolved_tie else ''}",
                name=names.get(line.player, str(line.player)),
                total=format_signed(line.total),
                average=format_average(line.average_place),
                outcome=label,
                color=OUTCOME_COLORS.get(outcome, "blue"),
            )
        )
    if not rows:
        rows = [
            RowView(place="", name=names.get(p, str(p)), total="", average="", outcome="", color="gray")
            for p in table.players
        ]
    window = view.windows.get(playoff.TABLE_OF[round_][0], (None, None))
    status = texts.PLAYOFF_NO_WINDOW
    if window[0] and window[1]:
        status = texts.PLAYOFF_WINDOW.format(window=format_span(window[0], window[1]))
    last = max(drawn, default=None)
    shown = ""
    if last is not None:
        pairs = zip(WINDS, drawn[last], strict=True)
        shown = texts.PLAYOFF_WINDS_DRAWN.format(
            number=last, winds=", ".join(f"{w} — {names.get(p, p)}" for w, p in pairs)
        )
    match_id = "" if table.match_id is None else str(table.match_id)
    can_draw = table.match_id in mine and not table.complete
    return TableView(
        title=title, status=status, known=True, rows=rows, winds=shown, match_id=match_id, can_draw=can_draw
    )


def table_card(table: TableView, on_draw: Callable[[rx.Var[Any]], EventSpec] | None = None) -> rx.Component:
    """A table of the bracket: players, totals, average place and where each goes; the wind draw button where
    winds can be drawn (`on_draw`; none on a season's read-only record)."""
    rows = rx.foreach(
        table["rows"],
        lambda row: rx.table.row(
            # Issue 28: all five fit a 390 px phone; a number never breaks inside itself.
            rx.table.cell(row["place"], white_space="nowrap"),
            rx.table.row_header_cell(row["name"]),
            rx.table.cell(row["total"], text_align="right", white_space="nowrap"),
            rx.table.cell(row["average"], white_space="nowrap"),
            rx.table.cell(
                rx.cond(
                    row["outcome"] != "", rx.badge(row["outcome"], color_scheme=row["color"], white_space="nowrap")
                ),
                white_space="nowrap",
            ),
        ),
    )
    return rx.card(
        rx.vstack(
            rx.heading(table["title"], size="4", as_="h3"),
            rx.text(table["status"], size="2", color_scheme="gray"),
            rx.cond(
                table["known"],
                # Issue 28: on a phone place, name, total and «Дальше»; the average place behind «Все столбцы».
                wide_table(
                    rx.table.root(
                        rx.table.header(
                            rx.table.row(
                                rx.table.column_header_cell(texts.PLAYOFF_PLACE),
                                rx.table.column_header_cell(texts.PLAYOFF_PLAYER),
                                rx.table.column_header_cell(texts.PLAYOFF_TOTAL),
                                rx.table.column_header_cell(texts.PLAYOFF_AVERAGE),
                                rx.table.column_header_cell(texts.PLAYOFF_OUTCOME),
                            )
                        ),
                        rx.table.body(rows),
                        size="1",
                        width="100%",
                    ),
                    table["rows"],
                    keys=(1, 2, 3, 5),
                    columns=5,
                ),
            ),
            rx.cond(table["winds"] != "", rx.text(table["winds"], size="2")),
            # Issue 45 item 5: from the bracket to the playoff match's own page
            rx.cond(table["match_id"] != "", rx.link(texts.PLAYOFF_MATCH_PAGE, href="/match/" + table["match_id"])),
            *(
                [
                    rx.cond(
                        table["can_draw"],
                        rx.button(texts.PLAYOFF_WINDS, size="1", variant="soft", on_click=on_draw(table["match_id"])),
                    )
                ]
                if on_draw is not None
                else []
            ),
            spacing="2",
            width="100%",
        ),
        aria_label=table["title"],
        role="region",
        width="100%",
        max_width="34em",
    )
