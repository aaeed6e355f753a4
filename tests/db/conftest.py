"""The database tests' shared fixtures: `db` (each test on SQLite and on PostgreSQL), the league of
tests/db/test_results.py (a season with players, a judge and an organizer) and `http_routes` (the site's HTTP routes
on the test's database)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import sqlalchemy as sa
from sqlmodel import Session

from discard_app import api, http_guard
from services.core.db import session_scope
from tests.db.test_results import League


@pytest.fixture
def league(session: Session, monkeypatch: pytest.MonkeyPatch) -> League:
    """A module may define its own `league` (test_playoff.py does): that one wins there."""
    # Nobody logs in here: skip argon2 so ten accounts a test cost nothing.
    monkeypatch.setattr("services.core.security.hash_password", lambda password: "test-hash")
    lg = League(session)
    session.commit()
    return lg


@pytest.fixture
def http_routes(engine: sa.Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """The HTTP routes beside Reflex (tests/db/site_http.py) and their guard read and write the test's database; the
    guard signs device cookies with the site's key, read from it too."""

    @contextmanager
    def scope() -> Iterator[Session]:
        with session_scope(engine) as session:
            yield session

    monkeypatch.setattr(api, "session_scope", scope)
    monkeypatch.setattr(http_guard, "session_scope", scope)
    monkeypatch.setattr(http_guard, "_device_key_cache", [])
