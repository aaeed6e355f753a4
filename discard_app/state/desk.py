"""The desk state of the organizer and the judge: the open items, their actions, and the live count the navigation
shows; the organizer's judge assignments (Регламент §6.3)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any, ClassVar

import reflex as rx
from reflex.event import EventSpec
from sqlmodel import Session

from discard_app import live_push, routes, texts
from discard_app.components.live import current_stamp
from discard_app.state.action import KEY_FIELD, GuardedActions, Outcome, guarded
from discard_app.state.auth import AuthState
from services.core.changes import LEAGUE
from services.core.config import settings
from services.core.db import session_scope
from services.core.errors import LeagueError
from services.core.models import Role, User, saved, utc_now
from services.league import login_guard
from services.results.hanchans import resolve_dispute
from services.results.judge_calls import answer_call, assign_judge, close_call
from services.scheduling import organizer as scheduling_admin
from services.views.desk import build_desk, desk_version, judge_choices

STAFF = (Role.ORGANIZER, Role.JUDGE)
ASSIGN = "assign"  # the «Назначить судью» form's own key for its messages (the items' keys are `DeskItem.key`)
REFUSED = "refused"  # a refused action's message stands at the top of the desk


_digits = routes.form_id


def _overrules(holds: Callable[[Session], list[str]]) -> list[str]:
    """The other matches' holds an action would end; a refusal the action would give is left to the action to say."""
    try:
        with session_scope() as session:
            return holds(session)
    except LeagueError:
        return []


class DeskState(GuardedActions, AuthState):
    VIEWERS: ClassVar[tuple[Role, ...]] = STAFF
    allowed: bool = False
    organizer: bool = False
    items: list[dict[str, str]] = []
    groups: list[dict[str, str]] = []
    count: int = 0
    error: str = ""
    error_key: str = ""
    notice: str = ""
    notice_key: str = ""  # the action the notice answers: "assign" is shown under its form, the rest at the top
    working: str = ""  # the item whose action runs: its button spins (components/form.py)
    # The item whose fallback would end another match's hold, and the question naming it (Регламент §3, §6.3)
    overrule_key: str = ""
    overrule_text: str = ""
    judges: list[dict[str, str]] = []
    rounds: list[dict[str, str]] = []
    matches: list[dict[str, str]] = []
    _version: tuple[Any, ...] = ()

    def _viewer(self) -> User | None:
        """The organizer or the judge (`VIEWERS`); anyone else keeps nothing of the desk (the actions' roles:
        `guarded`)."""
        user = self._require_user(*self.VIEWERS)
        if (user is not None) != self.allowed:
            self.allowed = user is not None
        organizer = user is not None and user.role == Role.ORGANIZER
        if organizer != self.organizer:
            self.organizer = organizer
        if user is None and (self.items or self.judges or self._version):
            self.items, self.groups, self.count, self._version = [], [], 0, ()
            self.judges, self.rounds, self.matches = [], [], []
        return user

    def _refresh(self, user: User, *, force: bool = False) -> None:
        now = utc_now()
        with session_scope() as session:
            version = desk_version(session, now=now)
            if version == self._version and not force:
                return
            desk = build_desk(session, now=now, user=user, bot_configured=bool(settings.bot_token))
        self._version = version
        self.items = [item.as_row() for item in desk.items]
        self.groups = desk.groups()
        self.count = desk.count

    @rx.event
    def load(self) -> EventSpec | None:
        self.working = ""
        self.busy = False
        self._renew_key()  # this tab's forms carry their own one-time key (discard_app/state/action.py)
        if self._current_user() is None:
            return self._redirect_to_login()
        user = self._viewer()
        if user is not None:
            self._refresh(user, force=True)
            if user.role == Role.ORGANIZER:
                with session_scope() as session:
                    self.judges, self.rounds, self.matches = judge_choices(session)
        return None

    @rx.event
    def watch(self) -> None:
        """The navigation mounts it on every page: the desk (and the open-items count) is pushed from then on
        (`discard_app/live_push.py`), and once a minute for the windows and meetings that end."""
        user = self._viewer()
        if user is None:
            return
        self._refresh(user)
        live_push.watch(self, LEAGUE, current_stamp(), minutely=True)

    async def _live_push(self, stamp: str) -> None:  # noqa: ARG002 — the desk's own version decides
        """A change announced anywhere (or the minute turned): the desk recomputes only if its version moved; the
        role is checked again, so a demoted account's tab stops showing the desk."""
        user = self._viewer()
        if user is None:
            live_push.forget(self)
            return
        self._refresh(user)

    def _show_refusal(self, message: str) -> None:
        """A tab that is not staff keeps nothing of the desk (`_viewer`); a judge sending an organizer's action
        reads why at the top."""
        self._viewer()
        self.error, self.error_key, self.notice = message, REFUSED, ""

    def _show_answer(self, outcome: Outcome, where: str) -> None:
        """A refusal stands under its item (the fields kept), what was done at the top (the «Назначить судью»
        form's under the form)."""
        problems = "; ".join(outcome.problems)
        self.error, self.error_key = ("", "") if outcome.ok else (problems, where)
        self.notice, self.notice_key = (outcome.message, where) if outcome.ok else ("", "")

    async def _change(
        self, form: dict[str, str], run: Callable[[Any, User], Any], done: str | Callable[[Any], str]
    ) -> AsyncIterator[None]:
        """One item's action, once per the form's key: its button spins while it runs; the desk read again."""
        item = str(form.get("item") or "")
        self.busy, self.working = True, item
        yield  # the item's button shows it works before the service runs
        try:
            outcome = self._perform(run, key=form.get(KEY_FIELD), done=done, action=f"desk.{item}"[:60], where=item)
        finally:
            self.busy, self.working = False, ""
        if outcome.ok:
            self._refresh(self._admitted_user(), force=True)

    @staticmethod
    def _done(form: dict[str, str]) -> str:
        return texts.DESK_DONE.format(title=str(form.get("title") or "")[:120])

    def _asked(self, form: dict[str, str], holds: Callable[[Session], list[str]]) -> bool:
        """Регламент §3, §6.3: an action that would take tables other matches' live proposals hold asks first,
        naming them, with a box to tick (as /schedule asks); True while the question stands and nothing is done. A
        second tap alone never takes a held table."""
        ticked = str(form.get("overrule", "")).lower() in ("on", "true", "1")
        question = "" if ticked else texts.overrule_question(_overrules(holds))
        self.overrule_key, self.overrule_text = (str(form.get("item") or ""), question) if question else ("", "")
        return bool(question)

    @rx.event
    @guarded(Role.ORGANIZER)
    async def apply_fallback(self, form: dict[str, str]) -> AsyncIterator[None]:
        """Регламент §6.1: the match's fallback Sunday booked in one tap — asked first when it would take a table
        another match's live proposal holds (`organizer.fallback_overrules`)."""
        match_id = _digits(form.get("target"))
        if self._asked(form, lambda s: scheduling_admin.fallback_overrules(s, match_id=match_id, now=utc_now())):
            return
        async for update in self._change(
            form,
            lambda s, u: scheduling_admin.apply_fallback(
                s, match_id=match_id, actor_user_id=saved(u.id), now=utc_now()
            ),
            self._done(form),
        ):
            yield update

    @rx.event
    @guarded(Role.ORGANIZER)
    async def apply_window_fallback(self, form: dict[str, str]) -> AsyncIterator[None]:
        """Регламент §6.1 for a whole tour: asked first, as the one match's fallback is, when its meetings would take
        tables other matches' live proposals hold (`organizer.window_fallback_overrules`); the notice names the
        matches that did not fit and what to do."""
        round_id, title = _digits(form.get("target")), str(form.get("title") or "")[:120]
        organizer_id = saved(self._admitted_user().id)
        if self._asked(
            form,
            lambda s: scheduling_admin.window_fallback_overrules(
                s, round_id=round_id, actor_user_id=organizer_id, now=utc_now()
            ),
        ):
            return
        async for update in self._change(
            form,
            lambda s, u: scheduling_admin.apply_window_fallback(
                s, round_id=round_id, actor_user_id=saved(u.id), now=utc_now()
            ),
            lambda result: f"{title}: {result.summary}",
        ):
            yield update

    @rx.event
    @guarded(Role.ORGANIZER)
    async def next_window(self, form: dict[str, str]) -> AsyncIterator[None]:
        """Регламент §6.1: with a good reason the organizer moves the match to the next tour's window."""
        match_id, reason = _digits(form.get("target")), str(form.get("reason") or "")
        async for update in self._change(
            form,
            lambda s, u: scheduling_admin.move_to_next_window(
                s, match_id=match_id, reason=reason, actor_user_id=saved(u.id), now=utc_now()
            ),
            self._done(form),
        ):
            yield update

    @rx.event
    @guarded(Role.ORGANIZER)
    async def resolve(self, form: dict[str, str]) -> AsyncIterator[None]:
        """Регламент §6.2: a disputed result kept, with the organizer's decision."""
        hanchan_id, decision = _digits(form.get("target")), str(form.get("reason") or "")
        async for update in self._change(
            form, lambda s, u: resolve_dispute(s, u, hanchan_id, decision, now=utc_now()), self._done(form)
        ):
            yield update

    @rx.event
    @guarded(Role.ORGANIZER)
    async def lift_lock(self, form: dict[str, str]) -> AsyncIterator[None]:
        """A login name closed to new browsers opened again (audited); a second press changes nothing."""
        login_name = str(form.get("target") or "")[:120]
        async for update in self._change(
            form,
            lambda s, u: login_guard.lift(s, login_name=login_name, actor_user_id=saved(u.id), now=utc_now()),
            texts.DESK_LOCK_LIFTED.format(title=str(form.get("title") or "")[:120]),
        ):
            yield update

    @rx.event
    @guarded(*STAFF)
    async def answer(self, form: dict[str, str]) -> AsyncIterator[None]:
        """Регламент §6.2: the judge takes the call («Иду»)."""
        call_id = _digits(form.get("target"))
        async for update in self._change(
            form, lambda s, u: answer_call(s, u, call_id, now=utc_now()), self._done(form)
        ):
            yield update

    @rx.event
    @guarded(*STAFF)
    async def close(self, form: dict[str, str]) -> AsyncIterator[None]:
        """Регламент §6.2: the ruling closes the call; the call's description is its sequence of actions."""
        call_id = _digits(form.get("target"))
        actions, disagreement = str(form.get("actions") or ""), str(form.get("disagreement") or "")
        decision = str(form.get("reason") or "")
        async for update in self._change(
            form,
            lambda s, u: close_call(
                s, u, call_id, actions=actions, disagreement=disagreement, decision=decision, now=utc_now()
            ),
            self._done(form),
        ):
            yield update

    @rx.event
    @guarded(Role.ORGANIZER)
    async def assign(self, form: dict[str, str]) -> AsyncIterator[None]:
        """Регламент §6.3: a judge for a match, a day or a round (exactly one of them)."""
        judge_id, match_id, round_id = (_digits(form.get(name)) for name in ("judge", "match", "round"))
        day = str(form.get("day") or "").strip() or None
        async for update in self._change(
            {**form, "item": ASSIGN},
            lambda s, u: assign_judge(
                s,
                u,
                judge_user_id=judge_id,
                match_id=match_id or None,
                round_id=round_id or None,
                day=day,
                now=utc_now(),
            ),  # fmt: skip
            texts.DESK_ASSIGNED,
        ):
            yield update
