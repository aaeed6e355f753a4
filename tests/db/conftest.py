"""The database tests' shared fixtures: `db` (each test on SQLite and on PostgreSQL) and the league of
tests/db/test_results.py (a season with players, a judge and an organizer)."""

from __future__ import annotations

import pytest
from sqlmodel import Session

from tests.db.test_results import League


@pytest.fixture
def league(session: Session, monkeypatch: pytest.MonkeyPatch) -> League:
    """A module may define its own `league` (test_playoff.py does): that one wins there."""
    # Nobody logs in here: skip argon2 so ten accounts a test cost nothing.
    monkeypatch.setattr("services.core.security.hash_password", lambda password: "test-hash")
    lg = League(session)
    session.commit()
    return lg
