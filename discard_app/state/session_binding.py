"""Binds each tab's state to the browser session that sends its events, before any handler runs.

A tab's token (a UUID in the websocket URL) is no login: every event acts as the user of the session cookie
that came with the websocket (or with the upload), never as whoever used the tab before. When the session
differs from the one the tab's state was built for (logout, another login, a closed tab's token reused
without the cookie), every page state of the tab is wiped before the event — and before a reload's full
state is sent. Leaving a page wipes what the pages held too, so issued passwords, link codes and the
organizer's view of everyone's availability do not stay in the state files.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import reflex as rx
from reflex.middleware.middleware import Middleware
from reflex.state import BaseState, StateUpdate
from reflex_base import constants
from reflex_base.event import Event

from discard_app import texts
from discard_app.state.auth import AuthState
from services.core import text_limits

if TYPE_CHECKING:
    from reflex.app import App

SESSION_HEADER = "x-discard-session"
UPLOAD_EXPECTATION_SECONDS = 300.0

# tab token -> (the upload's own session digest, when it arrived); set by the HTTP guard of `/_upload`
_expected_uploads: dict[str, tuple[str, float]] = {}


def expect_upload(tab_token: str, session_digest: str) -> None:
    """The HTTP guard saw an upload for this tab carrying this session; its event must match the tab's."""
    now = time.monotonic()
    for tab, (_, at) in list(_expected_uploads.items()):
        if now - at > UPLOAD_EXPECTATION_SECONDS:
            del _expected_uploads[tab]
    _expected_uploads[tab_token] = (session_digest, now)


def _page_of(event: Event) -> str | None:
    """The page (path without the query) the event was sent from; None for events that carry no route."""
    as_path = event.router_data.get(constants.RouteVar.ORIGIN) or event.router_data.get(constants.RouteVar.PATH)
    return str(as_path).split("?", 1)[0].rstrip("/") or "/" if as_path else None


class SessionBinding(Middleware):
    async def preprocess(self, app: App, state: BaseState, event: Event) -> StateUpdate | None:
        if (too_long := text_limits.first_too_long(event.payload)) is not None:
            # Every free-text field has a limit (the form says it and its input stops there): a longer text
            # is refused before any handler sees it.
            return StateUpdate(events=Event.from_event_type(rx.toast.error(texts.TOO_LONG.format(limit=too_long[1]))))
        router_data = state.router_data
        digest = str(router_data.get(constants.RouteVar.HEADERS, {}).get(SESSION_HEADER, ""))
        auth = await state.get_state(AuthState)
        if not event.router_data:
            # No route of its own: an upload (or an event chained by a handler). An upload acts only when the
            # browser's own session came with it and is the session this tab belongs to.
            expected = _expected_uploads.pop(str(router_data.get(constants.RouteVar.CLIENT_TOKEN, "")), None)
            if expected is not None and expected[0] != auth._session_digest:
                return StateUpdate()
            return None
        page = _page_of(event)
        if digest != auth._session_digest:
            await auth._forget_pages()
            auth._bind_session(digest)
        elif page is not None and auth._page and page != auth._page:  # a fresh tab has nothing to forget
            await auth._forget_pages()
        if page is not None:
            auth._page = page
        return None
