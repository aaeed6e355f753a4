"""Pure parts of the tables (issue 27): the lowest free table, the hold's end, a window's capacity."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from services.scheduling import decide
from services.scheduling.capacity import window_capacity
from services.scheduling.holds import hold_until
from services.scheduling.intervals import Interval

T0 = datetime(2026, 11, 29, 15, 0, tzinfo=UTC)  # Sunday 18:00 Kirov


def span(start_h: float, end_h: float) -> Interval:
    return Interval(T0 + timedelta(hours=start_h), T0 + timedelta(hours=end_h))


def test_a_meeting_takes_the_lowest_free_table_the_preferred_one_first() -> None:
    meeting = span(0, 4.5)
    busy = {(1, 1): [span(0, 1)], (1, 2): [], (1, 3): [span(4, 5)], (2, 1): []}
    assert decide.free_tables(meeting, busy) == [(1, 2), (2, 1)]
    assert decide.free_tables(meeting, busy, preferred=(2, 1)) == [(2, 1), (1, 2)]
    assert decide.free_tables(span(5, 6), {(1, 1): [span(0, 5)]}) == [(1, 1)]  # touching is free


def test_the_hold_ends_after_its_hours_or_at_the_meetings_start() -> None:
    assert hold_until(T0 - timedelta(days=5), T0, 48) == T0 - timedelta(days=3)
    assert hold_until(T0 - timedelta(hours=30), T0, 48) == T0
    assert hold_until(T0 - timedelta(hours=30), T0, 0) == T0 - timedelta(hours=30)


def test_a_windows_capacity_has_its_margin_and_the_fallback_seats() -> None:
    window = Interval(T0 - timedelta(days=13, hours=18), T0 + timedelta(hours=6))  # two weeks to Monday 00:00
    activities = [((1, 1), span(-1, 5)), ((1, 2), span(-100, -99))]
    cap = window_capacity("1", window, tables=2, activities=activities, matches=5, hanchans=3, hanchan_minutes=90)
    assert cap.table_time == window.duration * 2 - timedelta(hours=7)
    assert cap.need == timedelta(hours=22, minutes=30)
    assert (cap.fits, cap.fallback_tables, cap.fallback_short) == (True, 1, 4)
    tight = window_capacity("2", window, tables=1, activities=[((1, 1), window)], matches=1, hanchans=3,
                            hanchan_minutes=90)  # fmt: skip
    assert not tight.fits and "не хватает 4 ч" in tight.text and tight.fallback_short == 1


def test_the_desk_folds_several_capacity_warnings_into_one_line_with_their_count() -> None:
    """Issue 45 item 10: right after the draw four tours' «Столов может не хватить» cards stood above everything on
    the desk; several of them are one group folded under its count, one alone or any other group stays open."""
    from services.views.desk import Desk, DeskItem

    def item(key: str, group: str) -> DeskItem:
        return DeskItem(key, group, key, "…")

    tours = [item(f"capacity-{n}", "capacity") for n in range(1, 5)]
    desk = Desk([*tours, item("call-1", "calls"), item("call-2", "calls")])
    assert [(g["key"], g["count"], g["folded"]) for g in desk.groups()] == [("calls", "2", ""), ("capacity", "4", "1")]
    assert Desk(tours[:1]).groups()[0]["folded"] == ""
