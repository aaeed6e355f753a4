"""A consistent copy of the whole league, and bringing it back: the database plus the uploaded ruling photos in one
dated archive. Imports no reflex.

SQLite is copied with its online backup API (a consistent snapshot while the site keeps writing); PostgreSQL with
`pg_dump` in its custom format (one snapshot transaction). The archive holds password hashes, feed tokens and session
digests: it is written owner-only whatever the umask. A restore goes only into an empty database, checked before
anything is unpacked; it takes only plain files and folders (no link, no device) and stops past a size budget, so a
crafted archive can neither point the public uploads at the database nor fill the disk.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import tarfile
import tempfile
import zlib
from datetime import datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlmodel import SQLModel

import services.core.models  # noqa: F401  (every table, for the emptiness check)
from services.core.db import make_engine

FORMAT = "discard-backup/1"
MANIFEST = "manifest.json"
UPLOADS = "uploaded_files"
DB_FILES = {"sqlite": "database.sqlite", "postgresql": "database.pgdump"}
# What a genuine archive unpacks to at most: SQLite pages and pg_dump compress well, photos hardly at all; a gzip
# bomb expands a thousandfold. The floor keeps a tiny archive of a new league restorable.
EXPANSION_LIMIT = 100
MIN_BUDGET_BYTES = 64 * 1024 * 1024
MAX_MEMBERS = 100_000
MANIFEST_MAX_BYTES = 64 * 1024


class BackupError(RuntimeError):
    """A backup or restore that cannot go on; the message is Russian."""


def _kind(database_url: str) -> str:
    name = sa.engine.make_url(database_url).get_backend_name()
    if name not in DB_FILES:
        raise BackupError(f"База {name} не поддерживается: только SQLite и PostgreSQL.")
    return name


def _sqlite_path(database_url: str) -> Path:
    database = sa.engine.make_url(database_url).database
    if not database or database == ":memory:":
        raise BackupError("У базы SQLite в памяти нет файла.")
    return Path(database)


def _libpq(database_url: str) -> tuple[str, dict[str, str]]:
    """The URL for pg_dump / pg_restore; the password goes through the environment, never the command line."""
    url = sa.engine.make_url(database_url)
    env = {**os.environ}
    if url.password:
        env["PGPASSWORD"] = str(url.password)
    plain = url.set(drivername="postgresql", password=None)
    return plain.render_as_string(hide_password=False), env


def archive_name(now: datetime) -> str:
    return f"discard-backup-{now:%Y-%m-%d-%H%M%S}.tar.gz"


def backup(database_url: str, uploads_dir: Path, output_dir: Path, *, now: datetime) -> Path:
    """Writes `discard-backup-<date>.tar.gz` into `output_dir`: the database, the ruling photos, a manifest."""
    kind = _kind(database_url)
    output_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    target = output_dir / archive_name(now)
    with tempfile.TemporaryDirectory() as tmp:
        dump = Path(tmp) / DB_FILES[kind]
        if kind == "sqlite":
            source = sqlite3.connect(_sqlite_path(database_url))
            copy = sqlite3.connect(dump)
            try:
                source.backup(copy)  # the online backup API: a consistent snapshot under concurrent writes
            finally:
                copy.close()
                source.close()
        else:
            url, env = _libpq(database_url)
            done = subprocess.run(
                ["pg_dump", "--format=custom", "--no-owner", "--no-privileges", "--file", str(dump), url],
                env=env, capture_output=True, text=True, check=False,
            )  # fmt: skip
            if done.returncode != 0:
                raise BackupError(f"pg_dump не удался: {done.stderr.strip()}")
        manifest = {"format": FORMAT, "database": kind, "created_at": now.isoformat()}
        (Path(tmp) / MANIFEST).write_text(json.dumps(manifest, ensure_ascii=False), encoding="utf-8")
        partial = target.with_suffix(".partial")
        # Owner-only from its first byte, not after: the mode is given at creation and again for a stale partial.
        descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.fchmod(descriptor, 0o600)
        with os.fdopen(descriptor, "wb") as raw, tarfile.open(fileobj=raw, mode="w:gz") as tar:
            tar.add(Path(tmp) / MANIFEST, arcname=MANIFEST)
            tar.add(dump, arcname=DB_FILES[kind])
            if uploads_dir.is_dir():
                # Plain files and folders only, as the restore accepts: a stray link in the uploads is left out.
                tar.add(uploads_dir, arcname=UPLOADS, filter=_plain_member)
        partial.rename(target)  # a half-written archive never carries the final name
    return target


def _plain_member(member: tarfile.TarInfo) -> tarfile.TarInfo | None:
    return member if member.isreg() or member.isdir() else None


def non_empty_tables(database_url: str) -> list[str]:
    """The league's tables that hold rows; empty when the database is new (with or without the schema)."""
    engine = make_engine(database_url)
    try:
        existing = set(sa.inspect(engine).get_table_names())
        found = []
        with engine.connect() as conn:
            for name, table in SQLModel.metadata.tables.items():
                if name in existing and conn.execute(sa.select(sa.literal(1)).select_from(table).limit(1)).first():
                    found.append(name)
        return found
    finally:
        engine.dispose()


def _unpack(archive: Path, into: Path) -> None:
    """Plain files and folders only, within the size budget, each path checked by tarfile's `data` filter."""
    budget = max(EXPANSION_LIMIT * archive.stat().st_size, MIN_BUDGET_BYTES)
    total = 0
    try:
        with tarfile.open(archive, "r:gz") as tar:
            for count, member in enumerate(tar, start=1):  # one header at a time: nothing is unpacked ahead
                if not (member.isreg() or member.isdir()):
                    raise BackupError(
                        f"В архиве {archive} ссылка или особый файл ({member.name}): "
                        "в копии лиги их не бывает, восстановление отменено."
                    )
                total += member.size
                if total > budget or count > MAX_MEMBERS:
                    raise BackupError(
                        f"Архив {archive} распаковывается в слишком много данных (больше {budget // 2**20} МБ): "
                        "это не копия лиги, восстановление отменено."
                    )
                tar.extract(member, into, filter="data")
    except (OSError, tarfile.TarError, EOFError, zlib.error) as error:
        raise BackupError(f"Архив {archive} не прочитан: {error}") from error


def _manifest(archive: Path) -> dict[str, Any]:
    """The archive's first member, read alone: what the copy is, before the database is checked or anything
    unpacked."""
    try:
        with tarfile.open(archive, "r:gz") as tar:
            first = tar.next()
            if first is None or first.name != MANIFEST or not first.isreg() or first.size > MANIFEST_MAX_BYTES:
                raise BackupError(f"В архиве {archive} нет описания {MANIFEST}: это не копия лиги.")
            member = tar.extractfile(first)
            if member is None:
                raise BackupError(f"В архиве {archive} нет описания {MANIFEST}: это не копия лиги.")
            manifest = json.loads(member.read().decode("utf-8"))
    except (OSError, tarfile.TarError, EOFError, zlib.error) as error:
        raise BackupError(f"Архив {archive} не прочитан: {error}") from error
    except ValueError as error:
        raise BackupError(f"В архиве {archive} нет описания {MANIFEST}: это не копия лиги.") from error
    return manifest if isinstance(manifest, dict) else {}


def restore(archive: Path, database_url: str, uploads_dir: Path) -> None:
    """Brings an archive back into an empty database; refuses a database that holds anything."""
    kind = _kind(database_url)
    manifest = _manifest(archive)
    if manifest.get("format") != FORMAT:
        raise BackupError(f"Неизвестный формат копии: {manifest.get('format')}.")
    if manifest.get("database") != kind:
        raise BackupError(f"Копия снята с базы {manifest.get('database')}, а восстанавливается в {kind}.")
    try:
        busy = non_empty_tables(database_url)
    except sa.exc.OperationalError as error:
        raise BackupError(f"База недоступна: {error.orig}") from error
    if busy:
        raise BackupError(
            f"База не пуста (есть строки в таблицах: {', '.join(sorted(busy))}): восстановление только в пустую базу."
        )
    with tempfile.TemporaryDirectory() as tmp:
        _unpack(archive, Path(tmp))
        dump = Path(tmp) / DB_FILES[kind]
        if kind == "sqlite":
            path = _sqlite_path(database_url)
            path.parent.mkdir(parents=True, exist_ok=True)
            source = sqlite3.connect(dump)
            target = sqlite3.connect(path)
            try:
                source.backup(target)
            finally:
                target.close()
                source.close()
        else:
            url, env = _libpq(database_url)
            done = subprocess.run(
                ["pg_restore", "--clean", "--if-exists", "--no-owner", "--no-privileges", "--single-transaction",
                 "--exit-on-error", "--dbname", url, str(dump)],
                env=env, capture_output=True, text=True, check=False,
            )  # fmt: skip
            if done.returncode != 0:
                raise BackupError(f"pg_restore не удался: {done.stderr.strip()}")
        photos = Path(tmp) / UPLOADS
        if photos.is_dir():
            shutil.copytree(photos, uploads_dir, dirs_exist_ok=True)
