"""A small league in the test database: one tour window, one room, one match of four, and helpers."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlmodel import Session

from services.core.models import (
    AvailabilityAnswer,
    AvailabilityInterval,
    Booking,
    Match,
    MeetingProposal,
    OutboxEvent,
    Player,
    ProposalConfirmation,
    Room,
    Round,
    Season,
    Seat,
    Stage,
    User,
)
from services.scheduling.intervals import KIROV

WINDOW_START = datetime(2026, 12, 7, 0, 0, tzinfo=KIROV).astimezone(UTC)  # Monday
WINDOW_END = datetime(2026, 12, 21, 0, 0, tzinfo=KIROV).astimezone(UTC)
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


def make_league(session: Session, *, tables: int = 1, names: tuple[str, ...] = NAMES) -> list[League]:
    season = Season(name="Лига 2026")
    session.add(season)
    session.flush()
    stage = Stage(season_id=season.id)
    room = Room(name="Большой зал")
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
    player_id = league.player_ids[index]
    session.add(AvailabilityAnswer(match_id=league.match_id, player_id=player_id))
    session.add_all(
        [AvailabilityInterval(match_id=league.match_id, player_id=player_id, start_at=s, end_at=e) for s, e in spans]
    )
    event(session, league, "answered", {"player_id": player_id})


def propose(session: Session, league: League, start: datetime, hanchans: int = 3) -> int:
    proposal = MeetingProposal(
        match_id=league.match_id,
        room_id=league.room_id,
        proposed_by_player_id=league.player_ids[0],
        start_at=start,
        end_at=start + timedelta(minutes=90 * hanchans),
        hanchans=hanchans,
    )
    session.add(proposal)
    session.flush()
    event(session, league, "proposed", {"proposal_id": proposal.id})
    return proposal.id


def confirm(session: Session, league: League, proposal_id: int, index: int) -> None:
    session.add(ProposalConfirmation(proposal_id=proposal_id, player_id=league.player_ids[index], confirmed=True))
    event(session, league, "confirmed", {"proposal_id": proposal_id})


def book(session: Session, league: League, proposal_id: int) -> None:
    proposal = session.get(MeetingProposal, proposal_id)
    proposal.status = "booked"
    session.add(
        Booking(
            room_id=league.room_id,
            kind="match",
            title="Тур 2",
            match_id=league.match_id,
            proposal_id=proposal_id,
            hanchans=proposal.hanchans,
            start_at=proposal.start_at,
            end_at=proposal.end_at,
        )
    )
    event(session, league, "booked", {"proposal_id": proposal_id})


def event(session: Session, league: League, kind: str, payload: dict | None = None) -> None:
    session.add(OutboxEvent(kind=kind, match_id=league.match_id, payload=json.dumps(payload or {})))
    session.commit()


def link(
    session: Session, league: League, index: int, telegram_user_id: int, username: str | None, private: bool
) -> None:
    user = session.get(User, league.user_ids[index])
    user.telegram_user_id, user.telegram_username, user.telegram_private_messages = telegram_user_id, username, private
    session.commit()
