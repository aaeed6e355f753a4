"""Scheduling rules that had no test to notice them breaking, on SQLite and PostgreSQL.

Same house style as tests/db/test_scheduling_cases.py (its helpers are used here): every row is made through the
services, the factories only make the season, rooms, players and matches. Each test plays in a window of its own in
2033, so no other test's bookings reach into it; other tests' rooms exist too and nothing assumes how many.
"""

from __future__ import annotations

import json
from datetime import date, timedelta

import sqlalchemy as sa
from sqlmodel import Session

from services.core import outbox
from services.core.models import MeetingProposal, OutboxEvent, ProposalConfirmation
from services.scheduling.intervals import Interval
from services.scheduling.repo import LIVE_PROPOSAL
from services.scheduling.rules import format_kirov
from tests import factories as f
from tests.db.test_scheduling_cases import (
    Scene,
    active,
    assigned,
    booked_by_players,
    confirm,
    count_in,
    page_of,
    paint,
    proposed,
    rows,
    second_match,
)

BASE = date(2033, 1, 3)  # a Monday; scene k plays in the two weeks from BASE + 4k weeks


def scene(db: sa.Engine, slot: int, *, players: int = 4) -> Scene:
    start = BASE + timedelta(weeks=4 * slot)
    with Session(db, expire_on_commit=False) as session:
        league = f.league(session, players=players, windows=[f.window(start), f.window(start + timedelta(days=14))])
    return Scene(league, start, [league.room])


# --- back-to-back meetings: a booking is [start, end) --------------------------------------------------------


def test_players_book_a_meeting_that_starts_when_another_in_the_room_ends(db: sa.Engine) -> None:
    """One match's meeting ends at 20:00, another match's starts at 20:00 in the same room: the fourth confirmation
    books both (the Python check and the database guard both take a booking as [start, end))."""
    sc = scene(db, 0, players=8)
    other = second_match(db, sc, [4, 5, 6, 7])
    for n in range(4):
        paint(db, sc, n, Interval(sc.at(4, 17), sc.at(4, 20)))
    for n in range(4, 8):
        paint(db, sc, n, Interval(sc.at(4, 20), sc.at(4, 23)), match_id=other)
    first = booked_by_players(db, sc, [0, 1, 2, 3], sc.at(4, 18, 30), 1)  # 18:30–20:00
    [early] = active(db, sc.league.match.id)
    second = booked_by_players(db, sc, [4, 5, 6, 7], sc.at(4, 20), 1, match_id=other)  # 20:00–21:30
    with Session(db) as session:
        assert [session.get(MeetingProposal, p.id).status for p in (first, second)] == ["booked", "booked"]
    [late] = active(db, other)
    assert (early.end_at, late.start_at) == (sc.at(4, 20), sc.at(4, 20))
    assert late.room_id == early.room_id  # the room the 18:30 meeting holds is free from 20:00


def test_the_organizer_assigns_a_meeting_that_ends_when_another_in_the_room_starts(db: sa.Engine) -> None:
    """The other way round, by the organizer into a named room: 20:00–21:30 first, then 18:30–20:00 before it."""
    sc = scene(db, 1, players=8)
    other = second_match(db, sc, [4, 5, 6, 7])
    late = assigned(db, sc, sc.at(4, 20), 1, match_id=other, room_id=sc.league.room.id)
    early = assigned(db, sc, sc.at(4, 18, 30), 1, room_id=sc.league.room.id)
    assert (early.room_id, early.end_at) == (late.room_id, late.start_at)
    assert [b.id for b in active(db, sc.league.match.id)] == [early.id]
    assert [b.id for b in active(db, other)] == [late.id]


# --- a repaint withdraws a confirmation of an open proposal ----------------------------------------------------


def test_a_repaint_that_leaves_out_an_open_proposal_withdraws_only_that_players_confirmation(db: sa.Engine) -> None:
    """Регламент §6.1: a player who confirmed an open proposal and then repaints their free time so it no longer
    covers the meeting is no longer counted: the confirmation row goes, the match gets a `confirmation_withdrawn`
    event, the player is told so, and the proposal stays open with the others' confirmations."""
    sc = scene(db, 2)
    for n in range(4):
        paint(db, sc, n, sc.evening(4), sc.evening(5))
    p = proposed(db, sc, sc.at(4, 18), sc.at(4, 22, 30), 3)  # player 0 proposes: confirmed with it
    confirm(db, sc, p.id, 1, 2)  # 3 of 4
    match_id = sc.league.match.id

    def withdrawn_events() -> list[dict]:
        return [json.loads(e.payload) for e in rows(db, OutboxEvent, match_id=match_id)
                if e.kind == outbox.CONFIRMATION_WITHDRAWN]  # fmt: skip

    assert withdrawn_events() == []
    notices = paint(db, sc, 1, sc.evening(5))  # day 4 no longer free for player 1
    when = format_kirov(sc.at(4, 18))
    assert notices == [f"Ваше подтверждение встречи {when} снято: это время больше не входит в вашу доступность."]
    confirmations = rows(db, ProposalConfirmation, proposal_id=p.id)
    assert sorted(c.player_id for c in confirmations) == sorted(sc.league.players[n].id for n in (0, 2))
    assert all(c.confirmed for c in confirmations)
    assert withdrawn_events() == [{"player": sc.user(1).display_name, "when": when, "proposal_id": p.id}]
    with Session(db) as session:
        assert session.get(MeetingProposal, p.id).status == LIVE_PROPOSAL
    assert active(db, match_id) == []
    [shown] = page_of(db, sc, 0).proposals  # the page counts what is left: 2 of 4
    assert count_in(shown["confirmed"]) == 2, shown["confirmed"]
    # Player 1 may confirm again once the time is free again; the fourth confirmation then books.
    paint(db, sc, 1, sc.evening(4), sc.evening(5))
    confirm(db, sc, p.id, 1, 3)
    assert [(b.start_at, b.hanchans) for b in active(db, match_id)] == [(sc.at(4, 18), 3)]
