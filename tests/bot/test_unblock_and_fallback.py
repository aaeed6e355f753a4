"""The one who blocks a match is told privately, and the fallback date (Регламент §6.1) is on the card and in the
Sunday reminder: the real python-telegram-bot against the fake Bot API."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from sqlmodel import Session
from telegram import Bot

from services.core.config import Settings
from services.notifier.outbox import Notifier, Target
from services.notifier.reminders import queue_due_reminder
from services.notifier.sunday import reminder_time_of
from tests.bot import delivery
from tests.bot.fake_api import FakeBotApi
from tests.bot.league import PROPOSED_AT, SUNDAY_EVENING, answer, kirov, link, make_league

CHAT, SCHEDULE, ANNOUNCEMENTS = -1004321, 5, 6
TARGET = Target(CHAT, SCHEDULE, ANNOUNCEMENTS)
PRIVATE = (8101, 8102, 8103, 8104)
IN_WINDOW = kirov(8, 12)  # the window is 07.12–21.12 (Kirov); its last Sunday's 18:00 is 20.12
FALLBACK = "Если не договоритесь — вс 20.12 18:00 (Регламент §6.1)"
HINT = "Если вы сможете в чт 10.12 19:00–23:00, у матча будет время."
pytestmark = pytest.mark.asyncio


def _notifier(bot: Bot, engine: sa.Engine, now) -> Notifier:  # noqa: ANN001
    return delivery.notifier(bot, TARGET, engine, attempts=2, clock=lambda: now)


def _card(fake_api: FakeBotApi) -> str:
    """The card as Telegram shows it now (posted, then edited in place)."""
    [text] = [m["text"] for (chat, _), m in fake_api.messages.items() if chat == CHAT]
    return text


async def test_the_card_states_the_fallback_date_from_the_windows_opening(
    bot: Bot, fake_api: FakeBotApi, engine: sa.Engine, session: Session
) -> None:
    (league,) = make_league(session)
    answer(session, league, 0, (kirov(10, 19), kirov(10, 23)))
    await _notifier(bot, engine, PROPOSED_AT).deliver_pending()
    assert FALLBACK not in _card(fake_api)  # before the window opens: nothing to announce yet
    answer(session, league, 1, (kirov(10, 19), kirov(10, 23)))
    await _notifier(bot, engine, IN_WINDOW).deliver_pending()
    assert FALLBACK in _card(fake_api)


async def test_only_the_one_who_blocks_is_told_privately_when_the_others_are_free(
    bot: Bot, fake_api: FakeBotApi, engine: sa.Engine, session: Session
) -> None:
    (league,) = make_league(session)
    for n, telegram_id in enumerate(PRIVATE):
        link(session, league, n, telegram_id, None, private=True)
    for n in (0, 1, 2):
        answer(session, league, n, (kirov(10, 19), kirov(10, 23)))
    answer(session, league, 3, (kirov(12, 10), kirov(12, 14)))  # the fourth answer: no common time
    notifier = _notifier(bot, engine, IN_WINDOW)
    await notifier.deliver_pending()

    [told] = fake_api.texts_to(PRIVATE[3])
    assert HINT in told and FALLBACK in told
    for other in PRIVATE[:3]:
        assert not any("Если вы сможете" in t for t in fake_api.texts_to(other))
    card = _card(fake_api)
    assert "Нет общего времени" in card and "Если вы сможете" not in card and "10.12 19:00" not in card
    # exactly once: a second pass sends nothing more
    await notifier.deliver_pending()
    assert len(fake_api.texts_to(PRIVATE[3])) == 1


async def test_the_blockers_hint_is_sent_again_only_when_it_changes(
    bot: Bot, fake_api: FakeBotApi, engine: sa.Engine, session: Session
) -> None:
    (league,) = make_league(session)
    for n, telegram_id in enumerate(PRIVATE):
        link(session, league, n, telegram_id, None, private=True)
    for n in (0, 1, 2):
        answer(session, league, n, (kirov(10, 19), kirov(10, 23)))
    answer(session, league, 3, (kirov(12, 10), kirov(12, 14)))  # no common time: the fourth alone could unblock
    notifier = _notifier(bot, engine, IN_WINDOW)
    await notifier.deliver_pending()
    assert [HINT in t for t in fake_api.texts_to(PRIVATE[3])] == [True]

    # Another player repaints (one more evening nobody else has): its event is delivered, the hint stays the same.
    answer(session, league, 0, (kirov(10, 19), kirov(10, 23)), (kirov(11, 10), kirov(11, 12)))
    assert (await notifier.deliver_pending()).delivered >= 1
    assert len(fake_api.texts_to(PRIVATE[3])) == 1  # nothing new for the blocker

    # A repaint that changes the hint's times: the new hint is sent once.
    answer(session, league, 1, (kirov(10, 20), kirov(10, 23)))
    await notifier.deliver_pending()
    answer(session, league, 2, (kirov(10, 19), kirov(10, 23)), (kirov(11, 10), kirov(11, 11)))  # same hint again
    await notifier.deliver_pending()
    await notifier.deliver_pending()
    first, second = fake_api.texts_to(PRIVATE[3])
    assert HINT in first and "Если вы сможете в чт 10.12 20:00–23:00, у матча будет время." in second
    for other in PRIVATE[:3]:
        assert not any("Если вы сможете" in t for t in fake_api.texts_to(other))


async def test_the_sunday_reminder_states_the_fallback_date(
    bot: Bot, fake_api: FakeBotApi, engine: sa.Engine, session: Session
) -> None:
    (league,) = make_league(session)
    answer(session, league, 0, (kirov(10, 19), kirov(10, 23)))
    assert (
        queue_due_reminder(session, now=SUNDAY_EVENING, reminder_time=reminder_time_of(Settings(reminder_time="19:00")))
        is not None
    )
    session.commit()
    await _notifier(bot, engine, SUNDAY_EVENING).deliver_pending()
    [reminder] = [t for t in fake_api.texts_to(CHAT) if "Напоминание" in t]
    assert "Тур 2, стол 1</b>: нужно отметить доступность" in reminder and FALLBACK in reminder
