"""The `discard` command line: organizer tooling next to the web app; imports no reflex."""

from __future__ import annotations

import argparse
import importlib
import logging
import sys

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
    "services.commands.pantheon",
    "services.commands.health",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="discard", description="Лига Дискарда: инструменты организатора")
    subparsers = parser.add_subparsers(dest="command", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
