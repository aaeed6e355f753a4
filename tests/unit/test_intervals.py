"""Interval arithmetic and the Kirov half-hour grid: concrete cases and properties against a minute-set model."""

from datetime import date, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.scheduling.intervals import (
    KIROV,
    SLOTS_PER_DAY,
    UTC,
    Interval,
    at_kirov,
    availability_from_grid,
    ceil_to_grid,
    clip,
    covers,
    enabled_cells,
    floor_to_grid,
    grid_from_availability,
    intersect_all,
    merge,
    on_grid,
    snap_inward,
    subtract,
    window_days,
    window_slice,
)

MON = date(2026, 10, 19)  # Monday, the first day of the league


def k(day: int, hour: int = 0, minute: int = 0) -> datetime:
    """UTC instant of October `day`, 2026, hh:mm Kirov time."""
    return at_kirov(date(2026, 10, day), hour, minute)


def iv(day: int, h1: int, m1: int, h2: int, m2: int, day2: int | None = None) -> Interval:
    return Interval(k(day, h1, m1), k(day2 or day, h2, m2))


# --- Interval ----------------------------------------------------------------------------


def test_interval_is_normalised_to_utc_and_half_open():
    a = Interval(datetime(2026, 10, 19, 18, tzinfo=KIROV), datetime(2026, 10, 19, 20, tzinfo=KIROV))
    assert a.start == datetime(2026, 10, 19, 15, tzinfo=UTC) and a.start.tzinfo is UTC
    assert a.duration == timedelta(hours=2)
    assert a.contains_instant(k(19, 18)) and not a.contains_instant(k(19, 20))
    assert not a.overlaps(iv(19, 20, 0, 21, 0))  # touching is not overlapping
    assert a.overlaps(iv(19, 19, 59, 21, 0))


@pytest.mark.parametrize("start,end", [(k(19, 18), k(19, 18)), (k(19, 19), k(19, 18))])
def test_interval_rejects_empty_or_reversed(start, end):
    with pytest.raises(ValueError):
        Interval(start, end)


def test_interval_rejects_naive_datetimes():
    with pytest.raises(ValueError):
        Interval(datetime(2026, 10, 19, 18), datetime(2026, 10, 19, 20))


# --- merge / union / intersect / subtract ---------------------------------------------------------


def test_touching_intervals_merge():
    assert merge([iv(19, 18, 0, 18, 30), iv(19, 18, 30, 19, 0)]) == [iv(19, 18, 0, 19, 0)]


def test_merge_sorts_overlapping_and_keeps_gaps():
    got = merge([iv(19, 20, 0, 21, 0), iv(19, 10, 0, 12, 0), iv(19, 11, 0, 11, 30), iv(19, 11, 30, 13, 0)])
    assert got == [iv(19, 10, 0, 13, 0), iv(19, 20, 0, 21, 0)]


def test_merge_across_kirov_midnight():
    assert merge([iv(19, 22, 0, 0, 0, day2=20), iv(20, 0, 0, 2, 0)]) == [iv(19, 22, 0, 2, 0, day2=20)]


def test_intersect_half_hour_edges():
    a = [iv(19, 18, 0, 20, 30)]
    b = [iv(19, 20, 0, 22, 0), iv(19, 17, 0, 18, 30)]
    assert intersect_all([a, b]) == [iv(19, 18, 0, 18, 30), iv(19, 20, 0, 20, 30)]
    assert intersect_all([[iv(19, 18, 0, 18, 30)], [iv(19, 18, 30, 19, 0)]]) == []  # touching only


def test_intersect_all_of_nothing_is_nothing():
    assert intersect_all([]) == []
    assert intersect_all([[iv(19, 10, 0, 11, 0)], []]) == []


def test_subtract_busy_in_the_middle_and_edges():
    free = [iv(19, 12, 0, 22, 0)]
    busy = [iv(19, 11, 0, 13, 0), iv(19, 15, 0, 16, 30), iv(19, 21, 30, 23, 0)]
    assert subtract(free, busy) == [iv(19, 13, 0, 15, 0), iv(19, 16, 30, 21, 30)]
    assert subtract(free, [iv(19, 12, 0, 22, 0)]) == []
    assert subtract(free, []) == free


def test_clip_to_window():
    window = Interval(k(19), k(26))
    got = clip([iv(18, 20, 0, 2, 0, day2=19), iv(25, 22, 0, 3, 0, day2=26), iv(27, 10, 0, 11, 0)], window)
    assert got == [Interval(k(19), k(19, 2)), Interval(k(25, 22), k(26))]


def test_covers_across_a_seam():
    free = [iv(19, 18, 0, 19, 0), iv(19, 19, 0, 21, 0), iv(19, 22, 0, 23, 0)]
    assert covers(free, iv(19, 18, 30, 21, 0))  # across a touching seam
    assert not covers(free, iv(19, 20, 30, 22, 30))
    assert not covers([], iv(19, 18, 0, 19, 0))


def test_window_slice_uses_merged_calendar():
    cal = merge(iv(19 + d, h, 0, h + 1, 0) for d in range(7) for h in (10, 14, 18))
    got = window_slice(cal, Interval(k(20, 14, 30), k(21, 15, 0)))
    assert got == [iv(20, 14, 0, 15, 0), iv(20, 18, 0, 19, 0), iv(21, 10, 0, 11, 0), iv(21, 14, 0, 15, 0)]
    assert window_slice(cal, Interval(k(20, 15), k(20, 18))) == []  # touching neighbours excluded


# --- grid ---------------------------------------------------------------------------------


def test_grid_snapping_in_kirov_time():
    t = k(19, 19, 15)
    assert floor_to_grid(t) == k(19, 19, 0) and ceil_to_grid(t) == k(19, 19, 30)
    assert floor_to_grid(k(19, 19, 30)) == k(19, 19, 30) == ceil_to_grid(k(19, 19, 30))
    assert on_grid(k(19, 23, 30)) and not on_grid(k(19, 23, 30) + timedelta(seconds=1))
    assert floor_to_grid(k(19, 23, 59), 60) == k(19, 23)
    assert snap_inward([iv(19, 18, 10, 20, 50), iv(19, 21, 5, 21, 25)]) == [iv(19, 18, 30, 20, 30)]


def test_window_days_end_is_exclusive():
    assert window_days(Interval(k(19), k(26))) == [MON + timedelta(days=n) for n in range(7)]
    assert window_days(Interval(k(19, 12), k(20, 0, 30))) == [MON, MON + timedelta(days=1)]
    # 23:00 UTC on the 18th is already the 19th in Kirov.
    assert window_days(Interval(datetime(2026, 10, 18, 23, tzinfo=UTC), k(19, 5))) == [MON]


def test_enabled_cells_mark_the_window():
    window = Interval(k(19, 18), k(20, 6))
    days = window_days(window)
    cells = enabled_cells(days, window)
    assert sum(cells[0]) == 12 and cells[0][35] is False and cells[0][36] is True
    assert sum(cells[1]) == 12 and cells[1][11] is True and cells[1][12] is False


def test_grid_to_intervals_merges_runs_and_crosses_midnight():
    window = Interval(k(19), k(21))
    days = window_days(window)
    cells = [[False] * SLOTS_PER_DAY for _ in days]
    for slot in (36, 37, 38, 46, 47):  # 18:00–19:30 and 23:00–24:00
        cells[0][slot] = True
    cells[1][0] = cells[1][1] = True  # 00:00–01:00 next day
    got = availability_from_grid(days, cells, window)
    assert got == [iv(19, 18, 0, 19, 30), iv(19, 23, 0, 1, 0, day2=20)]
    assert grid_from_availability(got, days, window) == cells


def test_grid_clipped_to_window_and_cells_outside_stay_false():
    window = Interval(k(19, 18), k(20, 6))
    days = window_days(window)
    every = [[True] * SLOTS_PER_DAY for _ in days]
    assert availability_from_grid(days, every, window) == [window]
    assert grid_from_availability([window], days, window) == enabled_cells(days, window)


def test_grid_shape_is_checked():
    with pytest.raises(ValueError):
        availability_from_grid([MON], [[True] * 47], Interval(k(19), k(20)))


# --- properties against a set-of-minutes model ------------------------------------------

BASE = datetime(2026, 10, 19, tzinfo=UTC)
spans = st.tuples(st.integers(0, 600), st.integers(1, 120)).map(
    lambda p: Interval(BASE + timedelta(minutes=p[0]), BASE + timedelta(minutes=p[0] + p[1]))
)
groups = st.lists(spans, max_size=12)


def minutes(intervals) -> set[int]:
    out: set[int] = set()
    for x in intervals:
        a = int((x.start - BASE).total_seconds() // 60)
        out.update(range(a, a + int(x.duration.total_seconds() // 60)))
    return out


def assert_canonical(result: list[Interval]) -> None:
    for left, right in zip(result, result[1:], strict=False):
        assert left.end < right.start  # sorted, disjoint and not touching


@settings(max_examples=200, deadline=None)
@given(groups, groups)
def test_operations_match_minute_sets(a, b):
    for got, want in [
        (merge(a), minutes(a)),
        (intersect_all([a, b]), minutes(a) & minutes(b)),
        (subtract(a, b), minutes(a) - minutes(b)),
    ]:
        assert_canonical(got)
        assert minutes(got) == want
    assert merge(merge(a)) == merge(a)


@settings(max_examples=200, deadline=None)
@given(st.lists(groups, min_size=1, max_size=4), spans)
def test_intersect_all_clip_and_covers(gs, probe):
    want = set.intersection(*(minutes(g) for g in gs))
    assert minutes(intersect_all(gs)) == want
    assert minutes(clip(gs[0], probe)) == minutes(gs[0]) & minutes([probe])
    assert covers(gs[0], probe) == (minutes([probe]) <= minutes(gs[0]))


@settings(max_examples=50, deadline=None)
@given(st.lists(st.lists(st.booleans(), min_size=SLOTS_PER_DAY, max_size=SLOTS_PER_DAY), min_size=3, max_size=3))
def test_grid_round_trip(cells):
    window = Interval(k(19), k(22))
    days = window_days(window)
    assert grid_from_availability(availability_from_grid(days, cells, window), days, window) == cells
