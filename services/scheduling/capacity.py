"""Whether the club's tables can hold a tour (issue 27, item 2): the table-hours of each window minus the activities
already booked, against the tour's matches × hanchans, and how many the §6.1 fallback Sunday can seat; imports no
reflex or telegram.

Регламент §2: every meeting of a tour falls inside its window; §6.1: what is not agreed is played on the window's
last Sunday at 18:00. The organizer is told when setting the windows, when approving the draw and on the desk,
while there is still time to add a room, a table or move an activity.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING

from sqlmodel import Session, col, select

from services.core.models import Booking, Match, MatchStatus, Room, Round, Season, saved
from services.core.ruleset import of_season
from services.core.wording import counted, plural
from services.scheduling.intervals import Interval
from services.scheduling.rules import fallback_meeting, format_kirov
from services.scheduling.tour_windows import tour_rounds

if TYPE_CHECKING:
    from services.scheduling.board import Board

_HOUR = timedelta(hours=1)


@dataclass(frozen=True)
class Capacity:
    """One tour's window against its matches (durations exact; rounded only in `text`)."""

    tour: str
    window: Interval
    table_time: timedelta  # every table, the whole window, minus the activities booked in it
    activities: timedelta
    need: timedelta  # matches × hanchans × the planning length of a hanchan
    matches: int
    fallback_tables: int  # tables free for a whole fallback meeting (activities there count)
    fallback: Interval | None

    @property
    def margin(self) -> timedelta:
        return self.table_time - self.need

    @property
    def fits(self) -> bool:
        return self.margin >= timedelta(0)

    @property
    def fallback_short(self) -> int:
        """The matches the fallback Sunday could not seat if none of them agreed earlier."""
        return max(self.matches - self.fallback_tables, 0) if self.fallback else self.matches

    @property
    def text(self) -> str:
        def hours(d: timedelta) -> str:  # display only
            return f"{d / _HOUR:.0f} ч"

        head = (
            f"Тур {self.tour}: часов за столами в окне {hours(self.table_time)}"
            + (f" (за вычетом занятий {hours(self.activities)})" if self.activities else "")
            + f", матчам нужно {hours(self.need)} ({counted(self.matches, 'матч', 'матча', 'матчей')})"
        )
        if not self.fits:
            head += f" — не хватает {hours(-self.margin)}: добавьте стол или помещение, или освободите время."
        else:
            head += f", запас {hours(self.margin)}."
        if self.fallback is None:
            return head + " В окне нет воскресенья 18:00: запасной даты нет (Регламент §6.1)."
        when = format_kirov(self.fallback.start)
        free = counted(self.fallback_tables, "свободный стол", "свободных стола", "свободных столов")
        seats = f" Запасная дата {when}: {free} на {counted(self.matches, 'матч', 'матча', 'матчей')}."
        if self.fallback_short:
            short = counted(self.fallback_short, "матч", "матча", "матчей")
            fit = plural(self.fallback_short, "поместится", "поместятся", "поместятся")
            seats += (
                f" — если не договорятся раньше, {short} туда не {fit} "
                "(другое помещение, другое время или следующий тур)."
            )
        return head + seats


def window_capacity(
    tour: str,
    window: Interval,
    *,
    tables: int,
    activities: Sequence[tuple[tuple[int, int], Interval]],
    matches: int,
    hanchans: int,
    hanchan_minutes: int,
) -> Capacity:
    """Pure: `activities` are the (room, table) and time of each activity booking (a whole-room one is a row per
    table), clipped to the window here."""
    busy = timedelta(0)
    for _, iv in activities:
        start, end = max(iv.start, window.start), min(iv.end, window.end)
        busy += max(end - start, timedelta(0))
    try:
        fallback = fallback_meeting(window, hanchans, hanchan_minutes)
    except ValueError:
        fallback = None
    taken = {place for place, iv in activities if fallback is not None and iv.overlaps(fallback)}
    return Capacity(
        tour=tour,
        window=window,
        table_time=window.duration * tables - busy,
        activities=busy,
        need=timedelta(minutes=hanchan_minutes) * hanchans * matches,
        matches=matches,
        fallback_tables=max(tables - len(taken), 0) if fallback else 0,
        fallback=fallback,
    )


def season_capacity(session: Session, season: Season, matches_per_tour: int | None = None) -> list[Capacity]:
    """Each tour with a window: its matches (or `matches_per_tour`, for a draft not approved yet) against the
    club's tables and the activities booked in the window."""
    tables = sum(n for n in session.exec(select(Room.tables)).all())
    rows = session.exec(
        select(Booking.room_id, Booking.table_no, Booking.start_at, Booking.end_at).where(
            Booking.active, Booking.kind == "activity"
        )
    ).all()
    activities = [((room, table), Interval(start, end)) for room, table, start, end in rows]
    out = []
    for round_ in tour_rounds(session, season):
        if round_.window_start is None or round_.window_end is None:
            continue
        window = Interval(round_.window_start, round_.window_end)
        count = matches_per_tour
        if count is None:
            count = len(_tour_matches(session, round_))
        inside = [(p, iv) for p, iv in activities if iv.overlaps(window)]
        out.append(
            window_capacity(
                round_.code,
                window,
                tables=tables,
                activities=inside,
                matches=count,
                hanchans=of_season(season).hanchans_per_match,  # Регламент §2: the season's match
                hanchan_minutes=of_season(season).hanchan_minutes,
            )  # fmt: skip
        )
    return out


def board_capacity(board: Board, season: Season) -> list[Capacity]:
    """`season_capacity` from the read model alone (the desk reads no more for it): the tours with regular
    matches loaded, their activities being the bookings without a match."""
    tables = sum(max(board.tables.get(room, 1), 1) for room in board.rooms)
    activities = [
        ((room, m.table_no), m.interval)
        for room, spans in board.room_bookings.items()
        for m in spans
        if m.match_id is None
    ]
    tours: dict[str, tuple[Interval, int]] = {}
    for item in board.matches:
        window = item.info.window
        if item.info.stage_kind != "regular" or window is None or item.match.status == MatchStatus.REPLAY:
            continue
        code = item.info.window_round.code
        tours[code] = (window, tours.get(code, (window, 0))[1] + 1)
    return [
        window_capacity(
            code,
            window,
            tables=tables,
            activities=[(p, iv) for p, iv in activities if iv.overlaps(window)],
            matches=count,
            hanchans=of_season(season).hanchans_per_match,
            hanchan_minutes=of_season(season).hanchan_minutes,
        )  # fmt: skip
        for code, (window, count) in sorted(tours.items())
    ]


def _tour_matches(session: Session, round_: Round) -> list[int]:
    rows = session.exec(
        select(Match.id).where(
            Match.round_id == round_.id, col(Match.status).not_in([MatchStatus.DRAFT, MatchStatus.REPLAY])
        )
    ).all()
    return [saved(match_id) for match_id in rows]


def capacity_summary(capacities: Sequence[Capacity]) -> str:
    """One paragraph for the windows' and the draw's notices: every tour, the short ones first."""
    ordered = sorted(capacities, key=lambda c: (c.fits, -c.fallback_short, c.tour))
    return " ".join(c.text for c in ordered)
