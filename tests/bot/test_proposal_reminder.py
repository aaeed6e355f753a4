"""Issue 23: a proposal not answered by all four a day before its start is recalled privately to those who have not
answered, once (Регламент §3: the four agree on a time) — written by whichever process sees the moment, sent by the
real python-telegram-bot against the fake Bot API."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from sqlmodel import Session, select
from telegram import Bot

from services.core import outbox as kinds
from services.core.models import OutboxEvent
from services.notifier.outbox import Notifier, Target
from services.notifier.reminders import queue_proposal_reminders
from tests.bot import delivery
from tests.bot.fake_api import FakeBotApi
from tests.bot.league import answer, confirm, kirov, link, make_league, propose

CHAT, SCHEDULE, ANNOUNCEMENTS = -1004322, 5, 6
PRIVATE = (8201, 8202, 8203, 8204)
REMINDED = "начнётся меньше чем через сутки, а вы ещё не ответили"
pytestmark = pytest.mark.asyncio


def _notifier(bot: Bot, engine: sa.Engine, now) -> Notifier:  # noqa: ANN001
    return Notifier(
        delivery.gateway(bot, attempts=2), Target(CHAT, SCHEDULE, ANNOUNCEMENTS), bind=engine,
        clock=lambda: now,
    )  # fmt: skip


def _queued(session: Session, now) -> int:  # noqa: ANN001
    events = queue_proposal_reminders(session, now=now)
    session.commit()
    return len(events)


async def test_a_proposal_a_day_ahead_is_recalled_once_to_those_who_have_not_answered(
    bot: Bot, fake_api: FakeBotApi, engine: sa.Engine, session: Session
) -> None:
    (league,) = make_league(session)
    for n, telegram_id in enumerate(PRIVATE):
        link(session, league, n, telegram_id, None, private=True)
        answer(session, league, n, (kirov(10, 19), kirov(10, 23)))
    proposal_id = propose(session, league, kirov(10, 19), hanchans=2)
    confirm(session, league, proposal_id, 1)
    await _notifier(bot, engine, kirov(8, 12)).deliver_pending()
    before = {chat: len(fake_api.texts_to(chat)) for chat in PRIVATE}

    assert _queued(session, kirov(9, 18)) == 0  # more than a day before 10.12 19:00: not yet
    assert _queued(session, kirov(9, 19, 30)) == 1
    assert _queued(session, kirov(9, 20)) == 0  # once per proposal, whichever process asks again
    [event] = session.exec(select(OutboxEvent).where(OutboxEvent.kind == kinds.PROPOSAL_SOON)).all()
    assert event.match_id == league.match_id and event.once_key == f"{kinds.PROPOSAL_SOON}:{proposal_id}"

    await _notifier(bot, engine, kirov(9, 20)).deliver_pending()
    after = {chat: fake_api.texts_to(chat)[before[chat] :] for chat in PRIVATE}
    # the proposer and the one who confirmed are not reminded; the two who have not answered are, once
    assert after[PRIVATE[0]] == [] and after[PRIVATE[1]] == []
    for chat in PRIVATE[2:]:
        [text] = after[chat]
        assert REMINDED in text and "чт 10.12.2026 19:00–22:00" in text
    await _notifier(bot, engine, kirov(9, 21)).deliver_pending()
    assert all(len(fake_api.texts_to(chat)) == before[chat] + len(after[chat]) for chat in PRIVATE)


async def test_no_reminder_once_all_four_answered_nor_for_a_proposal_made_within_the_day(
    bot: Bot, fake_api: FakeBotApi, engine: sa.Engine, session: Session
) -> None:
    (league,) = make_league(session)
    for n in range(4):
        answer(session, league, n, (kirov(10, 19), kirov(10, 23)), (kirov(11, 19), kirov(11, 23)))
    proposal_id = propose(session, league, kirov(10, 19), hanchans=2)
    for n in (1, 2, 3):
        confirm(session, league, proposal_id, n)  # booked: nothing is open any more
    assert _queued(session, kirov(9, 20)) == 0
    # a proposal made an hour before its start was just sent to the four: its own message is the reminder
    from services.scheduling import booking

    late = booking.propose_meeting(
        session, match_id=league.match_id, user_id=league.user_ids[0], start=kirov(11, 19),
        end=kirov(11, 20, 30), hanchans=1, now=kirov(11, 12),
    )  # fmt: skip
    session.commit()
    assert late.status == "open" and _queued(session, kirov(11, 13)) == 0
