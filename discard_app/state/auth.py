"""The one shared AuthState: the browser's session (an HttpOnly cookie) -> the user, checked on the server."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import reflex as rx
from reflex.event import EventSpec
from reflex.state import BaseState

from discard_app import routes, texts
from discard_app.session_cookie import forget_script
from discard_app.state import tab_memory
from services.core.db import session_scope
from services.core.models import Role, User, utc_now
from services.core.wording import ROLE_NAMES
from services.league import accounts


class AuthState(rx.State):
    """Every page state derives from this one, so every handler can ask who is calling.

    The state holds no token: the session cookie never reaches Reflex (see `discard_app/http_guard.py`), only
    its SHA-256 digest — what the database stores — which `SessionBinding` sets from the connection of each
    event before any handler runs.
    """

    # Who may see the page (none named: anyone logged in). Checked by `_viewer` only: on the page's load, on each
    # pushed reload and before anything it shows on request; what a page changes is `guarded` per handler.
    VIEWERS: ClassVar[tuple[Role, ...]] = ()

    _session_digest: str = ""
    _page: str = ""
    _user_id: int | None = None
    user_name: str = ""
    user_role: str = ""

    def _bind_session(self, digest: str) -> None:
        self._session_digest = digest
        self._user_id = None
        self.user_name = self.user_role = ""

    def _current_user(self) -> User | None:
        """Looks the session up on every call: a logged-out or expired session stops at once."""
        with session_scope() as session:
            user = accounts.user_for_digest(session, self._session_digest, now=utc_now())
        self._user_id = user.id if user else None
        name, role = (user.display_name, str(user.role)) if user else ("", "")
        if (self.user_name, self.user_role) != (name, role):  # an assigned var is resent, and so is all that uses it
            self.user_name, self.user_role = name, role
        return user

    def _require_user(self, *roles: Role) -> User | None:
        """The user when they may act here; None for an anonymous visitor or a wrong role."""
        user = self._current_user()
        if user is None or (roles and user.role not in roles):
            return None
        return user

    def _viewer(self) -> User | None:
        """The one check of who may see this page (its `VIEWERS`): the user, or None — and then the tab keeps
        nothing of the page (`_not_shown`)."""
        user = self._require_user(*self.VIEWERS)
        if user is None:
            self._not_shown()
        return user

    def _not_shown(self) -> None:  # noqa: B027 — pages whose view is private override it
        """A visitor the page is not for: a page whose view is private forgets it (`OrganizerPage`, the desk)."""

    def _redirect_to_login(self) -> EventSpec:
        return rx.redirect(routes.login_url(self.router.url.path))

    async def _forget_pages(self, *, keep: type[rx.State] | None = None) -> None:
        """Every page state back to its defaults: the state lives per browser tab, not per user, so the next
        person to log in at this tab must not receive the last one's vars (issued passwords, the organizer's
        view of everyone's availability, a calendar token, a Telegram link code) — not even in a reload's
        full state. `keep`: a page whose own vars hold nobody's secrets and may hold an answer just given."""
        for cls in _descendants(AuthState):
            if cls is not keep:
                (await self.get_state(cls)).reset()
        tab_memory.forget(self.router.session.client_token)

    @rx.var
    def is_organizer(self) -> bool:
        return self.user_role == Role.ORGANIZER

    @rx.var
    def role_name(self) -> str:
        return ROLE_NAMES.get(self.user_role, "")

    @rx.var
    def header_label(self) -> str:
        return texts.HEADER_ROLE.format(name=self.user_name, role=self.role_name) if self.user_name else ""

    @rx.event
    async def logout(self) -> list[EventSpec]:
        if self._session_digest:
            with session_scope() as session:
                accounts.logout_digest(session, self._session_digest)
        await self._forget_pages()
        self._bind_session("")
        # The session is over in the database already; the cookie goes too, the other tabs reload, and this one
        # opens the login page once the cookie is gone.
        return [rx.call_script(forget_script(routes.LOGIN))]


class OrganizerPage(rx.State, mixin=True):
    """An organizer-only page, mixed into an AuthState page (`class RosterState(OrganizerPage, AuthState)`): its
    `_viewer` is the organizer, and for anyone else every var of the page goes back to its default (`allowed`
    off), so nothing an organizer's view held stays in a refused tab."""

    VIEWERS: ClassVar[tuple[Role, ...]] = (Role.ORGANIZER,)
    allowed: bool = False

    if TYPE_CHECKING:  # given by AuthState, mixed in after

        def _require_user(self, *roles: Role) -> User | None: ...

    def _viewer(self) -> User | None:
        user = self._require_user(*self.VIEWERS)
        if user is None:
            self.reset()
        elif not self.allowed:
            self.allowed = True
        return user


def _descendants(cls: type[BaseState]) -> list[type[BaseState]]:
    found: list[type[BaseState]] = []
    for sub in cls.get_substates():
        found += [sub, *_descendants(sub)]
    return found
