"""Free-text limits: one table, every string of an event's payload checked, nested forms included."""

from __future__ import annotations

from services.core.text_limits import DEFAULT_LIMIT, FIELD_LIMITS, first_too_long


def test_each_named_field_stops_at_its_own_limit() -> None:
    for field, limit in FIELD_LIMITS.items():
        assert first_too_long({"form": {field: "я" * limit}}) is None
        assert first_too_long({"form": {field: "я" * (limit + 1)}}) == (field, limit)


def test_a_dispute_note_of_900_000_characters_is_refused_and_unknown_fields_have_a_ceiling() -> None:
    assert first_too_long({"form": {"hanchan_id": "3", "note": "x" * 900_000}}) == ("note", FIELD_LIMITS["note"])
    assert first_too_long({"painted": "1" * 1344}) is None  # the availability grid of a long window
    assert first_too_long({"whatever": ["ok", "y" * (DEFAULT_LIMIT + 1)]}) == ("whatever", DEFAULT_LIMIT)


def test_a_setter_naming_its_field_is_checked_as_that_field() -> None:
    """/schedule's dialog sends each typed field as `set_field(name, value)`: the reason keeps its own limit."""
    limit = FIELD_LIMITS["reason"]
    assert first_too_long({"name": "reason", "value": "я" * limit}) is None
    assert first_too_long({"name": "reason", "value": "я" * (limit + 1)}) == ("reason", limit)
    assert first_too_long({"name": "start", "value": "2026-12-01T18:00"}) is None  # not a limited field
