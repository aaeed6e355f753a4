"""Demo scheduling for tour 2: answers, one booked meeting, one match with no common time, a D&D evening; no reflex."""

from __future__ import annotations

from datetime import date, timedelta

from sqlmodel import Session, col, select

from services.core.models import Match, Round, Season, Stage, StageKind, User, saved
from services.scheduling import availability, booking
from services.scheduling import organizer as scheduling_admin
from services.scheduling.intervals import Interval, at_kirov, kirov_date
from services.scheduling.repo import match_info


def seed_demo_schedule(session: Session, season: Season, organizer: User, today: date) -> None:
    """Runs the real services, so the demo's outbox and calendar look exactly like a live league."""
    stage = session.exec(select(Stage).where(Stage.season_id == season.id, Stage.kind == StageKind.REGULAR)).first()
    assert stage is not None  # the demo season is drawn before its schedule
    tour = session.exec(select(Round).where(Round.stage_id == stage.id, Round.code == "2")).first()
    if tour is None or tour.window_start is None:
        return
    matches = session.exec(select(Match).where(Match.round_id == tour.id).order_by(col(Match.table))).all()
    if len(matches) < 3:
        return
    now = at_kirov(today)
    monday = kirov_date(tour.window_start)
    booked_day, dnd_day = monday + timedelta(days=9), monday + timedelta(days=10)
    booked, apart, waiting = (match_info(session, saved(m.id)) for m in matches[:3])
    for seat in booked.seats:
        availability.save_availability(
            session,
            match_id=saved(booked.match.id),
            user_id=seat.user_id,
            intervals=[
                Interval(at_kirov(booked_day, 17), at_kirov(booked_day, 23)),
                Interval(at_kirov(booked_day + timedelta(days=2), 12), at_kirov(booked_day + timedelta(days=2), 18)),
            ],
            now=now,
        )
    proposal = booking.propose_meeting(
        session,
        match_id=saved(booked.match.id),
        user_id=booked.seats[0].user_id,
        start=at_kirov(booked_day, 18),
        end=at_kirov(booked_day, 22, 30),
        hanchans=3,
        now=now,
    )
    for seat in booked.seats:
        booking.answer_meeting(session, confirmed=True, proposal_id=saved(proposal.id), user_id=seat.user_id, now=now)
    for n, seat in enumerate(apart.seats):  # everyone answered, but on different days: no common time
        day = monday + timedelta(days=7 + n)
        availability.save_availability(
            session,
            match_id=saved(apart.match.id),
            user_id=seat.user_id,
            intervals=[Interval(at_kirov(day, 18), at_kirov(day, 22))],
            now=now,
        )
    for seat in waiting.seats[:2]:
        availability.save_availability(
            session,
            match_id=saved(waiting.match.id),
            user_id=seat.user_id,
            intervals=[Interval(at_kirov(dnd_day, 12), at_kirov(dnd_day, 23))],
            now=now,
        )
    scheduling_admin.book_activity(
        session,
        title="D&D: кампания «Затерянные шахты»",
        start=at_kirov(dnd_day, 19),
        end=at_kirov(dnd_day, 23),
        actor_user_id=saved(organizer.id),
        now=now,
    )
