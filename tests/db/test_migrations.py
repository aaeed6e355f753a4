"""Migrations on empty SQLite and PostgreSQL databases, and the booking guard they install."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from sqlmodel import Session, SQLModel

from services.core.db import make_engine, migrate
from services.core.models import Booking, Room

START = datetime(2026, 12, 6, 15, 0, tzinfo=UTC)


def _booking(room_id: int, start: datetime, hours: int = 3, **extra) -> Booking:  # noqa: ANN003
    return Booking(
        room_id=room_id, kind="activity", title="D&D", start_at=start, end_at=start + timedelta(hours=hours), **extra
    )


def _overlap_is_refused(engine: sa.Engine) -> None:
    with Session(engine) as session:
        room = Room(name=f"Зал {datetime.now().timestamp()}")
        session.add(room)
        session.commit()
        session.add(_booking(room.id, START))
        session.commit()
        session.add(_booking(room.id, START + timedelta(hours=3)))  # touching is fine
        session.add(_booking(room.id, START - timedelta(hours=3)))
        session.add(_booking(room.id, START + timedelta(hours=1), active=False))  # a released booking
        session.commit()
        session.add(_booking(room.id, START + timedelta(hours=2)))
        with pytest.raises(sa.exc.IntegrityError):
            session.commit()
        session.rollback()
        moved = session.query(Booking).filter(Booking.room_id == room.id, Booking.active.is_(False)).one()
        moved.active = True  # re-activating an overlapping booking is refused too
        with pytest.raises(sa.exc.IntegrityError):
            session.commit()


def test_migrations_create_every_table_on_empty_sqlite(tmp_path) -> None:  # noqa: ANN001
    url = f"sqlite:///{tmp_path / 'empty.db'}"
    migrate(url)
    migrate(url)  # idempotent
    engine = make_engine(url)
    assert set(SQLModel.metadata.tables) <= set(sa.inspect(engine).get_table_names())
    _overlap_is_refused(engine)
    engine.dispose()


@pytest.mark.postgres
def test_migrations_and_booking_guard_on_postgresql(pg_engine: sa.Engine) -> None:
    assert set(SQLModel.metadata.tables) <= set(sa.inspect(pg_engine).get_table_names())
    _overlap_is_refused(pg_engine)


def test_migrations_match_the_models(sqlite_url: str) -> None:
    """A column added to a model without a migration would break the next deployment."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    engine = make_engine(sqlite_url)
    with engine.connect() as connection:
        diff = compare_metadata(MigrationContext.configure(connection), SQLModel.metadata)
    engine.dispose()
    assert diff == []


# Every time format SQLite's date functions accept, for 2026-12-06 16:00 UTC (inside the booking 15:00–18:00).
SQLITE_FORMATS = [
    "2026-12-06 16:00",
    "2026-12-06 16:00:00",
    "2026-12-06T16:00:00",
    "2026-12-06 16:00:00.000",
    "2026-12-06T16:00:00.000000",
    "2026-12-06 16:00:00.000000Z",
    "2026-12-06 19:00:00.000000+03:00",
    "2461016.1666666665",  # a Julian day number, as text
    2461016.1666666665,  # and as a number
    1796572800,  # Unix seconds
]


def _raw_booking(engine: sa.Engine, room_id: int, start: object, end: object) -> None:
    with engine.begin() as connection:
        connection.execute(
            sa.text(
                "INSERT INTO booking (room_id, kind, title, start_at, end_at, active, sequence, created_at) "
                "VALUES (:room, 'activity', 'raw', :start, :end, 1, 0, '2026-11-30 00:00:00.000000')"
            ),
            {"room": room_id, "start": start, "end": end},
        )


def test_sqlite_guard_compares_instants_and_refuses_any_other_time_format(engine: sa.Engine) -> None:
    with Session(engine) as session:
        room = Room(name="Зал форматов")
        session.add(room)
        session.commit()
        session.add(_booking(room.id, START))  # 15:00–18:00 UTC, written by the app
        session.commit()
        room_id = room.id
    for start in SQLITE_FORMATS:
        with pytest.raises(sa.exc.IntegrityError, match="booking_time_format"):
            _raw_booking(engine, room_id, start, "2026-12-06 20:00:00.000000")
    with pytest.raises(sa.exc.IntegrityError, match="booking_overlap"):
        _raw_booking(engine, room_id, "2026-12-06 16:00:00.000000", "2026-12-06 20:00:00.000000")
    with pytest.raises(sa.exc.IntegrityError, match="booking_end_before_start"):
        _raw_booking(engine, room_id, "2026-12-07 16:00:00.000000", "2026-12-07 15:00:00.000000")
    with pytest.raises(sa.exc.IntegrityError, match="booking_end_before_start"):
        _raw_booking(engine, room_id, "2026-12-07 16:00:00.000000", "2026-12-07 16:00:00.000000")
    _raw_booking(engine, room_id, "2026-12-06 18:00:00.000000", "2026-12-06 20:00:00.000000")  # adjacent: fine
    with Session(engine) as session:  # what the app reads back never overlaps
        rows = session.query(Booking).filter(Booking.room_id == room_id, Booking.active).order_by(Booking.start_at)
        spans = [(b.start_at, b.end_at) for b in rows]
    assert spans == [(START, START + timedelta(hours=3)), (START + timedelta(hours=3), START + timedelta(hours=5))]


@pytest.mark.postgres
def test_postgresql_refuses_a_booking_that_ends_before_it_starts(pg_engine: sa.Engine) -> None:
    with Session(pg_engine) as session:
        room = Room(name=f"Зал {datetime.now().timestamp()}")
        session.add(room)
        session.commit()
        session.add(_booking(room.id, START, hours=-1))
        with pytest.raises(sa.exc.IntegrityError, match="booking_end_after_start"):
            session.commit()
