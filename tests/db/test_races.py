"""Every "at most once" rule under a real race: the same service calls the pages make, at the same instant, from
threads and from processes, on SQLite and PostgreSQL, repeated; rows are counted afterwards and the loser must be
told what a sequential caller would be told."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

import pytest
import sqlalchemy as sa
from sqlmodel import Session, col, select

from services.core import bot_status
from services.core.db import session_scope
from services.core.models import (
    Booking,
    BotStatus,
    Hanchan,
    Match,
    MeetingProposal,
    OutboxEvent,
    ProposalConfirmation,
    Room,
    Round,
    Season,
    Seat,
    Stage,
    StageKind,
    User,
)
from services.notifier.reminders import queue_due_reminder
from services.playoff import stage as playoff
from services.playoff.hanchan_entry import enter_hanchan
from services.results.hanchans import Entry
from services.results.judge_calls import ESCALATE_AFTER, UNANSWERED_KEY, call_judge, escalate_unanswered
from services.results.scoring import TableResult
from services.scheduling import availability, booking
from services.scheduling import organizer as scheduling_admin
from services.scheduling.intervals import Interval
from services.scheduling.repo import SchedulingError
from tests import factories as f
from tests.db.race import attempt, engine_for, race
from tests.db.test_sunday_reminder import AT_19, at, reminders, sunday_league
from tests.factories import NOW, PLAYED, kirov

TRIES = 20
MODES = ["thread", "process"]
ALL_ASSIGNED = scheduling_admin.ALL_BOOKED
LAST_ENTERED = "Все 3 ханчана матча уже внесены; исправить результат может организатор."


def evening(day: int) -> Interval:
    return Interval(kirov(day, 17), kirov(day, 23))


def _league(url: str, *days: int) -> f.League:
    """A fresh season and match; the four players paint the given evenings through the service."""
    with Session(engine_for(url), expire_on_commit=False) as session:
        league = f.league(session)
    for n in range(4):
        _ok(url, availability.save_availability, match_id=league.match.id, user_id=league.users[n].id,
            intervals=[evening(d) for d in days], now=NOW)  # fmt: skip
    return league


def _ok(url: str, fn, **kwargs) -> None:  # noqa: ANN001, ANN003
    assert attempt(url, (fn, kwargs)) == "ok"


def _proposal(url: str, league: f.League, day: int, confirmed: int) -> int:
    with Session(engine_for(url), expire_on_commit=False) as session:
        proposal = booking.propose_meeting(
            session,
            match_id=league.match.id,
            user_id=league.users[0].id,
            start=kirov(day, 18),
            end=kirov(day, 22, 30),
            hanchans=3,
            now=NOW,
        )
        session.commit()
    for n in range(confirmed):
        _ok(url, booking.answer_meeting, confirmed=True, proposal_id=proposal.id, user_id=league.users[n].id, now=NOW)
    return proposal.id


def _active_bookings(url: str, match_id: int) -> list[Booking]:
    with Session(engine_for(url)) as session:
        return list(session.exec(select(Booking).where(Booking.match_id == match_id, Booking.active)).all())


def _assign(league: f.League, day: int) -> tuple:
    kwargs = {"match_id": league.match.id, "start": kirov(day, 18), "hanchans": 3,
              "actor_user_id": league.organizer.id, "room_id": league.room.id, "now": NOW}  # fmt: skip
    return (scheduling_admin.assign_meeting, kwargs)


@pytest.mark.parametrize("mode", MODES)
def test_two_matches_sharing_a_player_are_not_booked_at_one_hour(db_url: str, mode: str) -> None:
    """One person sits at one table: the organizer assigns two matches that share a player at the same hour in two
    rooms at once; one is booked, the other is refused naming the player (each match's lock holds its players)."""
    for _ in range(TRIES // 2):
        with Session(engine_for(db_url), expire_on_commit=False) as session:
            league = f.league(session, players=7)
            other = f.match(session, league.rounds[0], [league.players[0], *league.players[4:7]], table="2")
            second_room = Room(name=f"Малый зал {uuid.uuid4().hex[:6]}")
            session.add(second_room)
            session.commit()
        calls = [
            (scheduling_admin.assign_meeting, {"match_id": match_id, "start": kirov(22, 18), "hanchans": 3,
                                               "actor_user_id": league.organizer.id, "room_id": room_id, "now": NOW})
            for match_id, room_id in ((league.match.id, league.room.id), (other.id, second_room.id))
        ]  # fmt: skip
        outcomes = race(db_url, mode, calls)
        [refused] = [o for o in outcomes if o != "ok"]
        assert outcomes.count("ok") == 1 and league.users[0].display_name in refused, outcomes
        booked = _active_bookings(db_url, league.match.id) + _active_bookings(db_url, other.id)
        assert len(booked) == 1


@pytest.mark.parametrize("mode", MODES)
def test_two_proposals_for_one_match_leave_one_open(db_url: str, mode: str) -> None:
    for _ in range(TRIES):
        league = _league(db_url, 20, 21)
        calls = [
            (booking.propose_meeting, {"match_id": league.match.id, "user_id": league.users[n].id,
                                       "start": kirov(day, 18), "end": kirov(day, 22, 30), "hanchans": 3, "now": NOW})
            for n, day in ((0, 20), (1, 21))
        ]  # fmt: skip
        outcomes = race(db_url, mode, calls)
        assert sorted(outcomes) == sorted(["ok", booking.OPEN_PROPOSAL_EXISTS]), outcomes
        with Session(engine_for(db_url)) as session:
            open_ = session.exec(
                select(MeetingProposal).where(
                    MeetingProposal.match_id == league.match.id, MeetingProposal.status == "open"
                )
            ).all()
        assert len(open_) == 1


@pytest.mark.parametrize("mode", MODES)
def test_fourth_confirmation_and_the_organizers_assignment_book_the_match_once(db_url: str, mode: str) -> None:
    for _ in range(TRIES):
        league = _league(db_url, 20)
        proposal_id = _proposal(db_url, league, 20, confirmed=3)
        confirm = (
            booking.answer_meeting,
            {"confirmed": True, "proposal_id": proposal_id, "user_id": league.users[3].id, "now": NOW},
        )
        outcomes = race(db_url, mode, [confirm, _assign(league, 22)])
        [only] = _active_bookings(db_url, league.match.id)  # 3 hanchans, not 6
        assert only.hanchans == 3
        with Session(engine_for(db_url)) as session:
            proposal = session.get(MeetingProposal, proposal_id)
        if only.proposal_id == proposal_id:  # the players were first: the organizer is told why not
            assert outcomes == ["ok", ALL_ASSIGNED] and proposal.status == "booked"
        else:  # the organizer was first: the assignment ended the proposal, and the fourth hears why
            assert proposal.status == "failed"
            assert proposal.failure_reason.startswith("Все ханчаны матча уже забронированы")
            assert outcomes == [f"Это предложение уже не действует. {proposal.failure_reason}", "ok"]


@pytest.mark.parametrize("mode", MODES)
def test_two_assignments_of_one_match_book_it_once(db_url: str, mode: str) -> None:
    for _ in range(TRIES):
        league = _league(db_url)
        outcomes = race(db_url, mode, [_assign(league, 22), _assign(league, 24)])
        assert sorted(outcomes) == sorted(["ok", ALL_ASSIGNED]), outcomes
        assert len(_active_bookings(db_url, league.match.id)) == 1


@pytest.mark.parametrize("mode", MODES)
def test_a_confirmation_withdrawn_by_a_repaint_never_leaves_a_booking(db_url: str, mode: str) -> None:
    for _ in range(TRIES):
        league = _league(db_url, 20, 21)
        proposal_id = _proposal(db_url, league, 20, confirmed=3)
        repaint = (availability.save_availability, {"match_id": league.match.id, "user_id": league.users[0].id,
                                                    "intervals": [evening(21)], "now": NOW})  # fmt: skip
        confirm = (
            booking.answer_meeting,
            {"confirmed": True, "proposal_id": proposal_id, "user_id": league.users[3].id, "now": NOW},
        )
        assert race(db_url, mode, [repaint, confirm]) == ["ok", "ok"]
        assert _active_bookings(db_url, league.match.id) == []
        with Session(engine_for(db_url)) as session:
            confirmed = session.exec(
                select(ProposalConfirmation.player_id).where(
                    ProposalConfirmation.proposal_id == proposal_id, ProposalConfirmation.confirmed
                )
            ).all()
            assert session.get(MeetingProposal, proposal_id).status == "open"
        assert sorted(confirmed) == sorted(league.players[n].id for n in (1, 2, 3))


def _points(n: int) -> list[int]:
    return [45000 - n * 1000, 35000 - n * 1000, 25000 + n * 1000, 15000 + n * 1000]


def _play(session: Session, organizer: User, match_id: int, points: list[int], times: int = 3) -> None:
    seats = session.exec(select(Seat.player_id).where(Seat.match_id == match_id).order_by(col(Seat.seed))).all()
    for _ in range(times):
        entry = Entry(tuple(TableResult(p, x) for p, x in zip(seats, points, strict=True)), 0)
        enter_hanchan(session, organizer, match_id, entry, now=PLAYED, reason=f.UNBOOKED)


def _playoff_round_one_all_but_last(url: str) -> tuple[Season, User, list[int]]:
    """Twelve players, one regular tour (strict standings), the playoff closed, round 1 played but for the last
    hanchan of each table. Returns the season, the organizer and round 1's match ids."""
    with Session(engine_for(url), expire_on_commit=False) as session:
        league = f.league(session, players=12)
        for table in (2, 3):
            f.match(session, league.rounds[0], league.players[4 * table - 4 : 4 * table], table=str(table))
        organizer = league.organizer
        for n, match in enumerate(session.exec(select(Match).where(Match.round_id == league.rounds[0].id)).all()):
            _play(session, organizer, match.id, _points(n))
        playoff.close_regular_stage(session, league.season, actor=organizer)
        round_one = list(playoff.load_bracket(session, league.season).match_ids.values())
        for match_id in round_one:
            _play(session, organizer, match_id, _points(0), times=2)
        session.commit()
        return league.season, organizer, round_one


def _playoff_matches(url: str, season_id: int) -> list[tuple[str, str]]:
    with Session(engine_for(url)) as session:
        rows = session.exec(
            select(Round.code, Match.table)
            .join(Match, col(Match.round_id) == Round.id)
            .join(Stage, col(Stage.id) == Round.stage_id)
            .where(Stage.season_id == season_id, Stage.kind == StageKind.PLAYOFF)
        ).all()
    return sorted(rows)


@pytest.mark.parametrize("mode", MODES)
def test_round_two_is_created_once_whether_results_or_bracket_loads_finish_it(db_url: str, mode: str) -> None:
    """The last hanchans of both round-1 tables at the same instant, and two loads of the bracket page: round 2
    exists once (each table's entry waits for the other's, so one of them sees both finished)."""
    for _ in range(TRIES):
        season, organizer, round_one = _playoff_round_one_all_but_last(db_url)
        advance = (playoff.advance_playoff, {"season": season})
        last = [(_play, {"organizer": organizer, "match_id": m, "points": _points(0), "times": 1}) for m in round_one]
        assert race(db_url, mode, [*last, advance, advance]) == ["ok"] * 4
        assert _playoff_matches(db_url, season.id) == [("1", "A"), ("1", "B"), ("2", "L"), ("2", "U")]


@pytest.mark.parametrize("mode", MODES)
def test_two_participants_entering_the_last_hanchan_store_it_once(db_url: str, mode: str) -> None:
    for _ in range(TRIES):
        with Session(engine_for(db_url), expire_on_commit=False) as session:
            league = f.league(session)
            f.begun_meeting(session, league.match.id, f.MET)  # the two participants enter at their meeting
            _play(session, league.organizer, league.match.id, _points(0), times=2)
            session.commit()
        seats = [p.id for p in league.players]
        entry = Entry(tuple(TableResult(p, x) for p, x in zip(seats, _points(1), strict=True)), 0)
        calls = [
            (enter_hanchan, {"user": league.users[n], "match_id": league.match.id, "entry": entry, "now": PLAYED})
            for n in (0, 1)
        ]
        assert sorted(race(db_url, mode, calls)) == sorted(["ok", LAST_ENTERED])
        with Session(engine_for(db_url)) as session:
            numbers = session.exec(select(Hanchan.number).where(Hanchan.match_id == league.match.id)).all()
        assert sorted(numbers) == [1, 2, 3]


@pytest.mark.parametrize("mode", MODES)
def test_two_bots_starting_at_once_both_record_their_heartbeat(db_url: str, mode: str) -> None:
    """The notifier's one status row: two bot processes started together both found it missing and one crashed on
    the primary key (tests/bot/test_exactly_once.py failed now and then)."""
    for n in range(TRIES):
        with session_scope(engine_for(db_url)) as session:
            session.exec(sa.delete(BotStatus))
        at = NOW + timedelta(minutes=n)
        calls = [
            (bot_status.record_heartbeat, {"now": at, "connected": True, "bot_username": f"bot{k}"}) for k in (1, 2)
        ]
        assert race(db_url, mode, calls) == ["ok", "ok"]
        with Session(engine_for(db_url)) as session:
            (row,) = session.exec(select(BotStatus)).all()
            assert row.connected and row.bot_username in ("bot1", "bot2")


NOT_WRITTEN = "already written"


def _queue_reminder(session: Session, **kwargs) -> None:  # noqa: ANN003
    """queue_due_reminder, telling the race whether this caller wrote the event (a SchedulingError: it did not)."""
    if queue_due_reminder(session, **kwargs) is None:
        raise SchedulingError(NOT_WRITTEN)


@pytest.mark.parametrize("mode", MODES)
def test_the_site_the_bot_and_the_timer_write_one_sunday_reminder(db_url: str, mode: str) -> None:
    """Регламент §3: every process that sees Sunday's reminder moment pass writes it, at the same instant (four
    threads, or two processes): exactly one of them writes it, the others are told it exists, none fails."""
    writers = 4 if mode == "thread" else 2
    for _ in range(TRIES // 2):
        with Session(engine_for(db_url), expire_on_commit=False) as session:
            _, sunday = sunday_league(session)
        call = (_queue_reminder, {"now": at(sunday, 19, 1), "reminder_time": AT_19})
        assert sorted(race(db_url, mode, [call] * writers)) == sorted(["ok"] + [NOT_WRITTEN] * (writers - 1))
        late = (_queue_reminder, {"now": at(sunday, 9, days=1), "reminder_time": AT_19})  # and bots on Monday
        assert race(db_url, mode, [late, late]) == [NOT_WRITTEN] * 2
        with Session(engine_for(db_url)) as session:
            assert len(reminders(session, sunday)) == 1


CALLED = kirov(20, 19)  # during the meeting of 20.11 18:00–22:30


def _escalate(session: Session, *, call_id: int, now: datetime) -> None:
    """escalate_unanswered, telling the race whether this caller wrote this call's event (a SchedulingError: not);
    the run's PostgreSQL database may hold other tests' unanswered calls, which any writer may escalate too."""
    if call_id not in {c.id for c in escalate_unanswered(session, now=now)}:
        raise SchedulingError(NOT_WRITTEN)


@pytest.mark.parametrize("mode", MODES)
def test_the_bots_minute_jobs_tell_the_organizers_of_an_unanswered_call_once(db_url: str, mode: str) -> None:
    """Регламент §6.2: every bot process's minute job sees the same unanswered call at the same instant; one
    of them writes its «judge call unanswered» event, the others are told it exists, and a later minute writes none."""
    writers = 4 if mode == "thread" else 2
    for _ in range(TRIES // 2):
        with session_scope(engine_for(db_url)) as session:
            league = f.league(session)
            scheduling_admin.assign_meeting(session, match_id=league.match.id, start=kirov(20, 18), hanchans=3,
                                            room_id=league.room.id, actor_user_id=league.organizer.id,
                                            now=NOW)  # fmt: skip
            call = call_judge(session, league.users[0], league.match.id, hanchan_number=1,
                              description="спор о фуритэн", now=CALLED)  # fmt: skip
            call_id = call.id
        later = (_escalate, {"call_id": call_id, "now": CALLED + ESCALATE_AFTER + timedelta(minutes=1)})
        assert sorted(race(db_url, mode, [later] * writers)) == sorted(["ok"] + [NOT_WRITTEN] * (writers - 1))
        again = {"call_id": call_id, "now": CALLED + ESCALATE_AFTER + timedelta(minutes=2)}
        assert race(db_url, mode, [(_escalate, again)]) == [NOT_WRITTEN]
        with Session(engine_for(db_url)) as session:
            keys = session.exec(
                select(OutboxEvent.once_key).where(OutboxEvent.once_key == f"{UNANSWERED_KEY}{call_id}")
            )
            assert len(keys.all()) == 1
