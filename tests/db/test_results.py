"""Entering, validating, disputing, correcting and replaying results; penalties; standings from the database."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from sqlmodel import Session, col, select

from services.core.models import (
    AuditRecord,
    Hanchan,
    HanchanResult,
    Match,
    MatchStatus,
    Penalty,
    Role,
    Round,
    Season,
    Seat,
    Stage,
    StageKind,
    User,
)
from services.core.ruleset import DEFAULT
from services.league.accounts import create_user
from services.league.roster import add_player
from services.playoff.hanchan_entry import enter_hanchan
from services.results import repo as results_repo
from services.results.hanchans import (
    Entry,
    RepeatedResult,
    ResultsError,
    correct_hanchan,
    dispute_hanchan,
    effective,
    parse_entry,
    replay_match,
    resolve_dispute,
)
from services.results.penalties import add_conduct_penalty, add_no_show, add_ruling, decide_tie, ema_step
from services.results.scoring import TableResult, score_match
from services.results.season_file import dump_season, parse_season
from services.results.standings import compute_standings
from tests.factories import MET, PLAYED, begun_meeting


class League:
    """A season with 8 players, an organizer, a judge and matches created by hand (no draw needed)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.organizer, _ = create_user(session, display_name="Орг Организаторов", role=Role.ORGANIZER)
        self.judge, _ = create_user(session, display_name="Судья Судейская", role=Role.JUDGE)
        self.season = Season(name="Тест")
        session.add(self.season)
        session.flush()
        self.stage = Stage(season_id=self.season.id, kind=StageKind.REGULAR)
        session.add(self.stage)
        session.flush()
        self.players = []
        self.users: dict[int, User] = {}
        for n in range(8):
            player, _ = add_player(session, self.season, f"Игрок {n}", actor_user_id=self.organizer.id)
            self.players.append(player.id)
            self.users[player.id] = session.get(User, player.user_id)
        self.rounds: dict[int, int] = {}

    def match(self, tour: int, table: int, players: list[int], *, meeting: bool = True) -> int:
        if tour not in self.rounds:
            r = Round(stage_id=self.stage.id, code=str(tour))
            self.session.add(r)
            self.session.flush()
            self.rounds[tour] = r.id
        m = Match(round_id=self.rounds[tour], table=str(table), status=MatchStatus.PLAYING)
        self.session.add(m)
        self.session.flush()
        for seed, pid in enumerate(players, start=1):
            self.session.add(Seat(match_id=m.id, player_id=pid, seed=seed))
        self.session.flush()
        if meeting:  # begun: its results may be entered (Регламент §6.2)
            begun_meeting(self.session, m.id, MET)
        return m.id


def entry(players: list[int], points: list[int], riichi: int = 0, chombo: dict[int, int] | None = None) -> Entry:
    chombo = chombo or {}
    return Entry(tuple(TableResult(p, x, chombo.get(p, 0)) for p, x in zip(players, points, strict=True)), riichi)


def test_participant_enters_and_numbers_follow(session: Session, league: League) -> None:
    table = league.players[:4]
    mid = league.match(1, 1, table)
    first = enter_hanchan(session, league.users[table[0]], mid, entry(table, [40000, 30000, 30000, 20000]), now=PLAYED)
    second = enter_hanchan(session, league.judge, mid, entry(table, [25000, 25000, 35000, 34000], riichi=1), now=PLAYED)
    session.commit()
    assert (first.number, second.number) == (1, 2)
    assert second.entered_by_user_id == league.judge.id
    points = session.exec(select(HanchanResult.points).where(HanchanResult.hanchan_id == second.id)).all()
    assert sorted(points) == [25000, 25000, 34000, 35000]
    audit = session.exec(select(AuditRecord).where(AuditRecord.action == "hanchan.enter")).all()
    assert [a.entity_id for a in audit] == [mid, mid]


def test_non_participant_player_is_refused_and_nothing_stored(session: Session, league: League) -> None:
    table = league.players[:4]
    mid = league.match(1, 1, table)
    outsider = league.users[league.players[5]]
    with pytest.raises(ResultsError, match="только участники матча"):
        enter_hanchan(session, outsider, mid, entry(table, [40000, 30000, 30000, 20000]), now=PLAYED)
    assert session.exec(select(Hanchan)).all() == []


def test_wrong_sum_says_exactly_what_is_wrong_and_stores_nothing(session: Session, league: League) -> None:
    table = league.players[:4]
    mid = league.match(1, 1, table)
    with pytest.raises(ResultsError) as error:
        enter_hanchan(session, league.organizer, mid, entry(table, [40000, 30000, 30000, 20000], riichi=1), now=PLAYED)
    assert error.value.problems == ["сумма очков 120\u202f000 + 1 палочка = 121\u202f000, должна быть 120\u202f000"]
    with pytest.raises(ResultsError) as error:
        enter_hanchan(session, league.organizer, mid, entry(table, [40000, 30000, 30000, 10000]), now=PLAYED)
    assert error.value.problems == ["сумма очков 110\u202f000, должна быть 120\u202f000"]
    outsider = league.players[4]
    with pytest.raises(ResultsError, match="ровно для четырёх игроков этого матча"):
        enter_hanchan(
            session, league.organizer, mid, entry([*table[:3], outsider], [40000, 30000, 30000, 20000]), now=PLAYED
        )
    assert session.exec(select(Hanchan)).all() == []
    assert session.exec(select(AuditRecord).where(AuditRecord.action == "hanchan.enter")).all() == []


def test_form_parsing_names_every_bad_field() -> None:
    players = [(1, "Анна"), (2, "Борис"), (3, "Вера"), (4, "Глеб")]
    form = {"points_1": "40 000", "points_2": "тридцать", "points_3": "−5 000", "points_4": "", "riichi_left": "x"}
    with pytest.raises(ResultsError) as error:
        parse_entry(form, players, DEFAULT)
    assert error.value.problems == [
        "укажите очки: Глеб",  # an empty field is said once, as missing, not as «не целое число»
        "Борис: очки должны быть целым числом, указано «тридцать»",
        "палочки риичи на столе: нужно целое число, указано «x»",
    ]
    with pytest.raises(ResultsError) as error:
        parse_entry({"riichi_left": ""}, players, DEFAULT)
    assert error.value.problems == ["укажите очки: Анна, Борис, Вера, Глеб"]
    good = {"points_1": "40 000", "points_2": "30000", "points_3": "−5 000", "points_4": "54000", "riichi_left": "1"}
    parsed = parse_entry(good, players, DEFAULT)
    assert [r.points for r in parsed.results] == [40000, 30000, -5000, 54000]
    assert parsed.riichi_left == 1
    bad_sum = {**good, "riichi_left": "0", "chombo_2": "-1"}
    with pytest.raises(ResultsError) as error:
        parse_entry(bad_sum, players, DEFAULT)
    assert error.value.problems == [
        "чомбо игрока Борис не может быть отрицательным: −1",
        "сумма очков 119\u202f000, должна быть 120\u202f000",
    ]
    full_names = [
        (pid, name)
        for pid, name in zip((1, 2, 3, 4), ("Анна Ли", "Мария Кузнецова", "Вера Ким", "Глеб Ким"), strict=True)
    ]
    with pytest.raises(ResultsError) as error:  # the walk: «чомбо игрока Мария Кузнецова»
        parse_entry(bad_sum, full_names, DEFAULT)
    assert error.value.problems[0] == "чомбо игрока Марии Кузнецовой не может быть отрицательным: −1"


def test_absurd_numbers_in_a_result_form_are_refused_with_their_range() -> None:
    """A typo of many digits (chombo 99 999 999 999) must not reach the standings (it did: −4·10¹⁵ points)."""
    players = [(1, "Анна"), (2, "Борис"), (3, "Вера"), (4, "Глеб")]
    good = {"points_1": "40000", "points_2": "30000", "points_3": "30000", "points_4": "20000"}
    cases = {
        "chombo_1": ("99999999999", "Анна: чомбо — от 0 до 10 за ханчан, указано «99999999999»"),
        "points_2": ("9" * 40, f"Борис: очки — от −10\u202f000\u202f000 до 10\u202f000\u202f000, указано «{'9' * 40}»"),
        "riichi_left": ("1000", "палочки риичи на столе: от 0 до 100, указано «1000»"),
    }
    for field, (typed, said) in cases.items():
        with pytest.raises(ResultsError) as error:
            parse_entry({**good, field: typed}, players, DEFAULT)
        assert error.value.problems == [said]
    assert parse_entry({**good, "chombo_1": "10"}, players, DEFAULT).results[0].chombo == 10


def test_all_hanchans_entered_completes_the_match_and_refuses_a_fourth(session: Session, league: League) -> None:
    table = league.players[:4]
    mid = league.match(1, 1, table)
    for _ in range(3):
        enter_hanchan(session, league.users[table[1]], mid, entry(table, [40000, 30000, 30000, 20000]), now=PLAYED)
    assert session.get(Match, mid).status == MatchStatus.COMPLETE
    with pytest.raises(ResultsError, match="уже внесены"):
        enter_hanchan(session, league.users[table[1]], mid, entry(table, [40000, 30000, 30000, 20000]), now=PLAYED)


def test_the_same_scores_again_within_a_minute_need_an_explicit_yes(session: Session, league: League) -> None:
    table = league.players[:4]
    mid = league.match(1, 1, table)
    scores = [40000, 30000, 30000, 20000]
    first = enter_hanchan(session, league.users[table[0]], mid, entry(table, scores), repeat_ok=False, now=PLAYED)
    with pytest.raises(RepeatedResult, match="повторное нажатие"):  # a second tap on «Сохранить результат»
        enter_hanchan(session, league.users[table[0]], mid, entry(table, scores), repeat_ok=False, now=PLAYED)
    assert len(effective(session, mid)) == 1
    # Other scores, another user, or a minute later are no repeat; an explicit yes stores the same scores.
    enter_hanchan(session, league.users[table[1]], mid, entry(table, scores), repeat_ok=False, now=first.entered_at)
    later = first.entered_at + timedelta(minutes=1, seconds=1)
    enter_hanchan(session, league.users[table[1]], mid, entry(table, scores), repeat_ok=False, now=later)
    assert [h.number for h in effective(session, mid)] == [1, 2, 3]
    other = league.match(1, 2, league.players[4:8])
    enter_hanchan(
        session, league.users[league.players[4]], other, entry(league.players[4:8], scores), repeat_ok=False, now=PLAYED
    )
    enter_hanchan(
        session, league.users[league.players[4]], other, entry(league.players[4:8], scores), repeat_ok=True, now=PLAYED
    )
    assert len(effective(session, other)) == 2


def test_points_must_be_multiples_of_100() -> None:
    players = [(1, "Аня"), (2, "Боря"), (3, "Вера"), (4, "Гена")]
    form = {"points_1": "40050", "points_2": "30000", "points_3": "29950", "points_4": "-20000"}
    with pytest.raises(ResultsError) as error:
        parse_entry(form, players, DEFAULT)
    assert error.value.problems == [
        "Аня: очки должны быть кратны 100, указано «40050»",
        "Вера: очки должны быть кратны 100, указано «29950»",
    ]


def test_dispute_by_participant_then_correction_keeps_the_original(session: Session, league: League) -> None:
    table = league.players[:4]
    mid = league.match(1, 1, table)
    original = enter_hanchan(
        session, league.users[table[0]], mid, entry(table, [40000, 30000, 30000, 20000]), now=PLAYED
    )
    with pytest.raises(ResultsError, match="только участник"):
        dispute_hanchan(session, league.users[league.players[6]], original.id, "не согласен", now=PLAYED)
    dispute_hanchan(session, league.users[table[3]], original.id, "у меня было 25 000, а не 20 000", now=PLAYED)
    assert session.get(Hanchan, original.id).disputed
    with pytest.raises(ResultsError, match="только организатор"):
        correct_hanchan(
            session,
            league.judge,
            original.id,
            entry(table, [35000, 30000, 30000, 25000]),
            reason="x",
            decision="y",
            now=PLAYED,
        )
    with pytest.raises(ResultsError) as error:
        correct_hanchan(
            session,
            league.organizer,
            original.id,
            entry(table, [35000, 30000, 30000, 25000]),
            reason="",
            decision="",
            now=PLAYED,
        )
    assert error.value.problems == ["укажите причину", "укажите решение"]
    fixed = correct_hanchan(
        session,
        league.organizer,
        original.id,
        entry(table, [35000, 30000, 30000, 25000]),
        reason="ошибка подсчёта руки",
        decision="по протоколу Pantheon: 35 000 / 25 000",
        now=PLAYED,
    )
    session.commit()
    old = session.get(Hanchan, original.id)
    assert old.superseded_by_id == fixed.id and fixed.number == 1
    assert session.exec(select(HanchanResult).where(HanchanResult.hanchan_id == old.id)).all()  # original kept
    audit = session.exec(select(AuditRecord).where(AuditRecord.action == "hanchan.correct")).one()
    assert audit.reason == "ошибка подсчёта руки" and audit.actor_user_id == league.organizer.id
    assert json.loads(audit.before)["results"][0]["points"] == 40000
    assert json.loads(audit.after)["decision"] == "по протоколу Pantheon: 35 000 / 25 000"
    season = results_repo.load_season(session, league.season.id)
    (match,) = season.matches
    assert [r.points for r in match.hanchans[0].results] == [35000, 30000, 30000, 25000]
    with pytest.raises(ResultsError, match="уже заменён"):
        dispute_hanchan(session, league.users[table[3]], original.id, "ещё раз", now=PLAYED)


def test_resolving_a_dispute_is_organizer_only_and_recorded(session: Session, league: League) -> None:
    table = league.players[:4]
    mid = league.match(1, 1, table)
    h = enter_hanchan(session, league.users[table[0]], mid, entry(table, [40000, 30000, 30000, 20000]), now=PLAYED)
    dispute_hanchan(session, league.users[table[2]], h.id, "проверьте", now=PLAYED)
    with pytest.raises(ResultsError):
        resolve_dispute(session, league.users[table[0]], h.id, "всё верно", now=PLAYED)
    resolve_dispute(session, league.organizer, h.id, "сверено с Pantheon, верно", now=PLAYED)
    assert not session.get(Hanchan, h.id).disputed
    actions = session.exec(
        select(AuditRecord.action).where(AuditRecord.entity == "match", AuditRecord.entity_id == mid)
    ).all()
    assert actions == ["hanchan.enter", "hanchan.dispute", "hanchan.dispute_resolved"]


def test_hanchan_replay_replaces_instead_of_adding(session: Session, league: League) -> None:
    table = league.players[:4]
    mid = league.match(1, 1, table)
    h = enter_hanchan(session, league.users[table[0]], mid, entry(table, [40000, 30000, 30000, 20000]), now=PLAYED)
    correct_hanchan(
        session,
        league.organizer,
        h.id,
        entry(table, [20000, 30000, 30000, 40000]),
        reason="нарушение порядка",
        decision="переиграть ханчан",
        replay=True,
        now=PLAYED,
    )
    rows = {r.player: r for r in results_repo.db_standings(session, league.season.id)}
    # Only the replay counts: table[3] first (+25 000), table[0] last (−25 000).
    assert rows[table[3]].total == 25000 and rows[table[0]].total == -25000
    assert rows[table[3]].hanchans == 1


def test_match_replay_replaces_the_match_and_keeps_its_penalties(session: Session, league: League) -> None:
    table = league.players[:4]
    mid = league.match(1, 1, table)
    for _ in range(3):
        enter_hanchan(session, league.users[table[0]], mid, entry(table, [40000, 30000, 30000, 20000]), now=PLAYED)
    add_conduct_penalty(
        session, league.organizer, mid, table[1], amount=2000, violation="кручение тайлов", basis="RRC 2.0", now=PLAYED
    )
    new = replay_match(
        session, league.organizer, mid, reason="снятие участника", decision="переиграть матч", now=PLAYED
    )
    assert session.get(Match, mid).status == MatchStatus.REPLAY
    assert sorted(results_repo.seated_player_ids(session, new.id)) == sorted(table)
    rows = {r.player: r for r in results_repo.db_standings(session, league.season.id)}
    assert rows[table[0]].matches == 0 and rows[table[0]].total == 0
    assert rows[table[1]].total == -2000  # the conduct penalty carries over to the replay
    with pytest.raises(ResultsError, match="переигровку"):
        enter_hanchan(session, league.organizer, mid, entry(table, [40000, 30000, 30000, 20000]), now=PLAYED)
    begun_meeting(session, new.id, MET)
    enter_hanchan(session, league.users[table[2]], new.id, entry(table, [20000, 30000, 40000, 30000]), now=PLAYED)
    rows = {r.player: r for r in results_repo.db_standings(session, league.season.id)}
    assert rows[table[2]].total == 25000 and rows[table[2]].hanchans == 1


def test_penalties_are_organizer_only_and_count(session: Session, league: League) -> None:
    table = league.players[:4]
    mid = league.match(1, 1, table)
    with pytest.raises(ResultsError, match="только организатор"):
        add_no_show(session, league.judge, mid, table[0], now=PLAYED)
    with pytest.raises(ResultsError, match="не участвует"):
        add_no_show(session, league.organizer, mid, league.players[7], now=PLAYED)
    begun_meeting(session, mid, PLAYED - timedelta(hours=1))
    p = add_no_show(session, league.organizer, mid, table[0], now=PLAYED)
    assert (p.points, p.warning, p.kind) == (-80000, True, "no_show")
    with pytest.raises(ResultsError, match="уже назначен"):
        add_no_show(session, league.organizer, mid, table[0], now=PLAYED)
    with pytest.raises(ResultsError) as error:
        add_conduct_penalty(session, league.organizer, mid, table[1], amount=-5, violation="", basis="", now=PLAYED)
    assert len(error.value.problems) == 3
    # Not a number, or beyond any real penalty (it would not even fit the database's integers): refused, said so.
    for amount, said in ((None, "целое число очков"), (10**20, "от 0 до 1\u202f000\u202f000 очков")):
        with pytest.raises(ResultsError, match=said):
            add_conduct_penalty(
                session, league.organizer, mid, table[1], amount=amount, violation="x", basis="§5", now=PLAYED
            )
    warning = add_conduct_penalty(
        session, league.organizer, mid, table[1], amount=0, violation="телефон", basis="§5", now=PLAYED
    )
    assert warning.warning and warning.points == 0
    assert ema_step(1) == "5 очков"
    add_conduct_penalty(
        session, league.organizer, mid, table[1], amount=3000, violation="затягивание", basis="§5", now=PLAYED
    )
    rows = {r.player: r for r in results_repo.db_standings(session, league.season.id)}
    assert rows[table[0]].total == -80000 and rows[table[1]].total == -3000
    assert session.exec(select(AuditRecord).where(AuditRecord.action == "penalty.add")).all()
    assert len(session.exec(select(Penalty)).all()) == 3


def test_judge_ruling_is_recorded(session: Session, league: League) -> None:
    mid = league.match(1, 1, league.players[:4])
    with pytest.raises(ResultsError):
        add_ruling(
            session,
            league.users[league.players[0]],
            mid,
            hanchan_number=1,
            actions="a",
            disagreement="b",
            decision="c",
            now=PLAYED,
        )
    with pytest.raises(ResultsError) as error:
        add_ruling(session, league.judge, mid, hanchan_number=7, actions="", disagreement="b", decision="c", now=PLAYED)
    assert error.value.problems == ["номер ханчана должен быть от 1 до 3", "укажите последовательность действий"]
    ruling = add_ruling(
        session,
        league.judge,
        mid,
        hanchan_number=2,
        actions="пон, затем рон",
        disagreement="приоритет",
        decision="рон",
        now=PLAYED,
    )
    assert ruling.judge_user_id == league.judge.id


def test_tie_decision_settles_an_unresolved_tie(session: Session, league: League) -> None:
    a, b, c, d = league.players[:4]
    mid = league.match(1, 1, [a, b, c, d])
    enter_hanchan(session, league.organizer, mid, entry([a, b, c, d], [35000, 35000, 25000, 25000]), now=PLAYED)
    rows = results_repo.db_standings(session, league.season.id)
    assert [(r.player, r.place, r.unresolved_tie) for r in rows[:2]] == [(a, 1, True), (b, 1, True)]
    with pytest.raises(ResultsError, match="неразрешённого"):
        decide_tie(session, league.organizer, league.season.id, [a, c], "жребий", now=PLAYED)
    with pytest.raises(ResultsError, match="только организатор"):
        decide_tie(session, league.judge, league.season.id, [b, a], "жребий", now=PLAYED)
    decide_tie(session, league.organizer, league.season.id, [b, a], "жребий при свидетелях", now=PLAYED)
    rows = results_repo.db_standings(session, league.season.id)
    assert [(r.player, r.place, r.unresolved_tie) for r in rows[:2]] == [(b, 1, False), (a, 2, False)]


def test_standings_from_the_database_equal_those_from_the_exported_file(session: Session, league: League) -> None:
    p = league.players
    m1 = league.match(1, 1, p[:4])
    m2 = league.match(1, 2, p[4:])
    m3 = league.match(2, 1, [p[0], p[4], p[1], p[5]])
    for _ in range(3):
        enter_hanchan(session, league.organizer, m1, entry(p[:4], [41000, 29000, 30000, 19000], riichi=1), now=PLAYED)
        enter_hanchan(session, league.organizer, m2, entry(p[4:], [30000, 30000, 30000, 30000]), now=PLAYED)
    enter_hanchan(
        session,
        league.organizer,
        m3,
        entry([p[0], p[4], p[1], p[5]], [50000, 10000, 30000, 30000], chombo={p[4]: 1}),
        now=PLAYED,
    )
    begun_meeting(session, m2, PLAYED - timedelta(hours=1))
    add_no_show(session, league.organizer, m2, p[7], now=PLAYED)
    session.commit()
    from_db = results_repo.db_standings(session, league.season.id)
    document = json.loads(json.dumps(dump_season(results_repo.load_season(session, league.season.id))))
    season = parse_season(document)
    from_file = compute_standings(season.players, [score_match(m) for m in season.matches])
    assert from_db == from_file
    assert from_db[0].player == p[0] and from_db[0].matches == 2 and from_db[0].hanchans == 4
    assert len(session.exec(select(Match).where(col(Match.status) == MatchStatus.COMPLETE)).all()) == 2
