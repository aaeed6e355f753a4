"""The organizer's scheduling overview state: filters, and one dialog per row action that keeps what was typed."""

from __future__ import annotations

import reflex as rx

from discard_app import routes, texts
from discard_app.components.live import LivePage
from discard_app.state.auth import AuthState, OrganizerPage
from services.core.db import session_scope
from services.core.models import Round, utc_now
from services.league.roster import current_season
from services.league.tour_windows import WindowError, parse_kirov
from services.scheduling import organizer as scheduling_admin
from services.scheduling.intervals import Interval
from services.scheduling.repo import SchedulingError
from services.scheduling.rules import format_kirov
from services.scheduling.view import match_bookings, overview, room_rows, window_text

T_APPLY_FALLBACK = "Назначить запасную дату"
T_ASSIGN = "Назначить встречу"
T_MOVE = "Перенести бронь"
T_NEXT_WINDOW = "Перенести матч на следующий тур"
T_RELEASE = "Снять бронь"
T_DONE = "Готово."
DIALOG_FIELDS = ("start", "end", "hanchans", "room_id", "booking_id", "reason")
ASSIGN, MOVE, RELEASE, NEXT_WINDOW, FALLBACK = "assign", "move", "release", "next_window", "fallback"
DIALOG_TITLES = {
    ASSIGN: T_ASSIGN,
    MOVE: T_MOVE,
    RELEASE: T_RELEASE,
    NEXT_WINDOW: T_NEXT_WINDOW,
    FALLBACK: T_APPLY_FALLBACK,
}


def _outcome(result: object) -> str:
    """What the dialog did, after the match's title: the meeting's time, or the tour a match moved to."""
    if isinstance(result, Round):
        window = f" ({window_text(Interval(result.window_start, result.window_end))})" if result.window_start else ""
        return f": перенесён в тур {result.code}{window}."
    when = getattr(result, "start_at", None)
    return f": {format_kirov(when)}." if when and getattr(result, "active", True) else "."


_match_id = routes.form_id


class ScheduleOverviewState(LivePage, OrganizerPage, AuthState):
    rows: list[dict[str, str]] = []
    rooms: list[dict[str, str]] = []
    error: str = ""
    error_form: str = ""  # which form below the table the error belongs to
    notice: str = ""
    tour_filter: str = ""
    state_filter: str = ""
    # The one open dialog: what it does, the match it names, and everything typed into it (kept when refused).
    dialog: str = ""
    dialog_match_id: str = ""
    dialog_title: str = ""
    dialog_fallback: str = ""
    dialog_error: str = ""
    dialog_bookings: list[dict[str, str]] = []
    start: str = ""
    end: str = ""
    hanchans: str = "3"
    hanchan_choices: list[str] = ["1", "2", "3"]  # the match's remaining hanchans (Регламент §2)
    room_id: str = ""
    booking_id: str = ""
    reason: str = ""
    hold_hours: str = ""  # the current season's proposal hold time (the organizer's setting, not a secret)

    @rx.var
    def visible_rows(self) -> list[dict[str, str]]:
        return [
            r
            for r in self.rows
            if (not self.tour_filter or r["tour"] == self.tour_filter)
            and (not self.state_filter or r["group"] == self.state_filter)
        ]

    @rx.var
    def hold_label(self) -> str:
        return texts.HOLD_HOURS_NOW.format(hours=self.hold_hours) if self.hold_hours else ""

    @rx.var
    def tours(self) -> list[str]:
        return sorted({r["tour"] for r in self.rows}, key=lambda t: (not t.isdigit(), t.zfill(4)))

    @rx.var
    def dialog_action(self) -> str:
        return DIALOG_TITLES.get(self.dialog, "")

    @rx.var
    def dialog_heading(self) -> str:
        return f"{DIALOG_TITLES.get(self.dialog, '')}: {self.dialog_title}" if self.dialog else ""

    def _refresh(self) -> None:
        self._stamp = self._live_stamp()  # every match's state, booked anywhere, shows at once (live_push)
        with session_scope() as session:
            self.rows, self.rooms = overview(session, now=utc_now()), room_rows(session)
            season = current_season(session)
            self.hold_hours = str(season.proposal_hold_hours) if season is not None else ""

    def _live_reload(self, user: object, before: str, now: str) -> None:  # noqa: ARG002
        if self._organizer() is not None:  # the role again, on every pushed reload
            self._refresh()

    @rx.event
    def load(self) -> rx.event.EventSpec | None:
        self.error = self.notice = self.error_form = self.dialog = ""
        if self._current_user() is None:
            return self._redirect_to_login()
        if self._organizer() is not None:
            self._refresh()
            self._start_live()
        return None

    @rx.event
    def set_filter(self, which: str, value: str) -> None:
        value = "" if value == "all" else value
        if which == "tour":
            self.tour_filter = value
        elif which == "state":
            self.state_filter = value

    @rx.event
    def set_field(self, name: str, value: str) -> None:
        if name in DIALOG_FIELDS:
            setattr(self, name, value)

    @rx.event
    def pick_booking(self, booking_id: str) -> None:
        self._fill_booking(booking_id)

    def _fill_booking(self, booking_id: str) -> None:
        """Choosing a booking fills its current times, to be edited."""
        self.booking_id = booking_id
        chosen = next((b for b in self.dialog_bookings if b["id"] == booking_id), None)
        if chosen is not None:
            self.start, self.end = chosen["start"], chosen["end"]

    @rx.event
    def open_dialog(self, kind: str, match_id: str) -> None:
        if self._organizer() is None or kind not in DIALOG_TITLES:
            return
        row = next((r for r in self.rows if r["id"] == match_id), None)
        if row is None:
            return
        if match_id != self.dialog_match_id or kind != self.dialog:
            self.start = self.end = self.reason = self.booking_id = ""
            self.hanchans, self.room_id = "", self.rooms[0]["id"] if self.rooms else ""
        self.dialog, self.dialog_match_id, self.dialog_title = kind, match_id, row["title"]
        self.dialog_fallback, self.dialog_error, self.dialog_bookings = row["fallback"], "", []
        if kind == ASSIGN:  # only the match's remaining hanchans, all of them by default (Регламент §2)
            with session_scope() as session:
                choices = scheduling_admin.assignable_hanchans(session, _match_id(match_id), now=utc_now())
            self.hanchan_choices = [str(n) for n in choices]
            if self.hanchans not in self.hanchan_choices:
                self.hanchans = self.hanchan_choices[-1] if choices else ""
        if kind in (MOVE, RELEASE):
            with session_scope() as session:
                self.dialog_bookings = match_bookings(session, _match_id(match_id))
            if len(self.dialog_bookings) == 1:
                self._fill_booking(self.dialog_bookings[0]["id"])

    @rx.event
    def close_dialog(self, is_open: bool = False) -> None:
        if not is_open:
            self.dialog = ""

    def _dialog_call(self) -> tuple:
        """The service and its arguments for the open dialog; WindowError/ValueError name a bad field."""
        match_id = _match_id(self.dialog_match_id)
        if self.dialog == FALLBACK:
            return scheduling_admin.apply_fallback, {"match_id": match_id, "now": utc_now()}
        if self.dialog == NEXT_WINDOW:
            return scheduling_admin.move_to_next_window, {"match_id": match_id, "reason": self.reason, "now": utc_now()}
        if self.dialog == ASSIGN:
            return scheduling_admin.assign_meeting, {
                "match_id": match_id,
                "start": parse_kirov(self.start, "Начало"),
                "hanchans": int(self.hanchans or 0),
                "room_id": int(self.room_id) if self.room_id.isdigit() else None,
                "now": utc_now(),
            }
        if not self.booking_id.isdigit():
            raise SchedulingError(texts.CHOOSE_BOOKING.capitalize() + ".")
        if self.dialog == RELEASE:
            return scheduling_admin.cancel_booking, {
                "booking_id": int(self.booking_id),
                "reason": self.reason,
                "now": utc_now(),
            }
        return scheduling_admin.move_booking, {
            "booking_id": int(self.booking_id),
            "start": parse_kirov(self.start, "Новое начало"),
            "end": parse_kirov(self.end, "Новое окончание"),
            "reason": self.reason,
            "now": utc_now(),
        }

    @rx.event
    def submit_dialog(self) -> None:
        user = self._organizer()
        if user is None or not self.dialog:
            return
        self.dialog_error = ""
        try:
            action, kwargs = self._dialog_call()
            with session_scope() as session:
                result = action(session, actor_user_id=user.id, **kwargs)
                notice = f"{T_DONE} {self.dialog_title}" + _outcome(result)
        except (SchedulingError, WindowError, ValueError) as error:
            self.dialog_error = str(error)  # the dialog stays open with everything typed
            return
        self.dialog, self.notice, self.error = "", notice, ""
        self._refresh()

    def _run(self, form_key: str, action, **kwargs) -> None:  # noqa: ANN001, ANN003
        user = self._organizer()
        if user is None:
            return
        self.error = self.notice = self.error_form = ""
        try:
            with session_scope() as session:
                action(session, actor_user_id=user.id, **kwargs)
        except (SchedulingError, WindowError, ValueError) as error:
            self.error, self.error_form = str(error), form_key
            return
        self.notice = T_DONE
        self._refresh()

    @rx.event
    def add_room(self, form: dict[str, str]) -> None:
        self._run("room", scheduling_admin.add_room, name=form.get("name", ""))

    @rx.event
    def set_tables(self, form: dict[str, str]) -> None:
        room, tables = form.get("room_id") or "", (form.get("tables") or "").strip()
        if not tables.isdigit():
            self.error, self.error_form, self.notice = "Число столов — целое от 1 до 50.", "tables", ""
            return
        self._run(
            "tables",
            scheduling_admin.set_room_tables,
            room_id=int(room) if room.isdigit() else 0,
            tables=int(tables),
            now=utc_now(),
        )

    @rx.event
    def set_hold_hours(self, form: dict[str, str]) -> None:
        """Регламент §3, issue 27 item 6: how long a new proposal holds its table (the service validates)."""
        if self._organizer() is None:
            return
        with session_scope() as session:
            season = current_season(session)
            season_id = season.id if season is not None else None
        if season_id is None:
            self.error, self.error_form, self.notice = texts.HOLD_HOURS_NO_SEASON, "hold", ""
            return
        self._run(
            "hold",
            scheduling_admin.set_proposal_hold_hours,
            season_id=season_id,
            hours=(form.get("hours") or "").strip(),
            now=utc_now(),
        )

    @rx.event
    def add_activity(self, form: dict[str, str]) -> None:
        try:
            start, end = parse_kirov(form.get("start", ""), "Начало"), parse_kirov(form.get("end", ""), "Окончание")
        except WindowError as error:
            self.error, self.error_form, self.notice = str(error), "activity", ""
            return
        room = form.get("room_id") or ""
        self._run(
            "activity",
            scheduling_admin.book_activity,
            title=form.get("title", ""),
            start=start,
            end=end,
            room_id=int(room) if room.isdigit() else None,
            tables=int(tables) if (tables := (form.get("tables") or "").strip()).isdigit() else None,
            now=utc_now(),
        )
