"""The club calendar: ICS feeds (club and personal, by secret token) and the week view rows; imports no reflex."""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from datetime import date, timedelta

from sqlmodel import Session, col, select

from services.core.models import Booking, Player, Room, Seat, User
from services.core.wording import place
from services.scheduling.ics import IcsEvent, calendar_ics
from services.scheduling.intervals import at_kirov, kirov_date, to_kirov

KIND_LABELS = {"match": "Матч лиги", "activity": "Клубное занятие"}
UID_DOMAIN = "discard-league"


def place_text(booking: Booking, rooms: dict[int, tuple[str, int]]) -> str:
    """Where the booking sits: the room, and its table when the room has several («Клуб, стол 2»)."""
    name, tables = rooms.get(booking.room_id, ("", 1))
    return place(name, tables, booking.table_no)


def _event(booking: Booking, rooms: dict[int, tuple[str, int]]) -> IcsEvent:
    return IcsEvent(
        uid=f"booking-{booking.id}@{UID_DOMAIN}",  # stable for the booking's whole life, moves included
        start=booking.start_at,
        end=booking.end_at,
        summary=booking.title,
        dtstamp=booking.created_at,
        location=place_text(booking, rooms),
        sequence=booking.sequence,
        cancelled=not booking.active,
        categories=(KIND_LABELS.get(booking.kind, booking.kind),),
    )


def _rooms(session: Session) -> dict[int, tuple[str, int]]:
    return {r.id: (r.name, r.tables) for r in session.exec(select(Room)).all()}


def club_ics(session: Session) -> str:
    """Every booking of the club, cancelled ones as STATUS:CANCELLED so subscribers drop them."""
    rooms = _rooms(session)
    rows = session.exec(select(Booking).order_by(col(Booking.start_at), col(Booking.id))).all()
    return calendar_ics([_event(b, rooms) for b in rows], name="Клуб «Братство Дискарда»")


def ensure_calendar_token(session: Session, user: User) -> str:
    """The user's secret feed token, made on first use (the URL is the only key, so it is long and random)."""
    if not user.calendar_token:
        user.calendar_token = secrets.token_urlsafe(24)
        session.add(user)
        session.flush()
    return user.calendar_token


def renew_calendar_token(session: Session, user: User) -> str:
    """A new feed token for the user: the old link stops working at once (a leaked link is revoked this way)."""
    user.calendar_token = secrets.token_urlsafe(24)
    session.add(user)
    session.flush()
    return user.calendar_token


def user_for_calendar_token(session: Session, token: str) -> User | None:
    if not token or len(token) < 16:
        return None
    user = session.exec(select(User).where(User.calendar_token == token)).first()
    return user if user and hmac.compare_digest(user.calendar_token or "", token) else None


def personal_ics(session: Session, token: str) -> str | None:
    """The meetings of the user's own matches; None for an unknown token."""
    user = user_for_calendar_token(session, token)
    if user is None:
        return None
    match_ids = select(Seat.match_id).join(Player, col(Player.id) == Seat.player_id).where(Player.user_id == user.id)
    rows = session.exec(
        select(Booking).where(col(Booking.match_id).in_(match_ids)).order_by(col(Booking.start_at), col(Booking.id))
    ).all()
    return calendar_ics([_event(b, _rooms(session)) for b in rows], name=f"Мои матчи — {user.display_name}")


@dataclass(frozen=True)
class CalendarEntry:
    booking_id: int
    day: date
    start: str  # Kirov HH:MM
    end: str
    title: str
    kind: str
    kind_label: str
    room: str
    match_id: int | None


def week_start(day: date) -> date:
    return day - timedelta(days=day.weekday())


def week_entries(session: Session, monday: date) -> list[CalendarEntry]:
    """Active bookings touching the Kirov week that starts on `monday`, in time order."""
    start, end = at_kirov(monday), at_kirov(monday + timedelta(days=7))
    rooms = _rooms(session)
    rows = session.exec(
        select(Booking)
        .where(Booking.active, Booking.start_at < end, Booking.end_at > start)
        .order_by(col(Booking.start_at), col(Booking.room_id), col(Booking.table_no))
    ).all()
    return [
        CalendarEntry(
            booking_id=b.id,
            day=kirov_date(max(b.start_at, start)),
            start=f"{to_kirov(b.start_at):%H:%M}",
            end=f"{to_kirov(b.end_at):%H:%M}",
            title=b.title,
            kind=b.kind,
            kind_label=KIND_LABELS.get(b.kind, b.kind),
            room=place_text(b, rooms),
            match_id=b.match_id,
        )
        for b in rows
    ]
