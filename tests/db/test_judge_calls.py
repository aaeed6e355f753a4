"""The judge's call (Регламент §6.2) and judge assignment (§6.3) on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

import pytest
import sqlalchemy as sa
from sqlmodel import Session, col, select

from services.core import outbox
from services.core.db import session_scope
from services.core.models import JudgeCall, OutboxEvent, Role
from services.results.hanchans import ResultsError
from services.results.judge_calls import (
    ESCALATE_AFTER,
    answer_call,
    assign_judge,
    call_judge,
    close_call,
    escalate_unanswered,
    open_calls_for,
)
from services.results.view import match_view
from services.scheduling import organizer as scheduling_admin
from tests import factories as f
from tests.factories import NOW, PLAYED, kirov

DURING = kirov(20, 19)  # the meeting is 20.11 18:00–22:30


def _league(db: sa.Engine) -> tuple[f.League, list]:
    with session_scope(db) as session:
        league = f.league(session)
        judges = [f.user(session, name=f"Судья {n}", role=Role.JUDGE) for n in (1, 2)]
        scheduling_admin.assign_meeting(session, match_id=league.match.id, start=kirov(20, 18), hanchans=3,
                                        room_id=league.room.id, actor_user_id=league.organizer.id, now=NOW)  # fmt: skip
    return league, judges


def test_a_seated_player_calls_during_the_meeting_only(db: sa.Engine) -> None:
    league, _ = _league(db)
    with session_scope(db) as session, pytest.raises(ResultsError, match="встреча не идёт"):
        call_judge(session, league.users[0], league.match.id, hanchan_number=2, description="чомбо?", now=kirov(21, 12))
    with session_scope(db) as session, pytest.raises(ResultsError, match="только игрок за этим столом"):
        call_judge(session, league.organizer, league.match.id, hanchan_number=2, description="x", now=DURING)
    with session_scope(db) as session, pytest.raises(ResultsError, match="Опишите"):
        call_judge(session, league.users[0], league.match.id, hanchan_number=2, description="  ", now=DURING)
    with Session(db) as session:
        assert session.exec(select(JudgeCall).where(JudgeCall.match_id == league.match.id)).all() == []


def test_the_assigned_judge_gets_the_call_first_then_the_organizer_after_ten_minutes(db: sa.Engine) -> None:
    league, (first, second) = _league(db)
    with session_scope(db) as session:
        with pytest.raises(ResultsError):
            assign_judge(
                session, league.users[0], judge_user_id=second.id, match_id=league.match.id, now=PLAYED
            )  # not organizer
        assign_judge(session, league.organizer, judge_user_id=first.id, round_id=league.rounds[0].id, now=PLAYED)
        assign_judge(
            session, league.organizer, judge_user_id=second.id, match_id=league.match.id, now=PLAYED
        )  # the match wins
        call = call_judge(session, league.users[1], league.match.id, hanchan_number=2,
                          description="спор о фуритене", now=DURING)  # fmt: skip
        call_id = call.id
    with Session(db, expire_on_commit=False) as session:
        assert session.get(JudgeCall, call_id).judge_user_id == second.id
        assert [c.id for c in open_calls_for(session, second, now=DURING)] == [call_id]
        assert call_id not in [c.id for c in open_calls_for(session, first, now=DURING)]
        assert call_id not in [c.id for c in open_calls_for(session, league.organizer, now=DURING)]
        later = DURING + timedelta(minutes=10)
        assert call_id in [c.id for c in open_calls_for(session, league.organizer, now=later)]
        event = session.exec(
            select(OutboxEvent).where(OutboxEvent.kind == outbox.JUDGE_CALLED).order_by(col(OutboxEvent.id).desc())
        ).first()  # PostgreSQL's run database is shared: the newest is this test's
        assert event.match_id is None and f'"judge_user_id": {second.id}' in event.payload
    with session_scope(db) as session:
        answer_call(session, second, call_id, now=DURING + timedelta(minutes=2))
    with Session(db, expire_on_commit=False) as session:  # answered: no escalation
        assert call_id not in [c.id for c in open_calls_for(session, league.organizer, now=DURING + timedelta(hours=1))]
    with session_scope(db) as session:
        close_call(session, second, call_id, actions="дискард после риичи", disagreement="фуритен",
                   decision="фуритен, рон отменён", now=DURING + timedelta(minutes=5))  # fmt: skip
        with pytest.raises(ResultsError, match="уже закрыт"):
            answer_call(session, second, call_id, now=DURING + timedelta(minutes=6))
    with Session(db, expire_on_commit=False) as session:
        assert open_calls_for(session, second, now=DURING + timedelta(minutes=6)) == []
        view = match_view(session, league.organizer, league.match.id)
        what = [row["what"] for row in view.protocol]
        assert what[-4:] == ["вызов судьи", "судья принял вызов", "решение судьи", "вызов закрыт решением судьи"]
        call_row = next(row for row in view.protocol if row["what"] == "вызов судьи")
        assert call_row["reason"] == "спор о фуритене" and "ханчан 2" in call_row["detail"]


def test_an_unanswered_call_reaches_the_organizer_once_through_the_bot(db: sa.Engine) -> None:
    """Регламент §6.2 «при невозможности связаться — к организатору»: one event per call, after ESCALATE_AFTER."""
    league, _ = _league(db)
    with session_scope(db) as session:
        first = call_judge(session, league.users[0], league.match.id, hanchan_number=1, description="спор о фуритэн",
                           now=DURING)  # fmt: skip
        second = call_judge(session, league.users[1], league.match.id, hanchan_number=1, description="чомбо?",
                            now=DURING)  # fmt: skip
        first_id, second_id = first.id, second.id
    with session_scope(db) as session:
        early = escalate_unanswered(session, now=DURING + ESCALATE_AFTER - timedelta(minutes=1))
        assert {c.id for c in early} & {first_id, second_id} == set()  # this test's calls (the database is shared)
        answer_call(session, league.organizer, second_id, now=DURING + timedelta(minutes=2))  # answered: not escalated
    for _ in range(2):  # twice: still one event
        with session_scope(db) as session:
            escalate_unanswered(session, now=DURING + ESCALATE_AFTER + timedelta(minutes=5))
    with Session(db) as session:
        keys = [f"judge-call-unanswered-{first_id}", f"judge-call-unanswered-{second_id}"]
        events = session.exec(  # this test's calls only: a PostgreSQL database is shared by the tests of a run
            select(OutboxEvent).where(OutboxEvent.kind == "judge_call_unanswered", col(OutboxEvent.once_key).in_(keys))
        ).all()
        assert [e.once_key for e in events] == keys[:1]
        assert '"waited_minutes": 15' in events[0].payload and "Тур 1" in events[0].payload
        assert second_id != first_id


def test_a_judge_for_a_day_before_any_season_is_refused_in_words(db: sa.Engine) -> None:
    """Regression (found by the type check): with no season yet, a day's assignment had no season to belong to and
    failed on the database (season_id NOT NULL) instead of answering why. A database of its own: the run's shared
    PostgreSQL database holds other tests' seasons."""
    with session_scope(db) as session:
        organizer = f.user(session, name="Организатор Лиги", role=Role.ORGANIZER)
        judge = f.user(session, name="Судья Дня", role=Role.JUDGE)
        with pytest.raises(ResultsError, match="Сезон ещё не создан"):
            assign_judge(session, organizer, judge_user_id=judge.id, day="2026-11-20", now=NOW)
