"""Shared fixtures: a fresh migrated SQLite database per test, and PostgreSQL when the server is there."""

from __future__ import annotations

import atexit
import shutil
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlmodel import Session, SQLModel

from services.core import models  # noqa: F401 - every table in SQLModel.metadata, for `postgres_url`
from services.core.db import make_engine, migrate, use_database

PG_ADMIN_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


@pytest.fixture(scope="session")
def migrated_sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Migrations run once; each test gets a copy of the result (the same schema, triggers included)."""
    path = tmp_path_factory.mktemp("template") / "template.db"
    migrate(f"sqlite:///{path}")
    return path


@pytest.fixture
def sqlite_url(migrated_sqlite_template: Path, tmp_path: Path) -> str:
    path = tmp_path / "league.db"
    shutil.copy(migrated_sqlite_template, path)
    return f"sqlite:///{path}"


@pytest.fixture
def engine(sqlite_url: str) -> Iterator[sa.Engine]:
    eng = make_engine(sqlite_url)
    yield eng
    eng.dispose()


@pytest.fixture
def session(engine: sa.Engine) -> Iterator[Session]:
    with Session(engine, expire_on_commit=False) as s:
        yield s


def _postgres_available() -> bool:
    try:
        eng = sa.create_engine(PG_ADMIN_URL, connect_args={"connect_timeout": 3})
        with eng.connect():
            pass
        eng.dispose()
        return True
    except sa.exc.OperationalError:
        return False


_template: str | None = None  # this process's migrated PostgreSQL database, copied for each fresh one


def _postgres_template(admin: sa.Engine) -> str:
    """Migrations run once per process on the server too: a fresh database is a copy of this one (`CREATE DATABASE …
    TEMPLATE`, a file copy on the server), the same schema and triggers; it is dropped when the process ends."""
    global _template
    if _template is None:
        name = f"discard_template_{uuid.uuid4().hex[:12]}"
        with admin.connect() as conn:
            conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
        migrate(PG_ADMIN_URL.rsplit("/", 1)[0] + f"/{name}")
        atexit.register(_drop_database, name)
        _template = name
    return _template


def _drop_database(name: str) -> None:
    admin = sa.create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@contextmanager
def fresh_postgres_database() -> Iterator[str]:
    """A new, migrated database on the local server, dropped afterwards; skips loudly when the server is absent."""
    if not _postgres_available():
        message = "!!! PostgreSQL на 127.0.0.1:5432 недоступен: тесты PostgreSQL пропущены !!!"
        print(f"\n{message}\n")
        pytest.skip(message)
    name = f"discard_test_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    template = _postgres_template(admin)
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}" TEMPLATE "{template}"'))
    try:
        yield PG_ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(scope="session")
def _worker_postgres_url() -> Iterator[str]:
    """A fresh, migrated database on the local server for this worker's run; dropped afterwards."""
    with fresh_postgres_database() as url:
        yield url


@pytest.fixture
def postgres_url(_worker_postgres_url: str) -> str:
    """The worker's PostgreSQL database, emptied for this test: each test starts alone in it, as on SQLite (a fresh
    copy per test). A test that met the rows of the tests run before it on the same worker passed or failed by the
    scheduler's order (issue 39); a new database per test costs ~1 s here, emptying one ~0.1 s."""
    eng = make_engine(_worker_postgres_url)
    try:
        with eng.begin() as conn:
            for table in reversed(SQLModel.metadata.sorted_tables):
                conn.execute(table.delete())
    finally:
        eng.dispose()
    return _worker_postgres_url


@pytest.fixture
def pg_engine(postgres_url: str) -> Iterator[sa.Engine]:
    eng = make_engine(postgres_url)
    yield eng
    eng.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db(request: pytest.FixtureRequest) -> sa.Engine:
    """Each test on SQLite and on PostgreSQL, alone in its database on both."""
    return request.getfixturevalue("engine" if request.param == "sqlite" else "pg_engine")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest) -> str:
    """`db`'s address, for tests whose threads or processes each open their own engine."""
    return request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "postgres_url")


# --- issue 24 item 4: the shell names the database (services/core/db.use_database) ---
@pytest.fixture(autouse=True)
def _no_database_named_across_tests() -> Iterator[None]:
    """A test starts with no database named, as a service would before its shell starts, and one a test named (as
    the site or the command line does) goes with it: a session given no `bind` never reaches another test's file."""
    previous = use_database(None)
    yield
    use_database(previous)


# --- issue 39: `make test` runs on several xdist workers (`-n`) ---
BROWSER_TESTS = "tests/e2e/"


def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """A browser test file runs on one worker, in its order: its tests share the file's app, and some follow on from
    the one before. Every other test goes to whichever worker is free: each has its own database (a copy of the
    migrated template) or none. (xdist's `loadgroup` cannot say this here: it renames the tests' ids, which pytest 9
    no longer lets a plugin do.)"""
    from xdist.scheduler import LoadScopeScheduling  # noqa: PLC0415 - only with xdist

    class BrowserFilesTogether(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            if not nodeid.startswith(BROWSER_TESTS):
                return nodeid
            return nodeid.split("::", 1)[0]

    return BrowserFilesTogether(config, log)
