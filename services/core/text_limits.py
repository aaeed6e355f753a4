"""How long each free-text field of the site's forms may be; imports nothing of the app.

One table for the server (every event is checked before its handler runs) and for the forms (each input gets
the same `maxlength`, and the long ones say their limit). A field not named here still has a ceiling, so no
form can store a megabyte that every viewer of a page would then download.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

# The most characters of a name, one constant per meaning, used by every way in (forms, the command line, the roster
# CSV, the season file): a person's name (below, with its rule) and a season's name.
PERSON_NAME_MAX = 60
SEASON_NAME_MAX = 120
# An announcement's text: the Telegram message (at most 4096 characters) adds its heading, so the text keeps room for
# it. The form's field, its hint, the service's check and the card's clip all read this one number.
ANNOUNCEMENT_MAX = 3500

# Form field name -> the most characters it takes (a form's ceiling; the rule of the thing named may be stricter).
FIELD_LIMITS: dict[str, int] = {
    "name": 80,  # a person's or a room's name as typed (a login: accounts made before the person rule had up to 80)
    "title": SEASON_NAME_MAX,
    "password": 200,
    "current": 200,
    "new": 200,
    "repeat": 200,
    "reason": 500,
    "violation": 500,
    "basis": 500,
    "order": 500,
    "description": 500,  # a call to the judge
    "note": 2000,  # a dispute
    "actions": 2000,  # a ruling
    "disagreement": 2000,
    "decision": 2000,
    "text": ANNOUNCEMENT_MAX,  # an announcement
    "regulation": 200_000,  # the league's regulation, whole (the 2026 one is about 16 000 characters)
}
# Anything else a browser sends (ids, dates, the painted availability grid): generous, but bounded.
DEFAULT_LIMIT = 20_000
# One websocket frame (an event with its payload and route), in characters of a text frame or bytes of a binary
# one: the longest field (the whole regulation) with room for its JSON escapes, and no more. Reflex's own default
# is a megabyte; a larger frame closes the socket before anything parses it (discard_app/http_guard.py).
EVENT_FRAME_MAX = 2 * FIELD_LIMITS["regulation"] + 64 * 1024


def limit_for(field: str) -> int:
    return FIELD_LIMITS.get(field, DEFAULT_LIMIT)


def _strings(value: Any, field: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield field, value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from _strings(item, str(key))
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item, field)


def first_too_long(payload: Mapping[str, Any]) -> tuple[str, int] | None:
    """The first (field, limit) whose text is over its limit in an event's payload, or None. A setter's payload
    `{"name": field, "value": text}` (one controlled input of a form) is checked as that field."""
    named = payload.get("name")
    if isinstance(named, str) and isinstance(payload.get("value"), str) and named in FIELD_LIMITS:
        payload = {**payload, named: payload["value"], "value": ""}
    for field, text in _strings(payload, ""):
        if len(text) > limit_for(field):
            return field, limit_for(field)
    return None


# A new person's name wherever one is made (the roster, the roster CSV, a technical substitute by name, the season
# file, `discard user add`, the demo league): letters of any script (ё too), spaces, hyphens, apostrophes.
_NAME_MARKS = frozenset(" -'’ʼ")


def person_name_problem(name: str) -> str | None:
    """Why `name` (already trimmed) cannot be a new person's name, in Russian; None when it can."""
    if not name:
        return "не указано имя"
    if len(name) > PERSON_NAME_MAX:
        return f"имя длиннее {PERSON_NAME_MAX} символов"
    if any(not (ch.isalpha() or ch in _NAME_MARKS) for ch in name):
        return "в имени допустимы только буквы, пробелы, дефис и апостроф"
    if not any(ch.isalpha() for ch in name):
        return "в имени нет ни одной буквы"
    return None
