"""`discard migrate`: bring the database schema up to date."""

from __future__ import annotations

import argparse

from services.core.db import database_url, migrate


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("migrate", help="применить миграции базы данных")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    migrate(database_url())  # the one cli.main named
    return 0
