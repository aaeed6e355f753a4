"""The organizer's scheduling overview state: filters, and one dialog per row action that keeps what was typed.

Every change (the dialog's action, a room, its tables, an activity) is a guarded action
(discard_app/state/action.py): organizer only on the server, once per the form's one-time key."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex.event import EventSpec

from discard_app import routes, texts
from discard_app.components.live import LivePage
from discard_app.state.action import KEY_FIELD, GuardedActions, Outcome, guarded
from discard_app.state.auth import AuthState, OrganizerPage
from services.core.db import session_scope
from services.core.errors import LeagueError
from services.core.models import Role, Round, User, saved, utc_now
from services.core.ruleset import of_season
from services.league.roster import current_season
from services.scheduling import organizer as scheduling_admin
from services.scheduling.intervals import Interval
from services.scheduling.repo import SchedulingError
from services.scheduling.rules import format_kirov
from services.scheduling.tour_windows import parse_kirov
from services.scheduling.view import match_bookings, overview, room_rows, window_text

ROOMS_ID = routes.ROOMS_ANCHOR  # the room forms' anchor: the checklist's «Помещения клуба и столы» lands on them
# Issue 45 item 10: /schedule#rooms opens at the room forms (below the long table), once the page has rendered.
ROOMS_IN_VIEW = (
    f"if (location.hash === '#{ROOMS_ID}') requestAnimationFrame(() => "
    f"document.getElementById('{ROOMS_ID}')?.scrollIntoView({{block: 'start'}}))"
)
DIALOG = "dialog"  # the answer of the open dialog stands in it (`_show_answer`)
DIALOG_FIELDS = ("start", "end", "hanchans", "room_id", "booking_id", "reason")
ASSIGN, MOVE, RELEASE, NEXT_WINDOW, FALLBACK = "assign", "move", "release", "next_window", "fallback"
DIALOG_TITLES = {
    ASSIGN: texts.SCHEDULE_ASSIGN,
    MOVE: texts.SCHEDULE_MOVE,
    RELEASE: texts.SCHEDULE_RELEASE,
    NEXT_WINDOW: texts.SCHEDULE_NEXT_WINDOW,
    FALLBACK: texts.SCHEDULE_APPLY_FALLBACK,
}


def _outcome(result: object) -> str:
    """What the dialog did, after the match's title: the meeting's time, or the tour a match moved to."""
    if isinstance(result, Round):
        start, end = result.window_start, result.window_end
        window = f" ({window_text(Interval(start, end))})" if start and end else ""
        return texts.SCHEDULE_MOVED_TO_TOUR.format(code=result.code, window=window)
    when = getattr(result, "start_at", None)
    return f": {format_kirov(when)}." if when and getattr(result, "active", True) else "."


_match_id = routes.form_id


class ScheduleOverviewState(GuardedActions, LivePage, OrganizerPage, AuthState):
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
    dialog_overrules: str = ""  # the holds the dialog's action would end, asked about first (Регламент §3, §6.3)
    dialog_bookings: list[dict[str, str]] = []
    start: str = ""
    end: str = ""
    hanchans: str = "3"
    hanchan_choices: list[str] = ["1", "2", "3"]  # the match's remaining hanchans (Регламент §2)
    room_id: str = ""
    booking_id: str = ""
    reason: str = ""
    hold_hours: str = ""  # the season's proposal hold (its ruleset's, set on /regulation; not a secret)

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
        return sorted({r["tour"] for r in self.rows}, key=_tour_order)

    @rx.var
    def dialog_action(self) -> str:
        return DIALOG_TITLES.get(self.dialog, "")

    @rx.var
    def dialog_heading(self) -> str:
        return f"{DIALOG_TITLES.get(self.dialog, '')}: {self.dialog_title}" if self.dialog else ""

    def _refresh(self) -> None:  # type: ignore[override]  # reloads for every viewer alike: `_live_reload` below
        self._stamp = self._live_stamp()  # every match's state, booked anywhere, shows at once (live_push)
        with session_scope() as session:
            self.rows, self.rooms = overview(session, now=utc_now()), room_rows(session)
            season = current_season(session)
            self.hold_hours = str(of_season(season).proposal_hold_hours) if season is not None else ""

    def _live_reload(self, user: User, before: str, now: str) -> None:  # noqa: ARG002 — its viewer checked
        self._refresh()

    @rx.event
    def load(self) -> EventSpec | None:
        self.dialog = ""
        self._renew_key()  # this tab's forms carry their own one-time key
        if self._current_user() is None:
            return self._redirect_to_login()
        if self._viewer() is not None:
            self._refresh()
            self._start_live()
        return rx.call_script(ROOMS_IN_VIEW)

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
        if self._viewer() is None or kind not in DIALOG_TITLES:
            return
        row = next((r for r in self.rows if r["id"] == match_id), None)
        if row is None:
            return
        if match_id != self.dialog_match_id or kind != self.dialog:
            self.start = self.end = self.reason = self.booking_id = ""
            self.hanchans, self.room_id = "", self.rooms[0]["id"] if self.rooms else ""
        self.dialog, self.dialog_match_id, self.dialog_title = kind, match_id, row["title"]
        self.dialog_fallback, self.dialog_error, self.dialog_bookings = row["fallback"], "", []
        self.dialog_overrules = ""
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

    def _show_refusal(self, message: str) -> None:
        self.reset()  # nothing of the organizer's view stays in a refused tab (OrganizerPage)

    def _show_answer(self, outcome: Outcome, where: str) -> None:
        """A refusal beside its form (`where`; the dialog stays open with everything typed); what was done above
        the table, the dialog closed."""
        problems = "; ".join(outcome.problems)
        if where == DIALOG and not outcome.ok:
            self.dialog_error = problems
            return
        if where == DIALOG:
            self.dialog, self.dialog_error = "", ""
        self.notice = outcome.message if outcome.ok else ""
        self.error, self.error_form = ("", "") if outcome.ok else (problems, where)

    def _dialog_call(self) -> tuple[Any, ...]:
        """The service and its arguments for the open dialog; a `LeagueError` names a bad field."""
        if self.dialog not in DIALOG_TITLES or not self.dialog_match_id.isdigit():
            raise SchedulingError(texts.SCHEDULE_DIALOG_GONE)
        match_id = _match_id(self.dialog_match_id)
        if self.dialog == FALLBACK:
            return scheduling_admin.apply_fallback, {"match_id": match_id, "now": utc_now()}
        if self.dialog == NEXT_WINDOW:
            return scheduling_admin.move_to_next_window, {"match_id": match_id, "reason": self.reason, "now": utc_now()}
        if self.dialog == ASSIGN:
            return scheduling_admin.assign_meeting, {
                "match_id": match_id,
                "start": parse_kirov(self.start, texts.SCHEDULE_START),
                "hanchans": int(self.hanchans) if self.hanchans.isdigit() else 0,
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
            "start": parse_kirov(self.start, texts.SCHEDULE_NEW_START),
            "end": parse_kirov(self.end, texts.SCHEDULE_NEW_END),
            "reason": self.reason,
            "now": utc_now(),
        }

    @rx.event
    @guarded(Role.ORGANIZER)
    def submit_dialog(self, form: dict[str, Any]) -> None:
        """The dialog's form names its action and match (hidden fields) and carries what was typed, which stays."""
        self.dialog = str(form.get("dialog") or self.dialog)
        self.dialog_match_id = str(form.get("match_id") or self.dialog_match_id)
        for name in DIALOG_FIELDS:
            if name in form:
                setattr(self, name, str(form[name] or ""))
        row = next((r for r in self.rows if r["id"] == self.dialog_match_id), None)
        self.dialog_title = row["title"] if row is not None else self.dialog_title

        def act(session: Any, user: User) -> object:
            action, kwargs = self._dialog_call()
            return action(session, actor_user_id=user.id, **kwargs)

        # Asked once, with a box to tick: a second tap alone never takes a held table.
        if str(form.get("overrule", "")).lower() not in ("on", "true", "1"):
            held = self._overrules()
            self.dialog_overrules = texts.overrule_question(held)
            if held:
                return
        title = self.dialog_title
        done = lambda result: f"{texts.SCHEDULE_DONE} {title}" + _outcome(result)  # noqa: E731
        if self._perform(act, key=form.get(KEY_FIELD), done=done, where=DIALOG).ok:
            self._refresh()

    def _overrules(self) -> list[str]:
        """The other matches' live proposals whose held table the open dialog's action would take, no other being
        free (`organizer.assignment_overrules`); a refusal the action would give is left to the action to say."""
        try:
            action, kwargs = self._dialog_call()
            with session_scope() as session:
                if action is scheduling_admin.assign_meeting:
                    return scheduling_admin.assignment_overrules(session, **kwargs)
                if action is scheduling_admin.apply_fallback:
                    return scheduling_admin.fallback_overrules(session, **kwargs)
                if action is scheduling_admin.move_booking:
                    del kwargs["reason"]
                    return scheduling_admin.move_overrules(session, **kwargs)
        except LeagueError:
            pass
        return []

    def _run(self, form_key: str, form: dict[str, Any], act: Any) -> None:
        """One form below the table: `act(session, user)` once per the form's key; a refusal shown beside it."""
        key = form.get(KEY_FIELD)
        if self._perform(act, key=key, done=texts.SCHEDULE_DONE, action=f"schedule.{form_key}", where=form_key).ok:
            self._refresh()

    @rx.event
    @guarded(Role.ORGANIZER)
    def add_room(self, form: dict[str, Any]) -> None:
        name, tables = str(form.get("name") or ""), str(form.get("tables") or "").strip()

        def act(session: Any, user: User) -> object:
            if not tables.isdigit():
                raise SchedulingError(texts.SCHEDULE_TABLES_WHOLE.format(most=scheduling_admin.MAX_TABLES))
            return scheduling_admin.add_room(
                session, name=name, tables=int(tables), actor_user_id=saved(user.id), now=utc_now()
            )

        self._run("room", form, act)

    @rx.event
    @guarded(Role.ORGANIZER)
    def set_tables(self, form: dict[str, Any]) -> None:
        room, tables = str(form.get("room_id") or ""), str(form.get("tables") or "").strip()

        def act(session: Any, user: User) -> object:
            if not tables.isdigit():
                raise SchedulingError(texts.SCHEDULE_TABLES_WHOLE.format(most=scheduling_admin.MAX_TABLES))
            return scheduling_admin.set_room_tables(
                session,
                room_id=int(room) if room.isdigit() else 0,
                tables=int(tables),
                actor_user_id=saved(user.id),
                now=utc_now(),
            )

        self._run("tables", form, act)

    @rx.event
    @guarded(Role.ORGANIZER)
    def add_activity(self, form: dict[str, Any]) -> None:
        room, tables = str(form.get("room_id") or ""), str(form.get("tables") or "").strip()

        def act(session: Any, user: User) -> object:
            return scheduling_admin.book_activity(
                session,
                title=str(form.get("title") or ""),
                start=parse_kirov(str(form.get("start") or ""), texts.SCHEDULE_ACTIVITY_START_FIELD),
                end=parse_kirov(str(form.get("end") or ""), texts.SCHEDULE_ACTIVITY_END_FIELD),
                room_id=int(room) if room.isdigit() else None,
                tables=int(tables) if tables.isdigit() else None,
                actor_user_id=saved(user.id),
                now=utc_now(),
            )

        self._run("activity", form, act)


def _tour_order(tour: str) -> tuple[bool, int]:
    """«Тур 2» before «Тур 10», the playoff (no number) last."""
    number = "".join(c for c in tour if c.isdigit())
    return (not number, int(number or 0))
