"""iCalendar output: structure, Kirov times, escaping, UTF-8-aware folding, cancellations."""

from datetime import date, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.scheduling.ics import IcsEvent, calendar_ics, escape_text, fold_line
from services.scheduling.intervals import UTC, at_kirov

STAMP = datetime(2026, 10, 20, 9, 15, 7, tzinfo=UTC)


def event(**kw) -> IcsEvent:
    base = dict(
        uid="booking-17@discard-league",
        start=at_kirov(date(2026, 10, 25), 18),
        end=at_kirov(date(2026, 10, 25), 22, 30),
        summary="Тур 1, стол 3",
        dtstamp=STAMP,
        location="Братство Дискарда, Киров, ул. Московская, 78/115",
        sequence=2,
    )
    return IcsEvent(**(base | kw))


def unfold(text: str) -> list[str]:
    assert text.endswith("\r\n") and "\n" not in text.replace("\r\n", "")
    return text.replace("\r\n ", "").split("\r\n")[:-1]


def unescape(value: str) -> str:
    out, i = [], 0
    while i < len(value):
        if value[i] == "\\":
            out.append("\n" if value[i + 1] in "nN" else value[i + 1])
            i += 2
        else:
            out.append(value[i])
            i += 1
    return "".join(out)


def prop(lines: list[str], name: str) -> list[str]:
    return [line.split(":", 1)[1] for line in lines if line.split(":", 1)[0].split(";")[0] == name]


def test_calendar_structure_and_times():
    text = calendar_ics([event()], name="Клуб «Братство Дискарда»")
    lines = unfold(text)
    assert lines[:5] == [
        "BEGIN:VCALENDAR",
        "PRODID:-//Discard League//Club calendar//RU",
        "VERSION:2.0",
        "CALSCALE:GREGORIAN",
        "X-WR-CALNAME:Клуб «Братство Дискарда»",
    ]
    assert lines[-1] == "END:VCALENDAR"
    assert "X-WR-TIMEZONE:Europe/Kirov" in lines
    tz = lines[lines.index("BEGIN:VTIMEZONE") : lines.index("END:VTIMEZONE") + 1]
    assert "TZID:Europe/Kirov" in tz and "TZOFFSETFROM:+0300" in tz and "TZOFFSETTO:+0300" in tz
    assert "BEGIN:DAYLIGHT" not in tz
    ev = lines[lines.index("BEGIN:VEVENT") : lines.index("END:VEVENT") + 1]
    assert "UID:booking-17@discard-league" in ev
    assert "DTSTAMP:20261020T091507Z" in ev
    assert "DTSTART;TZID=Europe/Kirov:20261025T180000" in ev  # 15:00 UTC shown as Kirov 18:00
    assert "DTEND;TZID=Europe/Kirov:20261025T223000" in ev
    assert "SEQUENCE:2" in ev and "STATUS:CONFIRMED" in ev
    assert "LOCATION:Братство Дискарда\\, Киров\\, ул. Московская\\, 78/115" in ev


def test_cancelled_event_and_empty_optional_fields():
    lines = unfold(calendar_ics([event(cancelled=True, location="", sequence=5)], name="Мои встречи"))
    assert prop(lines, "STATUS") == ["CANCELLED"] and prop(lines, "SEQUENCE") == ["5"]
    assert prop(lines, "LOCATION") == [] and prop(lines, "DESCRIPTION") == []


def test_empty_calendar_is_valid():
    lines = unfold(calendar_ics([], name="Пусто"))
    assert "BEGIN:VEVENT" not in lines and lines[-1] == "END:VCALENDAR"


def test_escaping():
    assert escape_text("a\\b;c,d\ne\r\nf") == "a\\\\b\\;c\\,d\\ne\\nf"
    tricky = "Матч: Иванов, Петров; «D&D» \\ ночь\nвторая строка"
    lines = unfold(calendar_ics([event(summary=tricky, description=tricky, categories=("Матч", "a,b"))], name="x;y"))
    assert [unescape(v) for v in prop(lines, "SUMMARY") + prop(lines, "DESCRIPTION")] == [tricky, tricky]
    assert prop(lines, "CATEGORIES") == ["Матч,a\\,b"]
    assert prop(lines, "X-WR-CALNAME") == ["x\\;y"]


def test_folding_long_russian_text_at_75_octets():
    description = "Регламент §3: после подтверждения всеми четырьмя игроками помещение бронируется. " * 6
    text = calendar_ics([event(description=description)], name="Клуб")
    raw_lines = text.split("\r\n")[:-1]
    assert all(len(line.encode("utf-8")) <= 75 for line in raw_lines)
    assert sum(line.startswith(" ") for line in raw_lines) > 5
    assert [unescape(v) for v in prop(unfold(text), "DESCRIPTION")] == [description]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=300))
def test_fold_then_unfold_restores_any_line(value):
    line = "DESCRIPTION:" + value
    folded = fold_line(line)
    assert all(len(part.encode("utf-8")) <= 75 for part in folded.split("\r\n"))
    assert folded.replace("\r\n ", "") == line


def test_exactly_75_octets_is_not_folded():
    assert fold_line("X" * 75) == "X" * 75
    assert fold_line("X" * 76) == "X" * 75 + "\r\n X"
    assert fold_line("Я" * 38) == "Я" * 37 + "\r\n Я"  # 2-byte letters: 74 octets, then a new line


def test_event_validation():
    with pytest.raises(ValueError):
        event(end=at_kirov(date(2026, 10, 25), 17))
    with pytest.raises(ValueError):
        event(dtstamp=datetime(2026, 10, 20, 9))
