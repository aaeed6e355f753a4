"""When the Sunday reminder is due and whether it comes late (Регламент §3); pure: `now` in, the moment out.

No database, no clock: every process that may write the reminder (the site, the bot, `discard reminders`) asks
these with its own `now`, so all of them agree on which Sunday is due and on its once-a-week key.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta, tzinfo

from services.core.config import Settings
from services.scheduling.intervals import KIROV

SUNDAY = 6  # date.weekday()


def reminder_time_of(settings: Settings) -> time:
    """`TELEGRAM_REMINDER_TIME` («19:00») as an aware time of the club's zone (Kirov)."""
    hour, _, minute = settings.reminder_time.partition(":")
    return time(int(hour), int(minute or 0), tzinfo=settings.tz)


def due_reminder_at(now: datetime, reminder_time: time) -> datetime:
    """Регламент §3: «В воскресенье вечером бот напоминает…» — the latest Sunday at `reminder_time` (in its zone,
    Kirov when naive) not after `now`, in UTC. From that moment until the next Sunday's, this one is due."""
    zone = reminder_time.tzinfo or KIROV
    local = now.astimezone(zone)
    sunday = local.date() - timedelta(days=(local.weekday() - SUNDAY) % 7)
    wall = reminder_time.replace(tzinfo=None)
    moment = datetime.combine(sunday, wall, tzinfo=zone)
    if moment > local:  # Sunday before the reminder time: last week's is the due one
        moment = datetime.combine(sunday - timedelta(days=7), wall, tzinfo=zone)
    return moment.astimezone(UTC)


def reminder_day(at: datetime, zone: tzinfo = KIROV) -> date:
    """The Sunday (its date in the club's zone) a reminder moment belongs to: one reminder per such day."""
    return at.astimezone(zone).date()


def is_late(at: datetime, now: datetime, zone: tzinfo = KIROV) -> bool:
    """Late: Sunday's day is over where the club is, so the message must say which Sunday it was meant for."""
    return now.astimezone(zone).date() > at.astimezone(zone).date()
