"""`discard regulation publish FILE [--reason R]`: the league's regulation text, or an amendment to it."""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from pathlib import Path

from sqlmodel import col, select

from services.commands.cli import read_text
from services.core.config import settings
from services.core.db import session_scope
from services.core.models import Role, User
from services.league.regulation import RegulationError, publish


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    regulation = subparsers.add_parser("regulation", help="регламент лиги на сайте").add_subparsers(
        dest="regulation_command", required=True
    )
    load = regulation.add_parser(
        "publish",
        help="опубликовать текст регламента или изменение (оно объявляется на сайте и в Telegram)",
        description="Первый текст — исходная редакция; каждое следующее — изменение, для него нужна причина.",
    )
    load.add_argument("file", type=Path, help="текстовый файл UTF-8")
    load.add_argument("--reason", default="", help="что и почему изменено (для изменения обязательно)")
    load.set_defaults(func=run_publish)


def run_publish(args: argparse.Namespace) -> int:
    if (text := read_text(args.file)) is None:
        return 2
    try:
        with session_scope() as session:
            organizer = session.exec(select(User).where(User.role == Role.ORGANIZER).order_by(col(User.id))).first()
            version = publish(
                session,
                text,
                reason=args.reason,
                now=datetime.now(settings.tz),
                author_user_id=organizer.id if organizer else None,
            )
    except RegulationError as error:
        print(error, file=sys.stderr)
        return 2
    print(f"Опубликовано: {version.reason}. Действует с {version.announced_at.astimezone(settings.tz):%d.%m.%Y %H:%M}.")
    return 0
