"""The bot's error handler: a command that raises is logged (no token, no link code) and answered with an apology,
and the bot keeps polling: the next update is handled."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime

import pytest
from telegram import Update
from telegram.error import NetworkError
from telegram.ext import Application

from services.notifier import bot as bot_process
from services.notifier import cards
from tests.bot.fake_api import TOKEN, FakeBotApi

pytestmark = pytest.mark.asyncio
SECRET_CODE = "LINKCODE-never-logged-42"


def _command(update_id: int, text: str, *, user_id: int) -> dict:
    return {
        "update_id": update_id,
        "message": {
            "message_id": update_id,
            "date": int(datetime.now(UTC).timestamp()),
            "chat": {"id": user_id, "type": "private"},
            "from": {"id": user_id, "is_bot": False, "first_name": "Игрок"},
            "text": text,
            "entities": [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}],
        },
    }


async def test_a_failing_command_is_logged_and_the_next_update_is_still_handled(
    application: Application, fake_api: FakeBotApi, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken_redeem(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the link service broke")

    monkeypatch.setattr(bot_process.telegram_link, "redeem_link_code", broken_redeem)
    # Through the real polling loop: the first update's handler raises, the second one comes after it.
    fake_api.updates = [_command(1, f"/start {SECRET_CODE}", user_id=501), _command(2, "/matches", user_id=502)]
    caplog.set_level(logging.INFO)
    await application.start()
    await application.updater.start_polling(poll_interval=0.05)
    try:
        for _ in range(200):
            if fake_api.texts_to(502):
                break
            await asyncio.sleep(0.05)
    finally:
        await application.updater.stop()
        await application.stop()

    assert fake_api.texts_to(501) == [cards.COMMAND_FAILED]  # the player is told, not left waiting
    assert fake_api.texts_to(502) == [cards.NOT_LINKED]  # the bot kept polling: the next update was handled
    (record,) = [r for r in caplog.records if r.name == bot_process.__name__ and r.levelno == logging.ERROR]
    message = record.getMessage()
    assert "update 1 (chat 501, from 501, /start)" in message
    assert "RuntimeError: the link service broke" in message
    # httpx is left out: it logs each URL at INFO, which the bot's main() silences (its URLs hold the token)
    logged = "\n".join(r.getMessage() for r in caplog.records if not r.name.startswith("httpx"))
    assert SECRET_CODE not in logged  # the one-time link code stays out of the log
    assert TOKEN not in logged and TOKEN.split(":")[1] not in logged
    assert "No error handlers are registered" not in caplog.text


async def test_a_failed_poll_is_one_warning_and_polling_goes_on(
    application: Application, fake_api: FakeBotApi, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    # What run_polling's error callback does when a getUpdates fails (Telegram unreachable): no traceback each time.
    await application.process_error(update=None, error=NetworkError(f"Bad Gateway at /bot{TOKEN}/getUpdates"))
    await application.process_update(Update.de_json(_command(1, "/matches", user_id=503), application.bot))

    assert fake_api.texts_to(503) == [cards.NOT_LINKED]
    ours = [r for r in caplog.records if r.name == bot_process.__name__ and r.levelno >= logging.WARNING]
    assert [(r.levelno, r.getMessage()) for r in ours] == [
        (logging.WARNING, "Telegram unreachable while polling: Bad Gateway at /bot<token>/getUpdates")
    ]
