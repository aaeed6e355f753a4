"""`discard pantheon sync`: import the season's finished games from Pantheon (Регламент §6.2); imports no reflex."""

from __future__ import annotations

import argparse
import contextlib
import sys
import threading
from datetime import timedelta

from services.core.db import session_scope
from services.pantheon.schedule import organizer_id, run_sync_periodically
from services.pantheon.sync import SyncError, SyncSummary, run_sync
from services.results.repo import current_season_id


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    pantheon = subparsers.add_parser("pantheon", help="импорт результатов из Pantheon").add_subparsers(
        dest="pantheon_command", required=True
    )
    sync = pantheon.add_parser("sync", help="прочитать законченные игры события и внести ханчаны")
    sync.add_argument("--season", type=int, default=None, help="id сезона (по умолчанию последний)")
    sync.add_argument("--as", dest="login", default=None, help="логин организатора, от имени которого вносить")
    sync.add_argument(
        "--every", type=float, default=None, metavar="N", help="повторять импорт каждые N минут (без бота)"
    )
    sync.add_argument("--runs", type=int, default=None, help="с --every: остановиться после стольких импортов")
    sync.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """0 when everything was read, 1 when Pantheon failed part-way (a rerun continues), 2 when it cannot start."""
    with session_scope() as session:
        season_id = args.season or current_season_id(session)
    actor = organizer_id(login=args.login)
    if season_id is None or actor is None:
        print("Нет сезона или организатора: импортировать некуда или не от чьего имени.", file=sys.stderr)
        return 2
    if args.every is not None:
        return _repeat(season_id, actor, args.every, args.runs)

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


def _repeat(season_id: int, actor: int, minutes: float, runs: int | None) -> int:
    """A live match day without the bot: import every N minutes until interrupted (or `runs` imports)."""
    if minutes <= 0:
        print("--every: укажите положительное число минут.", file=sys.stderr)
        return 2
    stop, done = threading.Event(), [0]

    def show(summary: SyncSummary) -> None:
        print(summary.text(), flush=True)
        done[0] += 1
        if runs is not None and done[0] >= runs:
            stop.set()

    print(f"Импорт из Pantheon каждые {minutes:g} мин.; остановить: Ctrl+C.", file=sys.stderr)
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl+C ends the loop, not with a traceback
        run_sync_periodically(season_id, actor, every=timedelta(minutes=minutes), stop=stop, on_summary=show)
    return 0
