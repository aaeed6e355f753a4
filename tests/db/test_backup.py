"""`discard backup` during writes, `discard restore` into an empty database, every table compared; a non-empty
database is refused. SQLite (online backup API) and PostgreSQL (pg_dump custom format)."""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlmodel import Session, SQLModel, select

from services.commands.demo_league.league import seed_demo
from services.core.backup import BackupError, backup, restore
from services.core.db import make_engine, migrate
from services.core.models import Announcement, OutboxEvent, Role, Season, User
from services.league.announcements import publish_announcement
from tests.conftest import PG_ADMIN_URL
from tests.factories import PLAYED

WRITTEN = {"announcement", "outboxevent", "auditrecord"}  # what the writer adds while the copy is taken
NOW = datetime(2027, 1, 10, 3, 0, tzinfo=UTC)


def _rows(engine: sa.Engine) -> dict[str, list[tuple]]:
    with engine.connect() as conn:
        return {
            name: sorted(tuple(r) for r in conn.execute(sa.select(table)).all())
            for name, table in SQLModel.metadata.tables.items()
        }


def _seed(engine: sa.Engine, uploads: Path) -> None:
    with Session(engine, expire_on_commit=False) as session:
        seed_demo(session)
        session.commit()
    (uploads / "rulings").mkdir(parents=True)
    (uploads / "rulings" / "abc123.jpg").write_bytes(b"\xff\xd8\xff photo")


def _write_during(engine: sa.Engine, started: threading.Event, stop: threading.Event) -> int:
    """Announcements (each with its outbox event and audit row) one transaction after another, until told to stop."""
    count = 0
    with Session(engine, expire_on_commit=False) as session:
        season = session.exec(select(Season)).first()
        organizer = session.exec(select(User).where(User.role == Role.ORGANIZER)).first()
        while not stop.is_set() or count < 5:
            publish_announcement(session, season, f"Объявление {count}", author_user_id=organizer.id, now=PLAYED)
            session.commit()
            count += 1
            if count == 5:
                started.set()
    return count


def _backup_during_writes(source_url: str, uploads: Path, out: Path) -> Path:
    engine = make_engine(source_url)
    started, stop = threading.Event(), threading.Event()
    counts: list[int] = []
    writer = threading.Thread(target=lambda: counts.append(_write_during(engine, started, stop)))
    writer.start()
    try:
        assert started.wait(60)
        archive = backup(source_url, uploads, out, now=NOW)
    finally:
        stop.set()
        writer.join()
    engine.dispose()
    assert counts[0] > 5
    return archive


def _check_restored(source_url: str, target_url: str, restored_uploads: Path) -> None:
    source, target = make_engine(source_url), make_engine(target_url)
    before, after = _rows(source), _rows(target)
    for name in SQLModel.metadata.tables:
        if name in WRITTEN:
            # A snapshot: the rows up to some moment, nothing half-written.
            assert set(after[name]) <= set(before[name]), name
        else:
            assert after[name] == before[name], name
    assert len(after["user"]) == 18 and after["hanchanresult"]
    with Session(target) as s:
        announced = {a.id for a in s.exec(select(Announcement))}
        events = s.exec(select(OutboxEvent).where(OutboxEvent.kind == "announcement")).all()
        assert {json.loads(e.payload)["announcement_id"] for e in events} == announced  # each with its event
    source.dispose()
    target.dispose()
    assert (restored_uploads / "rulings" / "abc123.jpg").read_bytes() == b"\xff\xd8\xff photo"


def test_backup_during_writes_and_restore_on_sqlite(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("services.core.security.hash_password", lambda password: "test-hash")
    source_url = f"sqlite:///{tmp_path / 'league.db'}"
    migrate(source_url)
    engine = make_engine(source_url)
    _seed(engine, tmp_path / "uploads")
    engine.dispose()
    archive = _backup_during_writes(source_url, tmp_path / "uploads", tmp_path / "backups")
    assert archive.name == "discard-backup-2027-01-10-030000.tar.gz"
    assert archive.stat().st_size > 0
    target_url = f"sqlite:///{tmp_path / 'restored' / 'league.db'}"
    restore(archive, target_url, tmp_path / "restored-uploads")
    _check_restored(source_url, target_url, tmp_path / "restored-uploads")
    with Session(make_engine(target_url)) as s:
        assert s.exec(select(Announcement)).first() is not None  # some of the writes made it into the copy
    with pytest.raises(BackupError, match="База не пуста"):
        restore(archive, target_url, tmp_path / "restored-uploads")
    with pytest.raises(BackupError, match="База не пуста"):
        restore(archive, source_url, tmp_path / "uploads")


def test_restore_into_a_migrated_empty_sqlite_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("services.core.security.hash_password", lambda password: "test-hash")
    source_url = f"sqlite:///{tmp_path / 'league.db'}"
    migrate(source_url)
    engine = make_engine(source_url)
    _seed(engine, tmp_path / "uploads")
    engine.dispose()
    archive = backup(source_url, tmp_path / "uploads", tmp_path / "backups", now=NOW)
    target_url = f"sqlite:///{tmp_path / 'new.db'}"
    migrate(target_url)  # what `make run` leaves behind before seeding
    restore(archive, target_url, tmp_path / "restored-uploads")
    _check_restored(source_url, target_url, tmp_path / "restored-uploads")
    with pytest.raises(BackupError, match="с базы sqlite, а восстанавливается в postgresql"):
        restore(archive, "postgresql+psycopg://postgres@127.0.0.1:5432/nonexistent", tmp_path / "x")


@pytest.fixture
def pg_pair(postgres_url: str) -> Iterator[tuple[str, str]]:
    """Two fresh databases: a migrated source and an empty target."""
    admin = sa.create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    names = [f"discard_backup_{uuid.uuid4().hex[:10]}" for _ in range(2)]
    with admin.connect() as conn:
        for name in names:
            conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    urls = [PG_ADMIN_URL.rsplit("/", 1)[0] + f"/{name}" for name in names]
    try:
        migrate(urls[0])
        yield urls[0], urls[1]
    finally:
        with admin.connect() as conn:
            for name in names:
                conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.mark.postgres
def test_backup_during_writes_and_restore_on_postgresql(
    pg_pair: tuple[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("services.core.security.hash_password", lambda password: "test-hash")
    source_url, target_url = pg_pair
    engine = make_engine(source_url)
    _seed(engine, tmp_path / "uploads")
    engine.dispose()
    archive = _backup_during_writes(source_url, tmp_path / "uploads", tmp_path / "backups")
    restore(archive, target_url, tmp_path / "restored-uploads")
    _check_restored(source_url, target_url, tmp_path / "restored-uploads")
    with pytest.raises(BackupError, match="База не пуста"):
        restore(archive, target_url, tmp_path / "restored-uploads")
    # The restored database is a working league: the booking guard and the migrations came back too.
    migrate(target_url)
