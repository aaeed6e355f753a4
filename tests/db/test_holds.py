"""A hold is a promise (issue 43, items 2 and 3): no booking — the players' or the organizer's — lands in silence on a
table another match's live proposal holds. The players' booking takes another free table or is refused with the
reason; the organizer takes a held table only when no other is free, and then the holding proposal ends with its
reason, the four are told, the desk shows it and the page can ask first. Sequentially and as races (threads) on
SQLite and PostgreSQL: the place's lock serialises a hold placed and a booking stored at one table.

Each test gets a database of its own (a fresh PostgreSQL one too): tables are counted over the whole club."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
import sqlalchemy as sa
from sqlmodel import Session, col, select

from services.core import outbox
from services.core.models import AuditRecord, Booking, MeetingProposal, OutboxEvent
from services.scheduling import booking
from services.scheduling import organizer as scheduling_admin
from services.scheduling.board import load_board
from services.scheduling.intervals import Interval
from services.scheduling.repo import SchedulingError
from tests.db.race import engine_for, race
from tests.db.test_tables import SUNDAY, _confirm, _propose, act, assign, bookings, club, paint
from tests.factories import NOW, kirov

EVENING = Interval(kirov(20, 17), kirov(20, 23))
MEETING = kirov(20, 18)
RACES = 8


def _proposal(db: sa.Engine, proposal_id: int) -> MeetingProposal:
    with Session(db) as session:
        return session.get(MeetingProposal, proposal_id)


def _live_holds_under_bookings(db: sa.Engine, room_id: int, now) -> list[tuple[int, int]]:  # noqa: ANN001
    """(booking, proposal) pairs where another match's live proposal holds the table an active booking sits at: what
    a hold promises must never be broken so."""
    with Session(db) as session:
        held = session.exec(
            select(MeetingProposal).where(
                MeetingProposal.room_id == room_id,
                MeetingProposal.status == "open",
                col(MeetingProposal.hold_until) > now,
                MeetingProposal.start_at > now,
            )
        ).all()
        booked = session.exec(select(Booking).where(Booking.room_id == room_id, Booking.active)).all()
    return [
        (b.id, p.id)
        for b in booked
        for p in held
        if p.match_id != b.match_id and p.table_no == b.table_no and p.start_at < b.end_at and b.start_at < p.end_at
    ]


def _expired_hold_then_another_proposal(db: sa.Engine, tables: int) -> tuple:
    """Match 1 proposes 18:00 with a one-hour hold and two more confirm; two hours later its hold has ended, so match
    2 is offered the same table and proposes the same time (`later`)."""
    league, ids = club(db, matches=2, tables=tables, hold_hours=1)
    paint(db, league, 0, ids[0], EVENING)
    paint(db, league, 1, ids[1], EVENING)
    first = _propose(db, league, 0, ids[0])
    _confirm(db, league, 0, first.id, 1, 2)
    return league, ids, first, NOW + timedelta(hours=2)


@pytest.mark.parametrize("tables", [1, 2])
def test_a_proposal_whose_hold_ended_never_takes_a_table_another_proposal_holds(db: sa.Engine, tables: int) -> None:  # noqa: F811
    """Item 2: the fourth confirmation of a proposal whose own hold has ended takes another free table; with none,
    it is refused naming the live hold, and the holding match books its table when its four confirm."""
    league, ids, first, later = _expired_hold_then_another_proposal(db, tables)
    second = _propose(db, league, 1, ids[1], now=later)
    assert (second.table_no, second.hold_until) == (1, later + timedelta(hours=1))
    _confirm(db, league, 0, first.id, 3, now=later + timedelta(minutes=30))
    _confirm(db, league, 1, second.id, 1, 2, 3, now=later + timedelta(minutes=30))
    placed = [(b.match_id, b.table_no) for b in bookings(db, league.room.id)]
    if tables == 2:
        assert placed == [(ids[1], 1), (ids[0], 2)]
        return
    assert placed == [(ids[1], 1)]
    failed = _proposal(db, first.id)
    assert failed.status == "failed"
    assert failed.failure_reason.startswith("Помещение уже занято: стол удерживает предложение матча «Тур 1, стол 2»")


def test_the_organizer_takes_a_held_table_only_when_none_else_is_free_and_the_four_are_told(db: sa.Engine) -> None:  # noqa: F811
    """Item 3: the assignment prefers a table no proposal holds; when only held tables remain the organizer decides
    (Регламент §3, §6.3): the page can name the hold first, the holding proposal ends with its reason, its four are
    told, the desk shows it, the audit keeps it, and a late confirmation hears why."""
    from services.views.desk import _scheduling_items

    league, ids = club(db, matches=3, tables=2)
    paint(db, league, 2, ids[2], EVENING)
    held = _propose(db, league, 2, ids[2])
    assert held.table_no == 1
    with Session(db) as session:  # a free table is left: nothing to ask, the assignment takes it
        assert scheduling_admin.assignment_overrules(session, match_id=ids[0], start=MEETING, hanchans=3, now=NOW) == []
    assert assign(db, league, ids[0], start=MEETING).table_no == 2
    assert _proposal(db, held.id).status == "open"
    with Session(db) as session:  # only the held table is left: the page asks first, naming the match and time
        asked = scheduling_admin.assignment_overrules(session, match_id=ids[1], start=MEETING, hanchans=3, now=NOW)
    assert asked == ["«Тур 1, стол 3», пт 20.11.2026 18:00"]
    assert assign(db, league, ids[1], start=MEETING).table_no == 1
    ended = _proposal(db, held.id)
    assert ended.status == "failed"
    assert ended.failure_reason == (
        "Организатор назначил на этот стол встречу матча «Тур 1, стол 2» (пт 20.11.2026 18:00), других свободных "
        "столов не было: предложение снято, стол больше не удерживается. Выберите другой общий вариант."
    )
    assert _live_holds_under_bookings(db, league.room.id, NOW) == []
    with Session(db) as session:
        told = session.exec(
            select(OutboxEvent).where(OutboxEvent.match_id == ids[2], OutboxEvent.kind == "meeting_failed")
        ).all()
        audit = session.exec(select(AuditRecord).where(AuditRecord.action == "meeting.assign")).all()
        desk = {i.key: i for i in _scheduling_items(load_board(session, now=NOW), NOW)}
    assert [json.loads(e.payload)["reason"] for e in told] == [ended.failure_reason]
    assert json.loads(audit[-1].after)["overruled"] == asked
    assert ended.failure_reason in desk[f"failed-{held.id}"].detail
    with pytest.raises(SchedulingError, match="Это предложение уже не действует. Организатор назначил"):
        _confirm(db, league, 2, held.id, 1)


def test_a_move_takes_a_held_table_only_when_none_else_is_free_and_an_activity_never_does(db: sa.Engine) -> None:  # noqa: F811
    """The organizer's move follows the assignment's rule in its room; a club activity is refused naming the hold."""
    league, ids = club(db, matches=2, tables=1)
    paint(db, league, 1, ids[1], EVENING)
    moved = assign(db, league, ids[0], start=kirov(21, 18))
    held = _propose(db, league, 1, ids[1])
    with pytest.raises(
        SchedulingError,
        match=r"Помещение занято: стол удерживает предложение матча «Тур 1, стол 2».*Занятие не добавлено",
    ):
        act(db, scheduling_admin.book_activity, title="D&D", start=kirov(20, 19), end=kirov(20, 21),
            actor_user_id=league.organizer.id, now=NOW, room_id=league.room.id)  # fmt: skip
    with Session(db) as session:
        asked = scheduling_admin.move_overrules(
            session, booking_id=moved.id, start=MEETING, end=kirov(20, 22, 30), now=NOW
        )
    assert asked == ["«Тур 1, стол 2», пт 20.11.2026 18:00"]
    act(db, scheduling_admin.move_booking, booking_id=moved.id, start=MEETING, end=kirov(20, 22, 30),
        actor_user_id=league.organizer.id, reason="просьба клуба", now=NOW)  # fmt: skip
    assert _proposal(db, held.id).failure_reason.startswith(
        "Организатор назначил на этот стол встречу матча «Тур 1, стол 1»"
    )
    assert _live_holds_under_bookings(db, league.room.id, NOW) == []


def _one_table_race(url: str, *, organizer: bool) -> None:
    db = engine_for(url)
    league, ids, first, later = _expired_hold_then_another_proposal(db, tables=1)
    propose = (booking.propose_meeting, {"match_id": ids[1], "user_id": league.users[4].id, "start": MEETING,
                                         "end": kirov(20, 22, 30), "hanchans": 3, "now": later})  # fmt: skip
    if organizer:  # the organizer assigns match 1 at the hour match 2 proposes (match 1's own proposal ends)
        contender = (scheduling_admin.assign_meeting, {"match_id": ids[0], "start": MEETING, "hanchans": 3,
                                                       "actor_user_id": league.organizer.id, "now": later})  # fmt: skip
    else:  # match 1's fourth confirmation, its hold ended, at the moment match 2 proposes
        contender = (booking.answer_meeting, {"confirmed": True, "proposal_id": first.id,
                                              "user_id": league.users[3].id, "now": later})  # fmt: skip
    outcomes = race(url, "thread", [contender, propose])
    assert not any(o.startswith("UNEXPECTED") for o in outcomes), outcomes
    assert _live_holds_under_bookings(db, league.room.id, later) == [], outcomes
    with Session(db) as session:
        second = session.exec(select(MeetingProposal).where(MeetingProposal.match_id == ids[1])).first()
    placed = [(b.match_id, b.table_no) for b in bookings(db, league.room.id)]
    if organizer:  # the organizer's meeting always stands; a hold it took over ended with the reason
        assert placed == [(ids[0], 1)] and outcomes[0] == "ok", outcomes
        assert second is None or second.failure_reason.startswith("Организатор назначил на этот стол"), outcomes
    elif placed:  # the players booked first: the other match was not offered the table
        assert placed == [(ids[0], 1)] and second is None, outcomes
    else:  # the proposal held the table first: the fourth confirmation was refused with the reason
        assert second.status == "open" and "удерживает предложение" in _proposal(db, first.id).failure_reason


@pytest.mark.parametrize("organizer", [False, True], ids=["players", "organizer"])
def test_a_booking_and_another_matchs_proposal_for_the_last_table_at_once(db_url: str, organizer: bool) -> None:  # noqa: F811
    """Items 2 and 3 as races: a booking (the fourth confirmation of a proposal whose hold ended, or the organizer's
    assignment) and another match's proposal for the only table at the same instant: never a live hold under a
    booking, whichever wins."""
    for _ in range(RACES):
        _one_table_race(db_url, organizer=organizer)


def _events(db: sa.Engine, match_id: int, after: int) -> list[str]:
    with Session(db) as session:
        return list(
            session.exec(
                select(OutboxEvent.kind)
                .where(OutboxEvent.match_id == match_id, col(OutboxEvent.id) > after)
                .order_by(col(OutboxEvent.id))
            ).all()
        )


def _last_event(db: sa.Engine) -> int:
    with Session(db) as session:
        return session.exec(select(sa.func.max(OutboxEvent.id))).one() or 0


def test_a_neighbours_hold_made_or_ended_writes_an_event_for_the_match_it_changes(db: sa.Engine) -> None:  # noqa: F811
    """Issue 43 item 5: a proposal holds the only table, so the other match painted the same evening loses its option
    (its card must say so); the proposal declined, the option is back. Each change writes the neighbour an event."""
    league, ids = club(db, matches=2, tables=1)
    paint(db, league, 0, ids[0], EVENING)
    paint(db, league, 1, ids[1], EVENING)
    before = _last_event(db)
    p = _propose(db, league, 0, ids[0])
    assert _events(db, ids[1], before) == [outbox.OPTIONS_LOST]
    before = _last_event(db)
    act(db, booking.answer_meeting, confirmed=False, proposal_id=p.id, user_id=league.users[1].id, now=NOW)
    assert _events(db, ids[1], before) == [outbox.OPTIONS_CHANGED]


def test_a_hold_ended_by_the_organizer_tells_the_neighbour_one_changing_nothing_nobody(db: sa.Engine) -> None:  # noqa: F811
    """A second table free: a hold changes no other match's options, so nobody else hears of it. Both tables held, the
    organizer's assignment of one holding match to the fallback Sunday ends its proposal (no hanchans left for it):
    the table it held is free again, and the third match is told."""
    league, ids = club(db, matches=3, tables=2)
    for k in range(3):
        paint(db, league, k, ids[k], EVENING)
    before = _last_event(db)
    first = _propose(db, league, 0, ids[0])
    assert _events(db, ids[1], before) == _events(db, ids[2], before) == []  # table 2 is still free for both
    before = _last_event(db)
    second = _propose(db, league, 1, ids[1])  # both tables held now: the third match loses its evening
    assert _events(db, ids[2], before) == [outbox.OPTIONS_LOST]
    assert _events(db, ids[0], before) == []  # its own proposal holds the other table
    before = _last_event(db)
    assign(db, league, ids[1])
    assert _proposal(db, second.id).status == "failed" and _proposal(db, first.id).status == "open"
    assert _events(db, ids[2], before) == [outbox.OPTIONS_CHANGED]


def test_the_tours_fallback_names_the_holds_it_would_end_and_writes_nothing_asking(db: sa.Engine) -> None:  # noqa: F811
    """Issue 43: the desk's whole-tour fallback asks first, as the one match's does. The question is the action tried
    and rolled back whole, so it names exactly the hold its seating would end — the first match takes the only table,
    which the second match's proposal holds — and asking changes nothing; done, the notice names it too."""
    league, ids = club(db, matches=2, tables=1)
    paint(db, league, 1, ids[1], Interval(kirov(29, 17), kirov(29, 23)))
    held = act(db, booking.propose_meeting, match_id=ids[1], user_id=league.users[4].id, start=SUNDAY,
               end=SUNDAY + timedelta(hours=4, minutes=30), hanchans=3, now=NOW)  # fmt: skip
    assert held.table_no == 1
    with Session(db) as session:
        written = session.exec(select(sa.func.count()).select_from(OutboxEvent)).one()
        asked = scheduling_admin.window_fallback_overrules(
            session, round_id=league.rounds[0].id, actor_user_id=league.organizer.id, now=NOW
        )
        session.commit()
    assert asked == ["«Тур 1, стол 2», вс 29.11.2026 18:00"]
    assert bookings(db, league.room.id) == [] and _proposal(db, held.id).status == "open"
    with Session(db) as session:
        assert session.exec(select(sa.func.count()).select_from(OutboxEvent)).one() == written
        assert session.exec(select(AuditRecord).where(AuditRecord.action == "meeting.assign")).all() == []

    result = act(db, scheduling_admin.apply_window_fallback, round_id=league.rounds[0].id,
                 actor_user_id=league.organizer.id, now=NOW)  # fmt: skip
    assert [title for title, _ in result.placed] == ["Тур 1, стол 1"] and list(result.overruled) == asked
    assert "Снятые удержания других матчей: «Тур 1, стол 2», вс 29.11.2026 18:00." in result.summary
    assert _proposal(db, held.id).status == "failed"
