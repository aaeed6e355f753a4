"""`discard export` / `discard import`: the whole season as `discard-season/1` JSON; imports no reflex."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from services.core.db import session_scope
from services.league.season_io import export_season, import_season
from services.results.season_file import SeasonFileError


def register(subparsers: Any) -> None:
    """Add `export` and `import` to the `discard` parser's subparsers."""
    export = subparsers.add_parser(
        "export", help="выгрузить сезон в файл discard-season/1", description="Выгружает текущий сезон в JSON."
    )
    export.add_argument("--output", "-o", type=Path, help="файл (по умолчанию — стандартный вывод)")
    export.set_defaults(func=run_export)
    load = subparsers.add_parser(
        "import",
        help="загрузить файл discard-season/1 в текущий сезон",
        description=(
            "Загружает файл сезона: игроки сопоставляются по имени, матчи — по туру и столу (в плей-офф — по раунду). "
            "Сначала проверяется весь файл; при любой ошибке ничего не меняется."
        ),
    )
    load.add_argument("file", type=Path, help="файл сезона (discard-season/1)")
    load.set_defaults(func=run_import)


def run_export(args: argparse.Namespace) -> int:
    try:
        with session_scope() as session:
            document = export_season(session)
    except SeasonFileError as e:
        print("; ".join(e.problems), file=sys.stderr)
        return 2
    text = json.dumps(document, ensure_ascii=False, indent=2) + "\n"
    if args.output:
        args.output.write_text(text, encoding="utf-8")
        print(f"Сезон выгружен в {args.output}: игроков {len(document['players'])}, матчей {len(document['matches'])}.")
    else:
        sys.stdout.write(text)
    return 0


def run_import(args: argparse.Namespace) -> int:
    try:
        data = json.loads(args.file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        print(f"Файл {args.file} не найден.", file=sys.stderr)
        return 2
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        print(f"Файл {args.file} не прочитан как JSON: {e}", file=sys.stderr)
        return 2
    try:
        with session_scope() as session:
            summary = import_season(session, data)
    except SeasonFileError as e:
        print(f"Файл {args.file} не принят, ничего не изменено:", file=sys.stderr)
        for problem in e.problems:
            print(f"- {problem}", file=sys.stderr)
        return 2
    print(
        f"Импорт выполнен: новых игроков {summary.players_added}, матчей {summary.matches_added}, "
        f"ханчанов {summary.hanchans_added}, исправлений {summary.hanchans_corrected}, "
        f"штрафов {summary.penalties_added}."
    )
    return 0
