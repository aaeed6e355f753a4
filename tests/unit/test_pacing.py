"""The pace of calls to one chat within Telegram's limits (issue 29, finding 12)."""

from __future__ import annotations

from services.notifier.pacing import Pace, wait_seconds


def test_a_call_waits_until_the_oldest_of_the_window_leaves_it() -> None:
    assert wait_seconds([], 0.0, ((2, 10.0),)) == 0.0
    assert wait_seconds([0.0], 1.0, ((2, 10.0),)) == 0.0
    assert wait_seconds([0.0, 1.0], 2.0, ((2, 10.0),)) == 8.0
    assert wait_seconds([0.0, 1.0], 10.0, ((2, 10.0),)) == 0.0
    assert wait_seconds([0.0, 5.0], 5.5, ((20, 60.0), (1, 1.0))) == 0.5  # the tighter limit decides


def test_groups_get_twenty_a_minute_and_private_chats_one_a_second() -> None:
    pace, group, person = Pace(), -100, 7
    t = 0.0
    for _ in range(20):
        t += pace.wait(group, t)
        pace.record(group, t)
    assert pace.wait(group, t) > 1.0 and t < 60
    assert pace.wait(person, t) == 0.0  # another chat is not held back by the group
    pace.record(person, t)
    assert pace.wait(person, t + 0.5) == 0.5
