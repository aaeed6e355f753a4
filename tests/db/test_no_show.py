"""Регламент §5: a no-show penalty only for a booked meeting that began more than 30 minutes ago."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import Session, select

from services.core.models import Penalty
from services.results.penalties import NoShowTooEarly, add_no_show
from tests.db.test_results import League
from tests.factories import PLAYED, begun_meeting


def test_no_show_is_refused_until_a_booked_meeting_began_more_than_30_minutes_ago(
    session: Session, league: League
) -> None:
    table = league.players[:4]
    mid = league.match(1, 1, table)
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
    mid = league.match(1, 1, table)
    meeting = begun_meeting(session, mid, PLAYED - timedelta(hours=2))
    meeting.active = False  # «Не смогу» or the organizer's release: called off, nobody failed to come
    session.add(meeting)
    session.flush()
    with pytest.raises(NoShowTooEarly, match="нет забронированной встречи"):
        add_no_show(session, league.organizer, mid, table[0], now=PLAYED)
