"""The websocket's incoming frames are capped (issue 29): an oversized event closes the socket unread, an event of
the longest field's size is still answered."""

from __future__ import annotations

import json
import uuid

import pytest
import simple_websocket

from discard_app import texts
from discard_app.pages.account.login import LoginState
from services.core.text_limits import EVENT_FRAME_MAX, FIELD_LIMITS
from tests.e2e.conftest import App
from tests.e2e.test_secrets import RawTab

SUBMIT = f"{LoginState.get_full_name()}.submit"


def _emit(tab: RawTab, form: dict[str, str]) -> None:
    """As a browser sends it: JSON with its letters as they are (no \\u escapes, which would triple the size)."""
    event = {"name": SUBMIT, "payload": {"form": form}, "router_data": {"pathname": "/login", "asPath": "/login"}}
    tab.ws.send("42/_event," + json.dumps(["event", event], ensure_ascii=False))


def test_an_event_as_long_as_the_regulation_is_answered(app: App) -> None:
    tab = RawTab(app, str(uuid.uuid4()))
    try:
        _emit(tab, {"name": "", "regulation": "ж" * FIELD_LIMITS["regulation"]})
        frames = "".join(tab.read(until=lambda f: texts.LOGIN_EMPTY in f))
        assert texts.LOGIN_EMPTY in frames
    finally:
        tab.close()


def test_an_oversized_event_closes_the_socket_unread(app: App) -> None:
    """On main Socket.IO's own megabyte was the only cap: this frame of about 0.6 MB was parsed and answered."""
    tab = RawTab(app, str(uuid.uuid4()))
    _emit(tab, {"name": "", "note": "ж" * (EVENT_FRAME_MAX + 1)})
    try:
        with pytest.raises(simple_websocket.ConnectionClosed):
            tab.read(seconds=10)  # on main this read ends after its 10 s with the answer in it
        assert not any(texts.LOGIN_EMPTY in frame for frame in tab.received)
    finally:
        if tab.ws.connected:
            tab.close()
    fresh = RawTab(app, str(uuid.uuid4()))  # the site itself goes on serving
    try:
        fresh.emit(SUBMIT, {"form": {"name": ""}}, "/login")
        assert texts.LOGIN_EMPTY in "".join(fresh.read(until=lambda f: texts.LOGIN_EMPTY in f))
    finally:
        fresh.close()
