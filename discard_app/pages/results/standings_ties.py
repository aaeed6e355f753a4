"""The organizer's tie decisions on the standings page (Регламент §4): one form per unresolved tie."""

from __future__ import annotations

from typing import Any, ClassVar, TypedDict

import reflex as rx

from discard_app import texts
from discard_app.components.form import action_form
from discard_app.pages.results.match_forms import _field, _labelled
from discard_app.pages.results.standings_state import publish_standings
from discard_app.state.action import KEY_FIELD, GuardedActions, Outcome, guarded
from discard_app.state.auth import AuthState
from services.core.db import session_scope
from services.core.models import Role, User, utc_now
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


class TieState(GuardedActions, AuthState):
    """Only the organizer's browser gets the groups; everyone else keeps the empty list."""

    VIEWERS: ClassVar[tuple[Role, ...]] = (Role.ORGANIZER,)

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
        self.groups = []
        self._renew_key()  # this tab's forms carry their own one-time key (discard_app/state/action.py)
        if self._viewer() is not None:
            self._refresh()

    def _show_refusal(self, message: str) -> None:
        self.groups, self.problems, self.notice = [], [message], ""

    def _show_answer(self, outcome: Outcome, where: str) -> None:
        self.problems, self.notice = ([], outcome.message) if outcome.ok else (outcome.problems, "")

    @rx.event
    @guarded(Role.ORGANIZER)
    async def decide(self, form: dict[str, Any]) -> None:
        """Регламент §4: the organizer's order of one tied group, best first, with the reason; once per form."""
        keys = sorted((k for k in form if k.startswith("pos_") and k[4:].isdigit()), key=lambda k: int(k[4:]))
        order = [results._int(form[k]) for k in keys]
        ordered, reason = [p for p in order if p is not None], str(form.get("reason", ""))

        def decide(session: Any, user: User) -> None:
            if not order or len(ordered) < len(order):
                raise results.ResultsError(texts.TIE_PICK_EVERY_PLACE)
            season_id = current_season_id(session)
            if season_id is None:
                raise results.ResultsError(texts.TIE_NO_SEASON)
            penalties.decide_tie(session, user, season_id, ordered, reason, now=utc_now())

        outcome = self._perform(decide, key=form.get(KEY_FIELD), done=texts.TIE_SAVED, action="standings.tie")
        if not outcome.ok:
            return
        self._refresh()

        if not outcome.repeated:
            await publish_standings(self)


def _group(group: TieGroupView) -> rx.Component:
    return action_form(
        TieState,
        rx.text(group["names"], size="2"),
        rx.foreach(
            group["positions"],
            lambda n: _labelled(
                texts.TIE_PLACE_PREFIX + n,
                rx.select.root(
                    rx.select.trigger(
                        placeholder=texts.CHOOSE_PLAYER, aria_label=texts.TIE_PLACE_PREFIX + n + ": " + group["title"]
                    ),
                    rx.select.content(rx.foreach(group["players"], lambda p: rx.select.item(p["name"], value=p["id"]))),
                    name="pos_" + n,
                ),
            ),
        ),
        _field("reason", texts.TIE_REASON),
        on_submit=TieState.decide,
        submit_text=texts.TIE_SUBMIT,
        title=group["title"],
        submit_props={"variant": "outline"},
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
