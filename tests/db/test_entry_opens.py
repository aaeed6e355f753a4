"""Results open with the meeting (issue 45 item 2, Регламент §6.2, §6.3), on SQLite and PostgreSQL: a player or the
judge enters a hanchan once the meeting that holds it has begun — a split match's later hanchans with its later
meeting — and the organizer outside a meeting only with a reason, which the protocol keeps."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from sqlmodel import Session, col, select

from services.core.db import session_scope
from services.core.models import AuditRecord, Hanchan, Role, User, saved
from services.playoff.hanchan_entry import enter_hanchan
from services.results.hanchans import OUTSIDE_MEETING, Entry, HanchanTaken, ResultsError
from services.results.scoring import TableResult
from services.results.view import match_view
from services.scheduling import organizer
from services.scheduling.decide import NO_MEETING
from tests import factories as f
from tests.factories import NOW, kirov


def _entry(league: f.League) -> Entry:
    points = (40_000, 30_000, 30_000, 20_000)
    return Entry(tuple(TableResult(p, x) for p, x in zip(league.player_ids, points, strict=True)), 0)  # type: ignore[attr-defined]


def _enter(db: sa.Engine, league: f.League, user_id: int, now, reason: str = "", number: int | None = None) -> None:  # noqa: ANN001, PLR0913
    with session_scope(db) as session:
        user = session.get_one(User, user_id)
        enter_hanchan(session, user, league.match_id, _entry(league), now=now, reason=reason, number=number)


def _stored(db: sa.Engine, match_id: int) -> tuple[int, list[str]]:
    with Session(db) as session:
        hanchans = session.exec(select(Hanchan).where(Hanchan.match_id == match_id)).all()
        reasons = session.exec(
            select(AuditRecord.reason)
            .where(
                AuditRecord.entity == "match", AuditRecord.entity_id == match_id, AuditRecord.action == "hanchan.enter"
            )
            .order_by(col(AuditRecord.id))
        ).all()
        return len(hanchans), list(reasons)


def _closed_for(db: sa.Engine, league: f.League, user_id: int, now) -> str:  # noqa: ANN001
    with Session(db) as session:
        user = session.get_one(User, user_id)
        view = match_view(session, user, league.match_id, now=now)
        assert view is not None
        return view.entry_closed


def test_a_split_match_opens_each_hanchan_with_the_meeting_that_holds_it(db: sa.Engine) -> None:
    with Session(db) as session:
        league = f.league(session)
        judge = f.user(session, role=Role.JUDGE)
        session.commit()
        league.match_id = saved(league.match.id)  # type: ignore[attr-defined]
        league.player_ids = [saved(p.id) for p in league.players]  # type: ignore[attr-defined]
        player, judge_id, organizer_id = league.users[1].id, judge.id, league.organizer.id
    with session_scope(db) as session:  # Регламент §2: two meetings, 2 hanchans on Wednesday and 1 on Friday
        for start, hanchans in ((kirov(18, 18), 2), (kirov(20, 18), 1)):
            organizer.assign_meeting(
                session,
                match_id=league.match_id,
                start=start,
                hanchans=hanchans,
                actor_user_id=organizer_id,
                now=NOW,
            )
    # two days before the booked meeting (the player): refused, saying when, and nothing stored
    first = "Результаты откроются с началом встречи: ср 18.11.2026 18:00."
    for who in (player, judge_id):
        with pytest.raises(ResultsError, match=first):
            _enter(db, league, who, kirov(16, 18))
    assert _stored(db, league.match_id) == (0, [])
    assert _closed_for(db, league, player, kirov(16, 18)) == first
    # the meeting began: its two hanchans
    _enter(db, league, player, kirov(18, 18))
    _enter(db, league, judge_id, kirov(18, 21))
    # the third belongs to Friday's meeting
    with pytest.raises(ResultsError, match="Результаты откроются с началом встречи: пт 20.11.2026 18:00."):
        _enter(db, league, player, kirov(18, 22))
    assert _stored(db, league.match_id) == (2, ["", ""])
    assert _closed_for(db, league, player, kirov(20, 18)) == ""
    _enter(db, league, player, kirov(20, 19))
    assert _stored(db, league.match_id) == (3, ["", "", ""])


def test_without_a_meeting_only_the_organizer_enters_and_the_protocol_keeps_why(db: sa.Engine) -> None:
    with Session(db) as session:
        league = f.league(session)
        session.commit()
        league.match_id = saved(league.match.id)  # type: ignore[attr-defined]
        league.player_ids = [saved(p.id) for p in league.players]  # type: ignore[attr-defined]
        player, organizer_id = league.users[0].id, league.organizer.id
    with pytest.raises(ResultsError, match=NO_MEETING):
        _enter(db, league, player, kirov(18, 18))
    assert _closed_for(db, league, player, kirov(18, 18)) == NO_MEETING
    # the organizer is told why a reason is asked, and nothing is stored without one
    with pytest.raises(ResultsError) as refused:
        _enter(db, league, organizer_id, kirov(18, 18), reason="  ")
    assert str(refused.value) == f"{NO_MEETING} {OUTSIDE_MEETING}"
    assert _stored(db, league.match_id) == (0, [])
    assert _closed_for(db, league, organizer_id, kirov(18, 18)) == NO_MEETING  # the page asks for the reason
    why = "сыграли в клубе без брони, протокол подписан всеми четырьмя"
    _enter(db, league, organizer_id, kirov(18, 18), reason=f" {why} ")
    assert _stored(db, league.match_id) == (1, [why])
    with Session(db) as session:  # the match page's protocol shows it
        view = match_view(session, session.get_one(User, player), league.match_id, now=kirov(18, 19))
        assert view is not None
        assert [line["reason"] for line in view.protocol if line["reason"] == why] == [why]


def test_two_players_typing_one_hanchan_store_it_once_and_the_second_is_told(db: sa.Engine) -> None:
    """Регламент §6.2: one result per hanchan. Two players at the table both opened the form for hanchan 1; the
    second save is not quietly stored as hanchan 2 (a tester's phone walk): it is refused, naming who entered it,
    and stored only when sent again for hanchan 2."""
    with Session(db) as session:
        league = f.league(session)
        first, second = league.users[0].id, league.users[1].id
        first_name, organizer_id = league.users[0].display_name, league.organizer.id
        session.commit()
        league.match_id = saved(league.match.id)  # type: ignore[attr-defined]
        league.player_ids = [saved(p.id) for p in league.players]  # type: ignore[attr-defined]
    with session_scope(db) as session:
        organizer.assign_meeting(session, match_id=league.match_id, start=kirov(18, 18), hanchans=3,
                                 actor_user_id=organizer_id, now=NOW)  # fmt: skip
    _enter(db, league, first, kirov(18, 19), number=1)
    with pytest.raises(HanchanTaken) as taken:
        _enter(db, league, second, kirov(18, 19), number=1)
    assert str(taken.value).startswith(f"Ханчан 1 уже внесён ({first_name}), пока вы вводили результат")
    assert "форма теперь для ханчана 2" in str(taken.value)
    assert _stored(db, league.match_id) == (1, [""])
    _enter(db, league, second, kirov(18, 20), number=2)
    assert _stored(db, league.match_id) == (2, ["", ""])
