"""`discard user add|reset-password`: accounts from the command line."""

from __future__ import annotations

import argparse
import sys

from services.core.db import session_scope
from services.core.models import Role, RosterStatus
from services.league.accounts import AccountError, create_user, find_user, new_person_name, reset_password
from services.league.roster import add_player, current_season


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    user = subparsers.add_parser("user", help="учётные записи").add_subparsers(dest="user_command", required=True)
    add = user.add_parser("add", help="создать пользователя и напечатать его пароль один раз")
    add.add_argument("name")
    add.add_argument("--role", choices=[r.value for r in Role], default=Role.PLAYER.value)
    add.add_argument("--status", choices=[s.value for s in RosterStatus], default=RosterStatus.MAIN.value)
    add.set_defaults(func=run_add)
    reset = user.add_parser("reset-password", help="выдать новый пароль и завершить сеансы")
    reset.add_argument("name")
    reset.set_defaults(func=run_reset)


def run_add(args: argparse.Namespace) -> int:
    try:
        name = new_person_name(args.name)  # an organizer or a judge is a person too
        with session_scope() as session:
            season = current_season(session)
            if args.role == Role.PLAYER and season is not None:
                _, password = add_player(session, season, name, status=RosterStatus(args.status), actor_user_id=None)
            else:
                _, password = create_user(session, display_name=name, role=Role(args.role))
    except AccountError as error:
        print(error, file=sys.stderr)
        return 2
    print(f"{name}: пароль {password} (показан один раз)")
    return 0


def run_reset(args: argparse.Namespace) -> int:
    with session_scope() as session:
        user = find_user(session, args.name)
        if user is None:
            print(f"Пользователь «{args.name}» не найден.", file=sys.stderr)
            return 2
        password = reset_password(session, user, actor_user_id=None)
    print(f"{user.display_name}: новый пароль {password} (показан один раз)")
    return 0
