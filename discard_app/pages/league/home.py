"""The home page: the player's own matches, or what comes next when there are none yet."""

from __future__ import annotations

from datetime import time, timedelta
from typing import TypedDict

import reflex as rx

from discard_app import routes, texts
from discard_app.layout import notice, page
from discard_app.state.auth import AuthState
from services.core.config import settings
from services.core.db import session_scope
from services.core.models import Role
from services.league.matches import PlayerMatch, player_matches


class MatchRow(TypedDict):
    title: str
    opponents: str
    window: str
    schedule_url: str


def _format_window(match: PlayerMatch) -> str:
    if match.window_start is None or match.window_end is None:
        return "игровое окно ещё не назначено"
    tz = settings.tz
    start, end = match.window_start.astimezone(tz), match.window_end.astimezone(tz)
    if start.time() == end.time() == time(0):
        # Whole days: "до 30.11 00:00" reads as "through the 30th"; name the last day instead.
        return f"игровое окно {start:%d.%m} — {end - timedelta(days=1):%d.%m} включительно"
    return f"игровое окно {start:%d.%m %H:%M} — {end:%d.%m %H:%M} (Киров)"


class HomeState(AuthState):
    matches: list[MatchRow] = []
    staff_note: str = ""
    is_staff: bool = False

    @rx.event
    def load(self) -> rx.event.EventSpec | None:
        user = self._require_user()
        if user is None:
            return self._redirect_to_login()
        with session_scope() as session:
            own = player_matches(session, user.id)
        self.matches = [
            MatchRow(
                title=f"Тур {m.round_code}, стол {m.table}"
                if m.stage == "regular"
                else f"Плей-офф, раунд {m.round_code}",
                opponents=", ".join(m.opponents),
                window=_format_window(m),
                schedule_url=routes.match_schedule_url(m.match_id),
            )
            for m in own
        ]
        role = texts.ROLE_LABELS.get(str(user.role), str(user.role))
        self.staff_note = texts.HOME_STAFF_TEXT.format(role=role) if user.role != Role.PLAYER else ""
        self.is_staff = user.role != Role.PLAYER
        return None


def _match_card(row: MatchRow) -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.heading(row["title"], size="4", as_="h2"),
            rx.text("Соперники: ", row["opponents"]),
            rx.text(row["window"], color_scheme="gray", size="2"),
            rx.link("Согласовать время", href=row["schedule_url"]),
            spacing="1",
        ),
        width="100%",
    )


def home_page() -> rx.Component:
    return page(
        texts.HOME_TITLE,
        rx.cond(HomeState.staff_note != "", rx.text(HomeState.staff_note, color_scheme="gray")),
        # The organizer's home points to the desk: «Матчей пока нет… когда жеребьёвка будет утверждена» is for players.
        rx.cond(
            AuthState.is_organizer | (AuthState.user_role == "judge"),
            rx.link(texts.HOME_STAFF_DESK, href=routes.DESK, weight="bold"),
        ),
        rx.cond(
            HomeState.matches.length() > 0,
            rx.vstack(rx.foreach(HomeState.matches, _match_card), width="100%", spacing="3"),
            rx.cond(HomeState.is_staff, rx.fragment(), notice(texts.HOME_EMPTY_TITLE, texts.HOME_EMPTY_TEXT)),
        ),
    )
