"""The database, the state files and the uploads are narrowed to the server's own account."""

from __future__ import annotations

import os
from pathlib import Path

from services.core.files import keep_files_private


def test_existing_files_are_narrowed_and_new_ones_are_created_owner_only(tmp_path: Path) -> None:
    data, states, uploads = tmp_path / "data", tmp_path / ".states", tmp_path / "uploaded_files"
    for folder in (data, states, uploads / "rulings"):
        folder.mkdir(parents=True, mode=0o755)
        folder.chmod(0o755)
    files = [data / "discard.db", states / "tab.pkl", uploads / "rulings" / "photo.jpg"]
    for path in files:
        path.write_bytes(b"secret")
        path.chmod(0o644)
    env = {"REFLEX_STATES_WORKDIR": str(states), "REFLEX_UPLOADED_FILES_DIR": str(uploads)}
    previous = os.umask(0o022)
    try:
        keep_files_private(f"sqlite:///{data / 'discard.db'}", env)
        (states / "new.pkl").write_bytes(b"secret")
        created = (states / "new.pkl").stat().st_mode & 0o777
    finally:
        os.umask(previous)
    assert [p.stat().st_mode & 0o777 for p in files] == [0o600] * 3
    assert [p.stat().st_mode & 0o777 for p in (data, states, uploads, uploads / "rulings")] == [0o700] * 4
    assert created == 0o600
