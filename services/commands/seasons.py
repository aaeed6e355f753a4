"""`discard season new|list|copy-roster|import-roster|finish`: the season's lifecycle from the command line."""

from __future__ import annotations

import argparse
import sys
from datetime import date, datetime
from pathlib import Path

from services.commands.cli import read_text
from services.core.config import settings
from services.core.db import session_scope
from services.core.models import Role, utc_now
from services.league.accounts import AccountError, create_user, new_person_name
from services.league.roster import current_season
from services.league.seasons import (
    SeasonError,
    all_seasons,
    copy_roster,
    create_season,
    finish_season,
    import_roster_csv,
    preview_roster_csv,
    previous_season,
)
from services.views.history import status_text


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"дата в виде ГГГГ-ММ-ДД, а не «{text}»") from error


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    season = subparsers.add_parser("season", help="сезоны: новый, состав, завершение").add_subparsers(
        dest="season_command", required=True
    )
    new = season.add_parser(
        "new",
        help="начать новый сезон (залы клуба сохраняются)",
        description=(
            "Создаёт новый текущий сезон. На пустой базе с --organizer это начало настоящей лиги без демо: "
            "создаётся вход организатора, его пароль печатается один раз."
        ),
    )
    new.add_argument("name", help="название, например «Лига Дискарда 2027»")
    new.add_argument("--opens", type=_day, help="регистрация открывается (ГГГГ-ММ-ДД)")
    new.add_argument("--closes", type=_day, help="регистрация закрывается (ГГГГ-ММ-ДД)")
    new.add_argument("--organizer", help="имя организатора: создать его вход (для пустой базы)")
    new.add_argument("--copy-roster", action="store_true", help="перенести состав прошлого сезона")
    new.set_defaults(func=run_new)
    season.add_parser("list", help="все сезоны").set_defaults(func=run_list)
    load = season.add_parser("import-roster", help="состав из CSV (имя, контакт, взнос оплачен)")
    load.add_argument("file", type=Path)
    load.add_argument("--preview", action="store_true", help="только показать, чем станет каждая строка")
    load.set_defaults(func=run_import)
    season.add_parser("finish", help="завершить текущий сезон после финала").set_defaults(func=run_finish)


def _today() -> date:
    return datetime.now(settings.tz).date()


def run_new(args: argparse.Namespace) -> int:
    try:
        with session_scope() as session:
            password = None
            if args.organizer:
                name = new_person_name(args.organizer)
                organizer, password = create_user(session, display_name=name, role=Role.ORGANIZER)
            season = create_season(
                session,
                args.name,
                registration_opens_on=args.opens,
                registration_closes_on=args.closes,
                actor_user_id=organizer.id if args.organizer else None,
                now=utc_now(),
            )
            copied, source_name = None, ""
            source = previous_season(session, season)
            if args.copy_roster and source is not None:
                copied = copy_roster(session, season, source, today=_today(), actor_user_id=None)
                source_name = source.name
    except (SeasonError, AccountError) as error:
        print(error, file=sys.stderr)
        return 2
    print(f"Сезон «{season.name}» начат и стал текущим.")
    if password:
        print(f"{args.organizer}: организатор, пароль {password} (показан один раз)")
    if copied is not None:
        print(f"Из сезона «{source_name}» перенесено игроков: {len(copied.added)}.")
        for reason in copied.refused:
            print(f"- не перенесён: {reason}")
    return 0


def run_list(args: argparse.Namespace) -> int:
    with session_scope() as session:
        for season in all_seasons(session):
            mark = "* " if season.is_current else "  "
            print(f"{mark}{season.id}\t{season.name}\t{status_text(season)}")
    return 0


def run_import(args: argparse.Namespace) -> int:
    if (text := read_text(args.file)) is None:
        return 2
    try:
        with session_scope() as session:
            season = current_season(session)
            if season is None:
                raise SeasonError("Сезона ещё нет: начните его командой discard season new.")
            if args.preview:
                lines = preview_roster_csv(session, season, text, today=_today())
                passwords: tuple[tuple[str, str], ...] = ()
            else:
                result = import_roster_csv(session, season, text, today=_today(), actor_user_id=None)
                lines, passwords = list(result.lines), result.passwords
    except SeasonError as error:
        print(error, file=sys.stderr)
        return 2
    for line in lines:
        print(f"{line.line}\t{line.name}\t{line.fee}\t{line.outcome}")
    for name, password in passwords:
        print(f"{name}: пароль {password} (показан один раз)")
    return 0 if all(line.accepted for line in lines) else 1


def run_finish(args: argparse.Namespace) -> int:
    try:
        with session_scope() as session:
            season = current_season(session)
            if season is None:
                raise SeasonError("Сезона нет.")
            finish_season(session, season, now=datetime.now(settings.tz), actor_user_id=None)
    except SeasonError as error:
        print(error, file=sys.stderr)
        return 2
    print(f"Сезон «{season.name}» завершён; он остаётся в истории на странице /seasons.")
    return 0
