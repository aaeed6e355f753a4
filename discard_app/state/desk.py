"""The desk state of the organizer and the judge: the open items, their actions, and the live count the navigation
shows; the organizer's judge assignments (Регламент §6.3)."""

from __future__ import annotations

import reflex as rx

from discard_app import live_push, routes, texts
from discard_app.components.live import current_stamp
from discard_app.state.auth import AuthState
from services.core.changes import LEAGUE
from services.core.config import settings
from services.core.db import session_scope
from services.core.models import Role, User, utc_now
from services.league.desk import build_desk, desk_version, judge_choices
from services.results.hanchans import ResultsError, resolve_dispute
from services.results.judge_calls import answer_call, assign_judge, close_call
from services.scheduling import organizer as scheduling_admin
from services.scheduling.repo import SchedulingError

STAFF = (Role.ORGANIZER, Role.JUDGE)


_digits = routes.form_id


class DeskState(AuthState):
    allowed: bool = False
    organizer: bool = False
    items: list[dict[str, str]] = []
    groups: list[dict[str, str]] = []
    count: int = 0
    error: str = ""
    error_key: str = ""
    notice: str = ""
    notice_key: str = ""  # the action the notice answers: "assign" is shown under its form, the rest at the top
    judges: list[dict[str, str]] = []
    rounds: list[dict[str, str]] = []
    matches: list[dict[str, str]] = []
    _version: tuple = ()

    def _staff(self, *roles: Role) -> User | None:
        user = self._require_user(*STAFF)
        self.allowed = user is not None
        self.organizer = user is not None and user.role == Role.ORGANIZER
        if user is None:
            self.items, self.groups, self.count, self._version = [], [], 0, ()
            self.judges, self.rounds, self.matches = [], [], []
        return user if user is not None and (not roles or user.role in roles) else None

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
    def load(self) -> rx.event.EventSpec | None:
        self.error = self.error_key = self.notice = ""
        if self._current_user() is None:
            return self._redirect_to_login()
        user = self._staff()
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
        user = self._require_user(*STAFF)
        if user is None:
            return
        self._refresh(user)
        live_push.watch(self, LEAGUE, current_stamp(), minutely=True)

    async def _live_push(self, stamp: str) -> None:  # noqa: ARG002 — the desk's own version decides
        """A change announced anywhere (or the minute turned): the desk recomputes only if its version moved; the
        role is checked again, so a demoted account's tab stops showing the desk."""
        user = self._staff()
        if user is None:
            live_push.forget(self)
            return
        self._refresh(user)

    def _act(self, key: str, title: str, action, *roles: Role, **kwargs) -> None:  # noqa: ANN001, ANN003
        user = self._staff(*roles)
        if user is None:
            return
        self.error = self.error_key = self.notice = ""
        try:
            with session_scope() as session:
                action(session, user, **kwargs)
        except (SchedulingError, ResultsError) as error:
            self.error, self.error_key = str(error), key
            return
        self.notice, self.notice_key = texts.DESK_DONE.format(title=title), key
        self._refresh(user, force=True)

    @rx.event
    def apply_fallback(self, key: str, title: str, match_id: str) -> None:
        self._act(
            key,
            title,
            lambda s, u, **kw: scheduling_admin.apply_fallback(s, actor_user_id=u.id, now=utc_now(), **kw),
            Role.ORGANIZER,
            match_id=_digits(match_id),
        )

    @rx.event
    def apply_window_fallback(self, key: str, title: str, round_id: str) -> None:
        """Регламент §6.1 for a whole tour: the notice names the matches that did not fit and what to do."""
        user = self._staff(Role.ORGANIZER)
        if user is None:
            return
        self.error = self.error_key = self.notice = ""
        try:
            with session_scope() as session:
                result = scheduling_admin.apply_window_fallback(
                    session, round_id=_digits(round_id), actor_user_id=user.id, now=utc_now()
                )
        except SchedulingError as error:
            self.error, self.error_key = str(error), key
            return
        self.notice, self.notice_key = f"{title}: {result.summary}", key
        self._refresh(user, force=True)

    @rx.event
    def next_window(self, form: dict[str, str]) -> None:
        self._act(
            form.get("key", ""),
            form.get("title", ""),
            lambda s, u, **kw: scheduling_admin.move_to_next_window(s, actor_user_id=u.id, now=utc_now(), **kw),
            Role.ORGANIZER,
            match_id=_digits(form.get("target")),
            reason=form.get("reason", ""),
        )

    @rx.event
    def resolve(self, form: dict[str, str]) -> None:
        self._act(
            form.get("key", ""),
            form.get("title", ""),
            lambda s, u, **kw: resolve_dispute(s, u, now=utc_now(), **kw),
            Role.ORGANIZER,
            hanchan_id=_digits(form.get("target")),
            decision=form.get("reason", ""),
        )

    @rx.event
    def answer(self, key: str, title: str, call_id: str) -> None:
        self._act(key, title, lambda s, u, **kw: answer_call(s, u, now=utc_now(), **kw), call_id=_digits(call_id))

    @rx.event
    def close(self, form: dict[str, str]) -> None:
        """Регламент §6.2: the ruling closes the call; the call's description is its sequence of actions."""
        self._act(
            form.get("key", ""),
            form.get("title", ""),
            lambda s, u, **kw: close_call(s, u, now=utc_now(), **kw),
            call_id=_digits(form.get("target")),
            actions=form.get("actions", ""),
            disagreement=form.get("disagreement", ""),
            decision=form.get("reason", ""),
        )

    @rx.event
    def assign(self, form: dict[str, str]) -> None:
        """Регламент §6.3: a judge for a match, a day or a round (exactly one of them)."""
        self._act(
            "assign",
            texts.DESK_ASSIGNED,
            lambda s, u, **kw: assign_judge(s, u, now=utc_now(), **kw),
            Role.ORGANIZER,
            judge_user_id=_digits(form.get("judge")),
            match_id=_digits(form.get("match")) or None,
            round_id=_digits(form.get("round")) or None,
            day=(form.get("day") or "").strip() or None,
        )
