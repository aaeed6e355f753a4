"""The organizer's scheduling overview: every match's state, assign/move/fallback, rooms and club activities."""

from __future__ import annotations

import reflex as rx

from discard_app import routes, texts
from discard_app.layout import forbidden, page
from discard_app.state.auth import AuthState
from services.core.db import session_scope
from services.core.models import Role, User
from services.league.tour_windows import WindowError, parse_kirov
from services.scheduling import organizer as scheduling_admin
from services.scheduling.repo import SchedulingError
from services.scheduling.rules import format_kirov
from services.scheduling.view import overview, room_rows

T_TITLE = "Согласование матчей"
T_MATCH, T_PLAYERS, T_WINDOW, T_STATE, T_BOOKING, T_FALLBACK = (
    "Матч",
    "Игроки",
    "Окно",
    "Состояние",
    "Бронь",
    "Запасная дата (§6.1)",
)
T_APPLY_FALLBACK = "Назначить запасную дату"
T_ASSIGN = "Назначить встречу"
T_MOVE = "Перенести бронь"
T_NEXT_WINDOW = "Перенести матч на следующий тур"
T_REASON = "Уважительная причина"
T_ROOMS = "Помещения"
T_ADD_ROOM = "Добавить помещение"
T_ACTIVITY = "Другое занятие клуба (D&D и др.)"
T_ADD_ACTIVITY = "Добавить в календарь"
T_DONE = "Готово."


def _match_id(value: str | None) -> int:
    """A match id from the page; anything else becomes 0, which the services refuse with a clear message."""
    value = (value or "").strip()
    return int(value) if value.isdigit() else 0


class ScheduleOverviewState(AuthState):
    allowed: bool = False
    rows: list[dict[str, str]] = []
    rooms: list[dict[str, str]] = []
    error: str = ""
    notice: str = ""

    def _organizer(self) -> User | None:
        user = self._require_user(Role.ORGANIZER)
        self.allowed = user is not None
        if user is None:
            self.rows, self.rooms = [], []
        return user

    def _refresh(self) -> None:
        with session_scope() as session:
            self.rows, self.rooms = overview(session), room_rows(session)

    @rx.event
    def load(self) -> rx.event.EventSpec | None:
        self.error = self.notice = ""
        if self._current_user() is None:
            return self._redirect_to_login()
        if self._organizer() is not None:
            self._refresh()
        return None

    def _run(self, action, **kwargs) -> None:  # noqa: ANN001, ANN003
        user = self._organizer()
        if user is None:
            return
        self.error = self.notice = ""
        try:
            with session_scope() as session:
                result = action(session, actor_user_id=user.id, **kwargs)
                notice = T_DONE
                if getattr(result, "start_at", None) is not None:
                    notice = f"{T_DONE} {result.title}: {format_kirov(result.start_at)}."
        except (SchedulingError, WindowError, ValueError) as error:
            self.error = str(error)
            return
        self.notice = notice
        self._refresh()

    @rx.event
    def apply_fallback(self, match_id: str) -> None:
        self._run(scheduling_admin.apply_fallback, match_id=_match_id(match_id))

    @rx.event
    def assign(self, form: dict[str, str]) -> None:
        try:
            start = parse_kirov(form.get("start", ""), "Начало")
            kwargs = {"match_id": _match_id(form.get("match_id")), "hanchans": int(form.get("hanchans") or 0)}
        except (WindowError, ValueError) as error:
            self.error = str(error)
            return
        room = form.get("room_id") or ""
        self._run(scheduling_admin.assign_meeting, start=start, room_id=int(room) if room.isdigit() else None, **kwargs)

    @rx.event
    def move(self, form: dict[str, str]) -> None:
        try:
            start, end = parse_kirov(form.get("start", ""), "Начало"), parse_kirov(form.get("end", ""), "Окончание")
            booking_id = int(form.get("booking_id") or 0)
        except (WindowError, ValueError) as error:
            self.error = str(error) if isinstance(error, WindowError) else "Укажите номер брони."
            return
        self._run(
            scheduling_admin.move_booking, booking_id=booking_id, start=start, end=end, reason=form.get("reason", "")
        )

    @rx.event
    def next_window(self, form: dict[str, str]) -> None:
        self._run(
            scheduling_admin.move_to_next_window,
            match_id=_match_id(form.get("match_id")),
            reason=form.get("reason", ""),
        )

    @rx.event
    def add_room(self, form: dict[str, str]) -> None:
        self._run(scheduling_admin.add_room, name=form.get("name", ""))

    @rx.event
    def add_activity(self, form: dict[str, str]) -> None:
        try:
            start, end = parse_kirov(form.get("start", ""), "Начало"), parse_kirov(form.get("end", ""), "Окончание")
        except WindowError as error:
            self.error = str(error)
            return
        room = form.get("room_id") or ""
        self._run(
            scheduling_admin.book_activity,
            title=form.get("title", ""),
            start=start,
            end=end,
            room_id=int(room) if room.isdigit() else None,
        )


def _match_select() -> rx.Component:
    return rx.el.select(
        rx.foreach(ScheduleOverviewState.rows, lambda r: rx.el.option(r["title"], value=r["id"])),
        name="match_id",
        aria_label=T_MATCH,
    )


def _room_select() -> rx.Component:
    return rx.el.select(
        rx.foreach(ScheduleOverviewState.rooms, lambda r: rx.el.option(r["name"], value=r["id"])),
        name="room_id",
        aria_label="Помещение",
    )


def _when(name: str, label: str) -> rx.Component:
    # A visible caption: several bare date pickers in one form do not say which is the start (time is Kirov's).
    return rx.flex(
        rx.text(label + " (Киров)", size="1", color_scheme="gray"),
        rx.input(type="datetime-local", name=name, step=1800, aria_label=label),
        direction="column",
        spacing="1",
    )


def _row(r: dict) -> rx.Component:
    return rx.table.row(
        rx.table.row_header_cell(rx.link(r["title"], href="/match/" + r["id"] + "/schedule"), white_space="nowrap"),
        rx.table.cell(r["players"]),
        rx.table.cell(r["window"], white_space="nowrap"),
        rx.table.cell(r["state"]),
        rx.table.cell(r["booking"]),
        rx.table.cell(
            rx.vstack(
                rx.text(r["fallback"], size="2"),
                rx.button(
                    T_APPLY_FALLBACK,
                    size="1",
                    variant="soft",
                    on_click=ScheduleOverviewState.apply_fallback(r["id"]),
                    aria_label=T_APPLY_FALLBACK + ": " + r["title"],
                ),
                spacing="1",
            )
        ),
    )


def _form(title: str, submit: str, handler, *fields: rx.Component) -> rx.Component:  # noqa: ANN001
    return rx.form(
        rx.flex(
            rx.text(title, weight="bold", width="100%"),
            *fields,
            rx.button(submit, type="submit"),
            spacing="2",
            wrap="wrap",
            align="end",
        ),
        on_submit=handler,
        reset_on_submit=True,
    )


def _forms() -> rx.Component:
    hanchans = rx.flex(
        rx.text("Ханчанов", size="1", color_scheme="gray"),
        rx.el.select(
            *[rx.el.option(str(n), value=str(n)) for n in (3, 2, 1, 5)], name="hanchans", aria_label="Ханчанов"
        ),
        direction="column",
        spacing="1",
    )
    reason = rx.input(name="reason", placeholder=T_REASON, aria_label=T_REASON)
    return rx.vstack(
        _form(
            T_ASSIGN,
            T_ASSIGN,
            ScheduleOverviewState.assign,
            _match_select(),
            _when("start", "Начало"),
            hanchans,
            _room_select(),
        ),
        _form(
            T_MOVE,
            T_MOVE,
            ScheduleOverviewState.move,
            rx.input(name="booking_id", placeholder="№ брони", aria_label="Номер брони", width="7em"),
            _when("start", "Новое начало"),
            _when("end", "Новое окончание"),
            reason,
        ),
        _form(T_NEXT_WINDOW, T_NEXT_WINDOW, ScheduleOverviewState.next_window, _match_select(), reason),
        _form(
            T_ACTIVITY,
            T_ADD_ACTIVITY,
            ScheduleOverviewState.add_activity,
            rx.input(name="title", placeholder="Название", aria_label="Название занятия"),
            _when("start", "Начало занятия"),
            _when("end", "Окончание занятия"),
            _room_select(),
        ),
        _form(
            T_ROOMS + ": ",
            T_ADD_ROOM,
            ScheduleOverviewState.add_room,
            rx.foreach(ScheduleOverviewState.rooms, lambda r: rx.badge(r["name"])),
            rx.input(name="name", placeholder="Название помещения", aria_label="Название помещения"),
        ),
        spacing="4",
        width="100%",
    )


def schedule_overview_page() -> rx.Component:
    headers = (T_MATCH, T_PLAYERS, T_WINDOW, T_STATE, T_BOOKING, T_FALLBACK)
    return page(
        T_TITLE,
        rx.cond(
            ScheduleOverviewState.allowed,
            rx.vstack(
                rx.cond(
                    ScheduleOverviewState.error != "",
                    rx.callout(ScheduleOverviewState.error, color_scheme="red", role="alert"),
                ),
                rx.cond(
                    ScheduleOverviewState.notice != "",
                    rx.callout(ScheduleOverviewState.notice, color_scheme="green", role="status"),
                ),
                rx.box(
                    rx.table.root(
                        rx.table.header(rx.table.row(*[rx.table.column_header_cell(h) for h in headers])),
                        rx.table.body(rx.foreach(ScheduleOverviewState.rows, _row)),
                        width="100%",
                        min_width="48em",  # a phone scrolls the table instead of one word per line
                        size="1",
                    ),
                    overflow_x="auto",
                    width="100%",
                ),
                _forms(),
                rx.link("Календарь клуба", href=routes.CLUB_CALENDAR),
                spacing="4",
                width="100%",
            ),
            forbidden(texts.FORBIDDEN_ORGANIZER),
        ),
    )
