"""A small league in the test database: one tour window, one room, one match of four, and helpers."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlmodel import Session

from services.core.models import (
    Match,
    Player,
    Room,
    Round,
    Season,
    Seat,
    Stage,
    User,
)
from services.scheduling import availability, booking
from services.scheduling.intervals import KIROV, Interval

WINDOW_START = datetime(2026, 12, 7, 0, 0, tzinfo=KIROV).astimezone(UTC)  # Monday
WINDOW_END = datetime(2026, 12, 21, 0, 0, tzinfo=KIROV).astimezone(UTC)
PROPOSED_AT = datetime(2026, 12, 1, 12, 0, tzinfo=KIROV).astimezone(UTC)  # before the window
SUNDAY_EVENING = datetime(2026, 12, 13, 19, 0, tzinfo=KIROV).astimezone(UTC)
NAMES = ("Анна Иванова", "Борис <b>Петров</b>", "Вера Сидорова", "Глеб Орлов")


def kirov(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 12, day, hour, minute, tzinfo=KIROV).astimezone(UTC)


@dataclass
class League:
    season_id: int
    round_id: int
    room_id: int
    user_ids: list[int]
    player_ids: list[int]
    match_id: int


def make_league(
    session: Session, *, tables: int = 1, names: tuple[str, ...] = NAMES, room_tables: int = 1
) -> list[League]:
    """`tables` matches of four in one tour; the room has `room_tables` mahjong tables."""
    season = Season(name="Лига 2026")
    session.add(season)
    session.flush()
    stage = Stage(season_id=season.id)
    room = Room(name="Большой зал", tables=room_tables)
    session.add_all([stage, room])
    session.flush()
    round_ = Round(stage_id=stage.id, code="2", window_start=WINDOW_START, window_end=WINDOW_END)
    session.add(round_)
    session.flush()
    leagues = []
    for table in range(1, tables + 1):
        users = [
            User(login_name=f"p{table}-{i}", display_name=f"{n} {table}" if tables > 1 else n, password_hash="x")
            for i, n in enumerate(names)
        ]
        session.add_all(users)
        session.flush()
        players = [
            Player(season_id=season.id, user_id=u.id, registration_order=table * 10 + i) for i, u in enumerate(users)
        ]
        session.add_all(players)
        session.flush()
        match = Match(round_id=round_.id, table=str(table))
        session.add(match)
        session.flush()
        session.add_all([Seat(match_id=match.id, player_id=p.id, seed=i + 1) for i, p in enumerate(players)])
        leagues.append(League(season.id, round_.id, room.id, [u.id for u in users], [p.id for p in players], match.id))
    session.commit()
    return leagues


def answer(session: Session, league: League, index: int, *spans: tuple[datetime, datetime]) -> None:
    """The player saves their free time through the scheduling service (which writes the outbox events)."""
    availability.save_availability(
        session,
        match_id=league.match_id,
        user_id=league.user_ids[index],
        intervals=[Interval(s, e) for s, e in spans],
        now=PROPOSED_AT,
    )
    session.commit()


def propose(session: Session, league: League, start: datetime, hanchans: int = 3, index: int = 0) -> int:
    proposal = booking.propose_meeting(
        session,
        match_id=league.match_id,
        user_id=league.user_ids[index],
        start=start,
        end=start + timedelta(minutes=90 * hanchans),
        hanchans=hanchans,
        now=PROPOSED_AT,
    )
    session.commit()
    return proposal.id


def confirm(session: Session, league: League, proposal_id: int, index: int) -> None:
    """The fourth confirmation books the room (the service does it, as on the site)."""
    booking.answer_meeting(
        session, confirmed=True, proposal_id=proposal_id, user_id=league.user_ids[index], now=PROPOSED_AT
    )
    session.commit()


def book(session: Session, league: League, day: int) -> int:
    """All four free 13:00–20:00 that day, the first proposes 13:00, the other three confirm: the room is booked."""
    for index in range(4):
        answer(session, league, index, (kirov(day, 13), kirov(day, 20)))
    proposal_id = propose(session, league, kirov(day, 13))
    for index in range(1, 4):
        confirm(session, league, proposal_id, index)
    return proposal_id


def link(
    session: Session, league: League, index: int, telegram_user_id: int, username: str | None, private: bool
) -> None:
    user = session.get(User, league.user_ids[index])
    user.telegram_user_id, user.telegram_username, user.telegram_private_messages = telegram_user_id, username, private
    session.commit()
