"""A whole playoff in the database: closing the regular stage, windows, rounds created as results come in, a tie
decided by the organizer, the final of five hanchans, seat winds (Регламент §2, §3, §4)."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime

import pytest
from sqlmodel import Session, col, select

from services.core import outbox
from services.core.models import (
    AuditRecord,
    Hanchan,
    Match,
    MatchStatus,
    OutboxEvent,
    Player,
    Role,
    Round,
    Season,
    Seat,
    Stage,
    StageKind,
    TieDecision,
    User,
)
from services.league.accounts import create_user
from services.league.roster import add_player
from services.league.seasons import SeasonError, finish_preview, finish_season
from services.playoff import stage as playoff
from services.playoff.hanchan_entry import enter_hanchan
from services.results import winds
from services.results.entry import ResultsError
from services.results.hanchans import Entry
from services.results.penalties import decide_tie
from services.results.scoring import TableResult
from services.scheduling.organizer import assignable_hanchans
from services.views import history
from services.views.standing_note import standing_notes
from tests.factories import MET, PLAYED, begun_meeting

IN_ORDER = [45000, 35000, 25000, 15000]
LEVEL = [30000] * 4
# Seats 2 and 3 end level on total and average place (5/2 each): unresolved 2nd–3rd.
FULL_TIE = ([45000, 32000, 25000, 18000], [45000, 25000, 32000, 18000], LEVEL)


def at(day: int, hour: int = 0) -> datetime:
    return datetime(2026, 12, day, hour, tzinfo=UTC)


class League:
    """Twelve players, one regular tour of three tables (enough for the bracket), an organizer and a player."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.organizer, _ = create_user(session, display_name="Организатор Плей-офф", role=Role.ORGANIZER)
        self.season = Season(name="Плей-офф тест")
        session.add(self.season)
        session.flush()
        stage = Stage(season_id=self.season.id, kind=StageKind.REGULAR)
        session.add(stage)
        session.flush()
        self.tour = Round(stage_id=stage.id, code="1")
        session.add(self.tour)
        session.flush()
        self.p = {}  # 1..12 → Player.id
        for n in range(1, 13):
            player, _ = add_player(session, self.season, f"Участник {n:02d}", actor_user_id=self.organizer.id)
            self.p[n] = player.id
        self.n = {pid: n for n, pid in self.p.items()}

    def play(self, match_id: int, seats: list[int], *points: list[int]) -> None:
        """Enter hanchans through the real results service, seats given as player numbers 1..12, at a meeting."""
        begun_meeting(self.session, match_id, MET)
        for pts in points:
            results = tuple(TableResult(self.p[s], x) for s, x in zip(seats, pts, strict=True))
            enter_hanchan(self.session, self.organizer, match_id, Entry(results, 0), now=PLAYED)

    def regular(self, *tables: tuple[list[int], list[list[int]]]) -> None:
        for number, (seats, points) in enumerate(tables, start=1):
            m = Match(round_id=self.tour.id, table=str(number), status=MatchStatus.PLAYING)
            self.session.add(m)
            self.session.flush()
            for seed, s in enumerate(seats, start=1):
                self.session.add(Seat(match_id=m.id, player_id=self.p[s], seed=seed))
            self.play(m.id, seats, *points)

    def user(self, number: int) -> User:
        return self.session.get(User, self.session.get(Player, self.p[number]).user_id)

    def bracket(self):
        return playoff.load_bracket(self.session, self.season)

    def numbers(self, players) -> list[int]:
        return [self.n[p] for p in players]

    def table_seats(self, round_: str) -> list[int]:
        view = self.bracket()
        match_id = view.match_ids[round_]
        seats = self.session.exec(select(Seat).where(Seat.match_id == match_id).order_by(col(Seat.seed))).all()
        return [self.n[s.player_id] for s in seats]


@pytest.fixture
def league(session: Session) -> League:
    lg = League(session)
    # Table 1 (1–4) and table 3 (9–12) in seat order; table 2 (5–8) all level: 5–8 tied for places 5–8.
    lg.regular(
        ([1, 2, 3, 4], [IN_ORDER] * 3),
        ([5, 6, 7, 8], [LEVEL] * 3),
        ([9, 10, 11, 12], [[44000, 34000, 26000, 16000]] * 3),
    )
    return lg


def test_closing_is_refused_for_a_tie_in_the_top_eight_and_for_a_player(league: League, session: Session) -> None:
    player_user = create_user(session, display_name="Просто Игрок", role=Role.PLAYER)[0]
    with pytest.raises(playoff.PlayoffError, match="только организатор"):
        playoff.close_regular_stage(session, league.season, actor=player_user)
    with pytest.raises(playoff.PlayoffError) as refused:
        playoff.close_regular_stage(session, league.season, actor=league.organizer)
    message = str(refused.value)
    assert "места 5–8" in message and "«Участник 05»" in message and "стол первого раунда" in message
    assert playoff.playoff_stage(session, league.season.id) is None
    assert not session.exec(select(Stage).where(Stage.kind == StageKind.PLAYOFF)).all()
    # No final yet: finishing the season is refused, and its question says so instead of asking.
    assert finish_preview(session, league.season).refusal == "Финал ещё не сыгран: сезон завершается после финала."
    with pytest.raises(SeasonError, match="Финал ещё не сыгран"):
        finish_season(session, league.season, now=at(28), actor_user_id=league.organizer.id)


def test_a_whole_playoff(league: League, session: Session) -> None:
    p = league.p
    decide_tie(session, league.organizer, league.season.id, [p[8], p[6], p[5], p[7]], reason="жребий", now=PLAYED)
    # Standings: 1, 9 (winners), 2, 10 (seconds), 8, 6, 5, 7 (decided), then 11, 3, 12, 4 (26 000 beats 25 000).
    preview = league.bracket()
    assert not preview.started and league.numbers(preview.bracket.seeds) == [1, 9, 2, 10, 8, 6, 5, 7]

    bracket = playoff.close_regular_stage(
        session, league.season, actor=league.organizer, round_one_window=(at(1), at(14))
    )
    assert league.table_seats("1A") == [1, 2, 8, 5] and league.table_seats("1B") == [9, 10, 6, 7]
    assert [t.round for t in bracket.tables] == ["1A", "1B"]
    rounds = {r.code: r for r in session.exec(select(Round).join(Stage).where(Stage.kind == StageKind.PLAYOFF))}
    assert sorted(rounds) == ["1", "2", "3", "F"] and rounds["1"].window_end == at(14)
    assert session.exec(select(AuditRecord).where(AuditRecord.action == "playoff.open")).one()
    # Issue 28 item 4: the tenth place reads that her season ends here (Регламент §2); a seeded player reads nothing.
    (out,) = standing_notes(session, league.user(3), at(2))
    assert out.title == "Регулярный этап завершён" and out.text.startswith(
        "Вы заняли 10 место; в плей-офф проходят первые 8"
    )
    assert standing_notes(session, league.user(1), at(2)) == []
    with pytest.raises(playoff.PlayoffError, match="уже закрыт"):
        playoff.close_regular_stage(session, league.season, actor=league.organizer)

    with pytest.raises(playoff.PlayoffError, match="раньше, чем заканчивается раунд 1"):
        playoff.set_round_window(session, league.season, "2", at(10), at(20), actor=league.organizer, now=at(2))
    playoff.set_round_window(session, league.season, "2", at(15), at(21), actor=league.organizer, now=at(2, 9))
    assert league.bracket().windows["2"] == (at(15), at(21))
    # Issue 41: a round's window is stored, audited and told to its matches at the shell's `now`, not the clock's.
    playoff.set_round_window(session, league.season, "1", at(1), at(13), actor=league.organizer, now=at(2, 10))
    audits = session.exec(select(AuditRecord.after, AuditRecord.at).where(AuditRecord.action == "round.window")).all()
    assert [(json.loads(after)["playoff_round"], when) for after, when in audits] == [("2", at(2, 9)), ("1", at(2, 10))]
    told = session.exec(
        select(OutboxEvent.match_id, OutboxEvent.created_at).where(OutboxEvent.kind == outbox.WINDOW_CHANGED)
    ).all()
    assert sorted(told) == sorted((league.bracket().match_ids[r], at(2, 10)) for r in ("1A", "1B"))

    ids = league.bracket().match_ids
    assert assignable_hanchans(session, ids["1A"], now=PLAYED) == [1, 2, 3]  # a playoff round's three, not five
    league.play(ids["1A"], [5, 1, 8, 2], *[IN_ORDER] * 3)  # 5, 1 up; 8, 2 down
    assert "2U" not in league.bracket().match_ids  # 1B not played yet
    # Регламент §2: the last hanchan of round 1 creates round 2 at once, before anyone opens the bracket.
    league.play(ids["1B"], [7, 6, 10, 9], *[IN_ORDER] * 3)  # 7, 6 up; 10, 9 down
    assert {"2U", "2L"} <= set(league.bracket().match_ids)
    assert playoff.advance_playoff(session, league.season) == []  # idempotent: the bracket page finds nothing to do
    assert league.table_seats("2U") == [5, 1, 7, 6] and league.table_seats("2L") == [8, 2, 10, 9]

    ids = league.bracket().match_ids
    league.play(ids["2U"], [1, 7, 5, 6], *FULL_TIE)  # 1 final; 7 and 5 tied across the line; 6 round 3
    league.play(ids["2L"], [2, 9, 8, 10], *[IN_ORDER] * 3)  # 2, 9 round 3; 8, 10 out
    assert playoff.advance_playoff(session, league.season) == []
    assert any("«Участник 07», «Участник 05»" in reason for reason in league.bracket().bracket.pending)
    with pytest.raises(playoff.PlayoffError, match="ровно всех"):
        playoff.decide_match_tie(
            session, league.season, ids["2U"], [p[7], p[6]], reason="жребий", actor=league.organizer, now=PLAYED
        )
    playoff.decide_match_tie(
        session, league.season, ids["2U"], [p[5], p[7]], reason="жребий", actor=league.organizer, now=PLAYED
    )
    assert session.exec(select(TieDecision).where(TieDecision.match_id == ids["2U"])).one().ordered_player_ids
    assert "3" in league.bracket().match_ids  # the decision completed round 2: round 3 is there
    assert playoff.advance_playoff(session, league.season) == []
    assert league.table_seats("3") == [7, 6, 2, 9]

    league.play(league.bracket().match_ids["3"], [9, 7, 6, 2], *[IN_ORDER] * 3)  # 9, 7 final
    assert "F" in league.bracket().match_ids and playoff.advance_playoff(session, league.season) == []
    assert league.table_seats("F") == [1, 5, 9, 7]
    final_id = league.bracket().match_ids["F"]
    assert session.get(Match, final_id).planned_hanchans == 5
    # Issue 28 item 9: the organizer's assign dialog offers the final's five hanchans (Регламент §2), a round's three.
    assert assignable_hanchans(session, final_id, now=PLAYED) == [1, 2, 3, 4, 5]
    assert assignable_hanchans(session, ids["2U"], now=PLAYED) == []  # played: nothing left to assign

    drawn = winds.draw_winds(session, final_id, 1, actor=league.organizer, rng=random.Random(3))
    assert sorted(drawn) == sorted(p[n] for n in (1, 5, 9, 7))
    league.play(final_id, [9, 1, 7, 5], *[IN_ORDER] * 4)
    view = league.bracket()
    assert view.bracket.final_places == () and "финал: сыграно 4 из 5 ханчанов" in view.bracket.pending
    league.play(final_id, [9, 1, 7, 5], IN_ORDER)
    assert playoff.advance_playoff(session, league.season) == []
    view = league.bracket()
    assert league.numbers(view.bracket.final_places) == [9, 1, 7, 5]
    assert view.bracket.table("F").advance[p[9]] == "champion"
    assert view.bracket.pending == ()
    first = session.exec(select(Hanchan).where(Hanchan.match_id == final_id, Hanchan.number == 1)).one()
    assert first.winds == ",".join(map(str, drawn))  # the draw is recorded with the hanchan
    created = session.exec(select(AuditRecord).where(AuditRecord.action == "playoff.table")).all()
    assert [json.loads(a.after)["round"] for a in created] == ["1A", "1B", "2U", "2L", "3", "F"]

    # Issue 17: the final is played, so the season closes; it is then an archive with its champion and top eight.
    # Issue 25 item 4: the question asked first names the champion and the final's places.
    preview = finish_preview(session, league.season)
    assert (preview.champion, preview.podium[:2], preview.refusal) == (
        "Участник 09",
        ("Участник 09", "Участник 01"),
        "",
    )
    finish_season(session, league.season, now=at(28), actor_user_id=league.organizer.id)
    assert finish_preview(session, league.season).refusal == f"Сезон «{league.season.name}» уже завершён."
    with pytest.raises(SeasonError, match="уже завершён"):
        finish_season(session, league.season, now=at(29), actor_user_id=league.organizer.id)
    summary = history.season_summaries(session)[0]
    assert (summary.champion, summary.status) == ("Участник 09", "завершён 28.12.2026")
    assert summary.top[:4] == ("1. Участник 09", "2. Участник 01", "3. Участник 07", "4. Участник 05")
    assert len(summary.top) == 8
    (champion,) = standing_notes(session, league.user(9), at(28))
    assert champion.title == "Сезон «Плей-офф тест» завершён" and champion.text == "Ваше итоговое место — 1 из 12."
    assert standing_notes(session, league.user(4), at(28))[0].text == "Ваше итоговое место — 12 из 12."
    with pytest.raises(ResultsError, match="в архиве"):
        league.play(final_id, [9, 1, 7, 5], IN_ORDER)


def test_winds_are_drawn_only_by_the_table_or_staff(league: League, session: Session) -> None:
    p = league.p
    decide_tie(session, league.organizer, league.season.id, [p[8], p[6], p[5], p[7]], reason="жребий", now=PLAYED)
    playoff.close_regular_stage(session, league.season, actor=league.organizer)
    match_id = league.bracket().match_ids["1B"]
    user_a = session.get(User, session.get(Player, p[1]).user_id)  # seated at table A, not B
    with pytest.raises(winds.WindsError, match="участники матча"):
        winds.draw_winds(session, match_id, 1, actor=user_a, rng=random.Random(1))
    user_b = session.get(User, session.get(Player, p[9]).user_id)
    assert len(winds.draw_winds(session, match_id, 3, actor=user_b, rng=random.Random(1))) == 4
    with pytest.raises(winds.WindsError, match="от 1 до 3"):
        winds.draw_winds(session, match_id, 4, actor=user_b, rng=random.Random(1))
