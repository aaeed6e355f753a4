"""Регламент §3: which Sunday's reminder is due for a given `now`, and when it is late. Pure, no database."""

from __future__ import annotations

from datetime import UTC, datetime, time

import pytest

from services.core.config import Settings
from services.notifier import cards
from services.notifier.sunday import due_reminder_at, is_late, reminder_day, reminder_time_of
from services.scheduling.intervals import KIROV

AT_19 = time(19, 0, tzinfo=KIROV)


def kirov(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 12, day, hour, minute, tzinfo=KIROV)


@pytest.mark.parametrize(
    ("now", "due"),
    [
        (kirov(13, 19), kirov(13, 19)),  # Sunday 19:00 exactly: this Sunday's
        (kirov(13, 23, 59), kirov(13, 19)),
        (kirov(14, 10), kirov(13, 19)),  # Monday: still Sunday's (late)
        (kirov(19, 23), kirov(13, 19)),  # Saturday
        (kirov(20, 18, 59), kirov(13, 19)),  # next Sunday before 19:00: last week's
        (kirov(20, 19, 0), kirov(20, 19)),
    ],
)
def test_the_due_moment_is_the_latest_sunday_at_the_reminder_time(now: datetime, due: datetime) -> None:
    assert due_reminder_at(now.astimezone(UTC), AT_19) == due
    assert due_reminder_at(now.astimezone(UTC), AT_19).tzinfo is UTC


def test_kirov_time_is_utc_plus_three_so_sunday_1900_is_1600_utc() -> None:
    # Sunday 13.12 16:30 UTC is 19:30 in Kirov; Sunday 15:59 UTC is still before the reminder.
    assert due_reminder_at(datetime(2026, 12, 13, 16, 30, tzinfo=UTC), AT_19) == datetime(2026, 12, 13, 16, tzinfo=UTC)
    assert due_reminder_at(datetime(2026, 12, 13, 15, 59, tzinfo=UTC), AT_19) == datetime(2026, 12, 6, 16, tzinfo=UTC)
    assert reminder_day(datetime(2026, 12, 13, 16, tzinfo=UTC)).isoformat() == "2026-12-13"


def test_late_means_sundays_day_is_over_in_kirov() -> None:
    at = kirov(13, 19)
    assert not is_late(at, kirov(13, 23, 59))
    assert is_late(at, kirov(14, 0, 0))
    assert is_late(at, datetime(2026, 12, 13, 21, 0, tzinfo=UTC))  # 00:00 Monday in Kirov


def test_the_reminder_time_comes_from_the_settings_in_the_clubs_zone() -> None:
    assert reminder_time_of(Settings(reminder_time="20:30")) == time(20, 30, tzinfo=KIROV)
    assert reminder_time_of(Settings()) == AT_19


def test_a_late_reminder_says_which_sunday_it_is_from() -> None:
    assert cards.reminder_heading() == "<b>Напоминание: согласование времени не завершено</b>"
    late = cards.reminder_heading(kirov(13, 19).astimezone(UTC))
    assert late == "<b>Напоминание с воскресенья 13.12, с опозданием: согласование времени не завершено</b>"
