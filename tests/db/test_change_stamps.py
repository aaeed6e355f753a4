"""Change stamps on SQLite and PostgreSQL: a match's pages reload for that match, the club's rooms and league-wide
changes — not for another match's availability or results (services/core/changes.py). Every change is made by
its real producer."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import sqlalchemy as sa
from sqlmodel import Session

from services.core.changes import (
    change_stamp,
    club_moved,
    grid_moved,
    match_stamp,
    player_stamp,
    shared_part,
    touched_since,
)
from services.core.db import session_scope
from services.results import penalties
from services.scheduling import availability, booking
from services.scheduling import organizer as scheduling_admin
from services.scheduling.intervals import Interval
from tests import factories as f
from tests.factories import NOW, PLAYED, kirov


def stamps(db: sa.Engine, *match_ids: int) -> tuple[str, ...]:
    with Session(db) as session:
        return (change_stamp(session), *(match_stamp(session, m) for m in match_ids))


def act(db: sa.Engine, fn: Callable, **kwargs) -> object:  # noqa: ANN003
    with session_scope(db) as session:
        return fn(session, **kwargs)


def test_a_match_stamp_moves_for_its_match_the_rooms_and_the_league_only(db: sa.Engine) -> None:
    with Session(db, expire_on_commit=False) as session:
        league = f.league(session, players=8)
        other = f.match(session, league.rounds[0], league.players[4:], table="2")
        # the no-show below needs a meeting that began (Регламент §5); the proposal books the other two hanchans
        f.begun_meeting(session, other.id, PLAYED - timedelta(hours=1), hanchans=1)
        session.commit()
    mine, theirs = league.match.id, other.id
    evening = Interval(kirov(20, 17), kirov(20, 23))

    def paint(match_id: int, seat: int) -> None:
        act(
            db,
            availability.save_availability,
            match_id=match_id,
            user_id=league.users[seat].id,
            intervals=[evening],
            now=NOW,
        )

    league0, mine0, theirs0 = stamps(db, mine, theirs)
    paint(theirs, 4)  # another match's availability: the league moved, my match did not
    league1, mine1, theirs1 = stamps(db, mine, theirs)
    assert league1 != league0 and theirs1 != theirs0 and mine1 == mine0

    with Session(db, expire_on_commit=False) as session:
        organizer = session.get(type(league.organizer), league.organizer.id)
    act(db, penalties.add_no_show, user=organizer, match_id=theirs, player_id=league.players[5].id, now=PLAYED)
    _, mine2, theirs2 = stamps(db, mine, theirs)  # another match's result (an audit row): still not mine
    assert theirs2 != theirs1 and mine2 == mine1

    paint(mine, 0)  # my own match
    _, mine3, theirs3 = stamps(db, mine, theirs)
    assert mine3 != mine2 and theirs3 == theirs2

    for seat in range(4, 8):  # the other match books the room: my options and room marks may change
        paint(theirs, seat)
    proposal = act(db, booking.propose_meeting, match_id=theirs, user_id=league.users[4].id, start=kirov(20, 18),
                   end=kirov(20, 22, 30), hanchans=2, now=NOW)  # fmt: skip
    for seat in range(4, 7):
        act(db, booking.answer_meeting, confirmed=True, proposal_id=proposal.id, user_id=league.users[seat].id, now=NOW)
    _, mine4, _ = stamps(db, mine, theirs)
    assert mine4 == mine3  # proposals and confirmations of another match are its own business
    act(db, booking.answer_meeting, confirmed=True, proposal_id=proposal.id, user_id=league.users[7].id, now=NOW)
    _, mine5, _ = stamps(db, mine, theirs)
    assert mine5 != mine4

    act(db, scheduling_admin.add_room, name="Малый зал", actor_user_id=league.organizer.id)  # league-wide
    _, mine6, _ = stamps(db, mine, theirs)
    assert mine6 != mine5


def test_the_grid_part_moves_for_rooms_and_the_viewers_own_answer_not_for_the_others(db: sa.Engine) -> None:
    """Another player's save reloads a page without its grid; the viewer's own save elsewhere (another tab) or a
    booking reloads the grid too (`grid_moved`)."""
    with Session(db, expire_on_commit=False) as session:
        league = f.league(session, players=8)
        other = f.match(session, league.rounds[0], league.players[4:], table="2")
        session.commit()
    mine, viewer = league.match.id, league.users[0].id
    evening = Interval(kirov(20, 17), kirov(20, 23))

    def paint(match_id: int, seat: int) -> str:
        act(
            db,
            availability.save_availability,
            match_id=match_id,
            user_id=league.users[seat].id,
            intervals=[evening],
            now=NOW,
        )
        with Session(db) as session:
            return match_stamp(session, mine, viewer)

    with Session(db) as session:
        start = match_stamp(session, mine, viewer)
    after_other_player = paint(mine, 1)
    assert after_other_player != start and not grid_moved(start, after_other_player)
    after_own = paint(mine, 0)
    assert grid_moved(after_other_player, after_own)
    # a save moves only its match's news and its player's answer: its page may keep the stamp read after it
    assert not club_moved(start, after_own)
    with Session(db) as session:  # what the match's viewers share: one board read serves every open page
        others = match_stamp(session, mine, league.users[2].id)  # not answered yet
    assert others != after_own and shared_part(others) == shared_part(after_own)
    for seat in range(4, 8):
        paint(other.id, seat)
    proposal = act(db, booking.propose_meeting, match_id=other.id, user_id=league.users[4].id, start=kirov(20, 18),
                   end=kirov(20, 22, 30), hanchans=3, now=NOW)  # fmt: skip
    for seat in range(4, 8):
        act(db, booking.answer_meeting, confirmed=True, proposal_id=proposal.id, user_id=league.users[seat].id, now=NOW)
    with Session(db) as session:
        after_booking = match_stamp(session, mine, viewer)
    assert grid_moved(after_own, after_booking)  # the room is taken now: "every room taken" marks may change
    assert club_moved(after_own, after_booking)  # a page read before it must be pushed again


def test_a_home_page_stamp_moves_for_the_persons_own_matches_and_the_club(db: sa.Engine) -> None:
    with Session(db, expire_on_commit=False) as session:
        league = f.league(session, players=8)
        other = f.match(session, league.rounds[0], league.players[4:], table="2")
        session.commit()
    evening = Interval(kirov(20, 17), kirov(20, 23))

    def home(seat: int) -> str:
        with Session(db) as session:
            return player_stamp(session, league.users[seat].id)

    before = home(0)
    act(db, availability.save_availability, match_id=other.id, user_id=league.users[4].id, intervals=[evening], now=NOW)
    assert home(0) == before  # another table's news
    act(
        db,
        availability.save_availability,
        match_id=league.match.id,
        user_id=league.users[1].id,
        intervals=[evening],
        now=NOW,
    )
    mine = home(0)
    assert mine != before  # a table-mate answered in the person's own match
    act(db, scheduling_admin.add_room, name="Веранда", actor_user_id=league.organizer.id)
    assert home(0) != mine  # the club changed


def test_a_worker_reads_only_the_stamps_a_change_can_have_moved(db: sa.Engine) -> None:
    """`touched_since`: one match's save concerns that match and its four people; a room added concerns the club
    (None: every stamp is read), and so does a booking (every match's options may change)."""
    with Session(db, expire_on_commit=False) as session:
        league = f.league(session, players=8)
        other = f.match(session, league.rounds[0], league.players[4:], table="2")
        session.commit()
    with Session(db) as session:
        start = change_stamp(session)
    act(db, availability.save_availability, match_id=other.id, user_id=league.users[4].id,
        intervals=[Interval(kirov(20, 17), kirov(20, 23))], now=NOW)  # fmt: skip
    with Session(db) as session:
        matches, people = touched_since(session, start)
        after_save = change_stamp(session)
    assert matches == {other.id} and people == {u.id for u in league.users[4:8]}
    with Session(db) as session:
        assert touched_since(session, after_save) == (set(), set())  # nothing since
    act(db, scheduling_admin.add_room, name="Зал для проверки", actor_user_id=league.organizer.id)
    with Session(db) as session:
        assert touched_since(session, after_save) is None
        assert touched_since(session, "") is None  # the worker's first look reads everything
