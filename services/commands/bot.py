"""`discard bot`: run the Telegram notifier (the bot process) until interrupted."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("bot", help="запустить Telegram-бота (карточки матчей, напоминания, объявления)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from services.notifier.bot import main  # imports telegram only when the bot is asked for

    return main()
