"""Which unagreed matches the §6.1 fallback meeting can seat: pure over the read model; imports no database,
reflex or telegram.

Регламент §6.1: every match not agreed by then is played on the window's last Sunday at 18:00. The club's room has
a number of tables, so the fallback seats the window's matches while tables last (bookings already there count,
open proposals' holds do not: the organizer decides), in the order of their fallback time and match id; the rest
are told plainly that they do not fit, so nobody promises them the date.
"""

from __future__ import annotations

from services.scheduling.board import Board, MatchBoard
from services.scheduling.decide import busy_players, free_tables
from services.scheduling.intervals import Interval, merge
from services.scheduling.repo import SeatInfo
from services.scheduling.rules import Place, format_kirov

NO_TABLE = "столов не хватит: назначьте другое время или помещение, или перенесите матч на следующий тур"


def fallback_place(board: Board, item: MatchBoard) -> Place | None:
    """Регламент §6.1: the table the match's fallback meeting would take as the tables are shared among the
    board's matches still to agree (`plan_fallback`), or None when it would not fit (or it has no fallback)."""
    if board.fallback_seats is None:
        board.fallback_seats = plan_fallback(board, [m for m in board.matches if not m.complete and m.remaining > 0])
    return board.fallback_seats.get(item.match.id or 0)


def plan_fallback(board: Board, items: list[MatchBoard]) -> dict[int, Place | None]:
    """Match id → the (room, table) its fallback meeting would take, or None when no table is left for it (or one
    of its players already sits in another meeting then). Matches without a fallback meeting are left out."""
    planned: dict[Place, list[Interval]] = {}
    seated: dict[int, list[Interval]] = {}  # player id → planned fallback meetings
    out: dict[int, Place | None] = {}
    ordered = [(m.fallback(), m) for m in items]
    for meeting, item in sorted(
        ((f, m) for f, m in ordered if f is not None), key=lambda p: (p[0].start, p[1].match.id)
    ):
        match_id = item.match.id
        assert match_id is not None  # a loaded match is stored
        mine = {s.name: [*spans, *seated.get(s.player_id, [])] for s, spans in _meetings(board, item)}
        if busy_players(meeting, mine):
            out[match_id] = None
            continue
        busy = board.busy_by_room(meeting, exclude_match=item.match.id, with_holds=False)
        busy = {p: merge([*spans, *planned.get(p, [])]) for p, spans in busy.items()}
        places = free_tables(meeting, busy)
        place = places[0] if places else None
        out[match_id] = place
        if place is not None:
            planned.setdefault(place, []).append(meeting)
            for s in item.info.seats:
                seated.setdefault(s.player_id, []).append(meeting)
    return out


def _meetings(board: Board, item: MatchBoard) -> list[tuple[SeatInfo, list[Interval]]]:
    by_name = board.meetings_of(item)
    return [(s, by_name.get(s.name, [])) for s in item.info.seats]


def fallback_note(board: Board, item: MatchBoard) -> str:
    """The desk's and /schedule's words for the match's fallback: the date while a table is left for it, else that
    it will not fit and what to do instead (never a promise the club cannot keep). Empty without a fallback."""
    meeting = item.fallback()
    if meeting is None:
        return ""
    when = format_kirov(meeting.start)
    return when if fallback_place(board, item) is not None else f"{when} — {NO_TABLE}"
