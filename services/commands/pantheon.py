"""`discard pantheon sync`: import the season's finished games from Pantheon (Регламент §6.2); imports no reflex."""

from __future__ import annotations

import argparse
import sys

from sqlmodel import col, select

from services.db import session_scope
from services.models import Role, User
from services.pantheon.sync import SyncError, SyncSummary, run_sync
from services.results_repo import current_season_id


def register(subparsers: argparse._SubParsersAction) -> None:
    pantheon = subparsers.add_parser("pantheon", help="импорт результатов из Pantheon").add_subparsers(
        dest="pantheon_command", required=True
    )
    sync = pantheon.add_parser("sync", help="прочитать законченные игры события и внести ханчаны")
    sync.add_argument("--season", type=int, default=None, help="id сезона (по умолчанию последний)")
    sync.add_argument("--as", dest="login", default=None, help="логин организатора, от имени которого вносить")
    sync.set_defaults(func=run)


def _organizer_id(login: str | None) -> int | None:
    with session_scope() as session:
        query = select(User.id).where(User.role == Role.ORGANIZER).order_by(col(User.id))
        if login:
            query = query.where(User.login_name == login)
        return session.exec(query).first()


def run(args: argparse.Namespace) -> int:
    """0 when everything was read, 1 when Pantheon failed part-way (a rerun continues), 2 when it cannot start."""
    with session_scope() as session:
        season_id = args.season or current_season_id(session)
    actor = _organizer_id(args.login)
    if season_id is None or actor is None:
        print("Нет сезона или организатора: импортировать некуда или не от чьего имени.", file=sys.stderr)
        return 2

    def show(summary: SyncSummary) -> None:
        if not summary.finished:
            print(f"\rПрочитано игр: {summary.read}", end="", file=sys.stderr, flush=True)

    try:
        summary = run_sync(season_id, actor, progress=show)
    except SyncError as e:
        print(e, file=sys.stderr)
        return 2
    print(file=sys.stderr)
    print(summary.text())
    return 1 if summary.error else 0
