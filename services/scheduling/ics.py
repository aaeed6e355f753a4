"""iCalendar (RFC 5545) feeds in Europe/Kirov time. Pure; imports no database, reflex or telegram."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from services.scheduling.intervals import UTC, require_aware, to_kirov

PRODID = "-//Discard League//Club calendar//RU"
TZID = "Europe/Kirov"
CRLF = "\r\n"
MAX_OCTETS = 75  # RFC 5545 §3.1: lines SHOULD NOT be longer than 75 octets, excluding CRLF

# Europe/Kirov has been UTC+3 with no daylight saving since 2020 (PRODUCT.md "Time"), so one
# STANDARD block describes every date the league can have.
VTIMEZONE = (
    "BEGIN:VTIMEZONE",
    f"TZID:{TZID}",
    f"X-LIC-LOCATION:{TZID}",
    "BEGIN:STANDARD",
    "DTSTART:19700101T000000",
    "TZOFFSETFROM:+0300",
    "TZOFFSETTO:+0300",
    "TZNAME:MSK",
    "END:STANDARD",
    "END:VTIMEZONE",
)


@dataclass(frozen=True, slots=True)
class IcsEvent:
    """One booking as a VEVENT. `uid` stays the same for the booking's whole life ("booking-17@discard-league");
    `sequence` grows on every move; `dtstamp` = when the booking last changed, so an unchanged feed
    is byte-identical (good for ETag/caching); `cancelled` publishes STATUS:CANCELLED."""

    uid: str
    start: datetime
    end: datetime
    summary: str
    dtstamp: datetime
    location: str = ""
    description: str = ""
    sequence: int = 0
    cancelled: bool = False
    categories: tuple[str, ...] = ()  # the booking's kind: "Матч", "DnD", ...

    def __post_init__(self) -> None:
        for name in ("start", "end", "dtstamp"):
            object.__setattr__(self, name, require_aware(getattr(self, name), f"IcsEvent.{name}"))
        if not self.start < self.end:
            raise ValueError(f"event {self.uid!r} needs start < end")
        if self.sequence < 0:
            raise ValueError("SEQUENCE must be non-negative")


def escape_text(value: str) -> str:
    """TEXT escaping (RFC 5545 §3.3.11): backslash first, then ; , and any newline as \\n."""
    value = value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
    return value.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n")


def fold_line(line: str) -> str:
    """Fold at 75 octets of UTF-8 without splitting a character; continuation lines start with a space."""
    parts: list[str] = []
    current: list[str] = []
    size = 0
    for char in line:
        width = len(char.encode("utf-8"))
        if size + width > MAX_OCTETS:
            parts.append("".join(current))
            current, size = [" "], 1  # the leading space counts toward the next line's 75
        current.append(char)
        size += width
    parts.append("".join(current))
    return CRLF.join(parts)


def _utc_stamp(instant: datetime) -> str:
    return f"{instant.astimezone(UTC):%Y%m%dT%H%M%SZ}"


def _kirov_stamp(instant: datetime) -> str:
    return f"{to_kirov(instant):%Y%m%dT%H%M%S}"


def _event_lines(event: IcsEvent) -> list[str]:
    lines = [
        "BEGIN:VEVENT",
        f"UID:{escape_text(event.uid)}",
        f"DTSTAMP:{_utc_stamp(event.dtstamp)}",
        f"DTSTART;TZID={TZID}:{_kirov_stamp(event.start)}",
        f"DTEND;TZID={TZID}:{_kirov_stamp(event.end)}",
        f"SEQUENCE:{event.sequence}",
        f"SUMMARY:{escape_text(event.summary)}",
    ]
    if event.location:
        lines.append(f"LOCATION:{escape_text(event.location)}")
    if event.description:
        lines.append(f"DESCRIPTION:{escape_text(event.description)}")
    if event.categories:
        lines.append("CATEGORIES:" + ",".join(escape_text(c) for c in event.categories))
    lines.append(f"STATUS:{'CANCELLED' if event.cancelled else 'CONFIRMED'}")
    lines.append("TRANSP:OPAQUE")
    lines.append("END:VEVENT")
    return lines


def calendar_ics(events: Sequence[IcsEvent], *, name: str, refresh_minutes: int = 60) -> str:
    """A whole VCALENDAR with CRLF endings; events in the given order (callers sort by start)."""
    lines = [
        "BEGIN:VCALENDAR",
        f"PRODID:{PRODID}",
        "VERSION:2.0",
        "CALSCALE:GREGORIAN",
        f"X-WR-CALNAME:{escape_text(name)}",
        f"X-WR-TIMEZONE:{TZID}",
        # Hints for subscribing clients on how often to poll the feed.
        f"REFRESH-INTERVAL;VALUE=DURATION:PT{refresh_minutes}M",
        f"X-PUBLISHED-TTL:PT{refresh_minutes}M",
        *VTIMEZONE,
    ]
    for event in events:
        lines.extend(_event_lines(event))
    lines.append("END:VCALENDAR")
    return "".join(fold_line(line) + CRLF for line in lines)
