"""No page's reads grow with the season: the home page, the standings, a player's page, the seasons pages and the
bracket issue as many SQL statements for a long season as for a short one (the overview and the desk:
tests/db/test_desk.py). Every match state the pages tell apart is in both seasons, made through the services."""

from __future__ import annotations

from datetime import date, timedelta

import sqlalchemy as sa
from sqlmodel import Session

from services.core.db import session_scope
from services.playoff.hanchan_entry import enter_hanchan
from services.playoff.repo import load_bracket
from services.results.entry import Entry
from services.results.scoring import TableResult
from services.results.view import player_view
from services.scheduling import availability, booking
from services.scheduling.calendar_feed import week_entries
from services.scheduling.intervals import Interval, at_kirov
from services.views import history
from services.views.todo import home_cards
from tests import factories as f
from tests.db.statements import statements
from tests.factories import NOW, PLAYED

FIRST = date(2027, 1, 4)  # a Monday; tours of two weeks after it, far from other tests' rooms on PostgreSQL
TOURS = 8


def tour_day(tour: int) -> date:
    return FIRST + timedelta(days=14 * (tour - 1))


def act(db: sa.Engine, fn, **kwargs):  # noqa: ANN001, ANN003, ANN201
    with session_scope(db) as session:
        return fn(session, **kwargs)


def week_of_matches(db: sa.Engine, league: f.League, tours: range) -> None:
    """Per tour one more match of the first four (tour 1 has the fixture's table 1 too) in a different state
    (played, booked, proposed, painted), and a second table of the other four that nobody has touched."""
    for tour in tours:
        with session_scope(db) as session:
            mine = f.match(session, league.rounds[tour - 1], league.players[:4], table="3").id
            f.match(session, league.rounds[tour - 1], league.players[4:8], table="2")
        evening = Interval(
            at_kirov(tour_day(tour) + timedelta(days=2), 17), at_kirov(tour_day(tour) + timedelta(days=2), 23)
        )
        state = tour % 4
        if state == 1:  # played: three hanchans entered by the organizer
            results = tuple(
                TableResult(p.id, pts, 0)
                for p, pts in zip(league.players[:4], [40000, 30000, 30000, 20000], strict=True)
            )
            for _ in range(3):
                with session_scope(db) as session:
                    enter_hanchan(
                        session, session.merge(league.organizer), mine, Entry(results, 0), now=PLAYED, reason=f.UNBOOKED
                    )
            continue
        for user in league.users[:4]:
            act(db, availability.save_availability, match_id=mine, user_id=user.id, intervals=[evening], now=NOW)
        if state == 0:  # painted by all four: common options, nobody proposed
            continue
        proposal = act(db, booking.propose_meeting, match_id=mine, user_id=league.users[1].id,
                       start=evening.start + timedelta(hours=1), end=evening.start + timedelta(hours=5, minutes=30),
                       hanchans=3, now=NOW).id  # fmt: skip
        if state == 2:  # booked: the other three confirm
            for user in (league.users[0], league.users[2], league.users[3]):
                act(db, booking.answer_meeting, confirmed=True, proposal_id=proposal, user_id=user.id, now=NOW)


def reads(db: sa.Engine, league: f.League) -> dict[str, int]:
    pages = {
        "home": lambda s: home_cards(s, s.merge(league.users[0]), NOW),
        "standings": lambda s: history.season_standings_rows(s, league.season.id),
        "player": lambda s: player_view(s, league.players[0].id),
        "season matches": lambda s: history.season_matches(s, league.season.id, now=NOW),
        "person's seasons": lambda s: history.person_seasons(s, league.users[0].id),
        "bracket": lambda s: load_bracket(s, s.merge(league.season)),
        "club calendar": lambda s: week_entries(s, tour_day(2)),
    }
    counts = {}
    for name, read in pages.items():
        with Session(db) as session, statements(db) as seen:
            assert read(session)  # the page has something to show
        counts[name] = len(seen)
    return counts


def test_no_page_reads_more_for_a_longer_season(db: sa.Engine) -> None:
    windows = [Interval(at_kirov(tour_day(t)), at_kirov(tour_day(t) + timedelta(days=14))) for t in range(1, TOURS + 1)]
    with Session(db, expire_on_commit=False) as session:
        league = f.league(session, players=8, windows=windows)
    week_of_matches(db, league, range(1, 5))
    short = reads(db, league)
    week_of_matches(db, league, range(5, TOURS + 1))
    with Session(db) as session:
        cards = home_cards(session, session.merge(league.users[0]), NOW)
        statuses = {m["status"] for m in history.season_matches(session, league.season.id, now=NOW)}
    assert len(cards) == 1 + TOURS  # the fixture's own match, and one per tour
    assert {c.state.split(":")[0] for c in cards} >= {"сыгран", "забронировано", "есть общие варианты"}
    assert sum(c.state.startswith("предложено время") for c in cards) == 2
    assert {"Сыгран", "Забронировано", "Есть общие варианты"} <= statuses  # as every other view tells them
    assert reads(db, league) == short
    assert short["home"] < 25  # a fixed handful, not a dozen per match
