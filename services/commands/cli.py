"""The `discard` command line: organizer tooling next to the web app; imports no reflex."""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from pathlib import Path

from services.core.config import settings
from services.core.db import use_database

# Each module has register(subparsers) and sets `func` on its parsers.
COMMAND_MODULES = (
    "services.commands.database",
    "services.commands.user",
    "services.commands.demo",
    "services.commands.draw",
    "services.commands.standings",
    "services.commands.season",
    "services.commands.seasons",
    "services.commands.backup",
    "services.commands.regulation",
    "services.commands.playoff",
    "services.commands.bot",
    "services.commands.reminders",
    "services.commands.pantheon",
    "services.commands.health",
)


def read_text(path: Path) -> str | None:
    """A UTF-8 text file given on the command line (a BOM, as Excel writes it, is allowed), or None after saying
    in Russian why it could not be read."""
    try:
        return path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        print(f"Файл {path} не прочитан: {error}", file=sys.stderr)
        return None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="discard", description="Лига Дискарда: инструменты организатора")
    subparsers = parser.add_subparsers(dest="command", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: list[str] | None = None, *, database_url: str | None = None) -> int:
    """`database_url`: the database the commands work on; the settings' (DATABASE_URL) when not given."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    use_database(database_url or settings.database_url)  # the shell names it: services never read the settings
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
