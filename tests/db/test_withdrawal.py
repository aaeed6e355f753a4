"""Withdrawal with a reason, and replays ordered after a very early one (Регламент §6.1), on a real database."""

from __future__ import annotations

import json

import pytest
from sqlmodel import Session, col, select

from services.core.models import (
    AuditRecord,
    Hanchan,
    Match,
    MatchStatus,
    Player,
    Role,
    RosterStatus,
    Season,
    Seat,
    User,
)
from services.league.closing import ClosingMethod, close_registration
from services.league.draw_season import approve_draw, make_draft
from services.league.withdrawal import WithdrawalError, affected_played_matches, mark_for_replay, withdraw_player
from services.scheduling.tour_windows import set_windows
from tests.db.test_draw_season import WINDOWS, _league
from tests.factories import PLAYED


def _approved(session: Session) -> tuple[Season, User]:
    organizer = User(login_name="организатор", display_name="Организатор", password_hash="-", role=Role.ORGANIZER)
    session.add(organizer)
    season = _league(session, close=False)
    close_registration(session, season, ClosingMethod.AS_IS, actor_user_id=organizer.id)
    make_draft(session, season, seed=9, actor_user_id=organizer.id)
    set_windows(session, season, WINDOWS, actor_user_id=organizer.id)
    approve_draw(session, season, actor_user_id=organizer.id)
    session.commit()
    return season, organizer


def _matches_of(session: Session, player: Player) -> list[Match]:
    return list(
        session.exec(
            select(Match)
            .join(Seat, col(Seat.match_id) == Match.id)
            .where(Seat.player_id == player.id)
            .order_by(col(Match.id))
        ).all()
    )


def test_withdrawal_needs_a_reason_and_is_recorded(session: Session) -> None:
    season, organizer = _approved(session)
    player = session.exec(select(Player)).first()
    with pytest.raises(WithdrawalError, match="укажите причину"):
        withdraw_player(session, player, reason="  ", actor_user_id=organizer.id, now=PLAYED)
    session.rollback()
    assert session.get(Player, player.id).status == RosterStatus.MAIN
    assert withdraw_player(session, player, reason="переезд", actor_user_id=organizer.id, now=PLAYED) == []
    session.commit()
    assert session.get(Player, player.id).status == RosterStatus.WITHDRAWN
    audit = session.exec(select(AuditRecord).where(AuditRecord.action == "player.status")).one()
    assert audit.reason == "переезд" and json.loads(audit.after) == {"status": "withdrawn"}
    # played results stay in history: the matches and seats are untouched
    assert len(_matches_of(session, player)) == 4
    with pytest.raises(WithdrawalError, match="уже снят"):
        withdraw_player(session, player, reason="ещё раз", actor_user_id=organizer.id, now=PLAYED)


def test_early_withdrawal_orders_the_played_matches_replayed(session: Session) -> None:
    season, organizer = _approved(session)
    player = session.exec(select(Player)).first()
    first, second, *_ = _matches_of(session, player)
    first.status = MatchStatus.COMPLETE
    session.add(Hanchan(match_id=second.id, number=1))  # a match played in part counts too
    session.commit()
    assert [m.match_id for m in affected_played_matches(session, player)] == [first.id, second.id]
    replays = withdraw_player(
        session,
        player,
        reason="травма в первую неделю",
        actor_user_id=organizer.id,
        replay_match_ids=[first.id],
        participants_agreed=True,
        now=PLAYED,
    )
    session.commit()
    assert session.get(Match, first.id).status == MatchStatus.REPLAY
    assert [r.replay_of_match_id for r in replays] == [first.id]
    assert session.get(Match, second.id).status == MatchStatus.SCHEDULING
    replay_audit = session.exec(
        select(AuditRecord).where(AuditRecord.action == "match.replay", AuditRecord.entity_id == first.id)
    ).one()
    assert replay_audit.reason == "травма в первую неделю" and replay_audit.actor_user_id == organizer.id
    # decided later for the other match, once everyone agreed
    mark_for_replay(
        session,
        player,
        [second.id],
        reason="все согласны",
        participants_agreed=True,
        actor_user_id=organizer.id,
        now=PLAYED,
    )
    assert session.get(Match, second.id).status == MatchStatus.REPLAY
    assert affected_played_matches(session, player) == []


@pytest.mark.parametrize(
    ("agreed", "which", "message"),
    [
        (False, "played", "только с согласия всех участников"),
        (True, "unplayed", "не сыгран с участием этого игрока"),
        (True, "other", "не сыгран с участием этого игрока"),
    ],
)
def test_refused_replay_leaves_the_player_and_matches_as_they_were(
    session: Session, agreed: bool, which: str, message: str
) -> None:
    season, organizer = _approved(session)
    player = session.exec(select(Player)).first()
    own = _matches_of(session, player)
    own[0].status = MatchStatus.COMPLETE
    other = session.exec(select(Match).where(col(Match.id).not_in([m.id for m in own]))).first()
    other.status = MatchStatus.COMPLETE
    session.commit()
    target = {"played": own[0], "unplayed": own[1], "other": other}[which]
    with pytest.raises(WithdrawalError, match=message):
        withdraw_player(
            session,
            player,
            reason="болезнь",
            actor_user_id=organizer.id,
            replay_match_ids=[target.id],
            participants_agreed=agreed,
            now=PLAYED,
        )
    session.rollback()
    assert session.get(Player, player.id).status == RosterStatus.MAIN
    assert session.get(Match, target.id).status == target.status
    assert session.exec(select(Match).where(col(Match.replay_of_match_id).is_not(None))).first() is None


def test_replay_needs_a_withdrawn_player_and_an_organizer(session: Session) -> None:
    season, organizer = _approved(session)
    player = session.exec(select(Player)).first()
    match = _matches_of(session, player)[0]
    match.status = MatchStatus.COMPLETE
    session.commit()
    with pytest.raises(WithdrawalError, match="только после снятия"):
        mark_for_replay(
            session, player, [match.id], reason="x", participants_agreed=True, actor_user_id=organizer.id, now=PLAYED
        )
    withdraw_player(session, player, reason="переезд", actor_user_id=organizer.id, now=PLAYED)
    with pytest.raises(WithdrawalError, match="только организатор"):
        mark_for_replay(
            session, player, [match.id], reason="x", participants_agreed=True, actor_user_id=None, now=PLAYED
        )
    with pytest.raises(WithdrawalError, match="основание"):
        mark_for_replay(
            session, player, [match.id], reason=" ", participants_agreed=True, actor_user_id=organizer.id, now=PLAYED
        )
