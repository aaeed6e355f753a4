"""Starting winds (Регламент §4 «Выбор начальных ветров»): one draw per hanchan by the table, redraws by staff only,
and simultaneous draws (threads, processes) never both count — on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import multiprocessing
import random
import threading

import pytest
import sqlalchemy as sa
from sqlmodel import Session, select

from services.core.db import make_engine, session_scope
from services.core.models import AuditRecord, Match, Role, Seat, User
from services.results import winds
from tests import factories as f


def _draw(db: sa.Engine, match_id: int, number: int, user_id: int) -> tuple[int, ...]:
    with session_scope(db) as session:
        return winds.draw_winds(session, match_id, number, actor=session.get(User, user_id), rng=random.Random())


def test_the_table_draws_once_and_staff_redraws_on_the_record(session: Session, engine: sa.Engine) -> None:
    league = f.league(session)
    judge = f.user(session, role=Role.JUDGE)
    session.commit()
    match_id, players = league.match.id, [u.id for u in league.users]
    first = _draw(engine, match_id, 1, players[0])
    for user_id in players:  # the one who drew and the other three alike
        with pytest.raises(winds.WindsError, match="уже выбраны"):
            _draw(engine, match_id, 1, user_id)
    assert _draw(engine, match_id, 2, players[1])  # the next hanchan has its own draw
    redraw = _draw(engine, match_id, 1, judge.id)
    assert sorted(redraw) == sorted(first)
    with Session(engine) as fresh:
        assert winds.drawn_winds(fresh, match_id)[1] == redraw
        records = fresh.exec(select(AuditRecord).where(AuditRecord.action == "hanchan.winds")).all()
    assert len(records) == 3
    last = records[-1]
    assert (last.actor_user_id, last.reason) == (judge.id, "перевыбор ветров")
    assert json.loads(last.before) == {"number": 1, "winds": list(first)}


def _race_once(db: sa.Engine, match_id: int, players: list[int], number: int) -> list[str]:
    barrier = threading.Barrier(len(players))
    outcomes: list[str] = []

    def draw(user_id: int) -> None:
        barrier.wait()
        try:
            _draw(db, match_id, number, user_id)
            outcomes.append("drawn")
        except winds.WindsError:
            outcomes.append("refused")

    threads = [threading.Thread(target=draw, args=(user_id,)) for user_id in players]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return sorted(outcomes)


def _race(db: sa.Engine, runs: int) -> None:
    with session_scope(db) as session:
        league = f.league(session)
        match_id, players = league.match.id, [u.id for u in league.users]
        session.get(Match, match_id).planned_hanchans = runs  # every run a hanchan number of its own
    for number in range(1, runs + 1):
        outcomes = _race_once(db, match_id, players, number)
        assert outcomes == ["drawn", "refused", "refused", "refused"], f"hanchan {number}: {outcomes}"
    with Session(db) as session:
        records = session.exec(
            select(AuditRecord).where(AuditRecord.action == "hanchan.winds", AuditRecord.entity_id == match_id)
        ).all()
    assert len(records) == runs


def test_four_players_drawing_at_once_make_one_draw_on_sqlite(engine: sa.Engine) -> None:
    _race(engine, 20)


@pytest.mark.postgres
def test_four_players_drawing_at_once_make_one_draw_on_postgresql(pg_engine: sa.Engine) -> None:
    _race(pg_engine, 20)


def _draw_rounds(url: str, match_id: int, user_id: int, runs: int, barrier, results) -> None:  # noqa: ANN001
    """One process of the race: for each hanchan number, wait for the others, then draw."""
    db = make_engine(url)
    outcomes = []
    for number in range(1, runs + 1):
        barrier.wait()
        try:
            _draw(db, match_id, number, user_id)
            outcomes.append("drawn")
        except winds.WindsError:
            outcomes.append("refused")
    db.dispose()
    results.put((user_id, outcomes))


def _process_race(db: sa.Engine, url: str, runs: int) -> None:
    with session_scope(db) as session:
        league = f.league(session)
        match_id, players = league.match.id, [u.id for u in league.users]
        session.get(Match, match_id).planned_hanchans = runs
    ctx = multiprocessing.get_context("spawn")
    barrier, results = ctx.Barrier(len(players)), ctx.Queue()
    processes = [
        ctx.Process(target=_draw_rounds, args=(url, match_id, user_id, runs, barrier, results)) for user_id in players
    ]
    for p in processes:
        p.start()
    by_player = dict(results.get(timeout=120) for _ in processes)
    for p in processes:
        p.join(30)
    for number in range(runs):
        drawn = [uid for uid, outcomes in by_player.items() if outcomes[number] == "drawn"]
        assert len(drawn) == 1, f"hanchan {number + 1}: drawn by {drawn}"


def test_four_processes_drawing_at_once_make_one_draw_on_sqlite(engine: sa.Engine, sqlite_url: str) -> None:
    _process_race(engine, sqlite_url, 20)


@pytest.mark.postgres
def test_four_processes_drawing_at_once_make_one_draw_on_postgresql(pg_engine: sa.Engine, postgres_url: str) -> None:
    _process_race(pg_engine, postgres_url, 20)


# --- h-proto: the playoff page's load read only (issue 24 item 3) -------------------------------------------------


def test_a_hanchan_entered_after_its_draw_takes_the_winds_as_it_is_entered(session: Session) -> None:
    """Регламент §4: the winds drawn for hanchan 1 are on its row as soon as it is entered — no page load (the
    /playoff page used to copy them there, writing on a load) and no complete match needed."""
    from services.playoff.hanchan_entry import enter_hanchan
    from services.results.entry import Entry
    from services.results.scoring import TableResult

    league = f.league(session)
    match_id, players = (
        league.match.id,
        [s.player_id for s in session.exec(select(Seat).where(Seat.match_id == league.match.id).order_by(Seat.seed))],
    )
    drawn = winds.draw_winds(session, match_id, 1, actor=league.users[0], rng=random.Random(5))
    points = (45_000, 35_000, 25_000, 15_000)
    entry = Entry(tuple(TableResult(p, x) for p, x in zip(players, points, strict=True)), 0)
    f.begun_meeting(session, match_id, f.MET)
    hanchan = enter_hanchan(session, league.organizer, match_id, entry, now=f.PLAYED)
    assert session.get(Match, match_id).status != "complete"  # one of three: the match goes on
    assert hanchan.winds == ",".join(map(str, drawn))
