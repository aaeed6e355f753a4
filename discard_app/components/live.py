"""Pages that stay current without polling: the page registers what it watches when it loads
(`discard_app/live_push.py`) and its worker pushes a reload to it when that moved, whichever process moved it.

Each browser reloads its own, per-viewer data in its own state: nothing is shared between browsers.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable
from typing import TYPE_CHECKING

import reflex as rx

from discard_app import live_push
from services.core.changes import LEAGUE, Watch, match_watch, person_watch, watched_stamp
from services.core.db import session_scope
from services.core.models import User


def current_stamp(match_id: int | None = None, user_id: int | None = None) -> str:
    """Read before a page reads its data: a change made in between moves the stamp again and reloads once more.
    A match's pages pass its id (and the viewer's), a home page only the viewer's: each reloads only for what
    concerns it (`services.core.changes`)."""
    with session_scope() as session:
        return watched_stamp(session, watch_of(match_id, user_id))


def watch_of(match_id: int | None = None, user_id: int | None = None) -> Watch:
    if match_id is not None:
        return match_watch(match_id, user_id)
    return person_watch(user_id) if user_id is not None else LEAGUE


class LivePage(rx.State, mixin=True):
    """A page that stays current (mixed into an AuthState page: `class HomeState(LivePage, AuthState)`).

    The page's `_refresh(user)` reads its data and sets `_stamp = self._live_stamp()` before reading; `load`
    calls `self._start_live()` once the page is loaded. When the stamp it watches moves, whichever process moved
    it, its worker calls `_live_push`, which reloads the page (`_live_reload`) for this tab alone.
    """

    _stamp: str = ""

    if TYPE_CHECKING:  # given by the page's AuthState and by the page itself
        _page: str

        def _viewer(self) -> User | None: ...

        def _refresh(self, user: User) -> Awaitable[None] | None: ...

    def _live_watch(self) -> Watch:
        """What the page watches: the league unless the page narrows it (a match, a person)."""
        return LEAGUE

    def _live_stamp(self) -> str:
        """Read before the page's data; the worker then needs no push for what this tab read itself."""
        with session_scope() as session:
            stamp = watched_stamp(session, self._live_watch())
        live_push.seen(self, stamp)
        return stamp

    def _live_paused(self) -> bool:
        """Not loaded yet (no stamp), or a page's own work in flight: no reload now."""
        return not self._stamp

    def _live_reload(self, user: User, before: str, now: str) -> Awaitable[None] | None:  # noqa: ARG002
        """The reload when the stamp moved from `before` to `now`; by default the page's whole `_refresh`."""
        return self._refresh(user)

    def _start_live(self) -> None:
        """From the page's `load`, after its data (and `_stamp`) are read: the worker pushes it from now on."""
        if self._stamp:
            live_push.watch(self, self._live_watch(), self._stamp, page=self._page)

    async def _live_push(self, stamp: str) -> None:
        """The worker saw the watched stamp move to `stamp`: reload this tab's page, as its own user, if it is
        still allowed to see it (the role is checked again on each reload)."""
        if self._live_paused() or stamp == self._stamp:
            return
        user = self._viewer()  # who may see the page, checked again on every push
        if user is None:
            live_push.forget(self)
            return
        reloaded = self._live_reload(user, self._stamp, stamp)
        if inspect.isawaitable(reloaded):
            await reloaded
