"""Match cards through the real python-telegram-bot against the fake Bot API: post, edit, outages, 429, deletion."""

from __future__ import annotations

from datetime import timedelta

import pytest
import sqlalchemy as sa
from sqlmodel import Session, select
from telegram import Bot
from telegram.error import NetworkError

from services.core.bot_status import bot_status
from services.core.models import MatchCard, OutboxEvent, User, utc_now
from services.notifier.outbox import Notifier, Target
from services.playoff.hanchan_entry import enter_hanchan
from services.results.entry import Entry
from services.results.scoring import TableResult
from tests.bot import delivery
from tests.bot.conftest import OutsideNetwork
from tests.bot.fake_api import TOKEN, FakeBotApi
from tests.bot.league import answer, book, confirm, kirov, link, make_league, propose

CHAT, SCHEDULE, ANNOUNCEMENTS = -1001234, 7, 9
TARGET = Target(CHAT, SCHEDULE, ANNOUNCEMENTS)
pytestmark = pytest.mark.asyncio


def _notifier(bot: Bot, engine: sa.Engine, attempts: int = 3) -> Notifier:
    return delivery.notifier(bot, TARGET, engine, attempts=attempts)


def _undelivered(session: Session) -> list[OutboxEvent]:
    session.expire_all()
    return list(session.exec(select(OutboxEvent).where(OutboxEvent.delivered_at.is_(None))))


def _card(session: Session, match_id: int) -> MatchCard:
    session.expire_all()
    return session.get(MatchCard, match_id)


async def test_card_is_posted_then_edited_in_place(bot: Bot, fake_api: FakeBotApi, engine: sa.Engine, session: Session):
    (league,) = make_league(session)
    notifier = _notifier(bot, engine)
    answer(session, league, 0, (kirov(12, 13), kirov(12, 20)))

    await notifier.deliver_pending()

    (sent,) = fake_api.accepted("sendMessage")
    assert sent.params["chat_id"] == CHAT and sent.params["message_thread_id"] == SCHEDULE
    assert sent.params["parse_mode"] == "HTML"
    assert "Тур 2, стол 1" in sent.params["text"]
    assert "Ответили: Анна Иванова" in sent.params["text"]
    # The name with markup arrives escaped, so Telegram shows it as typed.
    assert "Ждём ответа: Борис &lt;b&gt;Петров&lt;/b&gt;, Вера Сидорова, Глеб Орлов" in sent.params["text"]
    card = _card(session, league.match_id)
    message_id = card.message_id
    assert (CHAT, message_id) in fake_api.messages
    assert _undelivered(session) == []

    answer(session, league, 1, (kirov(12, 13), kirov(12, 20)))
    await notifier.deliver_pending()

    assert len(fake_api.accepted("sendMessage")) == 1  # no second card
    (edit,) = fake_api.accepted("editMessageText")
    assert edit.params["message_id"] == message_id
    shown = fake_api.messages[(CHAT, message_id)]["text"]
    assert "Ответили: Анна Иванова, Борис &lt;b&gt;Петров&lt;/b&gt;" in shown
    assert "Ждём ответа: Вера Сидорова, Глеб Орлов" in shown

    calls = len(fake_api.all_calls())
    await notifier.deliver_pending()  # nothing new: Telegram is not called at all
    assert len(fake_api.all_calls()) == calls


async def test_events_during_an_outage_are_delivered_once_afterwards(
    bot: Bot, fake_api: FakeBotApi, engine: sa.Engine, session: Session
):
    (league,) = make_league(session)
    notifier = _notifier(bot, engine)
    fake_api.down = True
    for index in range(4):
        answer(session, league, index, (kirov(12, 13), kirov(12, 20)))
    proposal = propose(session, league, kirov(12, 13))
    confirm(session, league, proposal, 0)
    confirm(session, league, proposal, 2)

    result = await notifier.deliver_pending()

    assert result.stopped and result.delivered == 0
    assert len(fake_api.all_calls("sendMessage")) == 3  # the gateway's retries, all refused
    waiting = _undelivered(session)
    assert len(waiting) == 8 and all(e.attempts == 1 and "Internal Server Error" in e.last_error for e in waiting)
    status = bot_status(session, now=utc_now())
    assert not status.connected and status.waiting == 8 and "Internal Server Error" in status.last_error

    fake_api.down = False
    result = await notifier.deliver_pending()

    assert result.delivered == 8 and not result.stopped
    (card,) = fake_api.accepted("sendMessage")  # one card, not one message per event
    text = card.params["text"]
    assert "Подтвердили 2 из 4" in text
    assert "Подтвердили: Анна Иванова, Вера Сидорова" in text
    assert "Ждём подтверждения: Борис &lt;b&gt;Петров&lt;/b&gt;, Глеб Орлов" in text
    assert _undelivered(session) == []
    status = bot_status(session, now=utc_now())
    assert status.connected and status.waiting == 0 and status.last_delivery_at is not None

    await notifier.deliver_pending()
    assert len(fake_api.accepted()) == 2  # getMe + the one card: nothing replayed


async def test_http_5xx_is_retried_with_backoff_within_a_pass(
    bot: Bot, fake_api: FakeBotApi, engine: sa.Engine, session: Session
):
    (league,) = make_league(session)
    answer(session, league, 0, (kirov(12, 13), kirov(12, 20)))
    fake_api.fail("sendMessage", 502, times=2, description="Bad Gateway")

    result = await _notifier(bot, engine).deliver_pending()

    assert result.delivered == 1
    assert [c.status for c in fake_api.all_calls("sendMessage")] == [502, 502, 200]
    assert _undelivered(session) == []


async def test_429_waits_retry_after(bot: Bot, fake_api: FakeBotApi, engine: sa.Engine, session: Session):
    (league,) = make_league(session)
    answer(session, league, 0, (kirov(12, 13), kirov(12, 20)))
    fake_api.fail("sendMessage", 429, description="Too Many Requests: retry after 1", retry_after=1)

    await _notifier(bot, engine).deliver_pending()

    refused, accepted = fake_api.all_calls("sendMessage")
    assert (refused.status, accepted.status) == (429, 200)
    assert accepted.at - refused.at >= 1.0  # waited what Telegram asked, not the short backoff
    assert _undelivered(session) == []


async def test_deleted_card_is_posted_again_and_the_new_id_stored(
    bot: Bot, fake_api: FakeBotApi, engine: sa.Engine, session: Session
):
    (league,) = make_league(session)
    notifier = _notifier(bot, engine)
    answer(session, league, 0, (kirov(12, 13), kirov(12, 20)))
    await notifier.deliver_pending()
    old_id = _card(session, league.match_id).message_id
    fake_api.delete_message(CHAT, old_id)  # someone deleted the card in the chat

    answer(session, league, 1, (kirov(12, 13), kirov(12, 20)))
    await notifier.deliver_pending()

    (edit,) = fake_api.all_calls("editMessageText")
    assert edit.status == 400 and edit.params["message_id"] == old_id
    first, second = fake_api.accepted("sendMessage")
    new_id = _card(session, league.match_id).message_id
    assert new_id != old_id and (CHAT, new_id) in fake_api.messages
    assert second.params["message_thread_id"] == SCHEDULE
    assert "Ответили: Анна Иванова, Борис" in fake_api.messages[(CHAT, new_id)]["text"]
    assert _undelivered(session) == []


async def test_message_not_modified_counts_as_delivered(
    bot: Bot, fake_api: FakeBotApi, engine: sa.Engine, session: Session
):
    (league,) = make_league(session)
    notifier = _notifier(bot, engine)
    answer(session, league, 0, (kirov(12, 13), kirov(12, 20)))
    await notifier.deliver_pending()
    card = _card(session, league.match_id)
    card.text_hash = ""  # as if the bot had lost track of what the card shows
    session.commit()
    # An event that does not change the card (the proposal above was withdrawn before the bot saw it).
    session.add(OutboxEvent(kind="options_lost", match_id=league.match_id))
    session.commit()

    result = await notifier.deliver_pending()

    (edit,) = fake_api.all_calls("editMessageText")
    assert edit.status == 400 and result.delivered == 1
    assert len(fake_api.accepted("sendMessage")) == 1 and _card(session, league.match_id).message_id == card.message_id
    assert _undelivered(session) == []


async def test_the_guard_catches_a_request_to_the_real_telegram(outside_network: OutsideNetwork):
    bot = Bot(TOKEN)  # the default base URL: api.telegram.org
    with pytest.raises(NetworkError):
        await bot.get_me()
    assert "api.telegram.org" in outside_network.attempts
    outside_network.attempts.clear()  # this test wanted the attempt; the others fail on any


async def test_a_stale_heartbeat_shows_the_bot_disconnected(engine: sa.Engine, session: Session):
    from services.core.bot_status import record_heartbeat

    now = utc_now()
    record_heartbeat(session, now=now - timedelta(minutes=10), connected=True, bot_username="discard_test_bot")
    session.commit()
    assert not bot_status(session, now=now).connected
    assert bot_status(session, now=now - timedelta(minutes=9)).connected


async def test_a_booking_at_table_2_shows_the_table_on_the_card_and_privately(
    bot: Bot, fake_api: FakeBotApi, engine: sa.Engine, session: Session
):
    first, second = make_league(session, tables=2, room_tables=2)
    link(session, second, 0, 5001, "anna2", private=True)
    for league in (first, second):  # the same evening for both: the second match takes the room's table 2
        book(session, league, 14)
    notifier = _notifier(bot, engine)

    await notifier.deliver_pending()

    first_card = fake_api.messages[(CHAT, _card(session, first.match_id).message_id)]["text"]
    second_card = fake_api.messages[(CHAT, _card(session, second.match_id).message_id)]["text"]
    assert "пн 14.12.2026 13:00–17:30, Большой зал, стол клуба № 1" in first_card
    assert "пн 14.12.2026 13:00–17:30, Большой зал, стол клуба № 2" in second_card
    (booked,) = [c.params["text"] for c in fake_api.accepted("sendMessage") if c.params["chat_id"] == 5001]
    assert "Встреча забронирована" in booked and "Большой зал, стол клуба № 2, 3 ханчана" in booked


async def test_the_card_says_played_once_the_last_hanchan_is_entered(
    bot: Bot, fake_api: FakeBotApi, engine: sa.Engine, session: Session
):
    """Issue 43 item 1: entering results wrote no event, so the card kept «Забронировано» for good while the site
    said «Сыгран»."""
    (league,) = make_league(session)
    book(session, league, 14)
    notifier = _notifier(bot, engine)
    await notifier.deliver_pending()
    card = _card(session, league.match_id)
    assert "Состояние: <b>Забронировано</b>" in fake_api.messages[(CHAT, card.message_id)]["text"]

    player = session.get(User, league.user_ids[0])
    for number in range(3):
        points = (40000, 30000, 30000, 20000) if number != 1 else (20000, 30000, 30000, 40000)
        enter_hanchan(
            session,
            player,
            league.match_id,
            Entry(tuple(TableResult(p, x, 0) for p, x in zip(league.player_ids, points, strict=True)), 0),
            now=kirov(14, 14 + number),
        )
        session.commit()
    await notifier.deliver_pending()
    assert "Состояние: <b>Сыгран</b>" in fake_api.messages[(CHAT, card.message_id)]["text"]
    assert len(fake_api.accepted("sendMessage")) == 1  # the same card, edited
