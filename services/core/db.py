"""Engines, sessions and migrations for the league database; imports no reflex."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from sqlite3 import Connection as SqliteConnection
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlmodel import Session, col, create_engine, select

from services.core import announce  # noqa: F401  (every commit that wrote is announced: services/core/announce.py)
from services.core.config import ROOT

if TYPE_CHECKING:
    from services.core.models import Match, Season, Stage, User

Params = dict[str, Any]


def make_engine(url: str) -> sa.Engine:
    if url.startswith("sqlite"):
        path = url.removeprefix("sqlite:///")
        if path and path != url and not path.startswith(":memory:"):
            Path(path).parent.mkdir(mode=0o700, parents=True, exist_ok=True)  # hashes and tokens: owner-only
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @sa.event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: SqliteConnection, _record: object) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


_database_url: str | None = None  # named by the shell at start (use_database); services never read the settings


def use_database(url: str | None) -> str | None:
    """The shell names the league's database once, at start: the site (discard_app.py), the bot process and the
    command line pass `settings.database_url`. Returns the one named before, so a test can name it back."""
    global _database_url
    previous, _database_url = _database_url, url
    if url != previous:
        engine.cache_clear()
    return previous


def database_url() -> str:
    if _database_url is None:
        raise RuntimeError("no database named: the shell calls services.core.db.use_database(url) at start")
    return _database_url


@cache
def engine() -> sa.Engine:
    """The engine of the database the shell named; a session given no `bind` uses it."""
    return make_engine(database_url())


@contextmanager
def session_scope(bind: sa.Engine | None = None) -> Iterator[Session]:
    """One unit of work: commits on success, rolls back on any error."""
    with Session(bind or engine(), expire_on_commit=False) as session:
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise


def rows(
    session: Session, statement: sa.Executable, params: Params | None = None
) -> Sequence[sa.Row[*tuple[Any, ...]]]:
    """A statement built once (bind parameters for what varies) read as plain rows through the session's own
    connection and transaction: neither built, keyed nor run through the ORM's per-statement work again, which cost
    more than the read itself on the hot paths (issue 26, the save's cost). For column reads only: ORM objects
    still go through `session.exec`. What the session holds unflushed is flushed first, as its autoflush would."""
    session.flush()
    return session.connection().execute(statement, params or {}).all()


def write(session: Session, statement: sa.Executable, params: Params | list[Params] | None = None) -> None:
    """A plain INSERT, UPDATE or DELETE (one row's values, or a list of them) through the session's own connection
    and transaction, without the ORM's bulk machinery (for tables whose rows this transaction holds no objects of:
    nothing in the session is kept in step). What the session holds unflushed is flushed first, in order."""
    session.flush()
    session.connection().execute(statement, params or {})


def sqlite_write_lock(connection: sa.Connection) -> None:
    """SQLite: take the database's write lock now (BEGIN IMMEDIATE), unless this transaction already began."""
    raw = connection.connection.driver_connection
    assert isinstance(raw, SqliteConnection)  # the sqlite dialect's driver is the standard library's
    if not raw.in_transaction:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def lock_row(session: Session, table: type[Match | Season | Stage | User], row_id: int) -> None:
    """Serialises a read-decide-write on one row: SQLite takes the database write lock before the first read
    (BEGIN IMMEDIATE), PostgreSQL locks the row (SELECT … FOR UPDATE). A second caller waits, then reads what
    the first committed. Call it before reading what the decision depends on. FOR NO KEY UPDATE, not FOR UPDATE:
    rows that merely point at the locked one (an outbox event for another match, written by that match's lock
    holder) are not blocked by it, so two matches' transactions telling each other cannot deadlock."""
    connection = session.connection()
    if connection.dialect.name == "sqlite":
        sqlite_write_lock(connection)
        return
    session.exec(select(col(table.id)).where(col(table.id) == row_id).with_for_update(key_share=True)).first()


def migrate(url: str) -> None:
    """Bring the schema to the newest revision (what `reflex db migrate` does, for any URL)."""
    from alembic.config import Config

    from alembic import command

    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "alembic"))
    config.attributes["database_url"] = url
    command.upgrade(config, "head")
