"""Approving the draw writes a `draw_approved` outbox event that the bot posts to the announcements topic."""

from __future__ import annotations

import json

import pytest
from sqlmodel import Session, select
from telegram.ext import Application

from services.core.models import OutboxEvent
from services.core.outbox import DRAW_APPROVED
from services.league.draw import DrawError
from services.league.draw_season import approve_draw, make_draft
from services.notifier.bot import OUTBOX_JOB
from services.scheduling.tour_windows import set_windows
from tests.bot.conftest import ANNOUNCEMENTS, CHAT
from tests.bot.fake_api import FakeBotApi
from tests.db.test_draw_season import WINDOWS, _league

pytestmark = pytest.mark.asyncio


def _events(session: Session) -> list[OutboxEvent]:
    session.expire_all()
    return list(session.exec(select(OutboxEvent).where(OutboxEvent.kind == DRAW_APPROVED)))


async def test_approval_is_announced_once_in_the_announcements_topic(
    application: Application, fake_api: FakeBotApi, session: Session
) -> None:
    season = _league(session, main=16)
    make_draft(session, season, seed=3, actor_user_id=None)
    session.commit()
    with pytest.raises(DrawError, match="игровые окна"):
        approve_draw(session, season, actor_user_id=None)  # refused: no event either
    session.rollback()
    assert _events(session) == []

    set_windows(session, season, WINDOWS, actor_user_id=None)
    approve_draw(session, season, actor_user_id=None)
    session.commit()
    (event,) = _events(session)
    assert event.match_id is None and json.loads(event.payload)["matches"] == 16

    outbox = application.job_queue.get_jobs_by_name(OUTBOX_JOB)[0]
    await outbox.run(application)
    await outbox.run(application)  # delivered once, not again

    (call,) = fake_api.accepted("sendMessage")
    assert call.params["chat_id"] == CHAT and call.params["message_thread_id"] == ANNOUNCEMENTS
    text = call.params["text"]
    assert "Жеребьёвка утверждена" in text and "Тест" in text and "туров: 4, матчей: 16" in text
    # Windows are Monday 00:00 Kirov to Monday 00:00: the last day shown is the Sunday before.
    assert "Тур 1: 16.11–29.11.2026" in text and "Тур 4: 28.12–10.01.2027" in text
    assert _events(session)[0].delivered_at is not None
