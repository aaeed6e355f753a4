"""Files the league keeps on disk stay readable by the server's own account only; imports no reflex.

The SQLite database holds password hashes, calendar tokens and Telegram link codes; Reflex's state files hold
what each tab showed; the uploads are ruling photos. New files are created owner-only (umask 077) and the
existing ones are narrowed at start.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from sqlalchemy.engine import make_url

log = logging.getLogger(__name__)

OWNER_ONLY_UMASK = 0o077


def _sqlite_path(database_url: str) -> Path | None:
    url = make_url(database_url)
    if not url.drivername.startswith("sqlite") or not url.database or url.database == ":memory:":
        return None
    return Path(url.database)


# SQLite's companions of the database file: the write-ahead log, its index, the rollback journal.
SQLITE_COMPANIONS = ("-wal", "-shm", "-journal")


def private_paths(database_url: str, env: dict[str, str]) -> list[Path]:
    """What the site owns and narrows: Reflex's .states, the uploads, the SQLite file and its companions. Never the
    folder that holds the database: DATABASE_URL may point into any folder (a home, a checkout beside it)."""
    paths = [
        Path(env.get("REFLEX_STATES_WORKDIR") or ".states"),
        Path(env.get("REFLEX_UPLOADED_FILES_DIR") or "uploaded_files"),
    ]
    database = _sqlite_path(database_url)
    if database is not None:
        paths += [database, *(database.with_name(database.name + suffix) for suffix in SQLITE_COMPANIONS)]
    return paths


def _narrow(path: Path) -> None:
    """Owner-only: folders 0700 and files 0600, recursively for the folders' contents."""
    if not path.exists() or path.is_symlink():
        return
    try:
        path.chmod(0o700 if path.is_dir() else 0o600)
        if path.is_dir():
            for child in path.rglob("*"):
                if not child.is_symlink():
                    child.chmod(0o700 if child.is_dir() else 0o600)
    except OSError as error:  # a folder owned by someone else: say so, do not stop the site
        log.warning("cannot make %s owner-only: %s", path, error)


def keep_files_private(database_url: str, env: dict[str, str] | None = None) -> None:
    """From now on this process creates files owner-only, and what exists already is narrowed (the shell passes its
    settings' database URL)."""
    os.umask(OWNER_ONLY_UMASK)
    for path in private_paths(database_url, dict(os.environ if env is None else env)):
        _narrow(path)
