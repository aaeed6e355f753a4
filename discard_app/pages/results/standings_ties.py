"""The organizer's tie decisions on the standings page (Регламент §4): one form per unresolved tie."""

from __future__ import annotations

from typing import Any, TypedDict

import reflex as rx

from discard_app import texts
from discard_app.pages.results.match_forms import _field, _labelled
from discard_app.pages.results.standings_state import publish_standings
from discard_app.state.auth import AuthState
from services.core.db import session_scope
from services.core.models import Role, utc_now
from services.results import hanchans as results
from services.results import penalties
from services.results.repo import current_season_id


class TiePlayerView(TypedDict):
    id: str
    name: str


class TieGroupView(TypedDict):
    title: str
    names: str
    players: list[TiePlayerView]
    positions: list[str]


class TieState(AuthState):
    """Only the organizer's browser gets the groups; everyone else keeps the empty list."""

    groups: list[TieGroupView] = []
    problems: list[str] = []
    notice: str = ""

    def _refresh(self) -> None:
        with session_scope() as session:
            season_id = current_season_id(session)
            ties = penalties.unresolved_ties(session, season_id) if season_id else []
        self.groups = [
            {
                "title": texts.TIE_PLACE.format(place=place),
                "names": ", ".join(name for _, name in members),
                "players": [{"id": str(pid), "name": name} for pid, name in members],
                "positions": [str(n) for n in range(1, len(members) + 1)],
            }
            for place, members in ties
        ]

    @rx.event
    def load(self) -> None:
        self.groups, self.problems, self.notice = [], [], ""
        if self._require_user(Role.ORGANIZER) is not None:
            self._refresh()

    @rx.event
    async def decide(self, form: dict[str, Any]) -> None:
        self.problems, self.notice = [], ""
        user = self._require_user(Role.ORGANIZER)
        if user is None:
            self.groups, self.problems = [], [texts.FORBIDDEN_TITLE]
            return
        keys = sorted((k for k in form if k.startswith("pos_") and k[4:].isdigit()), key=lambda k: int(k[4:]))
        order = [results._int(form[k]) for k in keys]
        if not order or any(pid is None for pid in order):
            self.problems = ["Выберите игрока на каждое место группы."]
            return
        try:
            with session_scope() as session:
                season_id = current_season_id(session)
                if season_id is None:
                    raise results.ResultsError("Сезон не найден.")
                penalties.decide_tie(
                    session,
                    user,
                    season_id,
                    [p for p in order if p is not None],
                    str(form.get("reason", "")),
                    now=utc_now(),
                )
        except results.ResultsError as e:
            self.problems = e.problems
            return
        self.notice = texts.TIE_SAVED
        self._refresh()
        await publish_standings(self)


def _group(group: TieGroupView) -> rx.Component:
    return rx.card(
        rx.form(
            rx.vstack(
                rx.heading(group["title"], size="3", as_="h3"),
                rx.text(group["names"], size="2"),
                rx.foreach(
                    group["positions"],
                    lambda n: _labelled(
                        "Место " + n,
                        rx.select.root(
                            rx.select.trigger(
                                placeholder=texts.CHOOSE_PLAYER, aria_label="Место " + n + ": " + group["title"]
                            ),
                            rx.select.content(
                                rx.foreach(group["players"], lambda p: rx.select.item(p["name"], value=p["id"]))
                            ),
                            name="pos_" + n,
                        ),
                    ),
                ),
                _field("reason", texts.TIE_REASON),
                rx.button(texts.TIE_SUBMIT, type="submit", variant="outline"),
                spacing="2",
                width="100%",
            ),
            on_submit=TieState.decide,
            reset_on_submit=False,
        ),
        width="100%",
    )


def tie_forms() -> rx.Component:
    """Регламент §4: still equal after average place — the organizer decides, best first, with a reason."""
    return rx.cond(
        (TieState.groups.length() > 0) | (TieState.problems.length() > 0) | (TieState.notice != ""),
        rx.vstack(
            rx.heading(texts.TIE_TITLE, size="4", as_="h2"),
            rx.cond(
                TieState.problems.length() > 0,
                rx.callout(
                    rx.vstack(rx.foreach(TieState.problems, lambda p: rx.text(p))),
                    color_scheme="red",
                    role="alert",
                ),
            ),
            rx.cond(TieState.notice != "", rx.callout(TieState.notice, color_scheme="green", role="status")),
            rx.foreach(TieState.groups, _group),
            spacing="3",
            width="100%",
        ),
    )
