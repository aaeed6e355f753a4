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
