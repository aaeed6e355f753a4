"""The player page's chart data: a point only for the tours each line's player has played, None (a gap) otherwise."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import Session

from services.playoff.hanchan_entry import enter_hanchan
from services.results.penalties import add_no_show
from services.results.view import player_view
from tests.db.test_results import League, entry
from tests.factories import PLAYED, begun_meeting


def _lines(view: dict) -> dict[str, list[int | None]]:
    """Series name → its values for tours 1–4."""
    return {s["name"]: [point[s["key"]] for point in view["chart"]] for s in view["series"]}


def test_tours_not_played_have_no_point_for_the_player_and_the_leaders(session: Session, league: League) -> None:
    p = league.players
    org = league.organizer
    # Tour 1: both tables play one hanchan. p0 +25 000; p4 +20 000, p5 0, p7 −20 000.
    enter_hanchan(session, org, league.match(1, 1, p[:4]), entry(p[:4], [40000, 30000, 30000, 20000]), now=PLAYED)
    enter_hanchan(session, org, league.match(1, 2, p[4:]), entry(p[4:], [35000, 30000, 30000, 25000]), now=PLAYED)
    # Tour 2: p0–p3 play to an all-equal hanchan (0 each: the total stays the same but the tour was played);
    # p4–p7's match is not played, only p7's no-show penalty counts there (Регламент §5).
    enter_hanchan(session, org, league.match(2, 1, p[:4]), entry(p[:4], [30000, 30000, 30000, 30000]), now=PLAYED)
    absent_in = league.match(2, 2, p[4:])
    begun_meeting(session, absent_in, PLAYED - timedelta(hours=1))
    add_no_show(session, org, absent_in, p[7], now=PLAYED)
    # Tour 3: only p4–p7 play. p4 +25 000, p5 +10 000, p7 −25 000.
    enter_hanchan(session, org, league.match(3, 2, p[4:]), entry(p[4:], [40000, 35000, 25000, 20000]), now=PLAYED)
    session.commit()

    view = player_view(session, p[4])
    assert [s["name"] for s in view["series"]] == ["Игрок 4", "Игрок 0", "Игрок 5"]  # the player, then the leaders
    assert [point["tour"] for point in view["chart"]] == ["Тур 1", "Тур 2", "Тур 3", "Тур 4"]
    assert _lines(view) == {
        "Игрок 4": [20000, None, 45000, None],
        "Игрок 0": [25000, 25000, None, None],
        "Игрок 5": [0, None, 10000, None],
    }
    # A penalty-only line (a no-show) is a point: the total after that tour changed.
    assert _lines(player_view(session, p[7]))["Игрок 7"] == [-20000, -100000, -125000, None]
