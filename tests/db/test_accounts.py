"""Users, logins, sessions and the roster on a real migrated database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import Session, select

from services.commands.demo_league.league import DEMO_PLAYERS, seed_demo
from services.core import security
from services.core.models import AuditRecord, AuthSession, Player, Role, RosterStatus, Season, User
from services.league import accounts
from services.league.accounts import AccountError
from services.league.roster import add_player, list_roster, set_status
from services.scheduling.calendar_feed import ensure_calendar_token, personal_ics, renew_calendar_token
from tests.unit.test_security import PASSLIB_ARGON2_OF_X

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


def test_login_names_ignore_case_spaces_and_yo(session: Session) -> None:
    user, password = accounts.create_user(session, display_name="Алёна Ёлкина")
    session.commit()
    assert user.login_name == "алена елкина"
    for typed in ("алена елкина", "  АЛЁНА   ёлкина ", "Алена Елкина"):
        result = accounts.login(session, typed, password, now=NOW, session_days=30, client="device:a")
        assert result.error is None and result.user.id == user.id
    with pytest.raises(AccountError, match="уже есть"):
        accounts.create_user(session, display_name="Алена Елкина")


def test_a_yo_spelling_with_the_right_password_counts_no_failure(session: Session) -> None:
    """Typing е for ё is the same account: four wrong tries, then the е-spelling with the right password,
    then four more wrong tries leave the account open (a failure streak restarts after a success)."""
    accounts.create_user(session, display_name="Семён", password="правильный-1")
    for minute in range(4):
        accounts.login(session, "Семён", "мимо", now=NOW + timedelta(minutes=minute), session_days=30)
    assert accounts.login(session, "семен", "правильный-1", now=NOW + timedelta(minutes=4), session_days=30).token
    for minute in range(5, 9):
        accounts.login(session, "Семен", "мимо", now=NOW + timedelta(minutes=minute), session_days=30)
    assert accounts.login(session, "СЕМЁН", "правильный-1", now=NOW + timedelta(minutes=9), session_days=30).token


@pytest.mark.parametrize("name", ["Бог\u200bдан", "Анна\u202eЛи", "Иван\x07", "Олег\u2060", "\ufeffПётр", "Ян\u00ad"])
def test_names_with_invisible_or_control_characters_are_refused(session: Session, name: str) -> None:
    with pytest.raises(AccountError, match="невидимые"):
        accounts.create_user(session, display_name=name)
    assert session.exec(select(User)).all() == []


def test_a_strangers_failures_do_not_lock_the_owner_out(session: Session) -> None:
    organizer, password = accounts.create_user(session, display_name="Богдан Бойко", role=Role.ORGANIZER)
    assert accounts.login(session, "Богдан Бойко", password, now=NOW, session_days=30, client="device:own").token
    for n in range(20):
        failed = accounts.login(
            session, "богдан бойко", f"угадал-{n}", now=NOW + timedelta(seconds=n), session_days=30, client="ip:6.6.6.6"
        )
        assert failed.token is None
    assert "Слишком много" in failed.error  # the stranger is locked out of this account...
    later = NOW + timedelta(minutes=1)
    own = accounts.login(session, "Богдан Бойко", password, now=later, session_days=30, client="device:own")
    assert own.error is None and own.user.id == organizer.id  # ...its owner is not
    fresh = accounts.login(session, "Богдан Бойко", password, now=later, session_days=30, client="device:new-phone")
    assert fresh.error is None  # nor a new device of the owner


def test_changing_ones_password_ends_every_other_session(session: Session) -> None:
    user, old = accounts.create_user(session, display_name="Вера")
    here = accounts.login(session, "Вера", old, now=NOW, session_days=30).token
    there = accounts.login(session, "Вера", old, now=NOW, session_days=30).token
    here_digest = security.token_digest(here)
    for current, new, repeat, problem in [
        ("не тот", "новый-пароль-1", "новый-пароль-1", "Текущий пароль неверен"),
        (old, "новый-пароль-1", "новый-пароль-2", "не совпадают"),
        (old, "коротко", "коротко", "короче 8"),
        (old, " " * 10, " " * 10, "из одних пробелов"),  # ten spaces were once accepted, and logged in
        (old, "  вера  ", "  вера  ", "не должен совпадать с именем"),  # the login name, however typed
    ]:
        with pytest.raises(AccountError, match=problem):
            accounts.change_password(session, user, current, new, repeat, keep_session_digest=here_digest)
        assert accounts.user_for_token(session, there, now=NOW) is not None  # nothing changed
    accounts.change_password(session, user, old, "новый-пароль-1", "новый-пароль-1", keep_session_digest=here_digest)
    session.commit()
    assert accounts.user_for_token(session, here, now=NOW).id == user.id
    assert accounts.user_for_token(session, there, now=NOW) is None
    assert accounts.login(session, "Вера", old, now=NOW, session_days=30).token is None
    assert accounts.login(session, "Вера", "новый-пароль-1", now=NOW, session_days=30).token


def test_calendar_link_is_renewed_on_request_and_revoked_by_a_reset(session: Session) -> None:
    user, _ = accounts.create_user(session, display_name="Лев")
    first = ensure_calendar_token(session, user)
    assert personal_ics(session, first) is not None
    second = renew_calendar_token(session, user)
    assert second != first and personal_ics(session, first) is None and personal_ics(session, second) is not None
    accounts.reset_password(session, user, actor_user_id=None)
    assert personal_ics(session, second) is None
    assert ensure_calendar_token(session, user) not in (first, second)


def test_an_issued_password_gets_argon2_at_its_first_login(session: Session) -> None:
    user, password = accounts.create_user(session, display_name="Новый Игрок")
    assert security.needs_rehash(user.password_hash)  # quick to issue (an import of 200 takes a moment)
    result = accounts.login(session, "Новый Игрок", password, now=datetime(2026, 12, 6, tzinfo=UTC), session_days=30)
    assert result.token and user.password_hash.startswith("$argon2")
    assert security.verify_password(password, user.password_hash)


def test_a_hash_passlib_made_is_made_anew_at_owasps_parameters_at_the_next_login(session: Session) -> None:
    """Issue 42: the hashes made before (passlib's argon2 at 64 MiB × 3 × 4) still let their owners in, and the
    login replaces them; a wrong password leaves them as they are."""
    user, _ = accounts.create_user(session, display_name="Давний Игрок", password="x-давний")
    user.password_hash = PASSLIB_ARGON2_OF_X  # the password «x»
    session.add(user)
    now = datetime(2026, 12, 6, tzinfo=UTC)
    assert accounts.login(session, "Давний Игрок", "y", now=now, session_days=30).token is None
    assert user.password_hash == PASSLIB_ARGON2_OF_X
    assert accounts.login(session, "Давний Игрок", "x", now=now, session_days=30).token
    assert user.password_hash.startswith("$argon2id$v=19$m=19456,t=2,p=1$")
    assert security.verify_password("x", user.password_hash) and not security.needs_rehash(user.password_hash)
