"""Half-open UTC intervals and the Kirov half-hour grid. Pure; imports no database, reflex or telegram."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from operator import attrgetter

from services.core.ruleset import CLUB_ZONE

# The club's zone: UTC+3 all year, no daylight saving (Регламент §6.1: «по времени Кирова / Москвы»).
KIROV = CLUB_ZONE  # Регламент §6.1: время Кирова (defined once, in services/core/ruleset.py)
GRID_MINUTES = 30
SLOTS_PER_DAY = 24 * 60 // GRID_MINUTES  # 48 half-hours in a Kirov day
_EPS = timedelta(microseconds=1)


def require_aware(value: datetime, what: str = "instant") -> datetime:
    """Return `value` in UTC; a naive datetime is a programming error, not user input."""
    if value.tzinfo is UTC:  # fast path: almost every instant here is already UTC
        return value
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"{what} must be timezone-aware: {value!r}")
    return value.astimezone(UTC)


@dataclass(frozen=True, order=True, slots=True)
class Interval:
    """[start, end): `end` itself is not inside, so touching intervals never overlap."""

    start: datetime
    end: datetime

    def __post_init__(self) -> None:
        start = require_aware(self.start, "Interval.start")
        end = require_aware(self.end, "Interval.end")
        if not start < end:
            raise ValueError(f"Interval needs start < end: {start.isoformat()} .. {end.isoformat()}")
        object.__setattr__(self, "start", start)
        object.__setattr__(self, "end", end)

    @classmethod
    def _trusted(cls, start: datetime, end: datetime) -> Interval:
        # Results built from already validated UTC bounds with start < end skip the checks (hot path).
        made = object.__new__(cls)
        object.__setattr__(made, "start", start)
        object.__setattr__(made, "end", end)
        return made

    @property
    def duration(self) -> timedelta:
        return self.end - self.start

    def overlaps(self, other: Interval) -> bool:
        return self.start < other.end and other.start < self.end

    def contains(self, other: Interval) -> bool:
        return self.start <= other.start and other.end <= self.end

    def contains_instant(self, instant: datetime) -> bool:
        return self.start <= instant < self.end


_by_start = attrgetter("start", "end")


def merge(intervals: Iterable[Interval]) -> list[Interval]:
    """Sorted, disjoint, non-touching union: overlapping and touching intervals become one."""
    ordered = sorted(intervals, key=_by_start)  # attrgetter key: much faster than dataclass __lt__
    out: list[Interval] = []
    for iv in ordered:
        if out and iv.start <= out[-1].end:
            if iv.end > out[-1].end:
                out[-1] = Interval._trusted(out[-1].start, iv.end)
        else:
            out.append(iv)
    return out


def union(*groups: Iterable[Interval]) -> list[Interval]:
    """Every instant of any group, merged (a player's painted time: free and «если нужно» together)."""
    return merge(iv for group in groups for iv in group)


def _intersect_merged(a: Sequence[Interval], b: Sequence[Interval]) -> list[Interval]:
    """Two-pointer sweep over two merged lists, O(len(a) + len(b))."""
    out: list[Interval] = []
    i = j = 0
    while i < len(a) and j < len(b):
        x, y = a[i], b[j]
        start = x.start if x.start > y.start else y.start
        end = x.end if x.end < y.end else y.end
        if start < end:
            out.append(Interval._trusted(start, end))
        if x.end < y.end:
            i += 1
        else:
            j += 1
    return out


def intersect_all(groups: Sequence[Iterable[Interval]]) -> list[Interval]:
    """Times inside every group. No groups at all gives [] (nobody is free), not "all time"."""
    if not groups:
        return []
    acc = merge(groups[0])
    for group in groups[1:]:
        if not acc:
            break
        acc = _intersect_merged(acc, merge(group))
    return acc


def subtract(intervals: Iterable[Interval], busy: Iterable[Interval]) -> list[Interval]:
    """Parts of `intervals` not covered by `busy`; merged result."""
    free, taken = merge(intervals), merge(busy)
    out: list[Interval] = []
    j = 0
    for iv in free:
        cursor = iv.start
        while j < len(taken) and taken[j].end <= cursor:
            j += 1
        k = j
        while k < len(taken) and taken[k].start < iv.end:
            if taken[k].start > cursor:
                out.append(Interval._trusted(cursor, taken[k].start))
            if taken[k].end > cursor:
                cursor = taken[k].end
            k += 1
        if cursor < iv.end:
            out.append(Interval._trusted(cursor, iv.end))
    return out


def clip(intervals: Iterable[Interval], window: Interval) -> list[Interval]:
    return _intersect_merged(merge(intervals), [window])


def window_slice(merged: Sequence[Interval], window: Interval) -> Sequence[Interval]:
    """The run of an already merged list that overlaps `window`, found by bisection (for big calendars)."""
    lo = bisect_right(merged, window.start, key=lambda iv: iv.end)
    hi = bisect_left(merged, window.end, key=lambda iv: iv.start)
    return merged[lo:hi]


def _covers_merged(merged: Sequence[Interval], interval: Interval) -> bool:
    # Merged lists have no touching neighbours, so one member must hold the whole interval.
    pos = bisect_right(merged, interval.start, key=lambda iv: iv.start) - 1
    return pos >= 0 and merged[pos].contains(interval)


def covers(intervals: Iterable[Interval], interval: Interval) -> bool:
    """True when `interval` lies wholly inside the union of `intervals`."""
    return _covers_merged(merge(intervals), interval)


# --- Kirov wall-clock grid -------------------------------------------------------------


def to_kirov(instant: datetime) -> datetime:
    return require_aware(instant).astimezone(KIROV)


def kirov_date(instant: datetime) -> date:
    return to_kirov(instant).date()


def at_kirov(day: date, hour: int = 0, minute: int = 0) -> datetime:
    """The UTC instant of a Kirov wall-clock time (hour 24 means the next midnight)."""
    return (datetime.combine(day, time(0), tzinfo=KIROV) + timedelta(hours=hour, minutes=minute)).astimezone(UTC)


def _grid_step(minutes: int) -> timedelta:
    if minutes <= 0 or (24 * 60) % minutes:
        raise ValueError(f"grid step must divide a day: {minutes}")
    return timedelta(minutes=minutes)


def floor_to_grid(instant: datetime, minutes: int = GRID_MINUTES) -> datetime:
    """Latest grid point (Kirov midnight + k × step) at or before `instant`."""
    step, local = _grid_step(minutes), to_kirov(instant)
    midnight = datetime.combine(local.date(), time(0), tzinfo=KIROV)
    return (midnight + (local - midnight) // step * step).astimezone(UTC)


def ceil_to_grid(instant: datetime, minutes: int = GRID_MINUTES) -> datetime:
    floored = floor_to_grid(instant, minutes)
    return floored if floored == instant else floored + _grid_step(minutes)


def on_grid(instant: datetime, minutes: int = GRID_MINUTES) -> bool:
    return floor_to_grid(instant, minutes) == instant


def snap_inward(intervals: Iterable[Interval], minutes: int = GRID_MINUTES) -> list[Interval]:
    """Shrink each interval to grid points inside it; intervals with no whole step inside vanish."""
    out: list[Interval] = []
    for iv in merge(intervals):
        start, end = ceil_to_grid(iv.start, minutes), floor_to_grid(iv.end, minutes)
        if start < end:
            out.append(Interval(start, end))
    return out


def window_days(window: Interval) -> list[date]:
    """Kirov dates the window touches; its end is excluded, so a window ending at midnight stops the day before."""
    first, last = kirov_date(window.start), kirov_date(window.end - _EPS)
    return [first + timedelta(days=n) for n in range((last - first).days + 1)]


@lru_cache(maxsize=SLOTS_PER_DAY * 366)
def cell_interval(day: date, slot: int) -> Interval:
    """Cell `slot` of `day`: [day 00:00 + 30 min × slot, +30 min) Kirov time. Cached: every page shows a window's
    cells three times over (enabled, painted, marked), and the answer never changes (Interval is frozen)."""
    if not 0 <= slot < SLOTS_PER_DAY:
        raise ValueError(f"slot out of range: {slot}")
    start = at_kirov(day, minute=GRID_MINUTES * slot)
    return Interval(start, start + timedelta(minutes=GRID_MINUTES))


def enabled_cells(days: Sequence[date], window: Interval) -> list[list[bool]]:
    """Cells a player may paint: those overlapping the game window (the rest are shown disabled). A day wholly
    inside the window is enabled whole, without a look at each of its cells."""
    return [
        [True] * SLOTS_PER_DAY
        if window.start <= cell_interval(d, 0).start and cell_interval(d, SLOTS_PER_DAY - 1).end <= window.end
        else [cell_interval(d, s).overlaps(window) for s in range(SLOTS_PER_DAY)]
        for d in days
    ]


def past_cells(days: Sequence[date], now: datetime) -> int:
    """How many of the cells of `days` (day by day, in time order) have begun at `now`."""
    count = 0
    for d in days:
        if cell_interval(d, SLOTS_PER_DAY - 1).start < now:
            count += SLOTS_PER_DAY
        elif cell_interval(d, 0).start < now:
            count += sum(1 for s in range(SLOTS_PER_DAY) if cell_interval(d, s).start < now)
    return count


def availability_from_grid(days: Sequence[date], cells: Sequence[Sequence[bool]], window: Interval) -> list[Interval]:
    """Painted cells → merged UTC intervals clipped to the window (a cell crossing the window edge is cut)."""
    if len(cells) != len(days) or any(len(row) != SLOTS_PER_DAY for row in cells):
        raise ValueError(f"grid must be {len(days)} rows × {SLOTS_PER_DAY} cells")
    painted: list[Interval] = []
    for day, row in zip(days, cells, strict=True):
        slot = 0
        while slot < SLOTS_PER_DAY:
            if not row[slot]:
                slot += 1
                continue
            first = slot
            while slot < SLOTS_PER_DAY and row[slot]:
                slot += 1
            painted.append(Interval(cell_interval(day, first).start, cell_interval(day, slot - 1).end))
    return clip(painted, window)


def grid_from_availability(intervals: Iterable[Interval], days: Sequence[date], window: Interval) -> list[list[bool]]:
    """A cell is painted when its part inside the window is wholly free; cells outside the window are False.
    One sweep over the merged free time (the cells run in time order): a page shows it twice per reload."""
    free = clip(intervals, window)
    if not free:  # nothing painted (most players' «если нужно»): no cell to look at
        return [[False] * SLOTS_PER_DAY for _ in days]
    grid: list[list[bool]] = []
    first, last = window.start, window.end
    i, n, previous_end = 0, len(free), first
    for day in days:
        row: list[bool] = []
        for slot in range(SLOTS_PER_DAY):
            cell = cell_interval(day, slot)
            start = cell.start if cell.start > first else first
            end = cell.end if cell.end < last else last
            if not start < end:
                row.append(False)
                continue
            if end < previous_end:  # days out of order: start the sweep again
                i = 0
            previous_end = end
            # Merged spans do not touch: only the first one ending at or after the cell's end can hold it.
            while i < n and free[i].end < end:
                i += 1
            row.append(i < n and free[i].start <= start)
        grid.append(row)
    return grid


def overlapping_cells(intervals: Iterable[Interval], days: Sequence[date]) -> list[list[bool]]:
    """Per cell of `days`: whether any of `intervals` overlaps it (one sweep over their union)."""
    spans = merge(intervals)
    if not spans:
        return [[False] * SLOTS_PER_DAY for _ in days]
    out: list[list[bool]] = []
    i, n, previous_start = 0, len(spans), None
    for day in days:
        row: list[bool] = []
        for slot in range(SLOTS_PER_DAY):
            cell = cell_interval(day, slot)
            if previous_start is not None and cell.start < previous_start:  # days out of order
                i = 0
            previous_start = cell.start
            while i < n and spans[i].end <= cell.start:
                i += 1
            row.append(i < n and spans[i].start < cell.end)
        out.append(row)
    return out
