"""Issue 24 item 4: services never read the settings; the shell names the database (`db.use_database`)."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from services.core import db


def test_without_a_named_database_a_session_says_so(sqlite_url: str) -> None:
    with pytest.raises(RuntimeError, match="use_database"), db.session_scope() as session:
        session.exec(sa.text("select 1"))


def test_a_session_without_bind_works_on_the_database_the_shell_named(sqlite_url: str, tmp_path: Path) -> None:
    other = f"sqlite:///{tmp_path / 'other.db'}"
    db.use_database(sqlite_url)
    with db.session_scope() as session:
        assert session.exec(sa.text("select count(*) from alembic_version")).one()[0] == 1  # the migrated one
    assert db.use_database(other) == sqlite_url  # a test can name the previous one back
    assert str(db.engine().url) == other
