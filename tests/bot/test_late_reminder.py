"""Регламент §3: a Sunday spent with the bot down. The bot started on Monday sends that Sunday's reminder once,
saying it is late, through the real python-telegram-bot against the fake Bot API; started after the windows it
is about have closed, it sends none; and a reminder the site wrote on Sunday is sent late by Monday's bot."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import datetime

import pytest
import sqlalchemy as sa
from sqlmodel import Session, select
from telegram.ext import Application

from services.core.config import Settings
from services.core.models import OutboxEvent
from services.notifier.bot import build_application
from services.notifier.reminders import queue_due_reminder
from services.notifier.sunday import reminder_time_of
from tests.bot.conftest import CHAT, SCHEDULE, bot_config
from tests.bot.fake_api import FakeBotApi
from tests.bot.league import SUNDAY_EVENING, answer, kirov, make_league

AT_19 = reminder_time_of(Settings(reminder_time="19:00"))

pytestmark = pytest.mark.asyncio
MONDAY_MORNING = kirov(14, 9)  # after Sunday 13.12 19:00 (the window is 07.12–21.12)
AFTER_THE_WINDOW = kirov(21, 9)  # Monday after the window's last Sunday (20.12): the window closed at midnight
LATE_HEADING = "<b>Напоминание с воскресенья 13.12, с опозданием: согласование времени не завершено</b>"


def reminders(fake_api: FakeBotApi) -> list[str]:
    return [c.params["text"] for c in fake_api.accepted("sendMessage") if "Напоминание" in c.params["text"]]


async def run_bot(fake_api: FakeBotApi, engine: sa.Engine, clock: Callable[[], datetime], seconds: float) -> None:
    """The bot process as `run_polling` starts it (initialize, post_init — the reminder check at start —, then the
    job queue: the outbox poll, the check every minute), for `seconds`, then stopped; the league's clock is `clock`."""
    app: Application = build_application(
        bot_config(fake_api, poll_seconds=0.5),
        bind=engine,
        clock=clock,
        gateway_options={"backoff": 0.01, "attempts": 2},
    )
    async with app:
        await app.post_init(app)
        await app.start()
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        await app.stop()


async def test_a_bot_started_on_monday_sends_sundays_reminder_once_saying_it_is_late(
    fake_api: FakeBotApi, engine: sa.Engine, session: Session
):
    (league,) = make_league(session)
    for index in (0, 1):
        answer(session, league, index, (kirov(12, 13), kirov(12, 20)))
    session.execute(sa.delete(OutboxEvent))  # the cards are not what this test is about
    session.commit()

    await run_bot(fake_api, engine, lambda: MONDAY_MORNING, seconds=3)
    await run_bot(fake_api, engine, lambda: kirov(14, 12), seconds=2)  # restarted at noon: nothing again

    (text,) = reminders(fake_api)
    assert text.startswith(LATE_HEADING)
    assert "Вера Сидорова" in text and "Глеб Орлов" in text and "Анна Иванова" not in text
    (call,) = [c for c in fake_api.accepted("sendMessage") if "Напоминание" in c.params["text"]]
    assert (call.params["chat_id"], call.params["message_thread_id"]) == (CHAT, SCHEDULE)
    session.expire_all()
    (event,) = session.exec(select(OutboxEvent)).all()
    assert event.once_key == "sunday_reminder:2026-12-13" and event.delivered_at is not None


async def test_a_bot_started_after_the_windows_closed_sends_no_reminder(
    fake_api: FakeBotApi, engine: sa.Engine, session: Session
):
    make_league(session)  # nobody answered: on time, the reminder would name all four
    await run_bot(fake_api, engine, lambda: AFTER_THE_WINDOW, seconds=2.5)
    assert fake_api.accepted("sendMessage") == []
    session.expire_all()
    assert session.exec(select(OutboxEvent)).all() == []


async def test_a_reminder_the_site_wrote_on_sunday_is_sent_late_by_mondays_bot(
    fake_api: FakeBotApi, engine: sa.Engine, session: Session
):
    make_league(session)
    written = queue_due_reminder(session, now=SUNDAY_EVENING, reminder_time=AT_19)  # the site's lifespan task, on time
    session.commit()
    assert written is not None and '"late": false' in written.payload

    await run_bot(fake_api, engine, lambda: MONDAY_MORNING, seconds=2.5)

    (text,) = reminders(fake_api)
    assert text.startswith(LATE_HEADING) and "Анна Иванова" in text


async def test_a_reminder_written_on_time_sends_nothing_once_its_window_has_closed(
    fake_api: FakeBotApi, engine: sa.Engine, session: Session
):
    make_league(session)
    assert (
        queue_due_reminder(session, now=kirov(20, 19, 30), reminder_time=AT_19) is not None
    )  # the window's last Sunday, on time
    session.commit()

    await run_bot(fake_api, engine, lambda: AFTER_THE_WINDOW, seconds=2.5)

    assert fake_api.accepted("sendMessage") == []
    session.expire_all()
    (event,) = session.exec(select(OutboxEvent)).all()
    assert event.delivered_at is not None  # done: there was nothing left to remind of
