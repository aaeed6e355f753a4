"""The match scheduling page's state: the viewer's grid, options, proposals and bookings, and their actions."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date, datetime
from typing import Any

import reflex as rx
from reflex.event import EventSpec

from discard_app import live_push, routes, texts
from discard_app.components.availability_grid import GRID_SCRIPT
from discard_app.components.live import LivePage
from discard_app.state import tab_memory
from discard_app.state.action import KEY_FIELD, Anyone, GuardedActions, Outcome, guarded
from discard_app.state.auth import AuthState
from services.core.changes import Watch, club_moved, grid_moved, match_stamp, match_watch, shared_part
from services.core.db import session_scope
from services.core.models import User, saved, utc_now
from services.core.wording import agreed
from services.scheduling import availability, booking
from services.scheduling.board import match_board
from services.scheduling.intervals import (
    SLOTS_PER_DAY,
    Interval,
    availability_from_grid,
    grid_from_availability,
    window_days,
)
from services.scheduling.repo import SchedulingError, match_info
from services.scheduling.rules import BINDING_KEPT
from services.scheduling.tour_windows import parse_kirov
from services.scheduling.view import PROPOSAL_LABELS, MatchPage, match_page, meetings

EVERYONE = "match-schedule-everyone"  # the organizer's view of every player's intervals (state/tab_memory.py)
GRID_FORM_ID = "grid-save-form"  # assets/availability_grid.js fills its hidden `grid` field as it is sent


class MatchScheduleState(GuardedActions, LivePage, AuthState):
    allowed: bool = False
    refusal: str = ""
    match_id: str = ""
    title: str = ""
    window: str = ""
    is_seated: bool = False
    seats: list[dict[str, str]] = []
    all_answered: bool = False
    window_over: bool = False  # no options are looked for any more: the page says so, not «ждём ответов»
    tables_short: bool = False  # the four share time, every table then is taken (the true reason, issue 43 item 4)
    nothing_to_book: bool = False  # every hanchan has its meeting or result: no options, no proposal form
    part_booked: str = ""  # some of the match's hanchans are booked, not all: what is left to agree on
    booking_news: str = ""  # the room released or moved since the last booking, and why
    fallback: str = ""  # Регламент §6.1: «Если не договоритесь — вс 20.12 18:00», from the window's opening
    plan: str = ""  # Регламент §2: the meetings that together hold the remaining hanchans (view.match_page)
    unblock: str = ""  # the viewer's own hint when the four share no time; never another player's (view.match_page)
    options: list[dict[str, str]] = []
    proposals: list[dict[str, str]] = []
    bookings: list[dict[str, str]] = []
    hanchan_choices: list[str] = []
    prop_start: str = ""
    prop_end: str = ""
    prop_hanchans: str = "3"
    error: str = ""
    notice: str = ""
    match_url: str = ""
    _proposed: str = ""  # the proposal this tab's «ждём остальных» is about: its answer follows its state
    msg_at: str = "top"  # which section's button the current message answers: top, copy, grid, propose, proposals
    drop_warning: str = ""  # a save would release a booked meeting: asked before anything is changed
    pending_grid: str = ""  # the viewer's own painted grid asked about: sent back with the dialog's confirmation
    cannot_booking: str = ""  # «Не смогу» pressed on this booking: the dialog asks before releasing it
    cannot_binding: bool = False  # ... and it is the binding §6.1 fallback: the dialog asks to warn instead
    cannot_free_time: bool = True  # the dialog's checkbox: the meeting's time also leaves one's availability
    decline_proposal: str = ""  # «Отклонить» pressed on this proposal: the dialog asks before ending it for all four
    # The game window the page shows ("start/end", ISO): a save parses its painted grid against it, without
    # reading the match again (the browser's grid has exactly these days; the service clips to the real window)
    _window_span: str = ""

    def _match_id(self) -> int | None:
        return routes.id_in_path(self.router.url.path, r"/match/(\d+)/schedule")

    def _refresh(self, user: User, *, grid: bool = True) -> None:
        """Reloads the page. `grid=False` after this match's own proposals, confirmations and releases: they change
        neither the viewer's grid nor its marks, which are most of the work and most of the bytes sent."""
        match_id = self._match_id()
        try:
            if match_id is None:
                raise SchedulingError(texts.SCHED_NO_SUCH_MATCH)
            with session_scope() as session:
                # before the data: a change in between reloads again
                self._stamp = match_stamp(session, match_id, user.id)
                live_push.seen(self, self._stamp)  # this tab has read it itself: no push for it
                now = utc_now()
                # A push reloads the match's open pages one after another: they read its board once, as of the
                # stamp every viewer shares (the viewer's own part stays in match_page)
                read = live_push.shared(
                    ("match_board", match_id, shared_part(self._stamp)), lambda: match_board(session, match_id, now=now)
                )
                view = match_page(session, match_id=match_id, user=user, now=now, grid=grid, read=read)
        except SchedulingError as error:
            self.allowed, self.refusal = False, str(error)
            # nothing of a match seen before (its players, times, bookings) stays in a refused browser, and a
            # refused page watches nothing (a push would only refuse it again)
            self.match_id = self.title = self.window = self.match_url = self._window_span = self._stamp = ""
            self.is_seated = self.all_answered = self.nothing_to_book = False
            self.part_booked = self.booking_news = self.fallback = self.unblock = self.plan = ""
            self._grid()._put(days=[], cells=[], marks=[], past=0, weeks=[])
            self.seats, self.options = [], []
            self.proposals, self.bookings, self.hanchan_choices = [], [], []
            tab_memory.remember(self.router.session.client_token, EVERYONE, [])
            return
        self._show(match_id, view, grid=grid)

    def _show(self, match_id: int, view: MatchPage, *, grid: bool) -> None:
        """Puts the page read (`view.match_page`) into the state."""
        # assigned only when changed: a reload after a save or a push resends none of them (bench/save_profile.py)
        self._put(
            allowed=True,
            match_id=str(match_id),
            title=view.title,
            window=view.window,
            match_url=routes.match_url(match_id),
        )
        self._window_span = f"{view.span.start.isoformat()}/{view.span.end.isoformat()}" if view.span else ""
        seated = view.my_player_id is not None
        if grid:
            self._put(is_seated=seated and bool(view.days) and not view.window_over)
            self._grid()._put(
                days=view.days,
                cells=view.cells if seated else [],
                marks=view.marks if seated else [],
                past=view.past if seated else 0,
                weeks=_weeks(view.days),
            )
        self._put(
            seats=[
                {
                    "name": n,
                    "answer": answered if ok else texts.SCHED_SEAT_NOT_YET.format(answered=answered),
                }
                for n, ok in view.seats
                for answered in [agreed(n, *texts.SCHED_SEAT_ANSWERED)]
            ],
            all_answered=bool(view.seats) and all(ok for _, ok in view.seats),
            window_over=view.window_over,
            tables_short=view.tables_short,
            nothing_to_book=view.remaining <= 0,
            booking_news=view.booking_news,
            fallback=view.fallback,
            unblock=view.unblock,
            plan=view.plan,
            options=view.options,
            proposals=view.proposals,
            bookings=view.bookings,
            hanchan_choices=[str(n) for n in range(1, max(view.remaining, 0) + 1)],
            part_booked=texts.SCHED_PART_BOOKED.format(settled=view.settled, remaining=view.remaining)
            if view.settled
            else "",
        )
        self._follow_proposal(view.proposals)
        # The organizer's view of every player's intervals: in this process's memory, never in the state files.
        tab_memory.remember(
            self.router.session.client_token, EVERYONE, [{"name": n, "text": t} for n, t in view.everyone]
        )
        if view.options and not self.prop_start:
            self.prop_start, self.prop_end = view.options[0]["start"], view.options[0]["end"]
            self.prop_hanchans = view.options[0]["hanchans"]

    def _follow_proposal(self, proposals: list[dict[str, str]]) -> None:
        """«Предложение отправлено …: ждём остальных» says what the read model says once the proposal is no longer
        waiting (issue 45 item 7: it stayed after all four had confirmed)."""
        if not self._proposed or self.notice != texts.SCHED_PROPOSED:
            return
        row = next((p for p in proposals if p["id"] == self._proposed), None)
        if row is None or row["status"].startswith(PROPOSAL_LABELS["open"]):
            return
        self._proposed = ""
        self.notice = texts.SCHED_PROPOSAL_NOW.format(status=row["status"])

    @rx.var(cache=False)
    def everyone(self) -> list[dict[str, str]]:
        """Read for each update from the tab's memory (state/tab_memory.py): never stored on the state."""
        return tab_memory.recall(self.router.session.client_token, EVERYONE, [])

    def _put(self, **values: object) -> None:
        """Assigns only what changed: an assigned var is sent to the browser and re-rendered there."""
        for name, value in values.items():
            if getattr(self, name) != value:
                setattr(self, name, value)

    def _grid(self) -> MatchGridState:
        grid = self.get_substate([MatchGridState.get_name()])
        assert isinstance(grid, MatchGridState)
        return grid

    @rx.event
    def load(self) -> EventSpec | None:
        self.prop_start = self.prop_end = ""
        self.msg_at = "top"
        user = self._viewer()
        if user is None:
            return self._redirect_to_login()
        self.drop_warning = self.pending_grid = ""
        self._renew_key()  # this tab's forms carry their own one-time key (discard_app/state/action.py)
        self._refresh(user)
        self._start_live()
        return rx.call_script(GRID_SCRIPT + ";window.discardGrid.saved()")

    def _live_watch(self) -> Watch:
        return match_watch(int(self.match_id), self._user_id)  # this match, the club's rooms, my other tabs

    def _live_paused(self) -> bool:
        return not self.match_id

    def _live_reload(self, user: User, before: str, now: str) -> None:
        """The grid only when the club's rooms or the viewer's own answer (another tab) changed."""
        self._refresh(user, grid=grid_moved(before, now))

    def _show_refusal(self, message: str) -> None:
        self.error, self.notice = message, ""

    def _show_answer(self, outcome: Outcome, where: str) -> None:
        """The answer beside the part of the page that acted (`where`: the grid, the proposal form, the
        proposals, the top). A save that would release a booking asks instead (`ReleaseFirst`); a confirmation
        whose proposal could not be booked is done (recorded) and reads as the reason it failed."""
        self.msg_at = where
        if isinstance(outcome.error, availability.ReleaseFirst):
            self.error = self.notice = ""
            return
        answered = outcome.value if outcome.ok else None
        failed = getattr(getattr(answered, "proposal", None), "status", "") == "failed"
        if not outcome.ok or failed:
            self.error, self.notice = " ".join(outcome.problems) or outcome.message, ""
        else:
            self.error, self.notice = "", outcome.message

    @rx.event
    @guarded(Anyone.AT_THE_MATCH)
    async def save_grid(self, form: dict[str, Any]) -> AsyncIterator[EventSpec | None]:
        """The grid's form: the painted grid (`grid`, filled by assets/availability_grid.js as it is sent) and the
        one-time key. A second send of the same key changes nothing and answers as the first did. One delta: the
        button's busy state was set by the form's own `start_busy` just before (components/form.py)."""
        try:
            done = self._save(str(form.get("grid") or ""), key=form.get(KEY_FIELD), release_ok=False)
        finally:
            self.busy = False
        if done is not None:
            yield done

    @rx.event
    @guarded(Anyone.AT_THE_MATCH)
    def confirm_release(self, form: dict[str, Any]) -> EventSpec | None:
        """The player read what a save releases and agreed: the grid asked about, with the same key."""
        self.pending_grid = self.drop_warning = ""
        painted = str(form.get("grid") or "")
        return self._save(painted, key=form.get(KEY_FIELD), release_ok=True) if painted else None

    @rx.event
    def cancel_release(self) -> None:
        self.pending_grid = self.drop_warning = ""

    def _save(self, painted: str, *, key: Any, release_ok: bool) -> EventSpec | None:
        if (match_id := self._match_id()) is None:
            return None
        window, seen = _span(self._window_span), self._stamp

        def run(session: Any, user: User) -> tuple[list[str], str, MatchPage]:
            if window is None:
                raise SchedulingError(texts.SCHED_NO_WINDOW)
            intervals, if_needed = _parse_grid(painted, window_days(window), window)
            now = utc_now()
            # Регламент §6.1: a save that would release a booking is asked about first (`ReleaseFirst`, raised
            # before any write); rolled back with the key's claim, the key stays usable
            stored = availability.save_and_read(
                session,
                match_id=match_id,
                user_id=saved(user.id),
                intervals=intervals,
                if_needed=if_needed,
                now=now,
                release_ok=release_ok,
            )
            # The page from the board the save read under the lock, in its transaction: not read again after it.
            # Its stamp includes the save's own news; if the club's part moved since this tab last read the page,
            # the tab's older stamp stands, so the push that follows reloads the page (one stamp read, not two).
            after = match_stamp(session, match_id, user.id)
            view = match_page(session, match_id=match_id, user=user, now=now, read=(stored.board, stored.item))
            return stored.notices, seen if club_moved(seen, after) else after, view

        outcome = self._perform(
            run,
            key=key,
            done=lambda saved: " ".join([texts.SCHED_SAVED, *saved[0]]),
            action=f"grid.{match_id}",
            where="grid",
        )
        if isinstance(outcome.error, availability.ReleaseFirst):
            self.pending_grid = painted
            self.drop_warning = texts.SCHED_RELEASE_WARNING.format(when=", ".join(outcome.error.released))
            return None
        if not outcome.ok:
            return None
        if outcome.value is None:  # a repeated send: the page as it stands now
            self._refresh(self._admitted_user())
        else:
            _, self._stamp, view = outcome.value
            live_push.seen(self, self._stamp)  # this tab has read it itself: no push for it
            self._show(match_id, view, grid=True)
        return rx.call_script("window.discardGrid && window.discardGrid.saved()")

    @rx.event
    @guarded(Anyone.AT_THE_MATCH)
    def copy_previous(self) -> EventSpec | None:
        """Fills the grid with my free time from the previous tour, for review: nothing is saved until «Сохранить».
        Reads only (the caller's own intervals), so no action key: guarded because it reveals them."""
        user = self._admitted_user()
        if (match_id := self._match_id()) is None:
            return None
        self.error = self.notice = ""
        self.msg_at = "copy"  # under the button: the grid's own answers sit below a phone's screen of half hours
        with session_scope() as session:
            found = availability.previous_tour_availability(session, match_id=match_id, user_id=saved(user.id))
            maybe = availability.previous_tour_availability(
                session, match_id=match_id, user_id=saved(user.id), if_needed_only=True
            )
            window = match_info(session, match_id).window
        if found is None or window is None:
            self.error = texts.SCHED_NOTHING_TO_COPY
            return None
        title, intervals = found
        days = window_days(window)
        grid = grid_from_availability(intervals, days, window)
        maybe_grid = grid_from_availability(maybe[1] if maybe else [], days, window)
        painted = "".join(
            "2" if if_needed else "1" if free else "0"
            for row, maybe_row in zip(grid, maybe_grid, strict=True)
            for free, if_needed in zip(row, maybe_row, strict=True)
        )
        self.notice = texts.SCHED_COPIED.format(title=title)
        return rx.call_script(f"window.discardGrid && window.discardGrid.load('{painted}')")

    @rx.event
    def ask_cannot(self, booking_id: str, binding: str = "") -> None:
        self.cannot_booking = booking_id
        self.cannot_binding = bool(binding)  # Регламент §6.1: the fallback stays; the dialog says so
        self.cannot_free_time = True  # by default the time is not offered again at once (issue 28)

    @rx.event
    def set_cannot_free_time(self, value: bool) -> None:
        self.cannot_free_time = bool(value)

    @rx.event
    def keep_booking(self) -> None:
        self.cannot_booking = ""

    @rx.event
    @guarded(Anyone.AT_THE_MATCH)
    def cannot_come(self, form: dict[str, Any]) -> None:
        """The dialog's «Снять бронь»: `booking_id`, `take_time_out` (its checkbox) and the one-time key."""
        self.cannot_booking = ""
        booking_id = str(form.get("booking_id") or "")
        take_time_out = bool(form.get("take_time_out"))
        if not booking_id.isdigit():
            return
        self._perform(
            lambda session, user: availability.cannot_come(
                session, booking_id=int(booking_id), user_id=saved(user.id), now=utc_now(), take_time_out=take_time_out
            ),
            key=form.get(KEY_FIELD),
            done=lambda b: (
                BINDING_KEPT
                if b.active
                else texts.SCHED_CANNOT_DONE_FREED
                if take_time_out
                else texts.SCHED_CANNOT_DONE
            ),
            action=f"cannot.{booking_id}",
            where="top",
        )
        self._refresh(self._admitted_user(), grid=take_time_out)  # the grid shows the time taken out

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
    @guarded(Anyone.AT_THE_MATCH)
    async def propose(self, form: dict[str, Any]) -> AsyncIterator[None]:
        if (match_id := self._match_id()) is None:
            return
        self.busy = True
        yield  # the button shows it is busy before the proposal is sent
        replaces = str(form.get("replaces") or "")
        hanchans = str(form.get("hanchans") or "0")

        def run(session: Any, user: User) -> Any:
            return booking.propose_meeting(
                session,
                match_id=match_id,
                user_id=saved(user.id),
                start=parse_kirov(str(form.get("start") or ""), texts.SCHED_START),
                end=parse_kirov(str(form.get("end") or ""), texts.SCHED_END),
                hanchans=int(hanchans) if hanchans.isdigit() else 0,
                now=utc_now(),
                replaces_booking_id=int(replaces) if replaces.isdigit() else None,
            )

        try:
            key = form.get(KEY_FIELD)
            outcome = self._perform(
                run, key=key, done=texts.SCHED_PROPOSED, action=f"propose.{match_id}", where="propose"
            )
        finally:
            self.busy = False
        if not outcome.ok:
            return
        if outcome.value is not None:
            self._proposed = str(outcome.value.id)
        self._refresh(self._admitted_user(), grid=False)

    @rx.event
    def ask_decline(self, proposal_id: str) -> None:
        self.decline_proposal = proposal_id

    @rx.event
    def keep_proposal(self) -> None:
        self.decline_proposal = ""

    @rx.event
    @guarded(Anyone.AT_THE_MATCH)
    def confirm_decline(self, form: dict[str, Any]) -> None:
        """The dialog's «Отклонить»: `proposal_id` and the one-time key."""
        self.decline_proposal = ""
        self._answer(str(form.get("proposal_id") or ""), confirmed=False, key=form.get(KEY_FIELD))

    @rx.event
    @guarded(Anyone.AT_THE_MATCH)
    def answer(self, proposal_id: str, confirmed: bool, key: str = "") -> None:
        self._answer(str(proposal_id), confirmed=bool(confirmed), key=key)

    def _answer(self, proposal_id: str, *, confirmed: bool, key: Any) -> None:
        """Sends the proposal's line and the booking as soon as the answer is stored (the match and its seats as
        the answer read them under the lock, then the proposals and bookings: four statements more). The rest
        of the page (options, the grid's room marks) follows on the live tick within a second: the answer moved
        the match's stamp. Not a chained event: that would hold the server's loop while this delta still waits
        to be written (bench/scheduling_browser.py)."""
        if not proposal_id.isdigit():
            return
        now = utc_now()

        def done(answered: Any) -> str:
            proposal = answered.proposal
            if proposal.status == "failed":  # recorded, and what the player reads is why
                return proposal.failure_reason or ""
            return (
                texts.SCHED_BOOKED
                if proposal.status == "booked"
                else (texts.SCHED_CONFIRMED if confirmed else texts.SCHED_DECLINED)
            )

        outcome = self._perform(
            lambda session, user: booking.answer_meeting(
                session, proposal_id=int(proposal_id), user_id=saved(user.id), confirmed=confirmed, now=now
            ),
            key=key,
            done=done,
            action=f"answer.{proposal_id}",
            where="proposals",
        )
        answered = outcome.value
        if answered is None:  # refused, or a repeated send: the first answered; what it did is on the live tick
            return
        proposal, info = answered.proposal, answered.info
        if proposal.match_id == self._match_id():
            seat = info.seat_of(self._admitted_user().id)
            with session_scope() as session:
                proposal_rows, booking_rows = meetings(session, info, seat.player_id if seat else None, now=now)
            self._put(proposals=proposal_rows, bookings=booking_rows)


class MatchGridState(MatchScheduleState):
    """The availability grid's days, cells and marks, in a substate of their own: the browser re-renders a state's
    components when that state changes, so a proposal's or a booking's news redraws the lists, not the grid's
    several hundred cells (bench/scheduling_browser.py). Written by the page's own handlers (`_grid`)."""

    days: list[str] = []
    cells: list[list[str]] = []
    marks: list[list[str]] = []
    past: int = 0  # the first `past` cells have begun: greyed and not painted (issue 28)
    weeks: list[str] = []  # «Показана первая неделя: пн 07.12 — вс 13.12», one per week of the window


def _weeks(days: list[str]) -> list[str]:
    """Which week the grid shows, named with its first and last day."""
    names = texts.GRID_WEEK_NAMES if len(days) > 7 else texts.GRID_ONE_WEEK
    return [
        f"{texts.GRID_WEEK_SHOWN} {name}: {days[7 * n]} — {days[min(7 * n + 6, len(days) - 1)]}"
        for n, name in enumerate(names)
        if 7 * n < len(days)
    ]


def _span(text: str) -> Interval | None:
    """The state's `_window_span` back as the window ("" when the page shows none)."""
    start, _, end = text.partition("/")
    return Interval(datetime.fromisoformat(start), datetime.fromisoformat(end)) if end else None


def _parse_grid(painted: str, days: list[date], window: Interval) -> tuple[list[Interval], list[Interval]]:
    """The painted grid ("0" empty, "1" free, "2" «могу, если нужно») → (free, if-needed) intervals."""
    if len(painted) != len(days) * SLOTS_PER_DAY or set(painted) - {"0", "1", "2"}:
        raise SchedulingError(texts.SCHED_GRID_BROKEN)
    rows = [painted[d * SLOTS_PER_DAY : (d + 1) * SLOTS_PER_DAY] for d in range(len(days))]
    return tuple(  # type: ignore[return-value]
        availability_from_grid(days, [[c == level for c in row] for row in rows], window) for level in ("1", "2")
    )
