"""iCalendar output: every feed parses back (with the same library and by a plain RFC 5545 line reader) to the
events it was made from: Kirov times with their VTIMEZONE, escaping, UTF-8-aware folding, cancellations."""

from datetime import date, datetime, timedelta

import icalendar
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.scheduling.ics import IcsEvent, calendar_ics
from services.scheduling.intervals import KIROV, UTC, at_kirov

STAMP = datetime(2026, 10, 20, 9, 15, 7, tzinfo=UTC)
TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=200)


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
    """RFC 5545 §3.1 by hand: CRLF line ends, every physical line at most 75 octets, continuation lines joined."""
    assert text.endswith("\r\n") and "\n" not in text.replace("\r\n", "")
    assert all(len(line.encode("utf-8")) <= 75 for line in text.split("\r\n"))
    return text.replace("\r\n ", "").split("\r\n")[:-1]


def parsed_events(text: str) -> list[icalendar.Event]:
    return list(icalendar.Calendar.from_ical(text).walk("VEVENT"))


def test_calendar_structure_and_kirov_times():
    text = calendar_ics([event()], name="Клуб «Братство Дискарда»")
    lines = unfold(text)
    assert lines[0] == "BEGIN:VCALENDAR" and lines[-1] == "END:VCALENDAR"
    assert "VERSION:2.0" in lines and "PRODID:-//Discard League//Club calendar//RU" in lines
    assert "X-WR-CALNAME:Клуб «Братство Дискарда»" in lines and "X-WR-TIMEZONE:Europe/Kirov" in lines
    # 15:00 UTC shown as Kirov 18:00, with the zone's definition in the file
    assert "DTSTART;TZID=Europe/Kirov:20261025T180000" in lines
    assert "DTEND;TZID=Europe/Kirov:20261025T223000" in lines
    assert "DTSTAMP:20261020T091507Z" in lines
    tz = lines[lines.index("BEGIN:VTIMEZONE") : lines.index("END:VTIMEZONE") + 1]
    assert "TZID:Europe/Kirov" in tz and "TZOFFSETTO:+0300" in tz

    [vevent] = parsed_events(text)
    assert str(vevent["UID"]) == "booking-17@discard-league"
    assert vevent.decoded("DTSTART") == at_kirov(date(2026, 10, 25), 18)
    assert vevent.decoded("DTEND") - vevent.decoded("DTSTART") == timedelta(hours=4, minutes=30)
    assert vevent.decoded("DTSTART").utcoffset() == timedelta(hours=3)
    assert int(vevent["SEQUENCE"]) == 2 and str(vevent["STATUS"]) == "CONFIRMED"
    assert str(vevent["LOCATION"]) == "Братство Дискарда, Киров, ул. Московская, 78/115"


def test_cancelled_event_and_empty_optional_fields():
    [vevent] = parsed_events(calendar_ics([event(cancelled=True, location="", sequence=5)], name="Мои встречи"))
    assert str(vevent["STATUS"]) == "CANCELLED" and int(vevent["SEQUENCE"]) == 5
    assert "LOCATION" not in vevent and "DESCRIPTION" not in vevent


def test_empty_calendar_is_valid_and_still_names_its_zone():
    text = calendar_ics([], name="Пусто")
    lines = unfold(text)
    assert "BEGIN:VEVENT" not in lines and lines[-1] == "END:VCALENDAR"
    assert "TZID:Europe/Kirov" in lines
    assert parsed_events(text) == []


def test_escaping_round_trips():
    tricky = "Матч: Иванов, Петров; «D&D» \\ ночь\nвторая строка"
    text = calendar_ics([event(summary=tricky, description=tricky, categories=("Матч", "a,b"))], name="x;y")
    lines = unfold(text)
    assert any(line.startswith("SUMMARY:") and "\\;" in line and "\\," in line and "\\n" in line for line in lines)
    [vevent] = parsed_events(text)
    assert str(vevent["SUMMARY"]) == tricky and str(vevent["DESCRIPTION"]) == tricky
    assert [str(c) for c in vevent["CATEGORIES"].cats] == ["Матч", "a,b"]
    assert str(icalendar.Calendar.from_ical(text)["X-WR-CALNAME"]) == "x;y"


def test_long_russian_text_is_folded_at_75_octets_and_restored():
    description = "Регламент §3: после подтверждения всеми четырьмя игроками помещение бронируется. " * 6
    text = calendar_ics([event(description=description)], name="Клуб")
    assert sum(line.startswith(" ") for line in text.split("\r\n")) > 5
    [vevent] = parsed_events(text)
    assert str(vevent["DESCRIPTION"]) == description


@settings(max_examples=100, deadline=None)
@given(summary=TEXT, description=TEXT, location=TEXT)
def test_any_text_round_trips(summary, description, location):
    text = calendar_ics([event(summary=summary, description=description, location=location)], name="Клуб")
    unfold(text)
    [vevent] = parsed_events(text)
    assert str(vevent["SUMMARY"]) == summary
    assert str(vevent.get("DESCRIPTION", "")) == description
    assert str(vevent.get("LOCATION", "")) == location


def test_events_keep_their_order_and_times():
    later = event(uid="b-2", start=at_kirov(date(2026, 11, 1), 12), end=at_kirov(date(2026, 11, 1), 16))
    vevents = parsed_events(calendar_ics([event(), later], name="Клуб"))
    assert [str(v["UID"]) for v in vevents] == ["booking-17@discard-league", "b-2"]
    assert vevents[1].decoded("DTSTART").astimezone(KIROV).hour == 12


def test_the_same_events_give_the_same_bytes():
    assert calendar_ics([event()], name="Клуб") == calendar_ics([event()], name="Клуб")


def test_event_validation():
    with pytest.raises(ValueError):
        event(end=at_kirov(date(2026, 10, 25), 17))
    with pytest.raises(ValueError):
        event(dtstamp=datetime(2026, 10, 20, 9))
