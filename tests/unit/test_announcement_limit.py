"""The announcement form's field, its hint and the service's check are one limit (text_limits.ANNOUNCEMENT_MAX)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from discard_app import texts
from discard_app.pages.league.announcements import _organizer_tools
from services.league import announcements
from services.notifier import cards


def _walk(component: Any) -> Iterator[Any]:
    yield component
    for child in getattr(component, "children", []):
        yield from _walk(child)


def test_the_form_stops_and_says_the_limit_the_service_keeps() -> None:
    parts = list(_walk(_organizer_tools()))
    (field,) = [c for c in parts if type(c).__name__ == "TextArea"]
    shown = [
        str(c.contents._var_value) for c in parts if type(c).__name__ == "Bare" and hasattr(c.contents, "_var_value")
    ]
    assert int(str(field.max_length)) == announcements.MAX_LENGTH
    assert texts.TEXT_LIMIT_HINT.format(limit=announcements.MAX_LENGTH) in shown
    assert cards.MAX_ANNOUNCEMENT == announcements.MAX_LENGTH  # the Telegram card clips nothing the site took
