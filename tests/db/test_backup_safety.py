"""A backup nobody else can read, and a restore that a crafted archive cannot turn against the site: no link or
special member, no gzip bomb, no unpacking at all into a database that is not empty."""

from __future__ import annotations

import gzip
import io
import os
import sqlite3
import tarfile
from pathlib import Path

import pytest
from sqlmodel import Session, select

from services.core.backup import BackupError, backup, non_empty_tables, restore
from services.core.db import make_engine, migrate
from services.core.models import User
from tests.factories import PLAYED, user

NOW = PLAYED


def _source(tmp_path: Path) -> tuple[str, Path]:
    """A migrated league with one player and one ruling photo, as a real site leaves them."""
    url = f"sqlite:///{tmp_path / 'league.db'}"
    migrate(url)
    engine = make_engine(url)
    with Session(engine) as session:
        user(session, "Игрок")
        session.commit()
    engine.dispose()
    uploads = tmp_path / "uploads"
    (uploads / "rulings").mkdir(parents=True)
    (uploads / "rulings" / "photo.jpg").write_bytes(b"\xff\xd8\xff photo")
    return url, uploads


def _crafted(genuine: Path, target: Path, extra: list[tuple[tarfile.TarInfo, bytes | None]]) -> Path:
    """The genuine archive's members plus the attacker's own, as a new .tar.gz."""
    with tarfile.open(genuine, "r:gz") as tar, tarfile.open(target, "w:gz") as out:
        for member in tar.getmembers():
            out.addfile(member, tar.extractfile(member) if member.isreg() else None)
        for info, data in extra:
            out.addfile(info, io.BytesIO(data) if data is not None else None)
    return target


def _link(name: str, to: str, kind: bytes = tarfile.SYMTYPE) -> tuple[tarfile.TarInfo, None]:
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, to
    return info, None


def test_a_backup_is_owner_only_whatever_the_umask(tmp_path: Path) -> None:
    url, uploads = _source(tmp_path)
    previous = os.umask(0o022)  # the README's cron line runs under the usual umask
    try:
        archive = backup(url, uploads, tmp_path / "backups", now=NOW)
    finally:
        os.umask(previous)
    assert archive.stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "backups").stat().st_mode & 0o077 == 0


@pytest.mark.parametrize(
    "member",
    [
        _link("uploaded_files", "."),  # the whole unpack folder, the database in it, served as photos
        _link("uploaded_files/rulings/x.png", "../../database.sqlite"),
        _link("uploaded_files/rulings/y.png", "database.sqlite", tarfile.LNKTYPE),  # a hard link
        _link("uploaded_files/rulings/fifo", "", tarfile.FIFOTYPE),
    ],
    ids=["symlink-folder", "symlink-file", "hardlink", "fifo"],
)
def test_restore_refuses_links_and_special_members(tmp_path: Path, member: tuple[tarfile.TarInfo, None]) -> None:
    url, uploads = _source(tmp_path)
    genuine = backup(url, uploads, tmp_path / "backups", now=NOW)
    crafted = _crafted(genuine, tmp_path / "crafted.tar.gz", [member])
    target_url, served = f"sqlite:///{tmp_path / 'new.db'}", tmp_path / "served"
    with pytest.raises(BackupError, match="ссылк|особ"):
        restore(crafted, target_url, served)
    assert not served.exists() or not any(served.rglob("*"))  # nothing reached the public uploads
    assert not (tmp_path / "new.db").exists() or non_empty_tables(target_url) == []


def test_restore_refuses_a_gzip_bomb_before_it_fills_the_disk(tmp_path: Path) -> None:
    url, uploads = _source(tmp_path)
    genuine = backup(url, uploads, tmp_path / "backups", now=NOW)
    size = 200 * 1024 * 1024  # 200 MB of zeros: about 200 KB once compressed
    bomb = tarfile.TarInfo("uploaded_files/rulings/bomb.png")
    bomb.size = size
    crafted = tmp_path / "bomb.tar.gz"
    with (
        tarfile.open(genuine, "r:gz") as tar,
        gzip.open(crafted, "wb", compresslevel=9) as raw,
        tarfile.open(fileobj=raw, mode="w") as out,
    ):
        for member in tar.getmembers():
            out.addfile(member, tar.extractfile(member) if member.isreg() else None)
        out.addfile(bomb, io.BytesIO(bytes(size)))
    assert crafted.stat().st_size < 1024 * 1024
    target_url, served = f"sqlite:///{tmp_path / 'new.db'}", tmp_path / "served"
    with pytest.raises(BackupError, match="слишком"):
        restore(crafted, target_url, served)
    assert not (served / "rulings" / "bomb.png").exists()
    assert not (tmp_path / "new.db").exists() or non_empty_tables(target_url) == []


def test_a_database_that_is_not_empty_is_refused_before_anything_is_unpacked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url, uploads = _source(tmp_path)
    archive = backup(url, uploads, tmp_path / "backups", now=NOW)
    unpacked: list[str] = []
    for method in ("extract", "extractall"):
        original = getattr(tarfile.TarFile, method)
        monkeypatch.setattr(
            tarfile.TarFile,
            method,
            lambda self, *args, _original=original, _method=method, **kwargs: (
                unpacked.append(_method),
                _original(self, *args, **kwargs),
            )[1],
        )
    with pytest.raises(BackupError, match="База не пуста"):
        restore(archive, url, tmp_path / "served")
    assert unpacked == []  # the league's rows are checked first: not one member reached the disk


def test_a_genuine_archive_still_comes_back(tmp_path: Path) -> None:
    url, uploads = _source(tmp_path)
    (uploads / "rulings" / "stray-link.jpg").symlink_to(tmp_path / "league.db")  # left out of the archive
    archive = backup(url, uploads, tmp_path / "backups", now=NOW)
    target_url, served = f"sqlite:///{tmp_path / 'new.db'}", tmp_path / "served"
    restore(archive, target_url, served)
    assert (served / "rulings" / "photo.jpg").read_bytes() == b"\xff\xd8\xff photo"
    assert not (served / "rulings" / "stray-link.jpg").exists()
    with Session(make_engine(target_url)) as session:
        assert [u.display_name for u in session.exec(select(User))] == ["Игрок"]
    assert sqlite3.connect(tmp_path / "new.db").execute("PRAGMA integrity_check").fetchone() == ("ok",)
