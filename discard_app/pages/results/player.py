"""A player's page: their matches and the cumulative total after each tour beside the league's leaders."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex.event import EventSpec

from discard_app import routes, texts
from discard_app.components.live import LivePage
from discard_app.components.wide_table import wide_table
from discard_app.layout import forbidden, page
from discard_app.state.auth import AuthState
from services.core.db import session_scope
from services.core.models import Player, User
from services.results.view import player_view
from services.views import history

COLORS = ("var(--accent-9)", "var(--amber-9)", "var(--blue-9)", "var(--gray-9)")


class PlayerState(LivePage, AuthState):
    found: bool = False
    name: str = ""
    matches: list[dict[str, str]] = []
    chart: list[dict[str, Any]] = []
    series: list[str] = ["", "", "", ""]
    seasons: list[dict[str, str]] = []  # every season this person played: place and totals

    # The chart has None for the tours a line's player has not played: recharts leaves a gap
    # (connect_nulls stays off), instead of a flat copy of an earlier total.

    @rx.event
    def load(self) -> EventSpec | None:
        user = self._viewer()
        if user is None:
            return self._redirect_to_login()
        self._refresh(user)
        self._start_live()
        return None

    def _refresh(self, user: User) -> None:  # noqa: ARG002 - every player's page is public to the league
        self._stamp = self._live_stamp()  # a result entered anywhere moves the totals and the chart
        player_id = routes.id_in_path(self.router.url.path, r"/player/(\d+)")
        with session_scope() as session:
            view = player_view(session, player_id) if player_id is not None else None
            player = session.get(Player, player_id) if view is not None else None
            self.seasons = history.person_seasons(session, player.user_id) if player else []
        self.found = view is not None
        if view is not None:
            self.name, self.matches, self.chart = view["name"], view["matches"], view["chart"]
            names = [s["name"] for s in view["series"]]
            self.series = (names + ["", "", "", ""])[:4]


def _match(m: dict[str, str]) -> rx.Component:
    return rx.table.row(
        rx.table.cell(rx.link(texts.PLAYER_MATCH_TOUR + m["round"], href="/match/" + m["id"]), white_space="nowrap"),
        rx.table.cell(m["opponents"], min_width="10em"),
        rx.table.cell(m["hanchans"], white_space="nowrap"),
        # "+20 600" must not break at its thousands space on a phone
        rx.table.cell(m["total"], white_space="nowrap"),
        rx.table.cell(m["place"], white_space="nowrap"),
    )


# 93000 → «93 000», −25000 → «−25 000»: the narrow no-break space (THOUSANDS) and the minus sign (MINUS) of
# `format_points`, as the tables write points
POINTS_JS = (
    "(value) => typeof value === 'number' ? String(value).replace(/\\B(?=(\\d{3})+(?!\\d))/g, '\\u202f')"
    ".replace('-', '\\u2212') : value"
)


def _chart() -> rx.Component:
    return rx.recharts.responsive_container(
        rx.recharts.line_chart(
            *[
                rx.recharts.line(
                    data_key=f"p{i}",
                    name=PlayerState.series[i],
                    stroke=COLORS[i],
                    stroke_width=3 if i == 0 else 1.5,
                    dot={"fill": COLORS[i], "stroke": COLORS[i]},  # a tour's point in its line's colour
                    # fewer than three leaders besides the player: no nameless grey line in the legend
                    hide=PlayerState.series[i] == "",
                    legend_type=rx.cond(PlayerState.series[i] == "", "none", "line"),
                )
                for i in range(4)
            ],
            rx.recharts.x_axis(data_key="tour", padding={"left": 16, "right": 32}),  # «Тур 4» not cut at the edge
            # «60 000», as the tables write points (services.core.wording.format_points), on the axis and in
            # the tooltip (recharts' `formatter`, which Reflex does not name: passed as it is)
            rx.recharts.y_axis(width=70, tick_formatter=POINTS_JS),
            rx.recharts.cartesian_grid(stroke_dasharray="3 3"),
            rx.recharts.graphing_tooltip(custom_attrs={"formatter": rx.Var(POINTS_JS)}),
            rx.recharts.legend(),
            data=PlayerState.chart,
        ),
        width="100%",
        height=300,
    )


def _season_row(row: dict[str, str]) -> rx.Component:
    return rx.table.row(
        rx.table.row_header_cell(rx.link(row["season"], href="/seasons/" + row["season_id"])),
        rx.table.cell(row["place"], white_space="nowrap"),
        rx.table.cell(row["total"], white_space="nowrap"),
        rx.table.cell(row["matches"], white_space="nowrap"),
    )


def _seasons() -> rx.Component:
    return rx.fragment(
        rx.heading(texts.PLAYER_SEASONS, size="4", as_="h2"),
        rx.box(
            rx.table.root(
                rx.table.header(
                    rx.table.row(
                        *[
                            rx.table.column_header_cell(t)
                            for t in (
                                texts.SEASONS_TITLE,
                                texts.PLAYER_SEASONS_PLACE,
                                texts.PLAYER_SEASONS_TOTAL,
                                texts.PLAYER_SEASONS_MATCHES,
                            )
                        ]
                    )
                ),
                rx.table.body(rx.foreach(PlayerState.seasons, _season_row)),
                size="1",
                width="100%",
            ),
            overflow_x="auto",
            width="100%",
        ),
    )


def player_page() -> rx.Component:
    # The page title is the player's name, not a generic "Игрок".
    title = rx.cond(PlayerState.found & (PlayerState.name != ""), PlayerState.name, texts.PLAYER_PAGE_TITLE)
    return page(
        title,
        rx.cond(
            PlayerState.found,
            rx.vstack(
                rx.heading(texts.PLAYER_CHART, size="3", as_="h3"),
                _chart(),
                rx.heading(texts.PLAYER_MATCHES, size="4", as_="h2"),
                rx.cond(
                    PlayerState.matches.length() > 0,
                    wide_table(
                        rx.table.root(
                            rx.table.header(
                                rx.table.row(*[rx.table.column_header_cell(t) for t in texts.PLAYER_COLUMNS])
                            ),
                            rx.table.body(rx.foreach(PlayerState.matches, _match)),
                            size="1",
                            min_width="0",
                            width="100%",
                        ),
                        PlayerState.matches,
                        # Issue 45 item 6: on a phone the tour, its points and place; opponents behind a tap
                        keys=(1, 4, 5),
                        columns=len(texts.PLAYER_COLUMNS),
                        min_width="30em",
                    ),
                    rx.text(texts.PLAYER_NO_MATCHES),
                ),
                _seasons(),
                spacing="3",
                width="100%",
            ),
            forbidden(texts.PLAYER_NOT_FOUND),
        ),
    )
