"""The season's lifecycle: a new season starts empty and current, the old one keeps its standings, the roster is
copied or imported from CSV, a disqualified person is refused with the reason; SQLite and PostgreSQL."""

from __future__ import annotations

import threading
import uuid
from datetime import UTC, date, datetime, timedelta

import pytest
import sqlalchemy as sa
from sqlmodel import Session, col, select

from services.core.models import AuditRecord, Player, Registration, Role, Season, User
from services.league.accounts import create_user, find_user
from services.league.closing import ClosingMethod, close_registration
from services.league.draw_season import approve_draw, make_draft
from services.league.roster import add_player, current_season
from services.league.roster_csv import MAX_LINES, parse_roster_csv
from services.league.seasons import (
    SeasonError,
    add_person,
    copy_roster,
    create_season,
    finish_season,
    import_roster_csv,
    preview_roster_csv,
    set_registration_dates,
)
from services.playoff.hanchan_entry import enter_hanchan
from services.results.disqualifications import record_disqualification
from services.results.entry import ResultsError
from services.results.repo import db_standings
from services.results.view import match_view
from services.scheduling.tour_windows import set_windows
from services.views import history
from tests.db.test_results import League, entry
from tests.factories import PLAYED

TODAY = date(2027, 1, 10)


def _played(session: Session, league: League) -> None:
    table = league.players[:4]
    mid = league.match(1, 1, table)
    enter_hanchan(session, league.judge, mid, entry(table, [40000, 30000, 30000, 20000]), now=PLAYED)
    session.commit()


def test_new_season_starts_empty_and_old_standings_stay(session: Session, league: League) -> None:
    _played(session, league)
    before = db_standings(session, league.season.id)
    new = create_season(session, "Лига Дискарда 2027", actor_user_id=league.organizer.id)
    session.commit()
    assert current_season(session).id == new.id
    assert session.exec(select(Player).where(Player.season_id == new.id)).all() == []
    assert db_standings(session, new.id) == []
    assert db_standings(session, league.season.id) == before
    assert before[0].total > 0
    currents = session.exec(select(Season).where(Season.is_current)).all()
    assert [s.id for s in currents] == [new.id]


def test_season_name_and_dates_are_checked(session: Session, league: League) -> None:
    made = create_season(session, "Лига 2027", actor_user_id=None, now=PLAYED)
    created = session.exec(
        select(AuditRecord.at).where(AuditRecord.action == "season.create", AuditRecord.entity_id == made.id)
    ).one()
    assert created == PLAYED  # the shell's clock, not the real one (issue 43 item 7)
    with pytest.raises(SeasonError, match="уже есть"):
        create_season(session, "  лига   2027 ", actor_user_id=None)
    with pytest.raises(SeasonError, match="раньше"):
        create_season(
            session, "Лига 2028", registration_opens_on=date(2027, 2, 1), registration_closes_on=date(2027, 1, 1),
            actor_user_id=None,
        )  # fmt: skip
    with pytest.raises(SeasonError, match="название"):
        create_season(session, "   ", actor_user_id=None)


def test_a_running_season_must_be_finished_first(session: Session, league: League) -> None:
    close_registration(session, league.season, ClosingMethod.AS_IS, actor_user_id=league.organizer.id)
    make_draft(session, league.season, seed=1, actor_user_id=league.organizer.id)
    starts = [datetime(2026, 12, 7, tzinfo=UTC) + timedelta(days=14 * k) for k in range(5)]
    set_windows(session, league.season, list(zip(starts, starts[1:], strict=False)), actor_user_id=None)
    approve_draw(session, league.season, actor_user_id=league.organizer.id)
    session.commit()
    with pytest.raises(SeasonError, match="ещё идёт"):
        create_season(session, "Лига 2027", actor_user_id=None)
    with pytest.raises(SeasonError, match="Финал ещё не сыгран"):
        finish_season(session, league.season, now=starts[-1], actor_user_id=None)
    assert current_season(session).id == league.season.id


def test_database_refuses_a_second_current_season(session: Session, league: League) -> None:
    create_season(session, "Лига 2027", actor_user_id=None)
    session.commit()
    session.add(Season(name="Вторая текущая", is_current=True))
    with pytest.raises(sa.exc.IntegrityError):
        session.commit()
    session.rollback()


def test_copy_roster_keeps_order_and_refuses_the_disqualified(session: Session, league: League) -> None:
    banned = find_user(session, "Игрок 3")
    record_disqualification(
        session, banned, term="year", reason="неспортивное поведение", match_id=None, starts_on=date(2026, 12, 1),
        actor_user_id=league.organizer.id,
    )  # fmt: skip
    new = create_season(session, "Лига 2027", actor_user_id=None)
    result = copy_roster(session, new, league.season, today=TODAY, actor_user_id=None)
    session.commit()
    assert result.added == tuple(f"Игрок {n}" for n in range(8) if n != 3)
    assert result.refused == ("«Игрок 3» дисквалифицирован до 01.12.2027: неспортивное поведение",)
    orders = session.exec(select(Player.registration_order).where(Player.season_id == new.id)).all()
    assert sorted(orders) == list(range(1, 8))
    # The disqualification ends after a year: then the person may be entered again.
    later = copy_roster(session, new, league.season, today=date(2027, 12, 1), actor_user_id=None)
    assert later.added == ("Игрок 3",)


def test_permanent_disqualification_refuses_the_csv_line(session: Session, league: League) -> None:
    mid = league.match(1, 1, league.players[:4])
    record_disqualification(
        session, find_user(session, "Игрок 1"), term="permanent", reason="сговор", match_id=mid,
        starts_on=date(2026, 12, 1), actor_user_id=league.organizer.id,
    )  # fmt: skip
    new = create_season(session, "Лига 2027", actor_user_id=None)
    text = "имя;контакт;взнос\nИгрок 1;@one;да\nНовый Игрок;@new;15.01.2027\nИгрок 2;@two;нет\n;@x;да\nИван;@i;может\n"
    lines = preview_roster_csv(session, new, text, today=TODAY)
    assert [(line.line, line.accepted) for line in lines] == [(2, False), (3, True), (4, True), (5, False), (6, False)]
    assert "пожизненно: сговор" in lines[0].outcome
    assert lines[3].outcome == "Строка 5 отклонена: не указано имя"
    assert lines[4].outcome.startswith("Строка 6 отклонена: взнос «может»")
    assert session.exec(select(Player).where(Player.season_id == new.id)).all() == []  # the preview changed nothing
    result = import_roster_csv(session, new, text, today=TODAY, actor_user_id=None)
    session.commit()
    assert result.added == 2
    assert [name for name, _ in result.passwords] == ["Новый Игрок"]
    fees = {
        find_user(session, n).id: r
        for n in ("Новый Игрок", "Игрок 2")
        for r in session.exec(
            select(Registration)
            .join(Player)
            .where(Player.season_id == new.id, Player.user_id == find_user(session, n).id)
        )
    }
    assert fees[find_user(session, "Новый Игрок").id].fee_paid_on == date(2027, 1, 15)
    assert fees[find_user(session, "Игрок 2").id].fee_paid_on is None


def test_organizer_account_cannot_join_a_roster(session: Session, league: League) -> None:
    new = create_season(session, "Лига 2027", actor_user_id=None)
    create_user(session, display_name="Судья Вторая", role=Role.JUDGE)
    lines = preview_roster_csv(session, new, "Судья Вторая,@j,да\n", today=TODAY)
    assert lines[0].outcome == "Строка 1 отклонена: «Судья Вторая» — не игрок"


def _race(engine: sa.Engine) -> list[str]:
    outcomes: list[str] = []
    barrier = threading.Barrier(2)

    def start(name: str) -> None:
        with Session(engine, expire_on_commit=False) as s:
            barrier.wait()
            try:
                create_season(s, name, actor_user_id=None)
                s.commit()
                outcomes.append("ok")
            except (SeasonError, sa.exc.OperationalError, sa.exc.IntegrityError):
                s.rollback()
                outcomes.append("refused")

    threads = [threading.Thread(target=start, args=(f"Сезон {uuid.uuid4().hex[:8]}",)) for n in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes


@pytest.mark.parametrize("attempt", range(20))
def test_two_organizers_start_seasons_at_once(db: sa.Engine, attempt: int) -> None:
    assert "ok" in _race(db)
    with Session(db) as s:
        assert len(s.exec(select(Season).where(Season.is_current)).all()) == 1


def test_a_past_season_is_read_only(session: Session, league: League) -> None:
    table = league.players[:4]
    mid = league.match(1, 1, table)
    enter_hanchan(session, league.judge, mid, entry(table, [40000, 30000, 30000, 20000]), now=PLAYED)
    session.commit()
    running = match_view(session, league.judge, mid)
    assert running.can_enter and running.staff and not running.read_only
    create_season(session, "Лига 2027", actor_user_id=None)
    session.commit()
    with pytest.raises(ResultsError, match="в архиве: его протоколы только для чтения"):
        enter_hanchan(session, league.judge, mid, entry(table, [40000, 30000, 30000, 20000]), now=PLAYED)
    # The page shows the protocol and no form the server would refuse.
    for user in (league.judge, league.organizer, session.get(User, session.get(Player, table[0]).user_id)):
        past = match_view(session, user, mid)
        assert past.read_only and len(past.hanchans) == 1
        assert not (past.can_enter or past.participant or past.staff or past.organizer)


def test_history_lists_seasons_and_a_persons_places(session: Session, league: League) -> None:
    _played(session, league)
    new = create_season(session, "Лига 2027", actor_user_id=None)
    copy_roster(session, new, league.season, today=TODAY, actor_user_id=None)
    session.commit()
    summaries = history.season_summaries(session)
    assert [(s.name, s.current) for s in summaries] == [("Лига 2027", True), ("Тест", False)]
    assert summaries[1].champion == ""  # no final was played
    winner = find_user(session, "Игрок 0")
    rows = history.person_seasons(session, winner.id)
    assert [(r["season"], r["total"], r["matches"]) for r in rows] == [
        ("Лига 2027", "0", "0"),
        ("Тест", "+25\u202f000", "1"),
    ]
    matches = history.season_matches(session, league.season.id, now=PLAYED)
    assert [(m["title"], m["players"], m["status"]) for m in matches] == [
        ("Тур 1, стол 1", "Игрок 0, Игрок 1, Игрок 2, Игрок 3", "Играется")  # one hanchan of three entered
    ]
    assert history.season_matches(session, new.id, now=PLAYED) == []


def test_the_top_eight_of_a_running_season_is_the_standings_order(session: Session, league: League) -> None:
    _played(session, league)
    league.match(1, 2, league.players[4:8])  # seated, nothing entered yet: 0 points, between the plus and minus
    session.commit()
    [summary] = [s for s in history.season_summaries(session) if s.name == league.season.name]
    standings = db_standings(session, league.season.id)
    assert len(standings) == 8 and [line.split(" ", 1)[1] for line in summary.top] == [r.name for r in standings]


def test_a_place_shared_at_the_cut_of_the_top_eight_lists_everyone_on_it(session: Session, league: League) -> None:
    """The walk: /seasons' «Первая восьмёрка» cut a place shared at the eighth, naming the first on it only."""
    _played(session, league)
    league.match(1, 2, league.players[4:8])
    more = [add_player(session, league.season, f"Игрок {n}", actor_user_id=league.organizer.id)[0].id for n in (8, 9)]
    league.match(2, 1, [*more, *league.players[:2]])  # two more at 0 points, nothing entered: level with others
    session.commit()
    [summary] = [s for s in history.season_summaries(session) if s.name == league.season.name]
    # +25 000; two level at 0 who played (2=); six at 0 who have not (4=); the −25 000 is 10th
    assert summary.top[:3] == ("1. Игрок 0", "2= Игрок 1", "2= Игрок 2"), summary.top
    assert sorted(summary.top[3:]) == [f"4= Игрок {n}" for n in range(4, 10)], summary.top  # nine of ten listed


@pytest.mark.parametrize("invisible", ["\u200b", "\u202e", "\u2066"])
def test_the_preview_refuses_a_name_the_import_would_and_the_import_keeps_the_rest(
    session: Session, league: League, invisible: str
) -> None:
    """Finding 29.10: the preview accepted a zero-width/RLO name that the import then refused, aborting it."""
    new = create_season(session, "Лига 2027", actor_user_id=None)
    text = f"Анна Первая;@a;да\nБорис{invisible}Второй;@b;да\nВера Третья;@v;нет\n"
    lines = preview_roster_csv(session, new, text, today=TODAY)
    assert [(line.line, line.accepted) for line in lines] == [(1, True), (2, False), (3, True)]
    assert "невидимые" in lines[1].outcome and invisible not in lines[1].outcome
    result = import_roster_csv(session, new, text, today=TODAY, actor_user_id=None)
    session.commit()
    assert result.added == 2 and [name for name, _ in result.passwords] == ["Анна Первая", "Вера Третья"]


def test_a_file_far_longer_than_any_roster_is_refused_before_it_is_read(session: Session, league: League) -> None:
    new = create_season(session, "Лига 2027", actor_user_id=None)
    text = "".join(f"Игрок {n};@p{n};да\n" for n in range(MAX_LINES + 1))
    with pytest.raises(SeasonError, match=f"больше {MAX_LINES} строк"):
        preview_roster_csv(session, new, text, today=TODAY)
    with pytest.raises(SeasonError, match=f"больше {MAX_LINES} строк"):
        import_roster_csv(session, new, text, today=TODAY, actor_user_id=None)
    assert len(parse_roster_csv("".join(f"Игрок {n};@p{n};да\n" for n in range(MAX_LINES)))) == MAX_LINES


def test_a_new_person_s_name_is_letters_spaces_hyphens_and_apostrophes_only(session: Session, league: League) -> None:
    """Issue 28: a new name with digits or emoji is refused in the preview, the import and the roster form alike."""
    new = create_season(session, "Лига 2027", actor_user_id=None)
    text = "Анна-Мария д'Арк;@am;да\nНовичок 7;@n;да\nЧай 🀄;@c;нет\n"
    lines = preview_roster_csv(session, new, text, today=TODAY)
    assert [(line.line, line.accepted) for line in lines] == [(1, True), (2, False), (3, False)]
    assert lines[1].outcome == "Строка 2 отклонена: в имени допустимы только буквы, пробелы, дефис и апостроф"
    result = import_roster_csv(session, new, text, today=TODAY, actor_user_id=None)
    assert result.added == 1 and [name for name, _ in result.passwords] == ["Анна-Мария д'Арк"]
    with pytest.raises(SeasonError, match="длиннее 60 символов"):
        add_person(session, new, "Я" * 61, today=TODAY, actor_user_id=None)
    session.commit()
    names = session.exec(select(User.display_name).join(Player, col(Player.user_id) == User.id).where(
        Player.season_id == new.id)).all()  # fmt: skip
    assert list(names) == ["Анна-Мария д'Арк"]


def test_the_current_seasons_registration_dates_are_set_checked_and_audited(session: Session, league: League) -> None:
    """Issue 45 item 10: the checklist's «Даты регистрации» could be set only when a season was made; Регламент §1."""
    season = create_season(session, "Лига 2028", actor_user_id=None, now=PLAYED)
    with pytest.raises(SeasonError, match="Укажите обе даты регистрации"):
        set_registration_dates(session, season, TODAY, None, actor_user_id=league.organizer.id, now=PLAYED)
    with pytest.raises(SeasonError, match="не может закрыться раньше"):
        set_registration_dates(session, season, TODAY, TODAY - timedelta(days=1), actor_user_id=1, now=PLAYED)
    assert (season.registration_opens_on, season.registration_closes_on) == (None, None)
    set_registration_dates(session, season, TODAY, date(2027, 2, 1), actor_user_id=league.organizer.id, now=PLAYED)
    session.commit()
    season = session.get(Season, season.id)
    assert (season.registration_opens_on, season.registration_closes_on) == (TODAY, date(2027, 2, 1))
    audit = session.exec(select(AuditRecord).where(AuditRecord.action == "season.registration_dates")).one()
    assert (audit.actor_user_id, audit.entity_id, audit.at) == (league.organizer.id, season.id, PLAYED)
    assert '"2027-02-01"' in str(audit.after) or "2027-02-01" in str(audit.after)
