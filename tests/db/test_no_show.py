"""Регламент §5: a no-show penalty only for a booked meeting that began more than 30 minutes ago."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import Session, select

from services.core.models import Penalty
from services.league.season_rules import apply_rules
from services.playoff.hanchan_entry import enter_hanchan
from services.results.entry import ResultsError
from services.results.penalties import NoShowTooEarly, add_no_show
from services.results.repo import db_standings
from tests.db.test_results import League, entry
from tests.factories import NOW, PLAYED, begun_meeting


def test_no_show_is_refused_until_a_booked_meeting_began_more_than_30_minutes_ago(
    session: Session, league: League
) -> None:
    table = league.players[:4]
    mid = league.match(1, 1, table, meeting=False)
    with pytest.raises(NoShowTooEarly, match="нет забронированной встречи"):
        add_no_show(session, league.organizer, mid, table[0], now=PLAYED)
    meeting = begun_meeting(session, mid, PLAYED + timedelta(hours=2))
    with pytest.raises(NoShowTooEarly, match="опоздание до 30 минут"):  # booked, not begun
        add_no_show(session, league.organizer, mid, table[0], now=PLAYED)
    with pytest.raises(NoShowTooEarly, match="опоздание до 30 минут"):  # 30 minutes late is still allowed
        add_no_show(session, league.organizer, mid, table[0], now=meeting.start_at + timedelta(minutes=30))
    assert session.exec(select(Penalty)).all() == []
    penalty = add_no_show(session, league.organizer, mid, table[0], now=meeting.start_at + timedelta(minutes=31))
    assert (penalty.points, penalty.kind) == (-80000, "no_show")


def test_a_released_meeting_is_no_meeting_to_miss(session: Session, league: League) -> None:
    table = league.players[:4]
    mid = league.match(1, 1, table, meeting=False)
    meeting = begun_meeting(session, mid, PLAYED - timedelta(hours=2))
    meeting.active = False  # «Не смогу» or the organizer's release: called off, nobody failed to come
    session.add(meeting)
    session.flush()
    with pytest.raises(NoShowTooEarly, match="нет забронированной встречи"):
        add_no_show(session, league.organizer, mid, table[0], now=PLAYED)


def test_the_no_show_penalty_is_the_seasons_own(session: Session, league: League) -> None:
    """Регламент §5, §6.3: −80 000 is the 2026 regulation's number; a season whose rules set another no-show penalty
    (changed through the rules page's service) gives that one, and the standings count it."""
    apply_rules(session, league.season, {"no_show_penalty": "50 000"}, reason="", actor=league.organizer, now=NOW)
    table = league.players[:4]
    mid = league.match(1, 1, table, meeting=False)
    meeting = begun_meeting(session, mid, PLAYED - timedelta(hours=1))
    penalty = add_no_show(session, league.organizer, mid, table[0], now=meeting.start_at + timedelta(minutes=31))
    session.commit()
    assert (penalty.points, penalty.kind, penalty.warning) == (-50_000, "no_show", True)
    totals = {r.player: r.total for r in db_standings(session, league.season.id)}
    assert totals[table[0]] == -50_000


def test_a_player_whose_points_are_in_the_meetings_hanchan_came(session: Session, league: League) -> None:
    """Регламент §5: a tester recorded a no-show 30 minutes into a meeting for a player already in its protocol.
    Refused while their points are in a hanchan of that meeting; a split match's later meeting they missed is one."""
    table = league.players[:4]
    mid = league.match(1, 1, table, meeting=False)
    first = begun_meeting(session, mid, PLAYED - timedelta(hours=6), hanchans=2)
    enter_hanchan(session, league.organizer, mid, entry(table, [40000, 30000, 30000, 20000]), now=first.start_at)
    with pytest.raises(ResultsError, match="Очки игрока уже внесены в ханчан 1 этой встречи"):
        add_no_show(session, league.organizer, mid, table[0], now=first.start_at + timedelta(minutes=31))
    assert session.exec(select(Penalty)).all() == []
    enter_hanchan(session, league.organizer, mid, entry(table, [40000, 30000, 30000, 20000]), now=first.start_at)
    later = begun_meeting(session, mid, PLAYED - timedelta(hours=1), hanchans=1)  # hanchan 3, without table[0]
    penalty = add_no_show(session, league.organizer, mid, table[0], now=later.start_at + timedelta(minutes=31))
    assert (penalty.points, penalty.kind) == (-80000, "no_show")
