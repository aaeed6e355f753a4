"""What the scheduling pages show, as plain rows; intervals only for their owner or the organizer; no reflex."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col, select

from services.core import outbox
from services.core.db import rows
from services.core.models import Booking, MeetingProposal, OutboxEvent, ProposalConfirmation, Role, Room, User, saved
from services.core.wording import agreed, round_title
from services.scheduling.board import Board, MatchBoard, load_board, match_board
from services.scheduling.calendar_feed import place_text
from services.scheduling.fallback_plan import fallback_note, fallback_place
from services.scheduling.holds import hold_text
from services.scheduling.intervals import (
    SLOTS_PER_DAY,
    Interval,
    enabled_cells,
    grid_from_availability,
    overlapping_cells,
    past_cells,
    to_kirov,
    window_days,
)
from services.scheduling.repo import (
    LIVE_PROPOSAL,
    MatchInfo,
    SchedulingError,
    active_bookings,
)
from services.scheduling.rules import (
    NO_FREE_TABLE,
    STATE_LABELS,
    binding_fallback,
    fallback_text,
    format_duration,
    format_kirov,
    format_span,
    hanchans_word,
    if_needed_text,
    plan_text,
    unblock_text,
)

PROPOSAL_LABELS = {
    "open": "ждёт подтверждений",
    "booked": "забронировано",
    "declined": "отклонено",
    "failed": "не удалось забронировать",
    "withdrawn": "заменено",
}
BEGUN_LABEL = "время прошло, не забронировано"
_WEEKDAYS = ("пн", "вт", "ср", "чт", "пт", "сб", "вс")

Row = dict[str, Any]  # a row a page renders: its words, flags and lists


def grid_marks(board: Board, item: MatchBoard, user_id: int | None, days: Sequence[date]) -> list[list[str]]:
    """Per cell: "m" my meeting of another match, "r" every table of every room already taken by others, "" otherwise.
    Only the viewer's own meetings and the club's room occupancy: nothing of another player's availability."""
    match_id = item.match.id
    taken = [
        overlapping_cells((m.interval for m in spans if m.match_id != match_id), days)
        for spans in board.place_bookings().values()
    ]
    seat = item.info.seat_of(user_id) if user_id is not None else None
    mine = overlapping_cells(
        (m.interval for m in board.player_meetings.get(seat.player_id, []) if m.match_id != match_id) if seat else (),
        days,
    )
    # a cell is "r" when every table is taken then: one pass over the tables' rows, not a search per cell
    full = [[all(cells) for cells in zip(*rows, strict=True)] for rows in zip(*taken, strict=True)] if taken else None
    return [
        [
            "m" if own else "r" if full is not None and whole else ""
            for own, whole in zip(mine_row, full_row, strict=True)
        ]
        for mine_row, full_row in zip(mine, full or [[False] * SLOTS_PER_DAY for _ in days], strict=True)
    ]


def kirov_value(instant: datetime) -> str:
    """The value of a datetime-local field (Kirov wall time)."""
    return f"{to_kirov(instant):%Y-%m-%dT%H:%M}"


@dataclass
class MatchPage:
    title: str
    window: str
    is_organizer: bool
    my_player_id: int | None
    remaining: int  # the match's hanchans no active booking holds yet
    planned: int  # the match's planned hanchans (Регламент §2: the season's ruleset, set on the match)
    days: list[str] = field(default_factory=list)
    # per day: "1" free, "2" «могу, если нужно», "0" busy, "x" outside the window
    cells: list[list[str]] = field(default_factory=list)
    marks: list[list[str]] = field(default_factory=list)  # per day: "m" my other booking, "r" every room taken
    # how many of the grid's first cells (day by day, half hour by half hour) have begun: greyed, never painted
    past: int = 0
    seats: list[tuple[str, bool]] = field(default_factory=list)
    options: list[dict[str, str]] = field(default_factory=list)
    proposals: list[Row] = field(default_factory=list)
    bookings: list[Row] = field(default_factory=list)
    everyone: list[tuple[str, str]] = field(default_factory=list)  # organizer only: name -> intervals text
    window_over: bool = False  # the players' grid is read-only from then on (Регламент §6.1: the organizer decides)
    booking_news: str = ""  # the room taken away or moved since the last booking, and why (`booking_news`)
    fallback: str = ""  # Регламент §6.1: the date the match is played on if the four do not agree (`fallback_text`)
    unblock: str = ""  # the viewer's own hint: if they could come then, the match would have a time (never another's)
    plan: str = ""  # Регламент §2: no option holds the remaining hanchans; the meetings that would (`plan_text`)
    tables_short: bool = False  # the four share time but every table then is taken: the true reason (`NO_FREE_TABLE`)
    settled: str = ""  # what of the match is booked or played while the rest is agreed (`MatchBoard.settled_part`)
    span: Interval | None = None  # the game window itself: the page parses its painted grid against it


# What `meetings` reads, built once: every proposal of the match (its history too) and every answer to them,
# as plain rows (issue 26, the save's cost: a page's reload runs them after every save of its match).
_MATCH_PROPOSALS = (
    sa.select(
        col(MeetingProposal.id), col(MeetingProposal.start_at), col(MeetingProposal.end_at),
        col(MeetingProposal.hanchans), col(MeetingProposal.status), col(MeetingProposal.replaces_booking_id),
        col(MeetingProposal.failure_reason), col(MeetingProposal.hold_until),
    )
    .where(col(MeetingProposal.match_id) == sa.bindparam("match_id"))
    .order_by(col(MeetingProposal.id))
)  # fmt: skip
_MATCH_ANSWERS = (
    select(ProposalConfirmation.proposal_id, ProposalConfirmation.player_id, ProposalConfirmation.confirmed)
    .join(MeetingProposal, col(MeetingProposal.id) == ProposalConfirmation.proposal_id)
    .where(MeetingProposal.match_id == sa.bindparam("match_id"))
)
_ROOMS = select(Room.id, Room.name, Room.tables)


def meetings(
    session: Session,
    info: MatchInfo,
    my_player_id: int | None,
    booked: list[Booking] | None = None,
    *,
    now: datetime | None = None,
) -> tuple[list[Row], list[Row]]:
    """The match's proposals (newest first, with who confirmed) and its active bookings, as the page shows them:
    all that a proposal, a confirmation or a booking changes. `booked`: the active bookings, when already read. A
    proposal whose time has begun is no longer answered (Регламент §3: no booking in the past)."""
    booked = active_bookings(session, saved(info.match.id)) if booked is None else booked
    names = {s.player_id: s.name for s in info.seats}
    answers_by_proposal: dict[int, dict[int, bool]] = {}
    for proposal_id, player_id, confirmed in rows(session, _MATCH_ANSWERS, {"match_id": info.match.id}):
        answers_by_proposal.setdefault(proposal_id, {})[player_id] = confirmed
    proposal_rows = []
    for p in reversed(rows(session, _MATCH_PROPOSALS, {"match_id": info.match.id})):
        answers = answers_by_proposal.get(p.id, {})
        yes = [names[pid] for pid, ok in answers.items() if ok and pid in names]
        no = [names[pid] for pid, ok in answers.items() if not ok and pid in names]
        mine = answers.get(my_player_id) if my_player_id is not None else None
        begun = now is not None and p.status == LIVE_PROPOSAL and p.start_at < now
        proposal_rows.append(
            {
                "id": str(p.id),
                "text": f"{format_span(p.start_at, p.end_at)}, {hanchans_word(p.hanchans)}",
                "status": (BEGUN_LABEL if begun else PROPOSAL_LABELS.get(p.status, p.status))
                + (", перенос брони" if p.replaces_booking_id else ""),
                "confirmed": f"Подтвердили {len(yes)} из {len(info.seats)}" + (f": {', '.join(yes)}" if yes else ""),
                "declined": f"Отклонили: {', '.join(no)}" if no else "",
                "reason": p.failure_reason or "",
                # Регламент §3: how long the proposal keeps its table for the four (services/scheduling/holds.py)
                "hold": hold_text(p.hold_until, now)
                if now is not None and p.status == LIVE_PROPOSAL and not begun
                else "",
                "can_answer": "1"
                if my_player_id is not None and p.status == LIVE_PROPOSAL and mine is not True and not begun
                else "",
            }
        )
    rooms = {r: (name, n) for r, name, n in rows(session, _ROOMS)} if booked else {}
    booking_rows = [
        {
            "id": str(b.id),
            "text": f"{format_span(b.start_at, b.end_at)}, {hanchans_word(b.hanchans or 0)}",
            "room": place_text(b, rooms),
            "binding": "1" if binding_fallback(info.window, b.start_at, b.proposal_id) else "",  # Регламент §6.1
        }
        for b in booked
    ]
    return proposal_rows, booking_rows


BOOKING_NEWS = (outbox.BOOKED, outbox.RELEASED, outbox.MOVED)
# The newest of them: built once, as every page's statements here (issue 26, the save's cost)
_BOOKING_NEWS = (
    select(OutboxEvent.kind, OutboxEvent.payload)
    .where(OutboxEvent.match_id == sa.bindparam("match_id"), col(OutboxEvent.kind).in_(BOOKING_NEWS))
    .order_by(col(OutboxEvent.id).desc())
    .limit(1)
)


def booking_news(session: Session, match_id: int) -> str:
    """The match's room released or moved since its last booking, and why — the reason the organizer gave or the
    player's own step — so the four read on the page what the bot told them; "" after a new booking."""
    found = rows(session, _BOOKING_NEWS, {"match_id": match_id})
    if not found or found[0].kind == outbox.BOOKED:
        return ""
    kind, payload = found[0]
    data = json.loads(payload)
    reason = f": {data['reason']}" if data.get("reason") else ""
    if kind == outbox.MOVED:
        who = "Организатор перенёс бронь" if data.get("by_organizer") else "Бронь перенесена"
        return f"{who} на {data.get('when', '')}{reason}."
    who = "Организатор снял бронь" if data.get("by_organizer") else "Снята бронь"
    return f"{who} на {data.get('when', '')}{reason}."


def match_page(
    session: Session,
    *,
    match_id: int,
    user: User,
    now: datetime,
    grid: bool = True,
    read: tuple[Board, MatchBoard] | None = None,
) -> MatchPage:
    """The page for a seated player (their own grid) or the organizer (everyone's times); others are refused.
    Rendered from the read model (`board`), as the card, the home page and the desk are. `grid=False` leaves out
    the viewer's grid and its marks (`days`, `cells`, `marks` stay empty): a proposal, a confirmation or a
    released booking of this match changes neither, and they are most of the page's work. `read`: the match's
    board as this transaction already holds it (after a save: `availability.save_and_read`), not read again."""
    board, item = read or match_board(session, match_id, now=now)
    info = item.info
    seat = info.seat_of(saved(user.id))
    organizer = user.role == Role.ORGANIZER
    if seat is None and not organizer:
        raise SchedulingError("Согласование матча доступно только его игрокам и организатору.")
    window = info.window
    free = item.free
    remaining = item.remaining
    window_text = f"{format_span(window.start, window.end)} (время Кирова)" if window else "игровое окно не назначено"
    over = board.window_over(item)
    if over:
        window_text += " — окно закончилось, доступность больше не меняется"
    player_id = seat.player_id if seat else None
    page = MatchPage(info.title, window_text, organizer, player_id, remaining, info.match.planned_hanchans)
    page.window_over, page.span = over, window
    if window is not None and grid:
        days = window_days(window)
        page.days = [f"{_WEEKDAYS[d.weekday()]} {d:%d.%m}" for d in days]
        own = free.get(seat.player_id, []) if seat else []
        enabled = enabled_cells(days, window)
        free_cells = grid_from_availability(own, days, window)
        maybe = grid_from_availability(item.if_needed.get(seat.player_id, []) if seat else [], days, window)
        page.cells = [
            [
                "x" if not enabled[d][s] else ("2" if maybe[d][s] else "1" if free_cells[d][s] else "0")
                for s in range(SLOTS_PER_DAY)
            ]
            for d in range(len(days))
        ]
        page.marks = grid_marks(board, item, user.id if seat else None, days)
        # Issue 28: a half hour that has begun can no longer be offered; the cells run in time order.
        page.past = past_cells(days, now)
    page.booking_news = booking_news(session, match_id)
    page.seats = [(s.name, s.player_id in item.answered) for s in info.seats]
    page.tables_short = board.state(item) == NO_FREE_TABLE
    page.settled = item.settled_part()
    if (ahead := item.fallback_ahead(now)) is not None:
        page.fallback = fallback_text(ahead.start)
    if seat is not None and (hint := board.unblock_hints(item).get(seat.player_id)):
        # Регламент §6.4: the viewer's own hint only
        page.unblock = unblock_text(
            [o.interval for o in hint], whole=board.short_of_time(item), shared=any(o.shared for o in hint)
        )
    if plan := board.split_plan(item):
        page.plan = plan_text(plan)
    for o in board.options(item):
        page.options.append(
            {
                "text": format_span(o.start, o.end),
                "level": if_needed_text(o.if_needed) if o.if_needed else "",
                "length": format_duration(o.interval.duration),
                "fit": f"помещается {hanchans_word(o.hanchans_fit)}",
                "start": kirov_value(o.start),
                "end": kirov_value(min(o.end, o.start + timedelta(minutes=info.hanchan_minutes * max(remaining, 1)))),
                "hanchans": str(max(min(o.hanchans_fit, remaining), 1)),
            }
        )
    page.proposals, page.bookings = meetings(session, info, seat.player_id if seat else None, item.bookings, now=now)
    if organizer:  # Регламент §6.4: the organizer alone sees everyone's times
        for s in info.seats:
            spans, loose = sorted(free.get(s.player_id, [])), set(item.if_needed.get(s.player_id, []))
            text = "; ".join(format_span(iv.start, iv.end) + (" (если нужно)" if iv in loose else "") for iv in spans)
            page.everyone.append(
                (
                    s.name,
                    text
                    or (
                        "нет свободного времени"
                        if s.player_id in item.answered
                        else f"не {agreed(s.name, 'ответил', 'ответила')}"
                    ),
                )
            )
    return page


def window_text(window: Interval | None) -> str:
    """A game window in Kirov time, as every span is written (`format_span`)."""
    return "—" if window is None else format_span(window.start, window.end)


def overview(session: Session, *, now: datetime) -> list[Row]:
    """Every match that is being scheduled, with its state (Регламент §3) and the §6.1 fallback date for its
    remaining hanchans; rendered from the read model (`load_board`), in a fixed number of statements."""
    board = load_board(session, now=now)
    rows = []
    for item in board.matches:
        info, m = item.info, item.match
        window = info.window
        over = board.window_over(item)
        fallback = item.fallback()
        played = item.played
        state = item.with_booked_part(STATE_LABELS[board.state(item)])
        if over and item.remaining > 0:
            state = "Окно закончилось: " + state[0].lower() + state[1:]
        rows.append(
            {
                "id": str(m.id),
                "title": info.title,
                "tour": round_title(info.stage_kind, info.window_round.code, whole_playoff=True),  # the filter's
                "players": ", ".join(s.name for s in info.seats),
                "window": window_text(window),
                "state": state,
                # for the filter: played, booked, over (window ended, not booked), open
                "group": "played" if played else "booked" if item.fully_booked else "over" if over else "open",
                "booking": "; ".join(f"{format_kirov(b.start_at)}" for b in item.bookings) or "—",
                "fallback": fallback_note(board, item) or "—",
                "can_fallback": "1" if fallback and fallback.start > now and fallback_place(board, item) else "",
                "can_assign": "1" if item.remaining > 0 else "",
                "can_move": "1" if item.movable and not item.complete else "",
                "can_next_window": "" if item.played else "1",
            }
        )
    return rows


def match_bookings(session: Session, match_id: int) -> list[dict[str, str]]:
    """A match's active bookings as choices for the organizer's «Перенести бронь» dialog."""
    rooms = {r.id: r.name for r in session.exec(select(Room)).all()}
    return [
        {
            "id": str(b.id),
            "text": f"{format_span(b.start_at, b.end_at)}, {rooms.get(b.room_id, '')}",
            "start": kirov_value(b.start_at),
            "end": kirov_value(b.end_at),
        }
        for b in active_bookings(session, match_id)
    ]


def room_rows(session: Session) -> list[dict[str, str]]:
    return [
        {"id": str(r.id), "name": r.name, "tables": str(r.tables), "label": f"{r.name}: столов {r.tables}"}
        for r in session.exec(select(Room).order_by(col(Room.id))).all()
    ]
