"""`discard health`: is the site answering with its database and Redis, and is the bot alive; for monitoring and
the production units. Exit 0 when everything asked for is healthy, 1 otherwise; imports no reflex."""

from __future__ import annotations

import argparse
import json
import urllib.error
import urllib.request

from services.core.bot_status import bot_status
from services.core.db import session_scope
from services.core.models import utc_now

TIMEOUT_SECONDS = 5


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("health", help="проверить сайт (база, Redis) и бота")
    parser.add_argument("--url", default="http://127.0.0.1:3000", help="адрес сайта (по умолчанию %(default)s)")
    parser.add_argument("--bot", action="store_true", help="проверить и Telegram-бота (его отметку в базе)")
    parser.set_defaults(func=run)


PARTS = {"db": "база данных", "redis": "Redis"}


def site_health(url: str) -> dict[str, bool]:
    """Reflex's /_health answers {"status": true, "db": true, "redis": true} ("redis" only when Redis is
    configured); 503 with the same body when a part is down. Returns what was checked and whether it is up."""
    try:
        with urllib.request.urlopen(f"{url.rstrip('/')}/_health", timeout=TIMEOUT_SECONDS) as response:
            answer = json.loads(response.read())
    except urllib.error.HTTPError as error:
        answer = json.loads(error.read() or b"{}")
    except (OSError, ValueError):
        return {"сайт": False}
    return {"сайт": True} | {PARTS.get(k, k): v is True for k, v in answer.items() if k != "status"}


def bot_alive() -> bool:
    """The bot writes a heartbeat into the database; a stale one means the process is not running."""
    with session_scope() as session:
        return bot_status(session, now=utc_now()).connected


def run(args: argparse.Namespace) -> int:
    checks = site_health(args.url) | ({"Telegram-бот": bot_alive()} if args.bot else {})
    for part, ok in checks.items():
        print(f"{'ok' if ok else '!!'} {part}" + ("" if ok else f": недоступен ({args.url})" if part == "сайт" else ""))
    return 0 if all(checks.values()) else 1
