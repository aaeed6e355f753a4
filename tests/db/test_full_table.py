"""Регламент §6.1: no hanchan is entered while a withdrawn or disqualified player still holds a seat."""

from __future__ import annotations

import pytest
from sqlmodel import Session, select

from services.core.models import Hanchan, Player
from services.league.substitution import seat_substitute
from services.league.withdrawal import withdraw_player
from services.playoff.hanchan_entry import enter_hanchan
from services.results.disqualifications import record_disqualification
from services.results.entry import ResultsError
from services.results.view import match_view
from services.scheduling.intervals import kirov_date
from tests.db.test_results import League, entry
from tests.factories import PLAYED


def test_a_withdrawn_player_s_seat_is_filled_before_a_result_is_entered(session: Session, league: League) -> None:
    a, b, c, d = table = league.players[:4]
    mid = league.match(1, 1, table)
    withdraw_player(session, session.get(Player, d), reason="переезд", actor_user_id=league.organizer.id, now=PLAYED)
    name = league.users[d].display_name
    for who in (league.users[a], league.judge):
        with pytest.raises(ResultsError, match=f"ещё числится «{name}».*техническую замену"):
            enter_hanchan(session, who, mid, entry(table, [40000, 30000, 30000, 20000]), now=PLAYED)
    assert session.exec(select(Hanchan)).all() == []
    assert match_view(session, league.users[a], mid, PLAYED).needs_substitute == name  # the page says the same

    seat = seat_substitute(session, league.organizer, mid, d, new_name="Замена Заменова", reason="снят", now=PLAYED)
    sub = seat.player_id
    enter_hanchan(session, league.users[a], mid, entry([a, b, c, sub], [40000, 30000, 30000, 20000]), now=PLAYED)
    assert len(session.exec(select(Hanchan)).all()) == 1


def test_a_disqualified_player_is_refused_a_seat_at_the_table_too(session: Session, league: League) -> None:
    table = league.players[:4]
    mid = league.match(1, 1, table)
    record_disqualification(
        session,
        league.users[table[2]],
        term="year",
        reason="саботаж",
        match_id=None,
        starts_on=kirov_date(PLAYED),
        actor_user_id=league.organizer.id,
    )
    with pytest.raises(ResultsError, match="техническую замену"):
        enter_hanchan(session, league.users[table[0]], mid, entry(table, [40000, 30000, 30000, 20000]), now=PLAYED)
    # Регламент §6.1: how an unfinished match ends is the organizer's decision — he may still record a hanchan
    # (e.g. one played before the decision).
    enter_hanchan(session, league.organizer, mid, entry(table, [40000, 30000, 30000, 20000]), now=PLAYED)
    assert len(session.exec(select(Hanchan)).all()) == 1
