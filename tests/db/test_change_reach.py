"""Which open pages a change reaches, on SQLite and PostgreSQL (services/core/changes.py and the stamps a web
worker reads for it, discard_app/live_push.py `_read_stamps`): a match's change reaches that match's pages, its
people's home pages (a seat a substitute took still counts as the replaced person's) and the league's pages; an
event without a match, or one that changes the club's rooms, reaches every page. Every change is made by its real
producer."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from datetime import timedelta

import pytest
import sqlalchemy as sa
from sqlmodel import Session

from discard_app.live_push import _read_stamps
from services.core.changes import LEAGUE, change_stamp, match_watch, person_watch, player_stamp, touched_since
from services.core.db import session_scope, use_database
from services.core.models import Role
from services.league.substitution import seat_substitute
from services.results import judge_calls
from services.scheduling import availability, booking
from services.scheduling import organizer as scheduling_admin
from services.scheduling.intervals import Interval
from tests import factories as f
from tests.factories import NOW, PLAYED, kirov

EVENING = Interval(kirov(20, 17), kirov(20, 23))


def act(db: sa.Engine, fn: Callable, **kwargs) -> object:  # noqa: ANN003
    with session_scope(db) as session:
        return fn(session, **kwargs)


def since(db: sa.Engine) -> str:
    with Session(db) as session:
        return change_stamp(session)


def touched(db: sa.Engine, stamp: str) -> tuple[set[int], set[int]] | None:
    with Session(db) as session:
        return touched_since(session, stamp)


def paint(db: sa.Engine, match_id: int, user_id: int) -> None:
    act(db, availability.save_availability, match_id=match_id, user_id=user_id, intervals=[EVENING], now=NOW)


@pytest.fixture
def named(db: sa.Engine) -> Iterator[sa.Engine]:
    """The database named as the site names it: the worker's stamp reads open their own sessions on it."""
    previous = use_database(db.url.render_as_string(hide_password=False))
    yield db
    use_database(previous)


def test_a_seat_a_substitute_took_still_counts_as_the_replaced_persons(
    db: sa.Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Регламент §6.1: the replaced player keeps the seat's history (a no-show penalty can still reach him), so his
    home page follows the match too: his stamp moves when a table-mate answers, and the worker reads it."""
    monkeypatch.setattr("services.core.security.hash_password", lambda password: "test-hash")
    with Session(db, expire_on_commit=False) as session:
        league = f.league(session, players=4)
        organizer = session.get(type(league.organizer), league.organizer.id)
        # a name of its own (letters): on PostgreSQL one database serves the run, and test_clock seats «Запасной Игрок»
        name = f"Запасной {uuid.uuid4().hex[:6].translate(f.LETTERS)}"
        seat_substitute(session, organizer, league.match.id, league.players[0].id, new_name=name,
                        reason="переезд", now=PLAYED)  # fmt: skip
        session.commit()
    replaced = league.users[0].id
    with Session(db) as session:
        before = player_stamp(session, replaced)
    start = since(db)
    paint(db, league.match.id, league.users[1].id)
    with Session(db) as session:
        assert player_stamp(session, replaced) != before
    changed = touched(db, start)
    assert changed is not None and replaced in changed[1]


def test_an_event_without_a_match_reaches_every_page(db: sa.Engine) -> None:
    """A judge call: an audit row of the match and a private message to the judge with no match (no card change).
    An event without a match may concern any page: the worker reads every stamp. A database of its own: the call is
    left unanswered, and the bot's escalation test counts the unanswered calls of the database it runs on."""
    with Session(db, expire_on_commit=False) as session:
        league = f.league(session, players=4)
        organizer = session.get(type(league.organizer), league.organizer.id)
        judge = f.user(session, role=Role.JUDGE)
        judge_calls.assign_judge(session, organizer, judge_user_id=judge.id, match_id=league.match.id, now=PLAYED)
        f.begun_meeting(session, league.match.id, PLAYED - timedelta(minutes=10))
        player = session.get(type(league.users[0]), league.users[0].id)
        session.commit()
    start = since(db)
    act(db, judge_calls.call_judge, user=player, match_id=league.match.id, hanchan_number=None,
        description="спор о фуритэн", now=PLAYED)  # fmt: skip
    assert touched(db, start) is None


def test_a_booking_changes_the_rooms_so_it_reaches_every_page(db: sa.Engine) -> None:
    """A match's proposal and confirmations concern that match; the last confirmation books a room, which changes
    every match's options and room marks: the worker reads every stamp."""
    with Session(db, expire_on_commit=False) as session:
        league = f.league(session, players=4)
        session.commit()
    for user in league.users:
        paint(db, league.match.id, user.id)
    start = since(db)
    proposal = act(db, booking.propose_meeting, match_id=league.match.id, user_id=league.users[0].id,
                   start=kirov(20, 18), end=kirov(20, 22, 30), hanchans=2, now=NOW)  # fmt: skip
    for user in league.users[1:3]:
        act(db, booking.answer_meeting, confirmed=True, proposal_id=proposal.id, user_id=user.id, now=NOW)
    assert touched(db, start) == ({league.match.id}, {u.id for u in league.users})
    before_booking = since(db)
    act(db, booking.answer_meeting, confirmed=True, proposal_id=proposal.id, user_id=league.users[3].id, now=NOW)
    assert touched(db, before_booking) is None


def test_the_worker_reads_the_stamps_of_the_pages_a_change_reaches(named: sa.Engine) -> None:
    """One match's save: that match's pages, its people's home pages and the league's pages are read; another
    match's pages and its people's are not. A club change (a room) reads every one."""
    db = named
    with Session(db, expire_on_commit=False) as session:
        league = f.league(session, players=8)
        other = f.match(session, league.rounds[0], league.players[4:], table="2")
        session.commit()
    me, them = league.users[0].id, league.users[4].id
    mine, theirs = match_watch(league.match.id, me), match_watch(other.id, them)
    watches = {LEAGUE, mine, theirs, person_watch(me), person_watch(them)}
    start = since(db)
    paint(db, league.match.id, league.users[1].id)
    read = _read_stamps(watches, start)
    assert set(read) == {LEAGUE, mine, person_watch(me)}
    assert read[LEAGUE] == since(db)
    assert set(_read_stamps(watches, None)) == watches  # the worker's first look reads all of them
    after_save = since(db)
    # a name of its own: on PostgreSQL one database serves the run (test_change_stamps adds its own room)
    act(db, scheduling_admin.add_room, name=f"Зал {uuid.uuid4().hex[:6]}", actor_user_id=league.organizer.id)
    assert set(_read_stamps(watches, after_save)) == watches
