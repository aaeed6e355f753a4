"""The league's seasons: the list with champions and top eight, and one season's record, read-only."""

from __future__ import annotations

from typing import TypedDict

import reflex as rx
from reflex.event import EventSpec

from discard_app import routes, texts
from discard_app.components.bracket import TableView, table_card, table_view
from discard_app.layout import notice, page
from discard_app.pages.results.standings import standings_table
from discard_app.pages.results.standings_state import StandingsRowView
from discard_app.state.auth import AuthState
from services.core.db import session_scope
from services.core.models import Season, saved, utc_now
from services.playoff.repo import load_bracket
from services.results.hanchans import archived
from services.views import history


class SeasonCard(TypedDict):
    id: str
    name: str
    status: str
    current: bool
    champion: str
    top: list[str]


class MatchLine(TypedDict):
    id: str
    title: str
    players: str
    status: str


class SeasonsState(AuthState):
    cards: list[SeasonCard] = []

    @rx.event
    def load(self) -> EventSpec | None:
        if self._current_user() is None:
            return self._redirect_to_login()
        with session_scope() as session:
            summaries = history.season_summaries(session)
        self.cards = [
            SeasonCard(
                id=str(s.id),
                name=s.name,
                status=s.status,
                current=s.current,
                champion=texts.SEASONS_CHAMPION.format(name=s.champion) if s.champion else texts.SEASONS_NO_CHAMPION,
                top=list(s.top),
            )
            for s in summaries
        ]
        return None


class SeasonRecordState(AuthState):
    found: bool = False
    name: str = ""
    status: str = ""
    standings: list[StandingsRowView] = []
    tables: list[TableView] = []
    matches: list[MatchLine] = []
    archived: bool = False  # a past season: read-only, its table final

    @rx.event
    def load(self) -> EventSpec | None:
        if self._current_user() is None:
            return self._redirect_to_login()
        raw = str(self.router.page.params.get("season_id", ""))
        with session_scope() as session:
            season = session.get(Season, int(raw)) if raw.isdigit() else None
            self.found = season is not None
            if season is None:
                self.name, self.standings, self.tables, self.matches = "", [], [], []
                return None
            self.name, self.status = season.name, history.status_text(season)
            self.archived = archived(session, season)
            # ignore: the service's rows are plain dicts; the TypedDict names their keys for the page
            self.standings = history.season_standings_rows(session, saved(season.id))  # type: ignore[assignment]
            view = load_bracket(session, season)
            self.tables = [table_view(t.round, t, view, {}, set()) for t in view.bracket.tables] if view.started else []
            self.matches = history.season_matches(session, season.id, now=utc_now())  # type: ignore[assignment]
        return None


def _card(card: SeasonCard) -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.flex(
                rx.link(rx.heading(card["name"], size="4", as_="h2"), href=routes.SEASONS + "/" + card["id"]),
                rx.cond(card["current"], rx.badge(texts.SEASONS_CURRENT_BADGE, color_scheme="green")),
                spacing="2",
                align="center",
                wrap="wrap",
            ),
            rx.text(card["status"], size="2", color_scheme="gray"),
            rx.text(card["champion"], weight="medium"),
            rx.cond(
                card["top"].length() > 0,
                rx.vstack(
                    rx.text(texts.SEASONS_TOP, size="2", weight="medium"),
                    # each line carries its place: a place shared at the cut would put a list's own numbers wrong
                    rx.el.ul(rx.foreach(card["top"], lambda n: rx.el.li(n)), style={"margin": 0, "listStyle": "none"}),
                    spacing="1",
                ),
            ),
            rx.link(
                texts.SEASONS_OPEN,
                href=routes.SEASONS + "/" + card["id"],
                aria_label=texts.SEASONS_OPEN + " " + card["name"],
            ),
            spacing="2",
            width="100%",
        ),
        width="100%",
    )


def seasons_page() -> rx.Component:
    return page(
        texts.SEASONS_TITLE,
        rx.text(texts.SEASONS_HINT, size="2", color_scheme="gray"),
        rx.cond(AuthState.is_organizer, rx.link(texts.SEASON_ADMIN_LINK, href=routes.SEASON_ADMIN)),
        # The register is the organizer's and the judge's (its page checks the role again on the server).
        rx.cond(
            (AuthState.user_role == "organizer") | (AuthState.user_role == "judge"),
            rx.link(texts.DQ_LINK, href=routes.DISQUALIFICATIONS),
        ),
        rx.foreach(SeasonsState.cards, _card),
    )


def _match(line: MatchLine) -> rx.Component:
    return rx.flex(
        rx.link(line["title"], href="/match/" + line["id"], weight="medium"),
        rx.text(line["players"], size="2"),
        rx.text(line["status"], size="2", color_scheme="gray"),
        column_gap="0.75em",
        wrap="wrap",
        padding_y="0.25em",
        border_bottom="1px solid var(--gray-a4)",
        width="100%",
    )


def season_record_page() -> rx.Component:
    S = SeasonRecordState  # noqa: N806
    return page(
        texts.SEASONS_TITLE,
        rx.cond(
            S.found,
            rx.vstack(
                rx.heading(S.name, size="6", as_="h2"),
                rx.text(
                    S.status,
                    " · ",
                    rx.cond(S.archived, texts.SEASON_RECORD_READONLY, texts.SEASON_RECORD_RUNNING),
                    size="2",
                    color_scheme="gray",
                ),
                rx.link("← " + texts.SEASONS_TITLE, href=routes.SEASONS),
                rx.heading(
                    rx.cond(S.archived, texts.SEASON_RECORD_STANDINGS, texts.SEASON_RECORD_STANDINGS_NOW),
                    size="4",
                    as_="h3",
                ),
                standings_table(S.standings),
                rx.heading(texts.SEASON_RECORD_PLAYOFF, size="4", as_="h3"),
                rx.cond(
                    S.tables.length() > 0,
                    rx.grid(
                        rx.foreach(S.tables, lambda t: table_card(t)),  # no wind draw: a record only
                        columns=rx.breakpoints(initial="1", md="2"),
                        spacing="3",
                        width="100%",
                    ),
                    rx.text(texts.SEASON_RECORD_NO_PLAYOFF, size="2"),
                ),
                rx.heading(texts.SEASON_RECORD_MATCHES, size="4", as_="h3"),
                rx.cond(
                    S.matches.length() > 0,
                    rx.vstack(rx.foreach(S.matches, _match), spacing="0", width="100%"),
                    rx.text(texts.SEASON_RECORD_NO_MATCHES, size="2"),
                ),
                spacing="3",
                width="100%",
            ),
            notice(texts.SEASON_RECORD_MISSING, "", icon="circle_alert", color="gray"),
        ),
    )
