"""The database, the state files and the uploads are narrowed to the server's own account; nothing else is."""

from __future__ import annotations

import os
from pathlib import Path

from services.core.files import keep_files_private, private_paths


def _mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


def test_existing_files_are_narrowed_and_new_ones_are_created_owner_only(tmp_path: Path) -> None:
    data, states, uploads = tmp_path / "data", tmp_path / ".states", tmp_path / "uploaded_files"
    for folder in (data, states, uploads / "rulings"):
        folder.mkdir(parents=True, mode=0o755)
        folder.chmod(0o755)
    files = [data / "discard.db", data / "discard.db-wal", states / "tab.pkl", uploads / "rulings" / "photo.jpg"]
    for path in files:
        path.write_bytes(b"secret")
        path.chmod(0o644)
    env = {"REFLEX_STATES_WORKDIR": str(states), "REFLEX_UPLOADED_FILES_DIR": str(uploads)}
    previous = os.umask(0o022)
    try:
        keep_files_private(f"sqlite:///{data / 'discard.db'}", env)
        (states / "new.pkl").write_bytes(b"secret")
        created = _mode(states / "new.pkl")
    finally:
        os.umask(previous)
    assert [_mode(p) for p in files] == [0o600] * 4
    assert [_mode(p) for p in (states, uploads, uploads / "rulings")] == [0o700] * 3
    assert created == 0o600


def test_the_folder_holding_the_database_is_left_as_it_is(tmp_path: Path) -> None:
    """DATABASE_URL=sqlite:////some/dir/real.db must not make /some/dir (a checkout, its .venv/bin) owner-only."""
    folder = tmp_path / "some" / "dir"
    (folder / "checkout" / ".venv" / "bin").mkdir(parents=True)
    tool = folder / "checkout" / ".venv" / "bin" / "python"
    tool.write_text("#!/bin/sh\n")
    for path, mode in ((folder, 0o755), (folder / "checkout", 0o755), (tool, 0o755)):
        path.chmod(mode)
    neighbour = folder / "notes.txt"
    neighbour.write_text("shared")
    neighbour.chmod(0o644)
    database = folder / "real.db"
    for path in (database, folder / "real.db-wal", folder / "real.db-shm"):
        path.write_bytes(b"secret")
        path.chmod(0o644)
    env = {"REFLEX_STATES_WORKDIR": str(tmp_path / "st"), "REFLEX_UPLOADED_FILES_DIR": str(tmp_path / "up")}
    previous = os.umask(0o022)
    try:
        keep_files_private(f"sqlite:///{database}", env)
    finally:
        os.umask(previous)
    assert folder not in private_paths(f"sqlite:///{database}", env)
    assert [_mode(p) for p in (folder, folder / "checkout", tool, neighbour)] == [0o755, 0o755, 0o755, 0o644]
    assert [_mode(folder / name) for name in ("real.db", "real.db-wal", "real.db-shm")] == [0o600] * 3
    assert os.access(tool, os.X_OK)
