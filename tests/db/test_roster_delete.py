"""A roster line entered by mistake is deleted by the organizer, until the player has a seat (issue 25 item 4)."""

from __future__ import annotations

import json
from datetime import date

import pytest
from sqlmodel import Session, select

from services.core.models import AuditRecord, Player, Registration, User
from services.league.roster import RosterLineError, add_player, deletable_player_ids, delete_player, list_roster
from tests import factories as f


def test_a_line_without_matches_is_deleted_and_audited(session: Session) -> None:
    league = f.league(session, players=4)
    player, _ = add_player(
        session, league.season, "Ошибочный Игрок", actor_user_id=league.organizer.id, password="x" * 12
    )
    session.add(Registration(player_id=player.id, contact="@ошибка"))
    session.commit()
    player_id, user_id = player.id, player.user_id
    assert delete_player(session, player, actor_user_id=league.organizer.id) == "Ошибочный Игрок"
    session.commit()
    assert session.get(Player, player_id) is None
    assert session.get(Registration, player_id) is None
    assert session.get(User, user_id) is not None  # the account stays: the person may play another season
    assert "Ошибочный Игрок" not in [r.name for r in list_roster(session, league.season.id)]
    audit = session.exec(select(AuditRecord).where(AuditRecord.action == "player.delete")).one()
    assert audit.entity_id == player_id and audit.actor_user_id == league.organizer.id
    assert json.loads(audit.before)["name"] == "Ошибочный Игрок"


def test_a_seated_player_is_refused_and_nothing_changes(session: Session) -> None:
    league = f.league(session, players=4)  # the four have a match
    seated = league.players[0]
    with pytest.raises(RosterLineError, match="есть место в матче"):
        delete_player(session, seated, actor_user_id=league.organizer.id)
    session.rollback()
    assert session.get(Player, seated.id) is not None
    assert session.exec(select(AuditRecord).where(AuditRecord.action == "player.delete")).first() is None


def test_a_main_player_after_closing_and_a_paid_fee_are_refused(session: Session) -> None:
    league = f.league(session, players=4)
    late, _ = add_player(session, league.season, "Поздний Игрок", actor_user_id=league.organizer.id, password="y" * 12)
    paid, _ = add_player(session, league.season, "Платящий Игрок", actor_user_id=league.organizer.id, password="z" * 12)
    session.add(Registration(player_id=paid.id, fee_paid_on=date(2026, 9, 1)))
    session.commit()
    with pytest.raises(RosterLineError, match="взнос"):
        delete_player(session, paid, actor_user_id=league.organizer.id)
    session.rollback()
    league.season.registration_closed = True
    session.add(league.season)
    session.commit()
    with pytest.raises(RosterLineError, match="Регистрация закрыта"):
        delete_player(session, session.get(Player, late.id), actor_user_id=league.organizer.id)


def test_the_roster_offers_deletion_only_where_it_would_not_be_refused(session: Session) -> None:
    league = f.league(session, players=5)  # the first four are seated, the fifth is not
    fifth = league.players[4]
    assert deletable_player_ids(session, league.season) == {fifth.id}
    league.season.registration_closed = True  # the fifth is main: fixed by closing (Регламент §1)
    session.add(league.season)
    assert deletable_player_ids(session, league.season) == set()
