"""`discard backup` / `discard restore ARCHIVE`: the whole league in one dated archive, and back."""

from __future__ import annotations

import argparse
import os
import sys
from datetime import datetime
from pathlib import Path

from services.core.backup import BackupError, backup, restore
from services.core.config import ROOT, settings


def _uploads() -> Path:
    """Where the site keeps the ruling photos (REFLEX_UPLOADED_FILES_DIR, relative to the project as with make run)."""
    configured = Path(os.environ.get("REFLEX_UPLOADED_FILES_DIR") or "uploaded_files")
    return configured if configured.is_absolute() else ROOT / configured


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    save = subparsers.add_parser(
        "backup",
        help="копия базы и фото решений судьи в один архив с датой",
        description="Снимает согласованную копию всей базы (SQLite — online backup, PostgreSQL — pg_dump) и фото.",
    )
    save.add_argument("--output", type=Path, default=ROOT / "backups", help="папка для архива (по умолчанию backups/)")
    save.add_argument("--uploads", type=Path, default=None, help="папка загруженных фото (по умолчанию как у сайта)")
    save.set_defaults(func=run_backup)
    load = subparsers.add_parser(
        "restore", help="восстановить архив в пустую базу", description="Восстанавливает только в пустую базу."
    )
    load.add_argument("archive", type=Path)
    load.add_argument("--uploads", type=Path, default=None, help="куда вернуть фото (по умолчанию как у сайта)")
    load.set_defaults(func=run_restore)


def run_backup(args: argparse.Namespace) -> int:
    try:
        path = backup(settings.database_url, args.uploads or _uploads(), args.output, now=datetime.now(settings.tz))
    except BackupError as error:
        print(error, file=sys.stderr)
        return 2
    print(f"Копия записана: {path}")
    return 0


def run_restore(args: argparse.Namespace) -> int:
    if not args.archive.is_file():
        print(f"Архив {args.archive} не найден.", file=sys.stderr)
        return 2
    try:
        restore(args.archive, settings.database_url, args.uploads or _uploads())
    except BackupError as error:
        print(error, file=sys.stderr)
        return 2
    print(f"База восстановлена из {args.archive}.")
    return 0
