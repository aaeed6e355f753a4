"""The start-of-season checklist on the organizer's desk (issue 28 item 1): each line done or what is missing, with
the link to the page where it is done; folded once everything is done. The lines come from
services/views/checklist.py."""

from __future__ import annotations

from typing import TypedDict

import reflex as rx

from discard_app import routes, texts
from discard_app.components.live import LivePage
from discard_app.state.auth import AuthState, OrganizerPage
from services.core.db import session_scope
from services.core.models import User, utc_now
from services.league.roster import current_season
from services.views.checklist import season_checklist

PAGES = {
    "schedule": routes.SCHEDULE_OVERVIEW,
    "rooms": f"{routes.SCHEDULE_OVERVIEW}#{routes.ROOMS_ANCHOR}",  # the room forms (issue 45 item 10)
    "staff": routes.STAFF,
    "season_admin": routes.SEASON_ADMIN,
    "roster": routes.ROSTER,
    "draw": routes.DRAW,
    "playoff": routes.PLAYOFF,
}


class Line(TypedDict):
    title: str
    done: str
    detail: str
    href: str


class ChecklistState(LivePage, OrganizerPage, AuthState):
    lines: list[Line] = []
    done: int = 0

    def _refresh(self, user: User) -> None:  # noqa: ARG002 - the organizer's only, checked in load
        self._stamp = self._live_stamp()
        with session_scope() as session:
            season = current_season(session)
            found = season_checklist(session, season, now=utc_now()) if season is not None else []
        self.lines = [
            Line(title=c.title, done="1" if c.done else "", detail=c.detail, href=PAGES.get(c.page, "")) for c in found
        ]
        self.done = sum(1 for c in found if c.done)

    @rx.event
    def load(self) -> None:
        user = self._viewer()
        if user is not None:
            self._refresh(user)
            self._start_live()


def _line(line: Line) -> rx.Component:
    return rx.hstack(
        rx.cond(line["done"] != "", rx.icon("circle-check", color="var(--green-9)"), rx.icon("circle", color="gray")),
        rx.vstack(
            rx.cond(
                line["href"] != "",
                rx.link(line["title"], href=line["href"], weight="medium"),
                rx.text(line["title"], weight="medium"),
            ),
            rx.cond(line["detail"] != "", rx.text(line["detail"], size="2", color_scheme="gray")),
            spacing="0",
        ),
        align="start",
        spacing="2",
        role="listitem",
        aria_label=line["title"] + rx.cond(line["done"] != "", texts.CHECKLIST_DONE, texts.CHECKLIST_MISSING),
    )


def season_checklist_card() -> rx.Component:
    """Open while a line is missing; a folded summary when the season is ready."""
    S = ChecklistState
    return rx.cond(
        S.allowed & (S.lines.length() > 0),
        rx.el.details(
            rx.el.summary(
                texts.CHECKLIST_TITLE,
                " — ",
                S.done,
                texts.CHECKLIST_OF,
                S.lines.length(),
                cursor="pointer",
                style={"font_weight": "bold"},
            ),  # fmt: skip
            rx.vstack(rx.foreach(S.lines, _line), spacing="2", padding_top="0.5em", role="list"),
            open=S.done < S.lines.length(),
            width="100%",
        ),
    )
