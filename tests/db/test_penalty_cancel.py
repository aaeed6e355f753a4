"""Регламент §5, §6.3: the organizer's penalty is undone with a reason; the standings follow, the protocol keeps
both; a second cancellation at the same instant finds it gone (SQLite and PostgreSQL)."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from sqlmodel import Session, select

from services.core.db import session_scope
from services.core.models import AuditRecord, Penalty, User
from services.playoff.hanchan_entry import enter_hanchan
from services.results import repo as results_repo
from services.results.hanchans import ResultsError
from services.results.penalties import add_conduct_penalty, add_no_show, cancel_penalty
from services.results.view import match_view
from tests.db.test_results import League, entry
from tests.factories import begun_meeting

PLAYED = datetime(2026, 12, 5, 15, 0, tzinfo=UTC)


def test_a_cancelled_penalty_leaves_the_standings_and_stays_in_the_protocol(session: Session, league: League) -> None:
    table = league.players[:4]
    mid = league.match(1, 1, table)
    enter_hanchan(session, league.organizer, mid, entry(table, [45000, 35000, 25000, 15000]), now=PLAYED)
    begun_meeting(session, mid, PLAYED - timedelta(hours=1))
    no_show = add_no_show(session, league.organizer, mid, table[0], now=PLAYED)
    add_conduct_penalty(session, league.organizer, mid, table[1], amount=2000, violation="шум", basis="§5", now=PLAYED)
    before = {r.player: r.total for r in results_repo.db_standings(session, league.season.id)}
    with pytest.raises(ResultsError, match="только организатор"):
        cancel_penalty(session, league.judge, no_show.id, reason="ошибка", now=PLAYED)
    with pytest.raises(ResultsError, match="причину"):
        cancel_penalty(session, league.organizer, no_show.id, reason="  ", now=PLAYED)
    cancel_penalty(session, league.organizer, no_show.id, reason="игрок предупредил заранее", now=PLAYED)
    after = {r.player: r.total for r in results_repo.db_standings(session, league.season.id)}
    assert after[table[0]] == before[table[0]] + 80000  # the −80 000 is gone
    assert after[table[1]] == before[table[1]]  # the other penalty stays
    with pytest.raises(ResultsError, match="уже отменён"):
        cancel_penalty(session, league.organizer, no_show.id, reason="ещё раз", now=PLAYED)
    view = match_view(session, league.organizer, mid)
    assert [p["kind"] for p in view.penalties] == ["поведение"]
    cancelled = next(r for r in view.protocol if r["what"] == "штраф отменён")
    assert cancelled["reason"] == "игрок предупредил заранее" and "−80\u202f000" in cancelled["detail"]
    assert any(r["what"] == "штраф" and "−80\u202f000" in r["detail"] for r in view.protocol)  # the penalty as it was
    add_no_show(session, league.organizer, mid, table[0], now=PLAYED)  # it may be given again, rightly this time


def test_two_cancellations_at_once_cancel_once(db: sa.Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("services.core.security.hash_password", lambda password: "test-hash")
    with session_scope(db) as session:
        league = League(session)
        table = league.players[:4]
        mid = league.match(1, 1, table)
        begun_meeting(session, mid, PLAYED - timedelta(hours=1))
        penalty_id = add_no_show(session, league.organizer, mid, table[0], now=PLAYED).id
        organizer_id = league.organizer.id
    outcomes: list[str] = []
    barrier = threading.Barrier(2)

    def cancel() -> None:
        barrier.wait()
        try:
            with session_scope(db) as session:
                cancel_penalty(session, session.get(User, organizer_id), penalty_id, reason="ошибка", now=PLAYED)
            outcomes.append("ok")
        except ResultsError as error:
            outcomes.append(str(error))

    threads = [threading.Thread(target=cancel) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["ok", "Этот штраф уже отменён или не найден."]
    with Session(db) as session:
        assert session.get(Penalty, penalty_id) is None
        rows = session.exec(
            select(AuditRecord).where(AuditRecord.action == "penalty.cancel", AuditRecord.entity_id == mid)
        ).all()
        assert len(rows) == 1
