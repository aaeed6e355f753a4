"""Technical substitutes seated by the organizer (Регламент §6.1): audited, in the match, never in the standings."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from sqlmodel import Session, select

from services.core.models import AuditRecord, Player, RosterStatus, Seat, User
from services.league.roster import add_player
from services.league.substitution import penalty_candidates, seat_substitute, substitute_candidates
from services.playoff.hanchan_entry import enter_hanchan
from services.results import repo as results_repo
from services.results.hanchans import ResultsError
from services.results.penalties import add_no_show
from services.results.scoring import score_match
from services.results.view import match_view
from tests.db.test_results import League, entry
from tests.factories import PLAYED, begun_meeting


def _seats(session: Session, match_id: int) -> list[tuple[int, int | None]]:
    rows = session.exec(select(Seat).where(Seat.match_id == match_id).order_by(Seat.seed)).all()
    return [(s.player_id, s.substitute_for_player_id) for s in rows]


def test_new_substitute_by_name_plays_counts_in_the_match_but_not_in_the_standings(
    session: Session, league: League
) -> None:
    a, b, c, d = league.players[:4]
    mid = league.match(1, 1, [a, b, c, d])
    seat = seat_substitute(
        session, league.organizer, mid, d, new_name="  Замена   Заменова ", reason="не пришёл", now=PLAYED
    )
    sub = session.get(Player, seat.player_id)
    assert sub.status == RosterStatus.SUBSTITUTE and sub.season_id == league.season.id
    assert session.get(User, sub.user_id).display_name == "Замена Заменова"
    assert _seats(session, mid) == [(a, None), (b, None), (c, None), (sub.id, d)]
    audit = session.exec(select(AuditRecord).where(AuditRecord.action == "seat.substitute")).one()
    assert (audit.entity, audit.entity_id, audit.reason) == ("match", mid, "не пришёл")
    assert json.loads(audit.before) == {"player": d}

    # The substitute wins the hanchan: in the match results, not in the standings; the no-show keeps his penalty.
    enter_hanchan(session, league.organizer, mid, entry([a, b, c, sub.id], [20000, 30000, 30000, 40000]), now=PLAYED)
    begun_meeting(session, mid, PLAYED - timedelta(hours=1))
    add_no_show(session, league.organizer, mid, d, now=PLAYED)
    assert [pid for pid, _ in penalty_candidates(session, mid)] == [a, b, c, sub.id, d]
    season, scores = results_repo.season_scores(session, league.season.id)
    assert {line.player for line in scores[0].lines} == {a, b, c, sub.id, d}
    rows = {r.player: r for r in results_repo.db_standings(session, league.season.id)}
    assert sub.id not in rows
    assert rows[d].total == -80000 and rows[d].matches == 0
    assert rows[a].total == -25000
    assert score_match(season.matches[0]).lines[0].player == sub.id


def test_substitute_from_the_roster_and_replaced_again_keeps_the_original(session: Session, league: League) -> None:
    a, b, c, d = league.players[:4]
    mid = league.match(1, 1, [a, b, c, d])
    s1, _ = add_player(session, league.season, "Запасной Один", status=RosterStatus.SUBSTITUTE, actor_user_id=None)
    s2, _ = add_player(session, league.season, "Запасной Два", status=RosterStatus.SUBSTITUTE, actor_user_id=None)
    assert substitute_candidates(session, mid) == [(s1.id, "Запасной Один"), (s2.id, "Запасной Два")]
    seat_substitute(session, league.organizer, mid, b, substitute_player_id=s1.id, reason="болезнь", now=PLAYED)
    assert substitute_candidates(session, mid) == [(s2.id, "Запасной Два")]
    seat_substitute(
        session, league.organizer, mid, s1.id, substitute_player_id=s2.id, reason="тоже заболел", now=PLAYED
    )
    assert _seats(session, mid) == [(a, None), (s2.id, b), (c, None), (d, None)]


def test_refusals_change_nothing(session: Session, league: League) -> None:
    a, b, c, d = league.players[:4]
    mid = league.match(1, 1, [a, b, c, d])
    main_player = league.players[5]
    session.commit()
    users_before = len(session.exec(select(User)).all())

    with pytest.raises(ResultsError, match="только организатор"):
        seat_substitute(session, league.judge, mid, d, new_name="Кто-то", reason="x", now=PLAYED)
    with pytest.raises(ResultsError) as error:
        seat_substitute(session, league.organizer, mid, main_player, reason=" ", now=PLAYED)
    assert error.value.problems == [
        "выберите игрока этого матча, которого заменяют",
        "выберите техническую замену из списка или введите имя нового игрока",
        "укажите причину замены",
    ]
    with pytest.raises(ResultsError, match="но не то и другое"):
        seat_substitute(
            session, league.organizer, mid, d, substitute_player_id=main_player, new_name="X", reason="r", now=PLAYED
        )
    with pytest.raises(ResultsError, match="не числится ни технической заменой, ни в резерве"):
        seat_substitute(session, league.organizer, mid, d, substitute_player_id=main_player, reason="r", now=PLAYED)
    with pytest.raises(ResultsError, match="уже есть"):
        seat_substitute(session, league.organizer, mid, d, new_name="Судья Судейская", reason="r", now=PLAYED)
    # a new person's name is letters (text_limits.person_name_problem), as everywhere a person is made
    with pytest.raises(ResultsError, match="только буквы, пробелы, дефис и апостроф"):
        seat_substitute(session, league.organizer, mid, d, new_name="Замена 2", reason="r", now=PLAYED)
    assert [pid for pid, _ in penalty_candidates(session, mid)] == [a, b, c, d]  # nobody seated

    enter_hanchan(session, league.organizer, mid, entry([a, b, c, d], [40000, 30000, 30000, 20000]), now=PLAYED)
    session.commit()
    with pytest.raises(ResultsError, match="уже внесены ханчаны"):
        seat_substitute(session, league.organizer, mid, d, new_name="Поздняя Замена", reason="ушёл", now=PLAYED)
    session.rollback()
    assert _seats(session, mid) == [(a, None), (b, None), (c, None), (d, None)]
    assert len(session.exec(select(User)).all()) == users_before
    assert not session.exec(select(AuditRecord).where(AuditRecord.action == "seat.substitute")).all()


def test_the_reserve_is_offered_and_seated_by_choice_or_by_name(session: Session, league: League) -> None:
    """Issue 45 item 1: a person added to the reserve after the draw was not offered, and typing the name refused
    «Пользователь … уже есть». The reserve follows the technical substitutes in the list; seated, a reserve
    player becomes a technical substitute (Регламент §6.1), and the audit says so."""
    a, b, c, d = league.players[:4]
    mid = league.match(1, 1, [a, b, c, d])
    sub, _ = add_player(session, league.season, "Запасной Один", status=RosterStatus.SUBSTITUTE, actor_user_id=None)
    r1, _ = add_player(session, league.season, "Резервная Первая", status=RosterStatus.RESERVE, actor_user_id=None)
    r2, _ = add_player(session, league.season, "Резервный Второй", status=RosterStatus.RESERVE, actor_user_id=None)
    assert substitute_candidates(session, mid) == [
        (sub.id, "Запасной Один"),
        (r1.id, "Резервная Первая (резерв)"),
        (r2.id, "Резервный Второй (резерв)"),
    ]
    seat_substitute(session, league.organizer, mid, b, substitute_player_id=r1.id, reason="болезнь", now=PLAYED)
    assert session.get(Player, r1.id).status == RosterStatus.SUBSTITUTE
    users = len(session.exec(select(User)).all())
    seat_substitute(session, league.organizer, mid, c, new_name="  резервный  второй ", reason="уехал", now=PLAYED)
    assert len(session.exec(select(User)).all()) == users  # the same person, no second account
    assert _seats(session, mid) == [(a, None), (r1.id, b), (r2.id, c), (d, None)]
    audits = session.exec(select(AuditRecord).where(AuditRecord.action == "seat.substitute")).all()
    assert [json.loads(x.after)["from_reserve"] for x in audits] == [True, True]


def test_the_match_and_its_protocol_say_whom_the_substitute_replaces_in_the_accusative(
    session: Session, league: League
) -> None:
    """Issue 45 item 13: «заменяет Жанну Волкову», not «заменяет: Жанна Волкова» (wording.declined)."""
    a, b, c = league.players[:3]
    absent, _ = add_player(session, league.season, "Жанна Волкова", actor_user_id=league.organizer.id)
    mid = league.match(1, 1, [a, b, c, absent.id])
    seat_substitute(session, league.organizer, mid, absent.id, new_name="Фёдор Запасов", reason="болезнь", now=PLAYED)
    view = match_view(session, league.organizer, mid)
    assert view is not None
    assert {s["name"]: s["note"] for s in view.seats}["Фёдор Запасов"] == "— замена, заменяет Жанну Волкову"
    assert any(p["detail"] == "Фёдор Запасов заменяет Жанну Волкову" for p in view.protocol), view.protocol
