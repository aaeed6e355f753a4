"""The match scheduling page's state: the viewer's grid, options, proposals and bookings, and their actions."""

from __future__ import annotations

import re
from datetime import date

import reflex as rx

from discard_app.components.availability_grid import GRID_SCRIPT
from discard_app.state.auth import AuthState
from services.core.db import session_scope
from services.core.models import User, utc_now
from services.league.tour_windows import WindowError, parse_kirov
from services.scheduling import availability, booking
from services.scheduling.intervals import SLOTS_PER_DAY, Interval, availability_from_grid, window_days
from services.scheduling.repo import SchedulingError, match_info
from services.scheduling.view import match_page

# Page texts (Russian UI).
T_ANSWERED = "Кто ответил"
T_OPTIONS = "Общие варианты"
T_NO_OPTIONS = "Общих вариантов пока нет: ждём ответов всех четырёх или обновите доступность."
T_PROPOSE = "Предложить встречу"
T_START = "Начало"
T_END = "Окончание"
T_HANCHANS = "Ханчанов"
T_REPLACES = "Перенос брони"
T_NEW_MEETING = "новая встреча"
T_PROPOSALS = "Предложения"
T_NO_PROPOSALS = "Предложений пока нет."
T_CONFIRM = "Подтвердить"
T_DECLINE = "Отклонить"
T_BOOKINGS = "Бронь"
T_NO_BOOKINGS = "Пока не забронировано."
T_SAVE = "Сохранить доступность"
T_SAVED = "Доступность сохранена."
T_UNSAVED = "Есть несохранённые изменения."
T_GRID_HINT = "Проведите по клеткам, чтобы отметить свободное время (по Кирову); повторное касание снимает отметку."
T_PICK = "Выбрать"
T_EVERYONE = "Доступность игроков (видит только организатор)"
T_PROPOSED = "Предложение отправлено: ждём подтверждения всех четырёх."
T_CONFIRMED = "Подтверждение записано."
T_BOOKED = "Все четверо подтвердили: помещение забронировано."
T_DECLINED = "Вы отклонили предложение."


class MatchScheduleState(AuthState):
    allowed: bool = False
    refusal: str = ""
    match_id: str = ""
    title: str = ""
    window: str = ""
    is_seated: bool = False
    days: list[str] = []
    cells: list[list[str]] = []
    seats: list[dict[str, str]] = []
    options: list[dict[str, str]] = []
    proposals: list[dict[str, str]] = []
    bookings: list[dict[str, str]] = []
    everyone: list[dict[str, str]] = []
    hanchan_choices: list[str] = []
    prop_start: str = ""
    prop_end: str = ""
    prop_hanchans: str = "3"
    error: str = ""
    notice: str = ""

    def _match_id(self) -> int | None:
        found = re.search(r"/match/(\d+)/schedule", self.router.url.path)
        return int(found.group(1)) if found else None

    def _refresh(self, user: User) -> None:
        match_id = self._match_id()
        try:
            if match_id is None:
                raise SchedulingError("Такого матча нет.")
            with session_scope() as session:
                view = match_page(session, match_id=match_id, user=user, now=utc_now())
        except SchedulingError as error:
            self.allowed, self.refusal = False, str(error)
            # nothing of a match seen before (its players, times, bookings) stays in a refused browser
            self.match_id = self.title = self.window = ""
            self.is_seated = False
            self.days, self.cells, self.seats, self.options = [], [], [], []
            self.proposals, self.bookings, self.everyone, self.hanchan_choices = [], [], [], []
            return
        self.allowed, self.match_id, self.title, self.window = True, str(match_id), view.title, view.window
        self.is_seated = view.my_player_id is not None and bool(view.days) and not view.window_over
        self.days, self.cells = view.days, view.cells if view.my_player_id is not None else []
        self.seats = [{"name": n, "answer": "ответил" if ok else "ещё не ответил"} for n, ok in view.seats]
        self.options, self.proposals, self.bookings = view.options, view.proposals, view.bookings
        self.everyone = [{"name": n, "text": t} for n, t in view.everyone]
        self.hanchan_choices = [str(n) for n in range(1, max(view.remaining, 0) + 1)] or ["0"]
        if view.options and not self.prop_start:
            self.prop_start, self.prop_end = view.options[0]["start"], view.options[0]["end"]
            self.prop_hanchans = view.options[0]["hanchans"]

    @rx.event
    def load(self) -> rx.event.EventSpec | None:
        self.error = self.notice = self.prop_start = self.prop_end = ""
        user = self._require_user()
        if user is None:
            return self._redirect_to_login()
        self._refresh(user)
        return rx.call_script(GRID_SCRIPT + ";window.discardGrid.saved()")

    @rx.event
    def save_grid(self, painted: str) -> rx.event.EventSpec | None:
        user = self._require_user()
        if user is None or (match_id := self._match_id()) is None:
            return None
        self.error = self.notice = ""
        try:
            with session_scope() as session:
                window = match_info(session, match_id).window
                if window is None:
                    raise SchedulingError("Игровое окно этого матча ещё не назначено.")
                days = window_days(window)
                intervals = _parse_grid(painted, days, window)
                notices = availability.save_availability(
                    session, match_id=match_id, user_id=user.id, intervals=intervals, now=utc_now()
                )
        except SchedulingError as error:
            self.error = str(error)
            return None
        self.notice = " ".join([T_SAVED, *notices])
        self._refresh(user)
        return rx.call_script("window.discardGrid && window.discardGrid.saved()")

    @rx.event
    def pick_option(self, start: str, end: str, hanchans: str) -> None:
        self.prop_start, self.prop_end, self.prop_hanchans = start, end, hanchans

    @rx.event
    def set_prop_start(self, value: str) -> None:
        self.prop_start = value

    @rx.event
    def set_prop_end(self, value: str) -> None:
        self.prop_end = value

    @rx.event
    def set_prop_hanchans(self, value: str) -> None:
        self.prop_hanchans = value

    @rx.event
    def propose(self, form: dict[str, str]) -> None:
        user = self._require_user()
        if user is None or (match_id := self._match_id()) is None:
            return
        self.error = self.notice = ""
        replaces = form.get("replaces") or ""
        try:
            start = parse_kirov(form.get("start", ""), T_START)
            end = parse_kirov(form.get("end", ""), T_END)
            hanchans = int(form.get("hanchans") or 0)
            with session_scope() as session:
                booking.propose_meeting(
                    session,
                    match_id=match_id,
                    user_id=user.id,
                    start=start,
                    end=end,
                    hanchans=hanchans,
                    now=utc_now(),
                    replaces_booking_id=int(replaces) if replaces.isdigit() else None,
                )
        except (SchedulingError, WindowError, ValueError) as error:
            self.error = str(error)
            return
        self.notice = T_PROPOSED
        self._refresh(user)

    @rx.event
    def answer(self, proposal_id: str, confirmed: bool) -> None:
        user = self._require_user()
        if user is None or not proposal_id.isdigit():
            return
        self.error = self.notice = ""
        try:
            with session_scope() as session:
                action = booking.confirm_meeting if confirmed else booking.decline_meeting
                proposal = action(session, proposal_id=int(proposal_id), user_id=user.id)
                status, reason = proposal.status, proposal.failure_reason
        except SchedulingError as error:
            self.error = str(error)
            self._refresh(user)
            return
        if status == "failed":
            self.error = reason or ""
        else:
            self.notice = T_BOOKED if status == "booked" else (T_CONFIRMED if confirmed else T_DECLINED)
        self._refresh(user)


def _parse_grid(painted: str, days: list[date], window: Interval) -> list[Interval]:
    if len(painted) != len(days) * SLOTS_PER_DAY or set(painted) - {"0", "1"}:
        raise SchedulingError("Сетка доступности пришла повреждённой: обновите страницу и отметьте время снова.")
    cells = [[c == "1" for c in painted[d * SLOTS_PER_DAY : (d + 1) * SLOTS_PER_DAY]] for d in range(len(days))]
    return availability_from_grid(days, cells, window)
