"""The real bot process (`python -m services.notifier`) against the fake Bot API, and its poll backoff."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import time as day_time
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlmodel import Session, select

from services.core.bot_status import bot_status
from services.core.models import OutboxEvent, utc_now
from services.notifier.bot import OUTBOX_JOB, BotConfig, PollState, build_application
from services.notifier.outbox import Target
from services.scheduling.intervals import KIROV
from tests.bot.fake_api import TOKEN, FakeBotApi
from tests.bot.league import answer, kirov, make_league

ROOT = Path(__file__).resolve().parents[2]


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TELEGRAM_")}
    env.update(NO_PROXY="127.0.0.1,localhost", PYTHONUNBUFFERED="1", **extra)
    return env


def _cards(fake_api: FakeBotApi) -> list:
    """What the bot sent but the Sunday reminder: the process runs on the real clock, and in a week whose Sunday
    falls in the test league's window it also (rightly) catches up on that Sunday's reminder."""
    return [c for c in fake_api.accepted("sendMessage") if "Напоминание" not in c.params["text"]]


def test_without_a_token_the_bot_does_not_start() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "services.notifier"], cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and "TELEGRAM_BOT_TOKEN не задан" in done.stderr


def test_the_process_delivers_the_outbox_and_never_logs_the_token(
    fake_api: FakeBotApi, sqlite_url: str, session: Session
) -> None:
    (league,) = make_league(session)
    answer(session, league, 0, (kirov(12, 13), kirov(12, 20)))
    env = _env(
        DATABASE_URL=sqlite_url,
        TELEGRAM_BOT_TOKEN=TOKEN,
        TELEGRAM_API_URL=fake_api.base_url,
        TELEGRAM_CHAT_ID="-100555",
        TELEGRAM_SCHEDULE_THREAD_ID="3",
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "services.notifier"], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    try:
        deadline = time.monotonic() + 30
        while not _cards(fake_api) and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.2)
    finally:
        process.send_signal(signal.SIGINT)
        output = process.communicate(timeout=30)[0].decode()
    (card,) = _cards(fake_api)
    assert card.params["chat_id"] == -100555 and card.params["message_thread_id"] == 3
    assert "Ответили: Анна Иванова" in card.params["text"]
    session.expire_all()
    assert all(e.delivered_at is not None for e in session.exec(select(OutboxEvent)))
    assert "connected to Telegram as @discard_test_bot" in output
    assert TOKEN not in output and TOKEN.split(":")[1] not in output
    assert bot_status(session, now=utc_now()).bot_username == "discard_test_bot"


@pytest.mark.asyncio
async def test_while_telegram_is_down_the_poll_backs_off(fake_api: FakeBotApi, engine: sa.Engine, session: Session):
    (league,) = make_league(session)
    answer(session, league, 0, (kirov(12, 13), kirov(12, 20)))
    config = BotConfig(TOKEN, fake_api.base_url, Target(-100777, 1, 2), day_time(19, 0, tzinfo=KIROV))
    app = build_application(config, bind=engine, gateway_options={"backoff": 0.01, "attempts": 2})
    await app.initialize()
    try:
        (job,) = app.job_queue.get_jobs_by_name(OUTBOX_JOB)
        fake_api.down = True
        await job.run(app)
        state: PollState = job.data
        assert state.failures == 1 and state.resume_at > time.monotonic()
        calls = len(fake_api.all_calls())
        fake_api.down = False
        await job.run(app)  # within the pause: Telegram is not asked again yet
        assert len(fake_api.all_calls()) == calls
        state.resume_at = 0.0  # the pause is over
        await job.run(app)
        assert len(fake_api.accepted("sendMessage")) == 1 and state.failures == 0
        assert bot_status(session, now=utc_now()).connected
    finally:
        await app.shutdown()
