"""A form's one-time key (discard_app/state/action.py): the key the page renders is spent by the action it
performed, so the page gets a fresh one with the answer and the next action from the same open page acts (with
the spent key it would be taken for a double tap and do nothing); a refused action spent nothing, and the
corrected form goes again with the same key. Driven over the real websocket protocol, as a tab sends its events
(no browser)."""

from __future__ import annotations

import json
import uuid

from sqlmodel import col, select

from discard_app.pages.league.announcements import AnnouncementsState
from discard_app.state.action import KEY_FIELD
from services.core.db import session_scope
from services.core.models import Announcement
from tests.e2e.conftest import ORGANIZER, App
from tests.e2e.test_actions_protocol import RawTab, _cookie_for

PATH = "/announcements"
STATE = AnnouncementsState.get_full_name()
KEY_VAR = f"{KEY_FIELD}_rx_state_"


def _page_key(tab: RawTab) -> str:
    """The key the page's forms hold now: the last one a delta set."""
    keys = []
    for frame in tab.received:
        if frame.startswith("42/_event,"):
            _, body = json.loads(frame.removeprefix("42/_event,"))
            keys += [
                changed[KEY_VAR]
                for state, changed in body.get("delta", {}).items()
                if state == STATE and KEY_VAR in changed
            ]
    assert keys, "the page rendered no key"
    return keys[-1]


def _publish(tab: RawTab, text: str) -> None:
    """The form sent as the page renders it: its text and the key the page holds."""
    tab.emit(f"{STATE}.publish", {"form": {"text": text, KEY_FIELD: _page_key(tab)}}, PATH)
    tab.settle()


def _published(app: App, texts: list[str]) -> list[str]:
    engine = app.engine()
    with session_scope(engine) as session:
        found = session.exec(select(Announcement.text).where(col(Announcement.text).in_(texts))).all()
    engine.dispose()
    return sorted(found)


def test_each_action_from_one_open_page_acts_with_the_key_the_page_holds(app: App) -> None:
    tab = RawTab(app, str(uuid.uuid4()), _cookie_for(app, ORGANIZER))
    try:
        tab.emit(f"{STATE}.load", {}, PATH)
        tab.settle()
        loaded = _page_key(tab)
        tag = uuid.uuid4().hex[:6]
        first, second = f"Первое объявление {tag}", f"Второе объявление {tag}"
        _publish(tab, "   ")  # refused («Напишите текст объявления.»): the claim rolled back, the key unspent
        assert _page_key(tab) == loaded  # the corrected form goes again with the same key (docs/architecture.md)
        _publish(tab, first)
        assert _page_key(tab) != loaded  # spent: a fresh one came with the answer
        _publish(tab, second)
    finally:
        tab.close()
    assert _published(app, [first, second]) == sorted([first, second])
