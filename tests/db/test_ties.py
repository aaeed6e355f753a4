"""The standings' unresolved ties as the organizer's form lists them, and settled by his decision (Регламент §4)."""

from __future__ import annotations

from sqlmodel import Session

from services.playoff.hanchan_entry import enter_hanchan
from services.results import repo as results_repo
from services.results.penalties import decide_tie, unresolved_ties
from tests.db.test_results import League, entry
from tests.factories import PLAYED


def test_unresolved_ties_are_listed_by_place_until_decided(session: Session, league: League) -> None:
    a, b, c, d, *rest = league.players
    mid = league.match(1, 1, [a, b, c, d])
    enter_hanchan(session, league.organizer, mid, entry([a, b, c, d], [35000, 35000, 25000, 25000]), now=PLAYED)
    ties = unresolved_ties(session, league.season.id)
    # a, b share place 1 (+25 000); c, d share 3 (−25 000). The four with no match are not ranked at all.
    assert [(place, [pid for pid, _ in members]) for place, members in ties] == [(1, [a, b]), (3, [c, d])]
    assert ties[0][1][0][1] == "Игрок 0"
    decide_tie(session, league.organizer, league.season.id, [b, a], "жребий", now=PLAYED)
    assert [place for place, _ in unresolved_ties(session, league.season.id)] == [3]
    rows = results_repo.db_standings(session, league.season.id)
    assert [(r.player, r.place) for r in rows[:2]] == [(b, 1), (a, 2)]
