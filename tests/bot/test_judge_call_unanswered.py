"""Регламент §6.2 «при невозможности связаться — к организатору»: a judge call unanswered for ten minutes reaches
the organizer in a private message, once, however often the bot's minute job runs."""

from __future__ import annotations

import pytest
from sqlmodel import Session, select
from telegram.ext import Application

from services.core.models import OutboxEvent
from services.core.outbox import JUDGE_CALL_UNANSWERED
from services.notifier.bot import OUTBOX_JOB, REMINDER_JOB
from services.results.judge_calls import call_judge
from services.scheduling import organizer as scheduling_admin
from tests import factories as f
from tests.bot.fake_api import FakeBotApi
from tests.factories import NOW, kirov

pytestmark = pytest.mark.asyncio
ORGANIZER_CHAT = 777_000_111


async def test_an_unanswered_call_is_sent_to_the_organizer_once(
    application: Application, fake_api: FakeBotApi, session: Session
) -> None:
    league = f.league(session)
    league.organizer.telegram_user_id = ORGANIZER_CHAT
    session.add(league.organizer)
    scheduling_admin.assign_meeting(session, match_id=league.match.id, start=kirov(20, 18), hanchans=3,
                                    room_id=league.room.id, actor_user_id=league.organizer.id, now=NOW)  # fmt: skip
    call_judge(session, league.users[0], league.match.id, hanchan_number=2, description="чомбо?", now=kirov(20, 19))
    session.commit()

    # The bot's clock is today: the call of 20.11 is long unanswered.
    for _ in range(2):
        await application.job_queue.get_jobs_by_name(REMINDER_JOB)[0].run(application)
        await application.job_queue.get_jobs_by_name(OUTBOX_JOB)[0].run(application)
    session.expire_all()
    events = session.exec(select(OutboxEvent).where(OutboxEvent.kind == JUDGE_CALL_UNANSWERED)).all()
    assert len(events) == 1 and events[0].delivered_at is not None
    sent = [c for c in fake_api.accepted("sendMessage") if c.params["chat_id"] == ORGANIZER_CHAT]
    assert len(sent) == 1
    assert "Вызов судьи без ответа" in sent[0].params["text"] and "ханчан 2" in sent[0].params["text"]
