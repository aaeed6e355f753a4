"""Issue 28 item 1: the judge and the experts are made on the site (Регламент §1), and the desk's start-of-season
checklist says, line by line in the season's order, what is done and what is missing."""

from __future__ import annotations

import pytest
from sqlmodel import Session, select

from services.core.models import AuditRecord, Player, Role, Room, User
from services.league import staff
from services.league.draw_season import approve_draw, make_draft
from services.league.fees import record_fee
from services.league.seasons import create_season
from services.league.withdrawal import withdraw_player
from services.scheduling.tour_windows import set_windows
from services.views.checklist import season_checklist
from tests import factories as f
from tests.db.test_draw_season import WINDOWS, _league
from tests.factories import NOW


def test_the_organizer_makes_a_judge_and_an_expert_and_takes_a_role_back(session: Session) -> None:
    organizer = f.user(session, role=Role.ORGANIZER)
    judge, password = staff.add_staff(session, "Екатерина Киселёва", "judge", actor_user_id=organizer.id, now=NOW)
    expert, _ = staff.add_staff(session, "Олег Клименко", "expert", actor_user_id=organizer.id, now=NOW)
    assert judge.role == Role.JUDGE and expert.role == Role.EXPERT and len(password) >= 8
    assert [(m.name, m.role) for m in staff.staff(session)] == [
        ("Олег Клименко", "expert"),
        ("Екатерина Киселёва", "judge"),
    ]

    staff.set_role(session, expert.id, "player", actor_user_id=organizer.id, now=NOW)
    assert session.get(User, expert.id).role == Role.PLAYER
    audit = session.exec(select(AuditRecord).where(AuditRecord.action == "user.role")).one()
    assert '"expert"' in audit.before and '"player"' in audit.after


@pytest.mark.parametrize(
    ("name", "role", "message"),
    [
        ("Игорь Судейкин", "organizer", "Выберите роль: судья или эксперт"),  # no second organizer this way
        ("Судья 1", "judge", "^В имени допустимы только буквы"),  # a name is letters (person_name_problem)
        ("", "expert", "^Не указано имя[.]$"),  # not «Имя: не указано имя.»
    ],
)
def test_a_refused_staff_member_changes_nothing(session: Session, name: str, role: str, message: str) -> None:
    before = len(session.exec(select(User)).all())
    with pytest.raises(staff.StaffError, match=message):
        staff.add_staff(session, name, role, actor_user_id=None, now=NOW)
    assert len(session.exec(select(User)).all()) == before


def test_the_organizers_role_is_not_changed_here(session: Session) -> None:
    organizer = f.user(session, role=Role.ORGANIZER)
    with pytest.raises(staff.StaffError, match="организатор"):
        staff.set_role(session, organizer.id, "judge", actor_user_id=organizer.id, now=NOW)
    judge, _ = staff.add_staff(session, "Анна Судейкина", "judge", actor_user_id=organizer.id, now=NOW)
    with pytest.raises(staff.StaffError, match="уже судья"):
        staff.set_role(session, judge.id, "judge", actor_user_id=organizer.id, now=NOW)


def _lines(session: Session, season) -> dict[str, tuple[bool, str, str]]:  # noqa: ANN001
    return {line.key: (line.done, line.detail, line.page) for line in season_checklist(session, season, now=NOW)}


def test_a_new_seasons_checklist_says_what_is_missing_and_where_to_do_it(session: Session) -> None:
    season = create_season(session, "Лига 2027", actor_user_id=None)
    lines = _lines(session, season)
    assert list(lines) == ["rooms", "judge", "expert", "dates", "fees", "multiple", "closed", "windows", "draw",
                           "playoff", "bot"]  # fmt: skip
    assert lines["rooms"] == (False, "ни одного помещения: брони невозможны", "rooms")  # /schedule#rooms
    assert lines["judge"] == (False, "судьи нет", "staff")
    assert lines["windows"] == (False, "не заданы окна туров 1, 2, 3, 4", "draw")
    assert lines["multiple"][:2] == (False, "в основном составе 0 игроков")
    assert not lines["bot"][0] and not any(done for done, _, _ in lines.values())

    session.add(Room(name="Клуб", tables=4))
    staff.add_staff(session, "Екатерина Киселёва", "judge", actor_user_id=None, now=NOW)
    set_windows(session, season, WINDOWS, actor_user_id=None)
    lines = _lines(session, season)
    assert lines["rooms"][:2] == (True, "Клуб: 4 стола")
    assert lines["judge"][:2] == (True, "Екатерина Киселёва")
    assert lines["windows"][:2] == (True, "все 4 окна заданы")


def test_a_running_seasons_roster_counts_toward_its_lines(session: Session) -> None:
    league = f.league(session, players=8)
    lines = _lines(session, league.season)
    assert lines["multiple"][:2] == (True, "в основном составе 8 игроков")
    assert lines["fees"][:2] == (False, "оплатили 0 из 8")  # a player the roster has no registration row for owes
    record_fee(session, league.players[0], "paid", NOW.date(), actor_user_id=None)
    assert _lines(session, league.season)["fees"][:2] == (False, "оплатили 1 из 8")


def test_after_the_draw_a_withdrawal_is_answered_by_substitutes_not_an_unticked_multiple(session: Session) -> None:
    """Issue 45 item 10: Регламент §1's multiple of four is the registration's; after the draw a withdrawal leaves 15
    main players, and the tables are made up by technical substitutes (§6.1) — the line stays ticked and says so."""
    season = _league(session)
    make_draft(session, season, seed=11, actor_user_id=None)
    set_windows(session, season, WINDOWS, actor_user_id=None)
    approve_draw(session, season, actor_user_id=None, now=NOW)
    player = session.exec(select(Player).where(Player.season_id == season.id, Player.status == "main")).first()
    withdraw_player(session, player, reason="переезд", actor_user_id=None, now=NOW)
    session.commit()
    assert _lines(session, season)["multiple"][:2] == (
        True,
        "в основном составе 15 игроков; после жеребьёвки столы добирают технические замены (Регламент §6.1)",
    )
