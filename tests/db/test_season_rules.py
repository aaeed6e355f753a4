"""The season's ruleset on the database (Регламент §6.3, §7): set freely before the first result, an announced
amendment after it; the standings, the draw's roster check and the scheduling limits follow; a season file keeps it."""

from __future__ import annotations

import json
import re
import threading
from datetime import timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlmodel import Session, select

from services.core.db import session_scope
from services.core.models import (
    Announcement,
    AuditRecord,
    Match,
    MeetingProposal,
    OutboxEvent,
    Role,
    Round,
    Season,
    User,
    saved,
)
from services.core.ruleset import PLANNING, of_season
from services.league.closing import ClosingMethod, close_registration
from services.league.draw import DrawError
from services.league.draw_season import approve_draw, make_draft
from services.league.season_io import export_season, import_season
from services.league.season_rules import (
    RulesError,
    apply_rules,
    preview_rules,
    rule_changes,
    rule_lines,
    standings_shift,
)
from services.playoff.hanchan_entry import enter_hanchan
from services.results import repo as results_repo
from services.results.hanchans import ResultsError
from services.results.season_file import SeasonFileError, parse_season
from services.results.view import match_view
from services.scheduling import availability, booking
from services.scheduling.board import match_board
from services.scheduling.organizer import assign_meeting
from services.scheduling.repo import SchedulingError
from services.scheduling.tour_windows import set_windows
from tests import factories as f
from tests.db.test_draw_season import WINDOWS as DRAW_WINDOWS
from tests.db.test_draw_season import _league as draw_league
from tests.db.test_results import League, entry
from tests.db.test_season_io import _empty_season, persons_names
from tests.factories import NOW, PLAYED, kirov


def _table(session: Session) -> list[tuple[str, int, int]]:
    season_id = results_repo.current_season_id(session)
    return [(r.name, r.total, r.place) for r in results_repo.db_standings(session, season_id)]


def _played(session: Session, league: League) -> None:
    p = league.players
    m1 = league.match(1, 1, p[:4])
    m2 = league.match(1, 2, p[4:])
    enter_hanchan(session, league.organizer, m1, entry(p[:4], [40000, 30000, 30000, 20000]), now=PLAYED)
    # Игрок 4 leads without his chombo; with it (−40 000) he is last, with −20 000 second.
    enter_hanchan(
        session, league.organizer, m2, entry(p[4:], [60000, 25000, 20000, 15000], chombo={p[4]: 1}), now=PLAYED
    )
    session.commit()


def test_before_the_first_result_the_rules_change_freely_and_quietly(session: Session, league: League) -> None:
    change = apply_rules(
        session, league.season, {"chombo_penalty": "20 000"}, reason="", actor=league.organizer, now=NOW
    )
    session.commit()
    assert not change.amendment
    assert of_season(session.get(Season, league.season.id)).chombo_penalty == 20_000
    assert session.exec(select(Announcement)).all() == []
    [record] = rule_changes(session, league.season.id)
    assert (record.action, json.loads(record.after)["chombo_penalty"]) == ("ruleset.set", 20_000)


def test_the_regulation_page_lists_every_setting_in_words_never_a_code(session: Session, league: League) -> None:
    """/regulation said «Формат плей-офф upper_lower»: a reader sees the format's Russian name; the form still sends
    the code, which the rules take back unchanged."""
    season = session.get(Season, league.season.id)
    lines = rule_lines(of_season(season))
    assert {line.label: line.shown for line in lines}["Формат плей-офф"] == "верхняя и нижняя ветки"
    assert {line.label: line.shown for line in lines}["Чомбо"] == "40 000"
    for line in lines:
        assert not re.search(r"[A-Za-z_]", line.shown), line
    sent = {line.name: line.value for line in lines}
    assert not preview_rules(session, season, sent).problems


def test_after_a_result_a_change_is_a_previewed_announced_amendment(session: Session, league: League) -> None:
    _played(session, league)
    before = _table(session)
    # Игрок 4: 60 000 − 30 000 + 15 000 uma − 40 000 chombo = +5 000, second behind Игрок 0's +25 000.
    assert before[:2] == [("Игрок 0", 25_000, 1), ("Игрок 4", 5_000, 2)]
    change = preview_rules(session, league.season, {"chombo_penalty": "20000"})
    assert change.amendment and change.lines == ("Чомбо: 40 000 → 20 000",)
    shift = {s.name: (s.before, s.after, s.moved) for s in standings_shift(change)}
    # −20 000 instead: +25 000, level with Игрок 0 on points and average place (the organizer decides).
    assert shift["Игрок 4"] == ("2 · +5\u202f000", "1 · +25\u202f000", True)
    assert shift["Игрок 0"] == ("1 · +25\u202f000", "1 · +25\u202f000", False)
    assert _table(session) == before  # a preview writes nothing
    with pytest.raises(RulesError, match="укажите причину"):
        apply_rules(session, league.season, {"chombo_penalty": "20000"}, reason=" ", actor=league.organizer, now=NOW)
    with pytest.raises(RulesError, match="только организатор"):
        apply_rules(session, league.season, {"chombo_penalty": "20000"}, reason="x", actor=league.judge, now=NOW)
    session.rollback()
    apply_rules(
        session, league.season, {"chombo_penalty": "20000"}, reason="решение собрания", actor=league.organizer, now=NOW
    )
    session.commit()
    assert _table(session)[:2] == [("Игрок 0", 25_000, 1), ("Игрок 4", 25_000, 1)]  # the standings follow
    [announcement] = session.exec(select(Announcement)).all()
    assert "Чомбо: 40 000 → 20 000" in announcement.text and "решение собрания" in announcement.text
    assert session.exec(select(OutboxEvent).where(OutboxEvent.kind == "announcement")).all()
    [record] = session.exec(select(AuditRecord).where(AuditRecord.action == "ruleset.amend")).all()
    assert (record.reason, json.loads(record.before)["chombo_penalty"]) == ("решение собрания", 40_000)


def test_unusable_or_unchanged_rules_are_refused(session: Session, league: League) -> None:
    with pytest.raises(RulesError, match="Ханчанов в матче: целое число"):
        apply_rules(session, league.season, {"hanchans_per_match": "0"}, reason="", actor=league.organizer, now=NOW)
    with pytest.raises(RulesError, match="Правила не изменились"):
        apply_rules(session, league.season, {"chombo_penalty": "40000"}, reason="", actor=league.organizer, now=NOW)


def test_the_roster_multiple_drives_closing_and_the_draw(session: Session) -> None:
    season = draw_league(session, main=12, close=False)
    organizer = User(login_name="org-rules", display_name="Орг", password_hash="-", role=Role.ORGANIZER)
    session.add(organizer)
    session.flush()
    apply_rules(session, season, {"roster_multiple": "8"}, reason="", actor=organizer, now=NOW)
    with pytest.raises(Exception, match="не кратно восьми"):
        close_registration(session, season, ClosingMethod.AS_IS, actor_user_id=None)
    season.registration_closed = True  # as if closed by hand
    with pytest.raises(DrawError, match="12 игроков: число должно быть кратно восьми"):
        make_draft(session, season, actor_user_id=None)
    apply_rules(session, season, {"roster_multiple": "4"}, reason="", actor=organizer, now=NOW)
    assert make_draft(session, season, actor_user_id=None).tours  # 12 is a multiple of four again


def test_hanchans_per_match_drives_the_scheduling_limit(db: sa.Engine) -> None:
    with Session(db, expire_on_commit=False) as session:
        league = f.league(session)
        organizer = league.organizer
    for n in range(4):
        with session_scope(db) as session:
            availability.save_availability(
                session,
                match_id=league.match.id,
                user_id=league.users[n].id,
                intervals=[f.Interval(kirov(20, 17), kirov(20, 23))],
                now=NOW,
            )

    def propose(hanchans: int) -> None:
        with session_scope(db) as session:
            booking.propose_meeting(
                session,
                match_id=league.match.id,
                user_id=league.users[0].id,
                start=kirov(20, 17),
                end=kirov(20, 23),
                hanchans=hanchans,
                now=NOW,
            )

    with pytest.raises(SchedulingError, match="осталось запланировать 3 ханчана, а во встрече 4 ханчана"):
        propose(4)
    with session_scope(db) as session:
        season = session.get(Season, league.season.id)
        apply_rules(session, season, {"hanchans_per_match": "4"}, reason="", actor=organizer, now=NOW)
    with Session(db) as session:
        assert session.get(Match, league.match.id).planned_hanchans == 4
    propose(4)  # a meeting of four hanchans fits the match now


def test_the_hanchan_length_and_the_hold_are_the_seasons_rules(db: sa.Engine) -> None:
    """Issue 41: a season of 60-minute hanchans and a 24-hour hold, set on the rules form, plans by those numbers
    through the services — what a proposal must last, when its hold ends, when the organizer's meeting and the
    §6.1 fallback end. The club's 90 minutes and 48 hours hard-coded anywhere on the way fail it."""
    with Session(db, expire_on_commit=False) as session:
        league = f.league(session)
        organizer = league.organizer
    for n in range(4):
        with session_scope(db) as session:
            availability.save_availability(
                session,
                match_id=league.match.id,
                user_id=league.users[n].id,
                intervals=[f.Interval(kirov(20, 17), kirov(20, 23))],
                now=NOW,
            )

    def propose() -> int:
        with session_scope(db) as session:
            proposal = booking.propose_meeting(
                session,
                match_id=league.match.id,
                user_id=league.users[0].id,
                start=kirov(20, 17),
                end=kirov(20, 19),
                hanchans=2,
                now=NOW,
            )
            return saved(proposal.id)

    with pytest.raises(SchedulingError, match="На 2 ханчана нужно не меньше 3 ч, а выбрано 2 ч"):
        propose()  # the club's 90 minutes: two hours hold no two hanchans
    with session_scope(db) as session:
        season = session.get_one(Season, league.season.id)
        change = apply_rules(
            session,
            season,
            {"hanchan_minutes": "60", "proposal_hold_hours": "24"},
            reason="",
            actor=session.get_one(User, organizer.id),
            now=NOW,
        )
    assert change.lines == ("Длительность ханчана, минут: 90 → 60", "Предложение держит стол, часов: 48 → 24")
    proposal_id = propose()
    with Session(db) as session:
        assert session.get_one(MeetingProposal, proposal_id).hold_until == NOW + timedelta(hours=24)
        # Регламент §6.1: the last Sunday of the window at 18:00, three hanchans of an hour each.
        assert match_board(session, league.match.id, now=NOW)[1].fallback() == f.Interval(kirov(29, 18), kirov(29, 21))
    with session_scope(db) as session:
        meeting = assign_meeting(
            session, match_id=league.match.id, start=kirov(21, 12), hanchans=1, actor_user_id=organizer.id, now=NOW
        )
        assert (meeting.start_at, meeting.end_at) == (kirov(21, 12), kirov(21, 13))


def test_two_organizers_changing_the_rules_at_once_both_land_in_order(db: sa.Engine) -> None:
    with Session(db, expire_on_commit=False) as session:
        league = f.league(session)
        organizer = league.organizer
    barrier = threading.Barrier(2)
    errors: list[Exception] = []

    def change(values: dict[str, str]) -> None:
        barrier.wait()
        try:
            with session_scope(db) as session:
                apply_rules(session, session.get(Season, league.season.id), values, reason="", actor=organizer, now=NOW)
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=change, args=(v,)) for v in ({"chombo_penalty": "20000"}, {"tours": "5"})]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    with Session(db) as session:
        rules = of_season(session.get(Season, league.season.id))
        assert (rules.chombo_penalty, rules.tours) == (20_000, 5)  # the second one read the first one's row
        assert len(rule_changes(session, league.season.id)) == 2


def test_the_club_time_zone_is_no_seasons_rule(session: Session, league: League) -> None:
    """Регламент §1, §6.1: время Кирова is the club's. A changed zone is refused with its reason and changes nothing,
    the numbers sent with it included; the club's own zone, as old files and forms send it, is no change."""
    before = of_season(league.season)
    with pytest.raises(RulesError, match=r"время Кирова \(Europe/Kirov\) — это часовой пояс клуба, а не сезона"):
        apply_rules(
            session,
            league.season,
            {"time_zone": "Europe/Moscow", "chombo_penalty": "20000"},
            reason="",
            actor=league.organizer,
            now=NOW,
        )
    session.rollback()
    assert of_season(session.get(Season, league.season.id)) == before
    assert rule_changes(session, league.season.id) == []
    assert preview_rules(session, league.season, {"time_zone": "UTC"}).problems
    with pytest.raises(RulesError, match="Правила не изменились"):
        apply_rules(session, league.season, {"time_zone": "Europe/Kirov"}, reason="", actor=league.organizer, now=NOW)
    document = json.loads(json.dumps(export_season(session)))
    assert "time_zone" not in document["rules"]
    parse_season({**document, "rules": {**document["rules"], "time_zone": "Europe/Kirov"}})
    with pytest.raises(SeasonFileError, match="«Europe/Moscow» не принят"):
        parse_season({**document, "rules": {**document["rules"], "time_zone": "Europe/Moscow"}})


def test_a_season_file_keeps_its_rules(
    session: Session, league: League, tmp_path: Path, migrated_sqlite_template: Path
) -> None:
    apply_rules(
        session,
        league.season,
        {
            "chombo_penalty": "20000",
            "hanchan_uma_first": "20000",
            "hanchan_uma_second": "10000",
            "hanchan_minutes": "60",
        },
        reason="",
        actor=league.organizer,
        now=NOW,
    )
    session.commit()
    persons_names(session, league)
    _played(session, league)
    document = json.loads(json.dumps(export_season(session)))
    rules = document["rules"]
    assert (rules["chombo_penalty"], rules["hanchan_uma_first"], rules["hanchan_minutes"]) == (20_000, 20_000, 60)
    (tmp_path / "other.db").write_bytes(migrated_sqlite_template.read_bytes())
    other = sa.create_engine(f"sqlite:///{tmp_path / 'other.db'}")
    with Session(other, expire_on_commit=False) as target:
        _empty_season(target)
        import_season(target, document)
        target.commit()
        season = target.get(Season, results_repo.current_season_id(target))
        assert of_season(season) == of_season(league.season)
        assert _table(target) == _table(session)
        assert export_season(target)["rules"] == document["rules"]
    other.dispose()
    # A file written before the two planning numbers were rules names neither: the season keeps its own.
    older = {**document, "rules": {k: v for k, v in document["rules"].items() if k not in PLANNING}}
    (tmp_path / "older.db").write_bytes(migrated_sqlite_template.read_bytes())
    third = sa.create_engine(f"sqlite:///{tmp_path / 'older.db'}")
    with Session(third, expire_on_commit=False) as target:
        _empty_season(target)
        season = target.get_one(Season, results_repo.current_season_id(target))
        organizer = target.exec(select(User).where(User.role == Role.ORGANIZER)).one()
        apply_rules(target, season, {"proposal_hold_hours": "24"}, reason="", actor=organizer, now=NOW)
        import_season(target, older)
        target.commit()
        rules_in_force = of_season(target.get_one(Season, season.id))
        assert (rules_in_force.chombo_penalty, rules_in_force.hanchan_minutes) == (20_000, 90)  # the file's; its own
        assert rules_in_force.proposal_hold_hours == 24  # the season's own, not the file's or the regulation's
    third.dispose()


def test_the_start_points_drive_the_result_check_and_what_the_match_page_quotes(
    session: Session, league: League
) -> None:
    p = league.players
    mid = league.match(1, 1, p[:4])
    apply_rules(session, league.season, {"start_points": "25000"}, reason="", actor=league.organizer, now=NOW)
    session.commit()
    view = match_view(session, league.organizer, mid, now=PLAYED)
    assert (view.rules.table_total, view.rules.no_show_penalty) == (100_000, 80_000)
    with pytest.raises(ResultsError) as error:
        enter_hanchan(session, league.organizer, mid, entry(p[:4], [40000, 30000, 30000, 20000]), now=PLAYED)
    assert error.value.problems == ["сумма очков 120\u202f000, должна быть 100\u202f000"]
    enter_hanchan(session, league.organizer, mid, entry(p[:4], [40000, 25000, 25000, 10000]), now=PLAYED)
    session.commit()
    # 40 000 − 25 000 + 15 000 uma: the season's start points, not the regulation's 30 000.
    assert _table(session)[0] == ("Игрок 0", 30_000, 1)


def test_the_approved_draw_plays_the_seasons_tours_and_hanchans(session: Session) -> None:
    """Регламент §2: four tours of three-hanchan matches are the 2026 regulation's numbers; a season whose rules say
    three tours of two hanchans gets three tours of two-hanchan matches from the draw."""
    season = draw_league(session, main=8)
    organizer = User(login_name="org-draw-rules", display_name="Орг", password_hash="-", role=Role.ORGANIZER)
    session.add(organizer)
    session.flush()
    apply_rules(session, season, {"tours": "3", "hanchans_per_match": "2"}, reason="", actor=organizer, now=NOW)
    assert len(make_draft(session, season, seed=5, actor_user_id=None).tours) == 3
    set_windows(session, season, DRAW_WINDOWS[:3], actor_user_id=None)
    approve_draw(session, season, actor_user_id=None, now=NOW)
    session.commit()
    planned = session.exec(select(Round.code, Match.planned_hanchans).join(Match, Match.round_id == Round.id)).all()
    assert sorted(planned) == [(tour, 2) for tour in ("1", "2", "3") for _table in range(2)]
