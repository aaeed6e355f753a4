"""What a player sees of their own matches: rounds, tables, opponents, windows; imports no reflex."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, select

from services.core.models import Match, MatchStatus, Player, Round, Seat, Stage, User


@dataclass(frozen=True)
class PlayerMatch:
    match_id: int
    stage: str
    round_code: str
    table: str
    opponents: tuple[str, ...]
    window_start: datetime | None
    window_end: datetime | None
    status: str


def seated_names(session: Session, match_id: int, *, except_user_id: int | None = None) -> list[str]:
    """The display names seated at a match in seat order, leaving out `except_user_id` (the one asking)."""
    query = (
        select(User.display_name)
        .join(Player, col(Player.user_id) == User.id)
        .join(Seat, col(Seat.player_id) == Player.id)
        .where(Seat.match_id == match_id)
        .order_by(col(Seat.seed))
    )
    if except_user_id is not None:
        query = query.where(User.id != except_user_id)
    return list(session.exec(query).all())


def player_matches(session: Session, user_id: int) -> list[PlayerMatch]:
    """The user's matches in every season, once the draw is approved (drafts stay hidden: Регламент §2)."""
    rows = session.exec(
        select(Match, Round, Stage)
        .join(Seat, col(Seat.match_id) == Match.id)
        .join(Player, col(Player.id) == Seat.player_id)
        .join(Round, col(Round.id) == Match.round_id)
        .join(Stage, col(Stage.id) == Round.stage_id)
        .where(Player.user_id == user_id, Match.status != MatchStatus.DRAFT)
        .order_by(col(Stage.id), col(Round.code), col(Match.table))
    ).all()
    result = []
    for match, round_, stage in rows:
        names = seated_names(session, match.id, except_user_id=user_id)
        result.append(
            PlayerMatch(
                match_id=match.id,
                stage=stage.kind,
                round_code=round_.code,
                table=match.table,
                opponents=tuple(names),
                window_start=round_.window_start,
                window_end=round_.window_end,
                status=match.status,
            )
        )
    return result
