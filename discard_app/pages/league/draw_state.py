"""The draw page's state: view rows built from the services, and the organizer's actions (Регламент §1, §2)."""

from __future__ import annotations

from typing import TypedDict

import reflex as rx
from reflex.event import EventSpec
from sqlmodel import Session

from discard_app import texts
from discard_app.state.action import KEY_FIELD, GuardedActions, guarded
from discard_app.state.auth import AuthState, OrganizerPage
from services.core.db import session_scope
from services.core.models import Role, Season, User, utc_now
from services.core.ruleset import multiple_of, of_season
from services.core.wording import counted
from services.league import closing as roster_closing
from services.league import draw_season, roster
from services.league.closing import ClosingMethod
from services.league.draw import DrawError
from services.scheduling import tour_windows
from services.scheduling.capacity import capacity_summary, season_capacity
from services.scheduling.rules import format_kirov

MESSAGES_ID = "draw-messages"
_OPTION_TEXT = {
    ClosingMethod.AS_IS: (texts.DRAW_AS_IS_TITLE, texts.DRAW_AS_IS_TEXT, texts.DRAW_AS_IS_BUTTON),
    ClosingMethod.FROM_RESERVE: (
        texts.DRAW_FROM_RESERVE_TITLE,
        texts.DRAW_FROM_RESERVE_TEXT,
        texts.DRAW_FROM_RESERVE_BUTTON,
    ),
    ClosingMethod.TO_RESERVE: (texts.DRAW_TO_RESERVE_TITLE, texts.DRAW_TO_RESERVE_TEXT, texts.DRAW_TO_RESERVE_BUTTON),
}


class OptionView(TypedDict):
    method: str
    title: str
    detail: str
    result: str
    error: str
    button: str


class TableRow(TypedDict):
    table: str
    players: str


class TourView(TypedDict):
    title: str
    tables: list[TableRow]


class Choice(TypedDict):
    value: str
    label: str


class WindowRow(TypedDict):
    number: str
    start_label: str
    end_label: str
    start: str
    end: str


def _players(n: int) -> str:
    return counted(n, *texts.DRAW_PLAYER_FORMS)


def _option_view(option: roster_closing.ClosingOption, main: int, multiple: int) -> OptionView:
    title, detail, button = _OPTION_TEXT[option.method]
    title = title.format(multiple=multiple_of(multiple))
    names = ", ".join(e.name for e in option.moves)
    return OptionView(
        method=str(option.method),
        title=title,
        detail=detail.format(main=_players(main), names=names) if names or "{names}" not in detail else "",
        result=texts.DRAW_OPTION_RESULT.format(main=option.main_after),
        error=option.error,
        button=button,
    )


def _tour_views(view: draw_season.DrawView) -> list[TourView]:
    return [
        TourView(
            title=texts.DRAW_TOUR.format(number=number),
            tables=[
                TableRow(table=str(k), players=", ".join(view.table_names(table))) for k, table in enumerate(tour, 1)
            ],
        )
        for number, tour in enumerate(view.tours, start=1)
    ]


def _season(session: Session) -> Season:
    season = roster.current_season(session)
    if season is None:
        raise DrawError(texts.NO_SEASON)
    return season


class DrawState(GuardedActions, OrganizerPage, AuthState):
    error: str = ""
    notice: str = ""
    closing_method: str = ""  # the way of closing registration the open question is about
    closing_question: str = ""
    closing_text: str = ""  # whom it moves and the main roster it leaves
    has_season: bool = False
    closed: bool = False
    registration: str = ""
    options: list[OptionView] = []
    approved: bool = False
    approved_note: str = ""
    capacity: str = ""  # issue 27, item 2: the club's tables against each tour (club data, no one's availability)
    capacity_short: bool = False
    has_draft: bool = False
    quality: str = ""
    repeats: list[str] = []
    tours: list[TourView] = []
    tour_choices: list[Choice] = []
    player_choices: list[Choice] = []
    windows: list[WindowRow] = []
    closing_hint: str = ""  # quotes the season's roster multiple
    form_key: int = 0  # bumped to remount the window fields with what is stored; other actions keep what is typed

    def _refresh(self) -> None:
        with session_scope() as session:
            season = roster.current_season(session)
            self.has_season = season is not None
            if season is None:
                self.registration = texts.NO_SEASON
                return
            preview = roster_closing.season_closing_preview(session, season)
            draft = draw_season.load_draft(session, season)
            approved = draw_season.approved_draw(session, season)
            main = draw_season.main_roster(session, season)
            windows = tour_windows.current_windows(session, season)
            per_tour = None if approved is not None else len(draft.tours[0]) if draft and draft.tours else None
            caps = season_capacity(session, season, matches_per_tour=per_tour)
            self.capacity = capacity_summary(caps) if caps and (approved is not None or per_tour) else ""
            self.capacity_short = any(not c.fits or c.fallback_short for c in caps)
            self.closed = season.registration_closed
            rules = of_season(season)
            tours, multiple = rules.tours, rules.roster_multiple
        self.closing_hint = texts.DRAW_CLOSING_HINT.format(multiple=multiple_of(multiple))
        if self.closed:
            self.registration = texts.DRAW_REGISTRATION_CLOSED.format(main=preview.main)
            self.options = []
        else:
            self.registration = texts.DRAW_REGISTRATION_OPEN.format(main=preview.main, reserve=preview.reserve)
            self.options = [_option_view(o, preview.main, multiple) for o in preview.options]
        self.approved = approved is not None
        self.approved_note = (
            texts.DRAW_APPROVED.format(at=format_kirov(approved.approved_at), seed=approved.seed)
            if approved and approved.approved_at
            else ""
        )
        shown = approved or draft
        self.has_draft = draft is not None
        self.quality = (
            texts.DRAW_QUALITY.format(max=shown.max_meetings, repeats=shown.repeat_meetings, seed=shown.seed)
            if shown
            else ""
        )
        self.repeats = [
            texts.DRAW_REPEAT_ROW.format(a=a, b=b, count=counted(c, *texts.DRAW_TIMES_FORMS))
            for a, b, c in (shown.repeats if shown else [])
        ]
        self.tours = _tour_views(shown) if shown else []
        self.tour_choices = [Choice(value=str(n), label=texts.DRAW_TOUR.format(number=n)) for n in range(1, tours + 1)]
        self.player_choices = [Choice(value=str(int(p)), label=str(p)) for p in main]
        self.windows = [
            WindowRow(
                number=str(n),
                start_label=texts.DRAW_WINDOW_START.format(number=n),
                end_label=texts.DRAW_WINDOW_END.format(number=n),
                start=tour_windows.kirov_input(w[0] if w else None),
                end=tour_windows.kirov_input(w[1] if w else None),
            )
            for n, w in enumerate(windows, start=1)
        ]

    def _done(self) -> EventSpec:
        """Fresh data, and the message in view: on a phone the button pressed is far below it."""
        self._refresh()
        return rx.scroll_to(MESSAGES_ID)

    def _show_refusal(self, message: str) -> None:
        self.reset()  # nothing of the organizer's view stays in a refused tab (OrganizerPage)

    @rx.event
    def load(self) -> EventSpec | None:
        self.closing_method = self.closing_question = self.closing_text = ""
        self._renew_key()
        if self._current_user() is None:
            return self._redirect_to_login()
        if self._viewer() is not None:
            self._refresh()
            self.form_key += 1
        return None

    @rx.event
    def ask_close(self, method: str) -> None:
        """Issue 25 item 4: closing registration first says whom it moves and the main roster it leaves."""
        if self._viewer() is None:
            return
        self.error = self.notice = ""
        with session_scope() as session:
            season = roster.current_season(session)
            preview = roster_closing.season_closing_preview(session, season) if season else None
            option = preview.option(method) if preview else None
            names = roster_closing.main_after(session, season, option) if season and option else []
        if option is None:
            self.error = texts.DRAW_PICK_CLOSING
            return
        moved = ", ".join(e.name for e in option.moves)
        moves = {
            ClosingMethod.AS_IS: texts.DRAW_CLOSE_ASK_AS_IS,
            ClosingMethod.FROM_RESERVE: texts.DRAW_CLOSE_ASK_FROM_RESERVE,
            ClosingMethod.TO_RESERVE: texts.DRAW_CLOSE_ASK_TO_RESERVE,
        }[option.method].format(names=moved)
        if not moved and option.method != ClosingMethod.AS_IS:  # «перейдут: .» says nothing: leave it out
            moves = ""
        self.closing_method = str(option.method)
        self.closing_question = texts.DRAW_CLOSE_ASK_TITLE
        self.closing_text = " ".join(
            [
                *([moves] if moves else []),
                texts.DRAW_CLOSE_ASK_MAIN.format(main=_players(len(names)), names=", ".join(names)),
            ]
        )

    @rx.event
    def cancel_close(self, is_open: bool = False) -> None:
        if not is_open:
            self.closing_method = self.closing_question = self.closing_text = ""

    @rx.event
    @guarded(Role.ORGANIZER)
    def close_registration(self, method: str, key: str = "") -> EventSpec:
        """The question's answer: closes the way it named, once per key (Регламент §1)."""
        self.closing_method = self.closing_question = self.closing_text = ""
        self._perform(
            lambda session, user: roster_closing.close_registration(
                session, _season(session), method, actor_user_id=user.id, now=utc_now()
            ),
            key=key,
            done=lambda option: texts.DRAW_CLOSED_NOTICE.format(main=option.main_after),
            action="draw.close",
        )
        return self._done()

    @rx.event
    @guarded(Role.ORGANIZER)
    def make_draft(self, key: str = "") -> EventSpec:
        self._perform(
            lambda session, user: draw_season.make_draft(
                session, _season(session), actor_user_id=user.id, now=utc_now()
            ),
            key=key,
            done=texts.DRAW_MADE,
            action="draw.draft",
        )
        return self._done()

    @rx.event
    @guarded(Role.ORGANIZER)
    def swap(self, form: dict[str, str]) -> EventSpec:
        values = [form.get(k) or "" for k in ("tour", "first", "second")]

        def run(session: Session, user: User) -> str:
            if not all(v.isdigit() for v in values):
                raise DrawError(texts.DRAW_PICK)
            tour, a, b = (int(v) for v in values)
            view = draw_season.swap_in_draft(
                session, _season(session), tour, a, b, actor_user_id=user.id, now=utc_now()
            )
            return texts.DRAW_SWAPPED.format(a=view.names.get(a), b=view.names.get(b), tour=tour)

        self._perform(run, key=form.get(KEY_FIELD), done=lambda message: message, action="draw.swap")
        return self._done()

    @rx.event
    @guarded(Role.ORGANIZER)
    def save_windows(self, form: dict[str, str]) -> EventSpec:
        count = len(self.windows)

        def run(session: Session, user: User) -> None:
            season = _season(session)
            numbers = range(1, (count or of_season(season).tours) + 1)  # a tab that sent it without loading the page
            windows = [
                (
                    tour_windows.parse_kirov(form.get(f"start_{n}", ""), texts.DRAW_WINDOW_START.format(number=n)),
                    tour_windows.parse_kirov(form.get(f"end_{n}", ""), texts.DRAW_WINDOW_END.format(number=n)),
                )
                for n in numbers
            ]
            tour_windows.set_windows(session, season, windows, actor_user_id=user.id, now=utc_now())

        outcome = self._perform(run, key=form.get(KEY_FIELD), done=texts.DRAW_WINDOWS_SAVED, action="draw.windows")
        if not outcome.ok:
            return rx.scroll_to(MESSAGES_ID)  # the fields keep what was typed, to be fixed
        self.form_key += 1  # the fields show the windows as stored
        return self._done()

    @rx.event
    @guarded(Role.ORGANIZER)
    def approve(self, key: str = "") -> EventSpec:
        self._perform(
            lambda session, user: draw_season.approve_draw(
                session, _season(session), actor_user_id=user.id, now=utc_now()
            ),
            key=key,
            action="draw.approve",
        )
        return self._done()
