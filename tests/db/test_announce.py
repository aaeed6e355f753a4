"""A change is announced once, after its transaction commits, and never for a read or a rolled-back write
(services/core/announce.py), on SQLite and PostgreSQL; on PostgreSQL every other process hears it through
LISTEN discard_changes. Every change is made by its real producer."""

from __future__ import annotations

import itertools
import select as io_select
import threading

import psycopg
import pytest
import sqlalchemy as sa
from sqlmodel import Session

from services.core import announce
from services.core.changes import change_stamp
from services.core.db import session_scope
from services.scheduling import availability
from services.scheduling import organizer as scheduling_admin
from services.scheduling.intervals import Interval
from tests import factories as f
from tests.factories import NOW, kirov


@pytest.fixture
def heard() -> list[str]:
    calls: list[str] = []
    remove = announce.on_commit(lambda: calls.append(threading.current_thread().name))
    yield calls
    remove()


def test_a_committed_change_is_announced_once_a_read_or_a_rollback_never(db: sa.Engine, heard: list[str]) -> None:
    with Session(db, expire_on_commit=False) as session:
        league = f.league(session, players=4)
        session.commit()
    heard.clear()
    with session_scope(db) as session:
        change_stamp(session)  # a page's load: reads only
    assert heard == []
    with session_scope(db) as session:
        availability.save_availability(session, match_id=league.match.id, user_id=league.users[0].id,
                                       intervals=[Interval(kirov(20, 17), kirov(20, 23))], now=NOW)  # fmt: skip
    assert len(heard) == 1
    with pytest.raises(RuntimeError), session_scope(db) as session:
        scheduling_admin.add_room(session, name="Зал, который не добавят", actor_user_id=league.organizer.id)
        raise RuntimeError("the handler failed after writing")
    assert len(heard) == 1  # rolled back: nothing to announce


def test_a_change_from_another_thread_is_announced_on_that_thread_after_its_commit(
    db: sa.Engine, heard: list[str]
) -> None:
    """The web worker's watcher is woken from the thread that committed (`loop.call_soon_threadsafe`): by then
    another connection reads the new stamp."""
    with Session(db, expire_on_commit=False) as session:
        league = f.league(session, players=4)
        session.commit()
    with Session(db) as session:
        before = change_stamp(session)
    heard.clear()
    seen: list[str] = []
    remove = announce.on_commit(lambda: seen.append(_fresh_stamp(db)))
    try:
        worker = threading.Thread(
            target=lambda: _add_room(db, league.organizer.id), name="another-handler", daemon=True
        )
        worker.start()
        worker.join(10)
    finally:
        remove()
    assert heard == ["another-handler"]
    assert seen and seen[0] != before  # committed before the listeners hear of it


def _add_room(db: sa.Engine, organizer_id: int) -> None:
    with session_scope(db) as session:
        scheduling_admin.add_room(session, name=f"Малый зал {next(_rooms)}", actor_user_id=organizer_id)


_rooms = itertools.count(1)


def _fresh_stamp(db: sa.Engine) -> str:
    with db.connect() as connection, Session(bind=connection) as session:
        return change_stamp(session)


@pytest.mark.postgres
def test_postgres_notifies_every_listener_of_a_commit_only(pg_engine: sa.Engine) -> None:
    with Session(pg_engine, expire_on_commit=False) as session:
        league = f.league(session, players=4)
        session.commit()
    url = pg_engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(url, autocommit=True) as listener:
        listener.execute(f"LISTEN {announce.CHANNEL}")
        with session_scope(pg_engine) as session:
            change_stamp(session)
        with pytest.raises(RuntimeError), session_scope(pg_engine) as session:
            scheduling_admin.add_room(session, name="Зал, который не добавят", actor_user_id=league.organizer.id)
            raise RuntimeError("rolled back")
        assert _notifications(listener, wait=0.5) == 0  # a read, a rollback: silence
        _add_room(pg_engine, league.organizer.id)
        assert _notifications(listener, wait=5) == 1


def _notifications(connection: psycopg.Connection, *, wait: float) -> int:
    """How many notifications arrive within `wait` seconds of the first (or of nothing)."""
    count = 0
    while io_select.select([connection.fileno()], [], [], wait)[0]:
        connection.execute("SELECT 1")  # lets psycopg read what arrived
        count += len(list(connection.notifies(timeout=0)))
        wait = 0.2
    return count
