"""The club calendar: ICS feeds (club and personal, by secret token) and the week view rows; imports no reflex."""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from datetime import date, timedelta

from sqlmodel import Session, col, select

from services.core.models import Booking, Player, Room, Seat, User, saved
from services.core.urls import match_url
from services.core.wording import place
from services.scheduling.ics import IcsEvent, calendar_ics
from services.scheduling.intervals import at_kirov, kirov_date, to_kirov

KIND_LABELS = {"match": "Матч лиги", "activity": "Клубное занятие"}
UID_DOMAIN = "discard-league"


def place_text(booking: Booking, rooms: dict[int, tuple[str, int]], tables_taken: list[int] | None = None) -> str:
    """Where the booking sits (`wording.place`); an activity that takes several tables (`tables_taken`): the whole
    room, or its tables."""
    name, tables = rooms.get(booking.room_id, ("", 1))
    return place(name, tables, *(tables_taken or [booking.table_no]))


def _one_per_activity(rows: list[Booking]) -> list[tuple[Booking, list[int]]]:
    """Each booking with the tables it stands for: a club activity's rows (one per table it takes, stored so the
    tables' bookings stay one rule) are one entry, a match's booking its own."""
    grouped: dict[tuple[object, ...], tuple[Booking, list[int]]] = {}
    for b in rows:
        key = (b.id,) if b.match_id is not None else (b.kind, b.title, b.room_id, b.start_at, b.end_at, b.active)
        grouped.setdefault(key, (b, []))[1].append(b.table_no)
    return list(grouped.values())


def absolute_url(site_url: str, path: str) -> str:
    """The page's full address for a calendar client (which has no page to resolve a relative link against)."""
    return f"{site_url.rstrip('/')}{path}" if site_url else path


def match_names(session: Session, match_ids: list[int]) -> dict[int, list[str]]:
    """The four seated players' names of each match, in seat order."""
    if not match_ids:
        return {}
    rows = session.exec(
        select(Seat.match_id, User.display_name)
        .join(Player, col(Player.id) == Seat.player_id)
        .join(User, col(User.id) == Player.user_id)
        .where(col(Seat.match_id).in_(match_ids))
        .order_by(col(Seat.match_id), col(Seat.seed))
    ).all()
    names: dict[int, list[str]] = {}
    for match_id, name in rows:
        names.setdefault(match_id, []).append(name)
    return names


def _description(booking: Booking, where: str, names: list[str], site_url: str) -> str:
    """The event's text: who plays, where, and the match page's address (one fact a line)."""
    if booking.match_id is None:
        return ""
    lines = [f"Игроки: {', '.join(names)}"] if names else []
    if where:
        lines.append(f"Где: {where}")
    lines.append(f"Страница матча: {absolute_url(site_url, match_url(booking.match_id))}")
    return "\n".join(lines)


def _event(
    booking: Booking,
    rooms: dict[int, tuple[str, int]],
    names: dict[int, list[str]] | None = None,
    site_url: str = "",
    tables_taken: list[int] | None = None,
) -> IcsEvent:
    where = place_text(booking, rooms, tables_taken)
    players = (names or {}).get(booking.match_id or 0, [])
    return IcsEvent(
        uid=f"booking-{booking.id}@{UID_DOMAIN}",  # stable for the booking's whole life, moves included
        start=booking.start_at,
        end=booking.end_at,
        summary=f"{booking.title}: {', '.join(players)}" if players else booking.title,
        dtstamp=booking.created_at,
        location=where,
        description=_description(booking, where, players, site_url),
        url=absolute_url(site_url, match_url(booking.match_id)) if booking.match_id is not None else "",
        sequence=booking.sequence,
        cancelled=not booking.active,
        categories=(KIND_LABELS.get(booking.kind, booking.kind),),
    )


def _rooms(session: Session) -> dict[int, tuple[str, int]]:
    return {saved(r.id): (r.name, r.tables) for r in session.exec(select(Room)).all()}


def club_ics(session: Session, *, site_url: str = "") -> str:
    """Every booking of the club (a club activity once, however many tables it takes), cancelled ones as
    STATUS:CANCELLED so subscribers drop them; a match's event names its room and table and its page (`site_url`
    makes the page's address absolute). The feed needs no login, so it names no player (Регламент §6.4): the
    players' names are in the personal feeds and on the match pages, behind a login."""
    rooms = _rooms(session)
    rows = list(session.exec(select(Booking).order_by(col(Booking.start_at), col(Booking.id))).all())
    events = [_event(b, rooms, site_url=site_url, tables_taken=taken) for b, taken in _one_per_activity(rows)]
    return calendar_ics(events, name="Клуб «Братство Дискарда»")


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


def personal_ics(session: Session, token: str, *, site_url: str = "") -> str | None:
    """The meetings of the user's own matches; None for an unknown token."""
    user = user_for_calendar_token(session, token)
    if user is None:
        return None
    match_ids = select(Seat.match_id).join(Player, col(Player.id) == Seat.player_id).where(Player.user_id == user.id)
    rows = session.exec(
        select(Booking).where(col(Booking.match_id).in_(match_ids)).order_by(col(Booking.start_at), col(Booking.id))
    ).all()
    rooms = _rooms(session)
    names = match_names(session, [b.match_id for b in rows if b.match_id is not None])
    return calendar_ics([_event(b, rooms, names, site_url) for b in rows], name=f"Мои матчи — {user.display_name}")


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
            booking_id=saved(b.id),
            day=kirov_date(max(b.start_at, start)),
            start=f"{to_kirov(b.start_at):%H:%M}",
            end=f"{to_kirov(b.end_at):%H:%M}",
            title=b.title,
            kind=b.kind,
            kind_label=KIND_LABELS.get(b.kind, b.kind),
            room=place_text(b, rooms, taken),
            match_id=b.match_id,
        )
        for b, taken in _one_per_activity(list(rows))
    ]
