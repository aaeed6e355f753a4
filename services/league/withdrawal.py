"""Withdrawal of a participant and replays after a very early one (Регламент §6.1, §6.3); imports no reflex."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, select

from services.core.errors import LeagueError
from services.core.models import (
    Hanchan,
    Match,
    MatchStatus,
    Player,
    Role,
    RosterStatus,
    Round,
    Seat,
    Stage,
    User,
    saved,
)
from services.core.wording import match_title
from services.league.accounts import AccountError
from services.league.matches import seated_names
from services.league.roster import set_status
from services.results.entry import ResultsError
from services.results.hanchans import replay_match

# A match counts as played, fully or in part, once it is being played, complete, or has a hanchan entered.
PLAYED = (MatchStatus.PLAYING, MatchStatus.COMPLETE)


class WithdrawalError(LeagueError):
    """A refused withdrawal or replay; the message is Russian and shown as is."""


@dataclass(frozen=True)
class AffectedMatch:
    match_id: int
    title: str  # «Тур 1, стол 3»
    players: tuple[str, ...]
    status: str


def affected_played_matches(session: Session, player: Player) -> list[AffectedMatch]:
    """The player's matches already played, fully or in part, that no replay has replaced yet."""
    with_hanchans = select(Hanchan.match_id).where(Hanchan.match_id == Match.id).exists()
    rows = session.exec(
        select(Match, Round, Stage)
        .join(Seat, col(Seat.match_id) == Match.id)
        .join(Round, col(Round.id) == Match.round_id)
        .join(Stage, col(Stage.id) == Round.stage_id)
        .where(Seat.player_id == player.id, col(Match.status) != MatchStatus.REPLAY)
        .where(col(Match.status).in_(PLAYED) | with_hanchans)
        .order_by(col(Stage.id), col(Round.code), col(Match.id))
    ).all()
    result = []
    for match, round_, stage in rows:
        names = seated_names(session, saved(match.id))
        title = match_title(stage.kind, round_.code, match.table)
        result.append(AffectedMatch(saved(match.id), title, tuple(names), match.status))
    return result


def mark_for_replay(
    session: Session,
    player: Player,
    match_ids: Iterable[int],
    *,
    reason: str,
    participants_agreed: bool,
    actor_user_id: int | None,
    now: datetime,
) -> list[Match]:
    """Orders played matches of a withdrawn player replayed; the replays' results replace theirs.

    The replay itself (a new match, same tour, table and seats) is `services.results.hanchans.replay_match`; who takes
    the withdrawn player's seat in it is the organizer's decision (Регламент §6.1), made as a substitution.
    """
    match_ids = list(dict.fromkeys(match_ids))
    if not match_ids:
        return []
    if player.status != RosterStatus.WITHDRAWN:
        raise WithdrawalError("Переигровка назначается только после снятия участника.")
    # Регламент §6.1: «если все участники этих матчей согласны»; переигровка — не автоматическое право
    if not participants_agreed:
        raise WithdrawalError("Переигровка возможна только с согласия всех участников затронутых матчей.")
    if not reason.strip():
        raise WithdrawalError("Укажите основание переигровки.")
    actor = session.get(User, actor_user_id) if actor_user_id is not None else None
    if actor is None or actor.role != Role.ORGANIZER:
        raise WithdrawalError("Переигровку назначает только организатор.")
    allowed = {m.match_id: m for m in affected_played_matches(session, player)}
    name = session.get_one(User, player.user_id).display_name
    replays = []
    for match_id in match_ids:
        if match_id not in allowed:
            raise WithdrawalError(f"Матч №{match_id} не сыгран с участием этого игрока: переигрывать нечего.")
        try:
            replay = replay_match(
                session,
                actor,
                match_id,
                reason=reason,
                decision=f"переигровка после раннего снятия: {name}; все участники матча согласны",
                now=now,
            )
        except ResultsError as error:
            raise WithdrawalError(str(error)) from error
        replays.append(replay)
    session.flush()
    return replays


def withdraw_player(
    session: Session,
    player: Player,
    *,
    reason: str,
    actor_user_id: int | None,
    now: datetime,
    replay_match_ids: Iterable[int] = (),
    participants_agreed: bool = False,
) -> list[Match]:
    """Withdraws a participant with a reason; optionally orders played matches replayed, all or nothing.

    Регламент §6.1: the withdrawn leave the standings and the race for the playoff; played results stay in history.
    """
    if player.status == RosterStatus.WITHDRAWN:
        raise WithdrawalError("Участник уже снят.")
    try:
        set_status(session, player, RosterStatus.WITHDRAWN, reason=reason, actor_user_id=actor_user_id, now=now)
    except AccountError as error:
        raise WithdrawalError(str(error)) from error
    return mark_for_replay(
        session,
        player,
        replay_match_ids,
        reason=reason,
        participants_agreed=participants_agreed,
        actor_user_id=actor_user_id,
        now=now,
    )
