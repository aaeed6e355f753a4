"""A player's matches and who sits at a match; imports no reflex."""

from __future__ import annotations

from sqlmodel import Session, col, select

from services.core.models import Match, MatchStatus, Player, Round, Seat, User, saved


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


def my_match_ids(session: Session, user_id: int) -> list[int]:
    """The user's matches in every season once the draw is approved (drafts stay hidden: Регламент §2), in the
    order of stages, tours and tables."""
    return [
        saved(match_id)
        for match_id in session.exec(
            select(Match.id)
            .join(Seat, col(Seat.match_id) == Match.id)
            .join(Player, col(Player.id) == Seat.player_id)
            .join(Round, col(Round.id) == Match.round_id)
            .where(Player.user_id == user_id, Match.status != MatchStatus.DRAFT)
            .order_by(col(Round.stage_id), col(Round.code), col(Match.table))
        ).all()
    ]
