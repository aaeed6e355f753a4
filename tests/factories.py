"""Test rows built directly: seasons, rounds with windows, matches with four seats, rooms (no password hashing)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from sqlmodel import Session, col, select

from services.core.models import (
    Booking,
    Match,
    MatchStatus,
    Player,
    Role,
    Room,
    Round,
    Season,
    Seat,
    Stage,
    StageKind,
    User,
    saved,
)
from services.scheduling.intervals import Interval, at_kirov

WINDOW_START = date(2026, 11, 16)  # a Monday; the window runs two weeks, to Monday 30.11 00:00 Kirov
NOW = at_kirov(date(2026, 11, 10), 12)  # before the window: proposals are not "in the past"
# Inside the window (a hanchan may be entered) and far from the real clock: what a service stores comes from it.
PLAYED = at_kirov(date(2026, 11, 18), 15)
# Регламент §6.2: a hanchan is entered once the meeting that holds it has begun (issue 45 item 2). A test about
# something else books its match a meeting that began at MET, before any instant it enters a result at
# (`begun_meeting(session, match_id, MET)`); tests/db/test_entry_opens.py is about when entry opens.
MET = at_kirov(date(2026, 1, 12), 18)
# …or, where a booking would change what the test looks at (the scheduling's states, statement counts), has the
# organizer enter outside a meeting with this reason (§6.3).
UNBOOKED = "сыгран без брони на сайте"
# A new person's name is letters (text_limits.person_name_problem): uuid.uuid4().hex[:6].translate(LETTERS)
LETTERS = str.maketrans("0123456789", "абвгдежзик")


def kirov(day: int, hour: int = 0, minute: int = 0, month: int = 11) -> datetime:
    return at_kirov(date(2026, month, day), hour, minute)


def window(start: date = WINDOW_START, days: int = 14) -> Interval:
    return Interval(at_kirov(start), at_kirov(start + timedelta(days=days)))


def user(session: Session, name: str | None = None, role: Role = Role.PLAYER) -> User:
    tag = uuid.uuid4().hex[:12]  # 8 hex digits collided once in a full run's PostgreSQL database
    row = User(login_name=f"u{tag}", display_name=name or f"Игрок {tag}", password_hash="-", role=role)
    session.add(row)
    session.flush()
    return row


@dataclass
class League:
    season: Season
    stage: Stage
    rounds: list[Round]
    room: Room
    users: list[User] = field(default_factory=list)
    players: list[Player] = field(default_factory=list)
    matches: list[Match] = field(default_factory=list)
    organizer: User | None = None

    @property
    def match(self) -> Match:
        return self.matches[0]


def league(session: Session, *, players: int = 4, windows: list[Interval] | None = None) -> League:
    """A season with rounds (tour 1 = the default two-week window), a room, players and one match of the first four."""
    season = Season(name=f"Лига {uuid.uuid4().hex[:6]}")
    session.add(season)
    session.flush()
    stage = Stage(season_id=season.id, kind=StageKind.REGULAR)
    session.add(stage)
    room = Room(name=f"Зал {uuid.uuid4().hex[:6]}")
    session.add(room)
    session.flush()
    rounds = []
    for number, win in enumerate(windows or [window(), window(WINDOW_START + timedelta(days=14))], start=1):
        r = Round(stage_id=stage.id, code=str(number), window_start=win.start, window_end=win.end)
        session.add(r)
        rounds.append(r)
    session.flush()
    result = League(season, stage, rounds, room, organizer=user(session, role=Role.ORGANIZER))
    for order in range(1, players + 1):
        u = user(session)
        p = Player(season_id=season.id, user_id=u.id, registration_order=order)
        session.add(p)
        session.flush()
        result.users.append(u)
        result.players.append(p)
    result.matches.append(match(session, rounds[0], result.players[:4]))
    session.commit()
    return result


def match(
    session: Session, round_: Round, players: list[Player], table: str = "1", status: str = MatchStatus.SCHEDULING
) -> Match:
    row = Match(round_id=round_.id, table=table, status=status)
    session.add(row)
    session.flush()
    for seed, p in enumerate(players, start=1):
        session.add(Seat(match_id=row.id, player_id=p.id, seed=seed))
    session.flush()
    return row


def match_for_names(session: Session, names: list[str], win: Interval, table: str = "1") -> Match:
    """A match of existing players (found by display name) in a new round of the newest season (e2e tests)."""
    season = session.exec(select(Season).order_by(col(Season.id).desc())).first()
    stage = session.exec(select(Stage).where(Stage.season_id == season.id)).first()
    round_ = Round(
        # six digits: the same four players get several such tours on one shared app, and two with the same code
        # would make two home cards with one title
        stage_id=stage.id,
        code=str(uuid.uuid4().int % 900_000 + 100_000),
        window_start=win.start,
        window_end=win.end,
    )
    session.add(round_)
    session.flush()
    players = [
        session.exec(select(Player).join(User, col(User.id) == Player.user_id).where(User.display_name == name)).one()
        for name in names
    ]
    return match(session, round_, players, table)


def match_in_own_stage(session: Session, season: Season, players: list[Player], status: str) -> Match:
    """A tour-1 match of these players in a regular stage of its own, so no other test's draw or tour sees it; one
    being played has its meeting, begun at MET (Регламент §6.2: its results may be entered)."""
    stage = Stage(season_id=season.id, kind=StageKind.REGULAR)
    session.add(stage)
    session.flush()
    round_ = Round(stage_id=stage.id, code="1")
    session.add(round_)
    session.flush()
    row = match(session, round_, players, status=status)
    if status == MatchStatus.PLAYING:
        begun_meeting(session, saved(row.id), MET)
    return row


def begun_meeting(session: Session, match_id: int, start: datetime, hanchans: int | None = None) -> Booking:
    """A booked meeting of the match (holding all its hanchans unless told) that began at `start`, in a room of its
    own so no other booking clashes: a no-show penalty is given only for a meeting that began more than 30 minutes
    ago (Регламент §5), and a result is entered once its meeting has begun (§6.2)."""
    hanchans = hanchans or session.get_one(Match, match_id).planned_hanchans
    room = Room(name=f"Зал {uuid.uuid4().hex[:6]}")
    session.add(room)
    session.flush()
    booking = Booking(
        room_id=room.id,
        kind="match",
        title=f"Матч {match_id}",
        match_id=match_id,
        hanchans=hanchans,
        start_at=start,
        end_at=start + timedelta(hours=5),
    )
    session.add(booking)
    session.flush()
    return booking
