"""The real gateway and notifier as the bot tests build them: the tests' short back-off (a retry waits 10 ms, not
seconds), everything else as given."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from telegram import Bot

from services.notifier.outbox import Notifier, Target
from services.notifier.telegram import TelegramGateway


def gateway(bot: Bot, **options: Any) -> TelegramGateway:
    return TelegramGateway(bot, **{"backoff": 0.01, **options})


def notifier(bot: Bot, target: Target, engine: sa.Engine, *, attempts: int = 5, **options: Any) -> Notifier:
    """A notifier over `gateway(bot, attempts=attempts)`; `options` go to the Notifier (clock, pace, …)."""
    return Notifier(gateway(bot, attempts=attempts), target, bind=engine, **options)
