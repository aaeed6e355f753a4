"""Users, logins, sessions and the roster on a real migrated database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import Session, select

from services.commands.demo_league.league import DEMO_PLAYERS, seed_demo
from services.core.models import AuditRecord, AuthSession, Player, Role, RosterStatus, Season, User
from services.league import accounts
from services.league.accounts import AccountError
from services.league.roster import add_player, list_roster, set_status

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def _season(session: Session) -> Season:
    season = Season(name="Тест")
    session.add(season)
    session.flush()
    return season


def test_created_user_logs_in_and_the_password_is_not_stored(session: Session) -> None:
    user, password = accounts.create_user(session, display_name="Анна  Васильева", role=Role.JUDGE)
    session.commit()
    assert user.login_name == "анна васильева"
    assert password not in user.password_hash
    result = accounts.login(session, "АННА васильева ", password, now=NOW, session_days=30)
    assert result.error is None and result.user.id == user.id
    stored = session.exec(select(AuthSession)).one()
    assert stored.token_hash != result.token
    assert accounts.user_for_token(session, result.token, now=NOW).id == user.id


def test_duplicate_and_empty_names_are_refused(session: Session) -> None:
    accounts.create_user(session, display_name="Иван Михайлов")
    with pytest.raises(AccountError, match="уже есть"):
        accounts.create_user(session, display_name="иван михайлов")
    with pytest.raises(AccountError, match="Укажите имя"):
        accounts.create_user(session, display_name="   ")


def test_wrong_name_and_wrong_password_give_the_same_answer(session: Session) -> None:
    accounts.create_user(session, display_name="Ольга", password="правильный")
    wrong_password = accounts.login(session, "Ольга", "неправильный", now=NOW, session_days=30)
    wrong_name = accounts.login(session, "Ольгаа", "правильный", now=NOW, session_days=30)
    assert wrong_password.error == wrong_name.error == accounts.LOGIN_FAILED
    assert wrong_password.token is None and wrong_name.token is None


def test_five_failures_lock_the_name_even_for_the_right_password(session: Session) -> None:
    accounts.create_user(session, display_name="Павел", password="верный")
    for minute in range(5):
        accounts.login(session, "Павел", "мимо", now=NOW + timedelta(minutes=minute), session_days=30)
    locked = accounts.login(session, "Павел", "верный", now=NOW + timedelta(minutes=5), session_days=30)
    assert locked.token is None and "Слишком много" in locked.error
    later = accounts.login(session, "Павел", "верный", now=NOW + timedelta(minutes=20), session_days=30)
    assert later.error is None and later.token


def test_sessions_expire_and_logout_ends_them(session: Session) -> None:
    accounts.create_user(session, display_name="Никита", password="пароль")
    token = accounts.login(session, "Никита", "пароль", now=NOW, session_days=30).token
    assert accounts.user_for_token(session, token, now=NOW + timedelta(days=29)) is not None
    assert accounts.user_for_token(session, token, now=NOW + timedelta(days=30)) is None
    assert accounts.purge_expired_sessions(session, now=NOW + timedelta(days=31)) == 1
    token = accounts.login(session, "Никита", "пароль", now=NOW, session_days=30).token
    accounts.logout(session, token)
    assert accounts.user_for_token(session, token, now=NOW) is None
    assert accounts.user_for_token(session, "", now=NOW) is None


def test_reset_password_ends_sessions_and_old_password(session: Session) -> None:
    user, old = accounts.create_user(session, display_name="Юлия")
    token = accounts.login(session, "Юлия", old, now=NOW, session_days=30).token
    new = accounts.reset_password(session, user, actor_user_id=None)
    assert accounts.user_for_token(session, token, now=NOW) is None
    assert accounts.login(session, "Юлия", old, now=NOW, session_days=30).token is None
    assert accounts.login(session, "Юлия", new, now=NOW, session_days=30).token


def test_registration_order_is_kept(session: Session) -> None:
    season = _season(session)
    for name in ("Первый", "Второй", "Третий"):
        add_player(session, season, name, actor_user_id=None)
    add_player(session, season, "Запасной", status=RosterStatus.RESERVE, actor_user_id=None)
    rows = list_roster(session, season.id)
    assert [(r.name, r.registration_order, r.status) for r in rows] == [
        ("Первый", 1, "main"),
        ("Второй", 2, "main"),
        ("Третий", 3, "main"),
        ("Запасной", 4, "reserve"),
    ]


def test_withdrawal_needs_a_reason_and_is_audited(session: Session) -> None:
    season = _season(session)
    player, _ = add_player(session, season, "Сергей", actor_user_id=None)
    with pytest.raises(AccountError, match="причину"):
        set_status(session, player, RosterStatus.WITHDRAWN, reason=" ", actor_user_id=None)
    assert session.get(Player, player.id).status == RosterStatus.MAIN
    set_status(session, player, RosterStatus.WITHDRAWN, reason="переезд", actor_user_id=None)
    audit = session.exec(select(AuditRecord).where(AuditRecord.action == "player.status")).one()
    assert (audit.reason, audit.before, audit.after) == ("переезд", '{"status": "main"}', '{"status": "withdrawn"}')


def test_demo_league_has_sixteen_players_an_organizer_and_a_judge(session: Session) -> None:
    logins = seed_demo(session)
    session.commit()
    roles = session.exec(select(User.role)).all()
    assert roles.count(Role.ORGANIZER) == 1 and roles.count(Role.JUDGE) == 1 and roles.count(Role.PLAYER) == 16
    assert [name for name, role, _ in logins if role == "игрок"] == list(DEMO_PLAYERS)
    name, _, password = logins[2]
    assert accounts.login(session, name, password, now=NOW, session_days=1).token
