"""The one guarded action of every mutating handler: role, session, service, at most once, the message.

    class RosterState(OrganizerPage, AuthState):
        @rx.event
        @guarded(Role.ORGANIZER)
        def add_player(self, form: dict[str, str]) -> None:
            if self._perform(lambda session, user: ..., key=form.get(KEY_FIELD), done=texts.ROSTER_ADDED).ok:
                self._refresh()

`guarded(*roles)` checks on the server, before the handler's body runs, that the caller is logged in and has one
of the roles (or, named as `Anyone.AT_THE_MATCH` or `Anyone.OWN_ACCOUNT`, is any logged-in person, whom the service
then checks); a refused call changes nothing and the body never runs. The
roles stay on the handler (`roles_of`), so the protocol tests find every mutating handler and the role it needs.

`_perform` opens one transaction and in it claims the form's one-time action key (`services/core/action_keys.py`),
runs the service and records its answer. A repeated send of the same key changes nothing and answers with the
first result. A `LeagueError` (every service refusal derives from it) becomes the message next to the form, with
the fields kept; anything else is logged and becomes the Russian unexpected-error message. Then it shows the answer
through the page's one `_show_answer` (by default `error` or `notice`; `where` names the form or item on pages that
answer per form), so no handler sets an action's answer by hand; the handler only refreshes its view.
"""

from __future__ import annotations

import functools
import inspect
import logging
import secrets
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

import reflex as rx
from reflex.event import EventSpec

from discard_app import texts
from services.core import action_keys
from services.core.db import session_scope
from services.core.errors import LeagueError
from services.core.models import Role, User, saved

log = logging.getLogger(__name__)

KEY_FIELD = "action_key"  # the hidden field of every form (components/form.py)
ROLES_ATTRIBUTE = "__discard_roles__"
READS_ATTRIBUTE = "__discard_reads__"  # a `reading` handler: its roles, and it changes nothing

# The user a guarded handler was admitted as, for its `_perform`; set by `guarded` for the handler's run only.
_admitted: ContextVar[User | None] = ContextVar("admitted", default=None)


def new_key() -> str:
    return secrets.token_urlsafe(18)


@dataclass(frozen=True)
class Outcome:
    """What an action did: `ok` with its message (and the service's value), or the problems to show."""

    ok: bool
    message: str = ""
    problems: list[str] = field(default_factory=list)
    value: Any = None
    repeated: bool = False  # a second send of a key already performed: nothing was done this time
    error: LeagueError | None = None


def refusing(error: LeagueError) -> Callable[[Any, User], Any]:
    """The action for input refused before the service could be called (an unreadable file): `_perform` answers
    it as it answers every refusal, with nothing done."""

    def run(_session: Any, _user: User) -> Any:
        raise error

    return run


def roles_of(handler: object) -> tuple[Role | Anyone, ...] | None:
    """The roles a guarded handler needs (or its one `Anyone`); None for a handler that is not guarded."""
    roles: tuple[Role | Anyone, ...] | None = getattr(handler, ROLES_ATTRIBUTE, None)
    return roles


def _idle(state: Any) -> None:
    """The handler has answered: its form's button is usable again (`GuardedActions.start_busy` disabled it)."""
    if getattr(state, "busy", False):
        state.busy = False


class Anyone(StrEnum):
    """A handler open to every logged-in person, named as such (a handler is never open by omission): the service
    it calls decides who of them may act."""

    AT_THE_MATCH = "anyone at the match"  # the service admits the match's players, its judge and the organizer
    OWN_ACCOUNT = "anyone, on their own account"  # the profile: what it changes is the caller's own


def guarded(*roles: Role | Anyone) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A mutating handler: refused on the server, before its body, to a visitor without one of `roles` (an
    `Anyone`: to a logged-out visitor only)."""
    return _door(roles, ROLES_ATTRIBUTE)


def reading(*roles: Role) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A handler that changes nothing but shows what only `roles` may see on a page others see too (the
    organizer's preview of a rule change, a hanchan's scores to correct): refused as `guarded` refuses."""
    return _door(roles, READS_ATTRIBUTE)


def _door(roles: tuple[Role | Anyone, ...], mark: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    if not roles or (any(isinstance(r, Anyone) for r in roles) and len(roles) > 1):
        raise TypeError("a handler names its roles, or one Anyone")
    needed = () if isinstance(roles[0], Anyone) else roles

    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        def admit(self: Any) -> User | None:
            user: User | None = self._require_user(*needed)
            if user is None:
                self._refused()
                _idle(self)
            return user

        if inspect.isasyncgenfunction(fn):

            @functools.wraps(fn)
            async def handler(self: Any, *args: Any, **kwargs: Any) -> Any:
                if (user := admit(self)) is None:
                    return
                _admitted.set(user)
                try:
                    async for update in fn(self, *args, **kwargs):
                        _admitted.set(user)  # another event may have run between two yields
                        yield update
                finally:
                    _admitted.set(None)
                    _idle(self)

        elif inspect.iscoroutinefunction(fn):

            @functools.wraps(fn)
            async def handler(self: Any, *args: Any, **kwargs: Any) -> Any:
                if (user := admit(self)) is None:
                    return None
                token = _admitted.set(user)
                try:
                    return await fn(self, *args, **kwargs)
                finally:
                    _admitted.reset(token)
                    _idle(self)

        else:

            @functools.wraps(fn)
            def handler(self: Any, *args: Any, **kwargs: Any) -> Any:
                if (user := admit(self)) is None:
                    return None
                token = _admitted.set(user)
                try:
                    return fn(self, *args, **kwargs)
                finally:
                    _admitted.reset(token)
                    _idle(self)

        setattr(handler, mark, tuple(roles))
        return handler

    return wrap


class GuardedActions(rx.State, mixin=True):
    """Mixed into a page state (before AuthState): the form's one-time key and the one way to act."""

    action_key: str = ""  # rendered into the page's forms; a new one after each performed action
    busy: bool = False  # a form's event runs: its submit button is disabled and spins (components/form.py)

    if TYPE_CHECKING:  # given by AuthState, mixed in after

        def _current_user(self) -> User | None: ...

        def _viewer(self) -> User | None: ...

        def _redirect_to_login(self) -> EventSpec: ...

    @rx.event
    def start_busy(self, _form: dict[str, Any] | None = None) -> None:
        """Sent by the form component just before the form's own event (components/form.py): the button is
        disabled and spins until the guarded handler ends. It changes nothing else."""
        self.busy = True

    def _refused(self) -> None:
        """What a refused caller sees: a page's own override may also reset its vars."""
        self._show_refusal(texts.FORBIDDEN_TITLE)

    def _show_refusal(self, message: str) -> None:  # noqa: B027  (pages that show it override this)
        """Pages override this to put the message where their form shows it."""

    def _show_answer(self, outcome: Outcome, where: str) -> None:
        """An action's answer where the page shows it: the page's `error` (its problems) or `notice`. A page that
        answers beside each form (`where`), or lists the problems one by one, overrides this."""
        problems = "; ".join(outcome.problems)
        self.error, self.notice = ("", outcome.message) if outcome.ok else (problems, "")

    def _check(self, run: Callable[[Any, User], Any], where: str = "") -> bool:
        """`run` tried and rolled back (a question asked before a grave action: would it go through?); a refusal
        is shown as `_perform` shows it. True when it would."""
        user = self._admitted_user()
        try:
            with session_scope() as session:
                run(session, user)
                session.rollback()
        except LeagueError as error:
            self._show_answer(Outcome(ok=False, problems=error.lines(), error=error), where)
            return False
        return True

    def _admitted_user(self) -> User:
        user = _admitted.get()
        if user is None:
            raise RuntimeError("_perform outside a @guarded handler")
        return user

    def _renew_key(self) -> None:
        self.action_key = new_key()

    def _load_page(self, refresh: Callable[[], None]) -> EventSpec | None:
        """A page's on-load: a fresh key for its forms, the login page for a logged-out tab, and `refresh()` once
        the page's `_viewer` admits the visitor. It reads only, and leaves the page's answers: a page change has
        emptied them already (`SessionBinding`), and a load on the same page may come right behind an action whose
        answer must stay (a reconnecting tab queues its load behind a tap sent meanwhile)."""
        self._renew_key()
        if self._current_user() is None:  # AuthState, mixed in after
            return self._redirect_to_login()
        if self._viewer() is not None:
            refresh()
        return None

    def _perform(
        self,
        run: Callable[[Any, User], Any],
        *,
        key: Any = "",
        done: str | Callable[[Any], str] = "",
        action: str = "",
        where: str = "",
    ) -> Outcome:
        """Runs `run(session, user)` once per `key` in one transaction (an empty key: no once-guard) and shows its
        answer (`_show_answer`, beside the form `where`)."""
        key = str(key or "")
        outcome = outcome_of(self._admitted_user(), run, key=key, done=done, action=action or type(self).__name__)
        self._answered(outcome, key, where)
        return outcome

    def _answered(self, outcome: Outcome, key: str, where: str) -> None:
        """What follows every action, however it ran (`_perform`, or `outcome_of` in a pool's thread): a fresh
        key for the forms once the key was spent, and the answer shown."""
        if key and outcome.ok and not outcome.repeated:
            self._renew_key()
        self._show_answer(outcome, where)


def outcome_of(
    user: User, run: Callable[[Any, User], Any], *, key: str, done: str | Callable[[Any], str], action: str
) -> Outcome:
    """`run(session, user)` once per `key` in one transaction, as an `Outcome`; no state is touched, so a handler
    whose work must run in a pool of its own (the password change: argon2) runs this there, then `_answered`."""

    def once(session: Any) -> tuple[Any, str]:
        value = run(session, user)
        return value, done(value) if callable(done) else done

    try:
        performed = action_keys.perform_once(key, user_id=saved(user.id), action=action, run=once)
    except LeagueError as error:
        return Outcome(ok=False, problems=error.lines(), error=error)
    except Exception as error:  # a defect: logged, and the person reads what to do
        log.error("an action failed", exc_info=error)
        return Outcome(ok=False, problems=[texts.UNEXPECTED_ERROR])
    if performed.repeated:
        return Outcome(ok=True, message=performed.message, repeated=True)
    return Outcome(ok=True, message=performed.message, value=performed.value)
