"""The playoff bracket page: both branches, tables, results, who went where, the final and the champion."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import reflex as rx
from reflex.event import EventSpec
from sqlmodel import Session

from discard_app import texts
from discard_app.components.bracket import TableView, table_card, table_view
from discard_app.components.confirm import confirm_dialog
from discard_app.components.form import action_form
from discard_app.components.live import LivePage
from discard_app.layout import page
from discard_app.state.action import KEY_FIELD, Anyone, GuardedActions, guarded
from discard_app.state.auth import AuthState
from services.core.db import session_scope
from services.core.models import Role, Season, User, saved, utc_now
from services.core.wording import format_points
from services.league import roster
from services.playoff import stage as playoff
from services.playoff.bracket import PRIZES, ROUND_NAMES
from services.results import hanchans as results
from services.results import repo as results_repo
from services.results import winds
from services.results.scoring import PLAYOFF_ROUNDS
from services.scheduling.rules import format_span
from services.scheduling.tour_windows import parse_kirov

# Issue 28 item 6: the rounds in Russian on screen; the form still sends the bracket's codes.
WINDOW_ROUNDS = texts.PLAYOFF_WINDOW_ROUNDS


def _choice(name: str, placeholder: str, label: str, options: dict[str, str]) -> rx.Component:
    return rx.select.root(
        rx.select.trigger(placeholder=placeholder, aria_label=label),
        rx.select.content(*[rx.select.item(text, value=code) for code, text in options.items()]),
        name=name,
    )


SECTIONS = {"round1": ("1A", "1B"), "upper": ("2U",), "lower": ("2L", "3"), "final": ("F",)}


class PlayoffState(GuardedActions, LivePage, AuthState):
    started: bool = False
    seeds: list[str] = []
    pending: list[str] = []
    sections: dict[str, list[TableView]] = {}
    podium: list[str] = []
    champion: str = ""
    error: str = ""
    notice: str = ""
    _season_id: int | None = None
    close_question: str = ""  # «Закрыть регулярный этап?» naming what follows; "" while not asked
    close_start: str = ""  # the checked window the question is about: the confirmation sends it back
    close_end: str = ""

    def _season(self, session: Session) -> Season | None:
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
            # Регламент §2: the next round's matches appear as soon as the previous ones are complete — created by the
            # action that completes them (a hanchan entered, a tie decided: services/playoff/stage.advance_playoff);
            # the page reads only.
            view = playoff.load_bracket(session, season)
            staff = user.role in (Role.ORGANIZER, Role.JUDGE)
            mine = {
                mid
                for mid in view.match_ids.values()
                if staff or results_repo.user_player_in_match(session, saved(user.id), mid) is not None
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
    def load(self) -> EventSpec | None:
        self._renew_key()
        user = self._current_user()
        if user is None:
            return self._redirect_to_login()
        wanted = self.router.url.query_parameters.get("season", "")
        with session_scope() as session:
            season = session.get(Season, int(wanted)) if wanted.lstrip("-").isdigit() else None
            season = season or roster.current_season(session)
            self._season_id = season.id if season else None
        self._refresh(user)
        self._start_live()
        return None

    def _show_refusal(self, message: str) -> None:
        self.notice, self.error = "", texts.FORBIDDEN_ORGANIZER

    def _change(
        self,
        action: Callable[[Session, Season, User], Any],
        form: dict[str, str],
        done: str | Callable[[Any], str],
        name: str,
    ) -> None:
        """`action(session, season, user)` once per the form's key, then the bracket as it now stands."""

        def run(session: Session, user: User) -> Any:
            season = self._season(session)
            if season is None:
                raise playoff.PlayoffError(texts.NO_SEASON)
            return action(session, season, user)

        self._perform(run, key=form.get(KEY_FIELD), done=done, action=name)
        self._refresh(self._admitted_user())

    @rx.event
    @guarded(Role.ORGANIZER)
    def close_stage(self, form: dict[str, str]) -> None:
        """Asks first, naming what closing does: it cannot be taken back (the playoff's matches are created).
        The window is checked now; nothing changes until `confirm_close`."""
        self.error = self.notice = ""
        if not self._check(lambda session, user: _close_window(form)):
            return
        start, end = _close_window(form)
        self.close_start, self.close_end = form.get("start", ""), form.get("end", "")
        window = format_span(start, end)  # as every page says a time, not the field's ISO
        self.close_question = texts.PLAYOFF_CLOSE_CONFIRM.format(
            window=texts.PLAYOFF_CLOSE_CONFIRM_WINDOW.format(window=window) if window else ""
        )

    @rx.event
    @guarded(Role.ORGANIZER)
    def confirm_close(self, form: dict[str, str]) -> None:
        """The confirmed question: the window it named (checked again) and the form's key."""
        self.close_question = self.close_start = self.close_end = ""

        def action(session: Session, season: Season, user: User) -> None:
            playoff.close_regular_stage(session, season, actor=user, round_one_window=_close_window(form))

        self._change(action, form, texts.PLAYOFF_CLOSED, "playoff.close")

    @rx.event
    def cancel_close(self, is_open: bool = False) -> None:
        if not is_open:
            self.close_question = self.close_start = self.close_end = ""

    @rx.event
    @guarded(Role.ORGANIZER)
    def save_window(self, form: dict[str, str]) -> None:
        def action(session: Session, season: Season, user: User) -> None:
            start = parse_kirov(form.get("start", ""), texts.PLAYOFF_WINDOW_START)
            end = parse_kirov(form.get("end", ""), texts.PLAYOFF_WINDOW_END)
            playoff.set_round_window(session, season, form.get("code", ""), start, end, actor=user, now=utc_now())

        self._change(action, form, texts.PLAYOFF_WINDOW_SAVED, "playoff.window")

    @rx.event
    @guarded(Role.ORGANIZER)
    def decide_tie(self, form: dict[str, str]) -> None:
        def action(session: Session, season: Season, user: User) -> None:
            view = playoff.load_bracket(session, season)
            match_id = view.match_ids.get(form.get("round", ""))
            by_name = {name.casefold(): pid for pid, name in view.names.items() if isinstance(pid, int)}
            named = [by_name.get(part.strip().casefold()) for part in form.get("order", "").split(",") if part.strip()]
            order = [pid for pid in named if pid is not None]
            if match_id is None or len(order) != len(named):
                raise playoff.PlayoffError(texts.PLAYOFF_TIE_FORM_INCOMPLETE)
            playoff.decide_match_tie(
                session, season, match_id, order, reason=form.get("reason", ""), actor=user, now=utc_now()
            )

        self._change(action, form, texts.PLAYOFF_TIE_SAVED, "playoff.tie")

    @rx.event
    @guarded(Anyone.AT_THE_MATCH)  # seated, the judge, the organizer: the service checks (Регламент §4)
    def shuffle_winds(self, match_id: str, key: str = "") -> None:
        def action(session: Session, season: Season, user: User) -> int:
            if not match_id.isdigit():
                raise winds.WindsError(texts.MATCH_NOT_FOUND)
            number = len(results.effective(session, int(match_id))) + 1
            # Регламент §4: a fresh random draw before each hanchan (not tied to seeding or seats).
            winds.draw_winds(session, int(match_id), number, actor=user, rng=random.SystemRandom())
            return number

        self._change(
            action, {KEY_FIELD: key}, lambda number: texts.PLAYOFF_WINDS_SHUFFLED.format(number=number), "playoff.winds"
        )


def _section(title: str, key: str) -> rx.Component:
    return rx.vstack(
        rx.heading(title, size="5", as_="h2"),
        rx.flex(
            rx.foreach(
                PlayoffState.sections[key],
                lambda t: table_card(t, lambda match_id: PlayoffState.shuffle_winds(match_id, PlayoffState.action_key)),
            ),
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


def _close_window(form: dict[str, str]) -> tuple[Any, ...]:
    return (
        parse_kirov(form.get("start", ""), texts.PLAYOFF_WINDOW_START),
        parse_kirov(form.get("end", ""), texts.PLAYOFF_WINDOW_END),
    )


def _confirm_close() -> rx.Component:
    return confirm_dialog(
        texts.PLAYOFF_CLOSE_CONFIRM_TITLE,
        PlayoffState.close_question,
        confirm=texts.PLAYOFF_CLOSE,
        on_confirm=PlayoffState.confirm_close(
            {"start": PlayoffState.close_start, "end": PlayoffState.close_end, KEY_FIELD: PlayoffState.action_key}
        ),
        cancel=texts.PLAYOFF_CLOSE_CANCEL,
        is_open=PlayoffState.close_question != "",
        on_open_change=PlayoffState.cancel_close,
        danger=True,
    )


def _captioned(caption: str, field: rx.Component) -> rx.Component:
    """A visible caption over a field: two bare date pickers in a row do not say which is the start."""
    return rx.flex(
        rx.text(caption + texts.SCHEDULE_KIROV_SUFFIX, size="1", color_scheme="gray"),
        field,
        direction="column",
        spacing="1",
    )


def _organizer_forms() -> rx.Component:
    S = PlayoffState  # noqa: N806
    close = rx.fragment(
        _confirm_close(),
        action_form(
            S,
            rx.flex(*_window_inputs(), spacing="2", wrap="wrap"),
            on_submit=S.close_stage,
            submit_text=texts.PLAYOFF_CLOSE,
            card=False,
        ),
    )
    windows = action_form(
        S,
        rx.flex(
            _choice("code", texts.PLAYOFF_WINDOW_ROUND, texts.PLAYOFF_WINDOW_ROUND, WINDOW_ROUNDS),
            *_window_inputs(),
            spacing="2",
            wrap="wrap",
        ),
        on_submit=S.save_window,
        submit_text=texts.PLAYOFF_WINDOW_SAVE,
        submit_props={"variant": "outline"},
        card=False,
    )
    tie = action_form(
        S,
        rx.flex(
            _choice(
                "round", texts.PLAYOFF_WINDOW_ROUND, texts.PLAYOFF_TIE, {c: ROUND_NAMES[c] for c in PLAYOFF_ROUNDS}
            ),
            rx.input(
                name="order", placeholder=texts.PLAYOFF_TIE_ORDER, aria_label=texts.PLAYOFF_TIE_ORDER, min_width="16em"
            ),
            rx.input(name="reason", placeholder=texts.PLAYOFF_TIE_REASON, aria_label=texts.PLAYOFF_TIE_REASON),
            spacing="2",
            wrap="wrap",
        ),
        on_submit=S.decide_tie,
        submit_text=texts.PLAYOFF_TIE_SAVE,
        submit_props={"variant": "outline"},
        card=False,
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
