"""iCalendar (RFC 5545) feeds in Europe/Kirov time, written by the `icalendar` library. Pure; imports no database,
reflex or telegram."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

import icalendar

from services.scheduling.intervals import KIROV, require_aware

PRODID = "-//Discard League//Club calendar//RU"
TZID = "Europe/Kirov"
# The zone's transitions written into each feed: none since 2020, so every league date needs one STANDARD block.
ZONE_FROM = date(2021, 1, 1)
ZONE_UNTIL = date(2038, 1, 1)


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
    url: str = ""  # the match page's absolute address (URL property)
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


def _vevent(event: IcsEvent) -> icalendar.Event:
    vevent = icalendar.Event()
    vevent.add("uid", event.uid)
    vevent.add("dtstamp", event.dtstamp.astimezone(UTC))
    # Kirov wall-clock times with TZID, as a club member reads them; the VTIMEZONE is added for the whole calendar.
    vevent.add("dtstart", event.start.astimezone(KIROV))
    vevent.add("dtend", event.end.astimezone(KIROV))
    vevent.add("sequence", event.sequence)
    vevent.add("summary", event.summary)
    if event.location:
        vevent.add("location", event.location)
    if event.description:
        vevent.add("description", event.description)
    if event.url:
        vevent.add("url", event.url)
    if event.categories:
        vevent.add("categories", list(event.categories))
    vevent.add("status", "CANCELLED" if event.cancelled else "CONFIRMED")
    vevent.add("transp", "OPAQUE")
    return vevent


def calendar_ics(events: Sequence[IcsEvent], *, name: str, refresh_minutes: int = 60) -> str:
    """A whole VCALENDAR (CRLF endings, lines folded at 75 octets); events in the given order (sorted by the caller)."""
    calendar = icalendar.Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", name)
    calendar.add("x-wr-timezone", TZID)
    # Hints for subscribing clients on how often to poll the feed.
    calendar.add("refresh-interval", timedelta(minutes=refresh_minutes), parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", icalendar.vDuration(timedelta(minutes=refresh_minutes)))
    for event in events:
        calendar.add_component(_vevent(event))
    # Europe/Kirov's VTIMEZONE from the time zone database, from the first event on (UTC+3 since 2020, so one block),
    # and also in an empty feed.
    first = min((e.start.astimezone(KIROV).date() for e in events), default=ZONE_FROM)
    zone = icalendar.Timezone.from_tzid(TZID, first_date=min(first, ZONE_FROM), last_date=ZONE_UNTIL)
    calendar.subcomponents.insert(0, zone)  # clients read the zone before the events that use it
    text: bytes = calendar.to_ical()
    return text.decode("utf-8")
