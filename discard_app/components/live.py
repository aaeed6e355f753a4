"""Pages that stay current: a hidden button the tab's one timer presses every second while the page shows it.

The handler behind the button compares a stamp of `services.core.changes` (the league's, or one match's) and
reloads the page's own data only when it moved, so a change made by any process (another web worker, the bot, the
command line, the Pantheon import) shows within ~1 s. Each browser reloads its own, per-viewer data: nothing is
shared between browsers. The timer stops pressing when the page has no such button (another page is shown) and
while the tab is hidden.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable

import reflex as rx

from services.core.changes import change_stamp, match_stamp, player_stamp
from services.core.db import session_scope

TICK_MS = 1000
# Installed once per tab by the page's on_load; presses whichever live button the current page renders.
LIVE_SCRIPT = f"""
(function () {{
  if (window.discardLive) return;
  const press = () => {{
    if (document.hidden) return;
    const button = document.querySelector("[data-live-tick]");
    if (button) button.click();
  }};
  window.discardLive = setInterval(press, {TICK_MS});
  document.addEventListener("visibilitychange", press);
}})();
"""


def live_updates(on_tick: rx.event.EventHandler) -> rx.Component:
    """Place once on a live page; `on_tick` reloads the page's data when the league's change stamp moved."""
    return rx.el.button(
        type="button",
        on_click=on_tick,
        hidden=True,
        tab_index=-1,
        aria_hidden="true",
        custom_attrs={"data-live-tick": "1"},
    )


def start_live_updates() -> rx.event.EventSpec:
    return rx.call_script(LIVE_SCRIPT)


def current_stamp(match_id: int | None = None, user_id: int | None = None) -> str:
    """Read before a page reads its data: a change made in between moves the stamp again and reloads once more.
    A match's pages pass its id (and the viewer's), a home page only the viewer's: each reloads only for what
    concerns it (`services.core.changes`)."""
    with session_scope() as session:
        if match_id is not None:
            return match_stamp(session, match_id, user_id)
        return change_stamp(session) if user_id is None else player_stamp(session, user_id)


class LivePage(rx.State, mixin=True):
    """A page that stays current (mixed into an AuthState page: `class HomeState(LivePage, AuthState)`).

    The page's `_refresh(user)` reads its data and sets `_stamp = self._live_stamp()` before reading; `load` returns
    `start_live_updates()` and the page renders `live_updates(ThePageState.tick)`. `tick` reloads the page when the
    stamp it watches moved, whichever process moved it.
    """

    _stamp: str = ""

    def _live_stamp(self) -> str:
        """What the page watches: the league's stamp unless the page narrows it (a match, a person)."""
        return current_stamp()

    def _live_paused(self) -> bool:
        """Not loaded yet (no stamp), or a page's own work in flight: no reload now."""
        return not self._stamp

    def _live_reload(self, user, before: str, now: str) -> Awaitable[None] | None:  # noqa: ANN001, ARG002
        """The reload when the stamp moved from `before` to `now`; by default the page's whole `_refresh`."""
        return self._refresh(user)

    @rx.event
    async def tick(self) -> rx.event.EventSpec | None:
        if self._live_paused() or (now := self._live_stamp()) == self._stamp:
            return None
        user = self._require_user()
        if user is None:
            return self._redirect_to_login()
        reloaded = self._live_reload(user, self._stamp, now)
        if inspect.isawaitable(reloaded):
            await reloaded
        return None
