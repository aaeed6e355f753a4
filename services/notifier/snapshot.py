"""Read-only queries building what a match card shows; imports no telegram and no reflex.

A card is always rendered from the current database state, so a bot that was off brings every
card up to date instead of replaying stale events.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Session, col, select

from services.core.models import Match, MatchStatus, Player, Round, Seat, User, saved
from services.core.wording import place
from services.scheduling.board import Board, MatchBoard, load_board
from services.scheduling.rules import NO_COMMON_TIME, NOBODY_ANSWERED, OPTIONS, PROPOSED, WAITING, binding_fallback

# What the Sunday reminder is about: a match whose four still have to agree (Регламент §3).
REMINDED = frozenset(
    {NOBODY_ANSWERED, WAITING, NO_COMMON_TIME, OPTIONS, PROPOSED, *(f"confirmed_{k}" for k in range(4))}
)


@dataclass(frozen=True)
class SeatView:
    player_id: int
    user_id: int
    name: str
    telegram_user_id: int | None
    telegram_username: str | None
    private_messages: bool
    answered: bool


@dataclass(frozen=True)
class OptionView:
    """A common option: where all four and a room are free. Never one player's own interval."""

    start: datetime
    end: datetime
    hanchans_fit: int
    if_needed: int = 0  # how many of the four it needs «могу, если нужно» from (never whose)
    shared: bool = False  # a hinted time one more of the four is asked to add too (never who)


@dataclass(frozen=True)
class ProposalView:
    id: int
    start: datetime
    end: datetime
    hanchans: int
    room: str
    confirmed: frozenset[int]  # player ids
    declined: frozenset[int]


@dataclass(frozen=True)
class BookingView:
    start: datetime
    end: datetime
    room: str  # the room and its table as the calendar says it («Клуб, стол 2»)
    hanchans: int | None
    id: int = 0  # the booking: what «Не смогу» releases (services/notifier/remote.py)
    binding: bool = False  # Регламент §6.1: the fallback, which «Не смогу» does not release (the organizer decides)


@dataclass(frozen=True)
class MatchSnapshot:
    match_id: int
    stage_kind: str
    round_code: str
    table: str
    status: str
    planned_hanchans: int
    window_start: datetime | None
    window_end: datetime | None
    seats: tuple[SeatView, ...]
    options: tuple[OptionView, ...]
    proposal: ProposalView | None
    bookings: tuple[BookingView, ...]
    state: str
    fallback_start: datetime | None = None  # Регламент §6.1: told from the window's opening (`fallback_ahead`)
    # The one who blocks: player id → the times the other three are free. Only for that player's private message;
    # never in the card (Регламент §6.4).
    unblock: dict[int, tuple[OptionView, ...]] = field(default_factory=dict)
    # Each seated player's next step (`Board.step`, a `rules.STEP_*` key): whom the reminder asks, and for what.
    steps: dict[int, str] = field(default_factory=dict)

    def players(self, ids: frozenset[int] | set[int]) -> list[SeatView]:
        return [s for s in self.seats if s.player_id in ids]


def snapshots(session: Session, match_ids: list[int], *, now: datetime | None) -> list[MatchSnapshot]:
    """The cards of these matches, rendered from the scheduling read model (`load_board`), as the pages are: a
    fixed number of statements however many matches. Drafts have no card (Регламент §2)."""
    if not match_ids:
        return []
    board = load_board(session, now=now, match_ids=match_ids)
    user_ids = {s.user_id for item in board.matches for s in item.info.seats}
    users = (
        {saved(u.id): u for u in session.exec(select(User).where(col(User.id).in_(user_ids))).all()} if user_ids else {}
    )
    by_id = {item.match.id: item for item in board.matches}
    return [_snapshot(board, by_id[i], users) for i in match_ids if i in by_id]


def _snapshot(board: Board, item: MatchBoard, users: dict[int, User]) -> MatchSnapshot:
    info, match = item.info, item.match
    window = info.window
    seats = []
    for s in info.seats:
        user = users[s.user_id]
        linked = user.telegram_user_id is not None
        seats.append(
            SeatView(
                player_id=s.player_id,
                user_id=s.user_id,
                name=s.name,
                telegram_user_id=user.telegram_user_id,
                telegram_username=user.telegram_username if linked else None,
                private_messages=bool(user.telegram_private_messages and linked),
                answered=s.player_id in item.answered,
            )
        )
    # Personal intervals are read only to intersect them; nothing but the intersection leaves here.
    options = [OptionView(o.start, o.end, o.hanchans_fit, o.if_needed) for o in board.options(item)]
    return MatchSnapshot(
        match_id=saved(match.id),
        stage_kind=info.stage_kind,
        round_code=info.round.code,
        table=match.table,
        status=match.status,
        planned_hanchans=match.planned_hanchans,
        window_start=window.start if window else None,
        window_end=window.end if window else None,
        seats=tuple(seats),
        options=tuple(options),
        proposal=_proposal(board, item),
        bookings=tuple(
            BookingView(
                b.start_at,
                b.end_at,
                place(board.rooms.get(b.room_id, ""), board.tables.get(b.room_id, 1), b.table_no),
                b.hanchans,
                saved(b.id),
                binding_fallback(item.info.window, b.start_at, b.proposal_id),
            )
            for b in item.bookings
        ),
        state=board.state(item),
        fallback_start=fallback.start if (fallback := item.fallback_ahead(board.now)) is not None else None,
        unblock={
            player: tuple(OptionView(o.start, o.end, o.hanchans_fit, shared=o.shared) for o in hint)
            for player, hint in board.unblock_hints(item).items()
        },
        steps={s.player_id: board.step(item, s.player_id) for s in info.seats},
    )


def _proposal(board: Board, item: MatchBoard) -> ProposalView | None:
    """The read model's shown proposal (`Board.shown_proposal`), counting seated players only."""
    p = board.shown_proposal(item)
    if p is None:
        return None
    return ProposalView(
        id=saved(p.id),
        start=p.start_at,
        end=p.end_at,
        hanchans=p.hanchans,
        room=place(board.rooms.get(p.room_id, ""), board.tables.get(p.room_id, 1), p.table_no),
        confirmed=frozenset(item.confirmed.get(saved(p.id), ())),
        declined=frozenset(item.declined.get(saved(p.id), ())),
    )


def match_snapshot(session: Session, match_id: int, *, now: datetime | None) -> MatchSnapshot | None:
    """Everything a card shows about one match, or None when the match does not exist (or is a draft)."""
    found = snapshots(session, [match_id], now=now)
    return found[0] if found else None


def window_matches(session: Session, now: datetime, *, open_at: datetime | None = None) -> list[MatchSnapshot]:
    """Matches still being scheduled whose game window contains `now` (Регламент §3: Sunday reminder) and, when
    given, is still open at `open_at`. The window is found in SQL first, so a Sunday with no such match reads no
    board at all, and one with some reads only theirs (issue 43 item 7: not the whole season's every minute)."""
    # The match's window, not its round's: a moved match is reminded of in its new window.
    window_round = sa.func.coalesce(Match.window_round_id, Match.round_id)
    ids = session.exec(
        select(Match.id)
        .join(Round, col(Round.id) == window_round)
        .where(
            Match.status == MatchStatus.SCHEDULING,
            col(Round.window_start) <= now,
            col(Round.window_end) > max(now, open_at or now),
        )
        .order_by(col(Match.round_id), col(Match.table))
    ).all()
    return [snap for snap in snapshots(session, [saved(i) for i in ids], now=now) if snap.state in REMINDED]


def user_match_snapshots(
    session: Session, telegram_user_id: int, *, now: datetime | None
) -> tuple[User | None, list[MatchSnapshot]]:
    """The linked user's own matches (drafts stay hidden: Регламент §2)."""
    user = session.exec(select(User).where(User.telegram_user_id == telegram_user_id)).first()
    if user is None:
        return None, []
    ids = session.exec(
        select(Match.id)
        .join(Seat, col(Seat.match_id) == Match.id)
        .join(Player, col(Player.id) == Seat.player_id)
        .join(Round, col(Round.id) == Match.round_id)
        .where(Player.user_id == user.id, Match.status != MatchStatus.DRAFT)
        .order_by(col(Round.id), col(Match.table))
    ).all()
    return user, snapshots(session, [saved(i) for i in ids], now=now)
