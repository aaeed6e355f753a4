"""The playoff bracket page: both branches, tables, results, who went where, the final and the champion."""

from __future__ import annotations

import random

import reflex as rx

from discard_app import texts
from discard_app.components.bracket import TableView, table_card, table_view
from discard_app.components.confirm import confirm_dialog
from discard_app.components.live import LivePage
from discard_app.layout import page
from discard_app.state.auth import AuthState
from services.core.db import session_scope
from services.core.models import Role, Season, User, utc_now
from services.league import roster
from services.league.tour_windows import WindowError, parse_kirov
from services.playoff import stage as playoff
from services.playoff.bracket import PRIZES
from services.results import hanchans as results
from services.results import repo as results_repo
from services.results import winds
from services.results.scoring import format_points

SECTIONS = {"round1": ("1A", "1B"), "upper": ("2U",), "lower": ("2L", "3"), "final": ("F",)}


class PlayoffState(LivePage, AuthState):
    started: bool = False
    seeds: list[str] = []
    pending: list[str] = []
    sections: dict[str, list[TableView]] = {}
    podium: list[str] = []
    champion: str = ""
    error: str = ""
    notice: str = ""
    _season_id: int | None = None
    close_question: str = ""  # «Закрыть регулярный этап?» naming what follows; the form waits in `_pending_close`
    _pending_close: dict[str, str] = {}

    def _season(self, session) -> Season | None:  # noqa: ANN001
        return session.get(Season, self._season_id) if self._season_id is not None else None

    def _refresh(self, user: User) -> None:
        self._stamp = self._live_stamp()  # results, windows and ties entered anywhere show within a second
        with session_scope() as session:
            season = self._season(session)
            if season is None:
                self.started, self.seeds, self.pending, self.sections, self.podium, self.champion = (
                    False,
                    [],
                    [texts.NO_SEASON],
                    {},
                    [],
                    "",
                )
                return
            # Регламент §2: the next round's matches appear as soon as the previous ones are complete.
            playoff.advance_playoff(session, season)
            view = playoff.load_bracket(session, season)
            staff = user.role in (Role.ORGANIZER, Role.JUDGE)
            mine = {
                mid
                for mid in view.match_ids.values()
                if staff or results_repo.user_player_in_match(session, user.id, mid) is not None
            }
            drawn = {mid: winds.drawn_winds(session, mid) for mid in view.match_ids.values()}
            tables = {t.round: t for t in view.bracket.tables}
            self.sections = {
                key: [
                    table_view(r, tables.get(r), view, drawn.get(view.match_ids.get(r, -1), {}), mine) for r in rounds
                ]
                for key, rounds in SECTIONS.items()
            }
        bracket = view.bracket
        self.started = view.started
        self.seeds = [f"{i}. {view.names.get(p, p)}" for i, p in enumerate(bracket.seeds, start=1)]
        self.pending = list(bracket.pending)
        places = bracket.final_places
        self.champion = texts.PLAYOFF_CHAMPION.format(name=view.names.get(places[0])) if places else ""
        self.podium = [
            texts.PLAYOFF_PRIZE.format(place=place, name=view.names.get(places[place - 1]), prize=format_points(prize))
            for place, prize in PRIZES.items()
            if len(places) >= place
        ]

    @rx.event
    def load(self) -> rx.event.EventSpec | None:
        self.error = self.notice = ""
        user = self._current_user()
        if user is None:
            return self._redirect_to_login()
        wanted = self.router.url.query_parameters.get("season", "")
        with session_scope() as session:
            season = session.get(Season, int(wanted)) if wanted.lstrip("-").isdigit() else None
            season = season or roster.current_season(session)
            self._season_id = season.id if season else None
        self._refresh(user)
        return self._start_live()

    def _act(self, action, notice: str, *roles: Role) -> None:  # noqa: ANN001
        user = self._require_user(*roles)
        if user is None:
            self.error = texts.FORBIDDEN_ORGANIZER
            return
        self.error = self.notice = ""
        try:
            with session_scope() as session:
                season = self._season(session)
                if season is None:
                    raise playoff.PlayoffError(texts.NO_SEASON)
                action(session, season, user)
        except (playoff.PlayoffError, winds.WindsError, WindowError) as e:
            self.error = str(e)
        else:
            self.notice = notice
        self._refresh(user)

    @rx.event
    def close_stage(self, form: dict[str, str]) -> None:
        """Asks first, naming what closing does: it cannot be taken back (the playoff's matches are created)."""
        if self._require_user(Role.ORGANIZER) is None:
            self.error = texts.FORBIDDEN_ORGANIZER
            return
        self.error = self.notice = ""
        try:
            _close_window(form)
        except WindowError as error:
            self.error = str(error)
            return
        self._pending_close = {key: form.get(key, "") for key in ("start", "end")}
        window = " — ".join(v.replace("T", " ") for v in self._pending_close.values() if v)
        self.close_question = texts.PLAYOFF_CLOSE_CONFIRM.format(
            window=texts.PLAYOFF_CLOSE_CONFIRM_WINDOW.format(window=window) if window else ""
        )

    @rx.event
    def confirm_close(self) -> None:
        form, self._pending_close, self.close_question = self._pending_close, {}, ""
        if not form:
            return

        def action(session, season, user) -> None:  # noqa: ANN001
            playoff.close_regular_stage(session, season, actor=user, round_one_window=_close_window(form))

        self._act(action, texts.PLAYOFF_CLOSED, Role.ORGANIZER)

    @rx.event
    def cancel_close(self, is_open: bool = False) -> None:
        if not is_open:
            self._pending_close, self.close_question = {}, ""

    @rx.event
    def save_window(self, form: dict[str, str]) -> None:
        def action(session, season, user) -> None:  # noqa: ANN001
            start = parse_kirov(form.get("start", ""), texts.PLAYOFF_WINDOW_START)
            end = parse_kirov(form.get("end", ""), texts.PLAYOFF_WINDOW_END)
            playoff.set_round_window(session, season, form.get("code", ""), start, end, actor=user)

        self._act(action, texts.PLAYOFF_WINDOW_SAVED, Role.ORGANIZER)

    @rx.event
    def decide_tie(self, form: dict[str, str]) -> None:
        def action(session, season, user) -> None:  # noqa: ANN001
            view = playoff.load_bracket(session, season)
            match_id = view.match_ids.get(form.get("round", ""))
            by_name = {name.casefold(): pid for pid, name in view.names.items()}
            order = [by_name.get(part.strip().casefold()) for part in form.get("order", "").split(",") if part.strip()]
            if match_id is None or None in order:
                raise playoff.PlayoffError("Выберите матч и перечислите имена равных игроков через запятую.")
            playoff.decide_match_tie(
                session, season, match_id, order, reason=form.get("reason", ""), actor=user, now=utc_now()
            )

        self._act(action, texts.PLAYOFF_TIE_SAVED, Role.ORGANIZER)

    @rx.event
    def shuffle_winds(self, match_id: str) -> None:
        def action(session, season, user) -> None:  # noqa: ANN001
            if not match_id.isdigit():
                raise winds.WindsError("Матч не найден.")
            done = len(results.effective(session, int(match_id)))
            # Регламент §4: a fresh random draw before each hanchan (not tied to seeding or seats).
            winds.draw_winds(session, int(match_id), done + 1, actor=user, rng=random.SystemRandom())

        self._act(action, "")


def _section(title: str, key: str) -> rx.Component:
    return rx.vstack(
        rx.heading(title, size="5", as_="h2"),
        rx.flex(
            rx.foreach(PlayoffState.sections[key], lambda t: table_card(t, PlayoffState.shuffle_winds)),
            spacing="3",
            wrap="wrap",
            width="100%",
        ),
        spacing="2",
        width="100%",
    )


def _window_inputs() -> list[rx.Component]:
    return [
        _captioned(
            texts.PLAYOFF_WINDOW_START,
            rx.input(name="start", type="datetime-local", aria_label=texts.PLAYOFF_WINDOW_START),
        ),
        _captioned(
            texts.PLAYOFF_WINDOW_END, rx.input(name="end", type="datetime-local", aria_label=texts.PLAYOFF_WINDOW_END)
        ),
    ]


def _close_window(form: dict[str, str]) -> tuple:
    return (
        parse_kirov(form.get("start", ""), texts.PLAYOFF_WINDOW_START),
        parse_kirov(form.get("end", ""), texts.PLAYOFF_WINDOW_END),
    )


def _confirm_close() -> rx.Component:
    return confirm_dialog(
        texts.PLAYOFF_CLOSE_CONFIRM_TITLE,
        PlayoffState.close_question,
        confirm=texts.PLAYOFF_CLOSE,
        on_confirm=PlayoffState.confirm_close,
        cancel=texts.PLAYOFF_CLOSE_CANCEL,
        is_open=PlayoffState.close_question != "",
        on_open_change=PlayoffState.cancel_close,
        danger=True,
    )


def _captioned(caption: str, field: rx.Component) -> rx.Component:
    """A visible caption over a field: two bare date pickers in a row do not say which is the start."""
    return rx.flex(rx.text(caption + " (Киров)", size="1", color_scheme="gray"), field, direction="column", spacing="1")


def _organizer_forms() -> rx.Component:
    close = rx.fragment(
        _confirm_close(),
        rx.form(
            rx.flex(*_window_inputs(), rx.button(texts.PLAYOFF_CLOSE, type="submit"), spacing="2", wrap="wrap"),
            on_submit=PlayoffState.close_stage,
            reset_on_submit=False,
        ),
    )
    windows = rx.form(
        rx.flex(
            rx.select(
                ["1", "2", "3", "F"],
                name="code",
                placeholder=texts.PLAYOFF_WINDOW_ROUND,
                aria_label=texts.PLAYOFF_WINDOW_ROUND,
            ),
            *_window_inputs(),
            rx.button(texts.PLAYOFF_WINDOW_SAVE, type="submit", variant="outline"),
            spacing="2",
            wrap="wrap",
        ),
        on_submit=PlayoffState.save_window,
    )
    tie = rx.form(
        rx.flex(
            rx.select(
                ["1A", "1B", "2U", "2L", "3", "F"],
                name="round",
                placeholder=texts.PLAYOFF_WINDOW_ROUND,
                aria_label=texts.PLAYOFF_TIE,
            ),
            rx.input(
                name="order", placeholder=texts.PLAYOFF_TIE_ORDER, aria_label=texts.PLAYOFF_TIE_ORDER, min_width="16em"
            ),
            rx.input(name="reason", placeholder=texts.PLAYOFF_TIE_REASON, aria_label=texts.PLAYOFF_TIE_REASON),
            rx.button(texts.PLAYOFF_TIE_SAVE, type="submit", variant="outline"),
            spacing="2",
            wrap="wrap",
        ),
        on_submit=PlayoffState.decide_tie,
    )
    return rx.cond(
        AuthState.is_organizer,
        rx.cond(
            PlayoffState.started,
            rx.vstack(
                rx.heading(texts.PLAYOFF_WINDOWS, size="4", as_="h2"),
                windows,
                rx.heading(texts.PLAYOFF_TIE, size="4", as_="h2"),
                tie,
                width="100%",
            ),
            rx.vstack(rx.text(texts.PLAYOFF_CLOSE_HINT), close, width="100%"),
        ),
    )


def playoff_page() -> rx.Component:
    return page(
        texts.PLAYOFF_TITLE,
        rx.cond(PlayoffState.error != "", rx.callout(PlayoffState.error, color_scheme="red", role="alert")),
        rx.cond(PlayoffState.notice != "", rx.callout(PlayoffState.notice, color_scheme="green", role="status")),
        rx.cond(
            PlayoffState.champion != "",
            rx.callout(PlayoffState.champion, icon="trophy", color_scheme="amber", size="3", role="status"),
        ),
        rx.foreach(PlayoffState.podium, lambda line: rx.text(line, weight="medium")),
        rx.cond(~PlayoffState.started, rx.text(texts.PLAYOFF_NOT_STARTED)),
        rx.cond(
            PlayoffState.seeds.length() > 0,
            rx.vstack(
                rx.heading(texts.PLAYOFF_SEEDS, size="4", as_="h2"),
                rx.flex(
                    rx.foreach(PlayoffState.seeds, lambda s: rx.badge(s, variant="surface", size="2")),
                    spacing="2",
                    wrap="wrap",
                ),
                width="100%",
            ),
        ),
        rx.cond(
            PlayoffState.pending.length() > 0,
            rx.callout(
                rx.vstack(rx.foreach(PlayoffState.pending, lambda p: rx.text(p, size="2")), spacing="1"),
                title=texts.PLAYOFF_WAITING,
                icon="hourglass",
                color_scheme="blue",
                width="100%",
            ),
        ),
        rx.cond(
            PlayoffState.started,
            rx.vstack(
                _section(texts.PLAYOFF_ROUND_1, "round1"),
                _section(texts.PLAYOFF_UPPER, "upper"),
                _section(texts.PLAYOFF_LOWER, "lower"),
                _section(texts.PLAYOFF_FINAL, "final"),
                spacing="5",
                width="100%",
            ),
        ),
        _organizer_forms(),
    )
