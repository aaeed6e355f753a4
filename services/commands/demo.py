"""`discard demo`: seed the demo league into an empty database."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from services.commands.demo_league.league import database_is_empty, seed_demo, write_logins
from services.core.config import ROOT
from services.core.db import session_scope

LOGINS_FILE = ROOT / "data" / "demo-logins.txt"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("demo", help="заполнить пустую базу демо-лигой")
    parser.add_argument("--if-empty", action="store_true", help="молча ничего не делать, если база не пуста")
    parser.add_argument("--logins-file", type=Path, default=LOGINS_FILE)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    with session_scope() as session:
        if not database_is_empty(session):
            if args.if_empty:
                return 0
            print("База не пуста: демо-лига создаётся только в пустой базе.", file=sys.stderr)
            return 2
        logins = seed_demo(session)
    write_logins(args.logins_file, logins)
    print(f"Демо-лига создана. Имена и пароли для входа: {args.logins_file}")
    return 0
