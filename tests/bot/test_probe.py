"""Issue 29: the probe after an unknown outcome finds the first message ever sent to a chat, and never changes a
message of ours that the database does not know — against the fake Bot API."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from sqlmodel import Session, select
from telegram import Bot

from services.core.models import MatchCard, TelegramPending
from services.notifier.outbox import PROBE_IDS, PROBE_SEARCH_CALLS, Notifier, Target
from services.notifier.pacing import GROUP_LIMITS, Pace
from services.notifier.telegram import TelegramGateway
from tests.bot import delivery
from tests.bot.fake_api import TOKEN, FakeBotApi
from tests.bot.league import answer, kirov, make_league
from tests.bot.test_exactly_once import ANNOUNCEMENTS, CHAT, SCHEDULE, _undelivered
from tests.bot.test_unknown_outcome import _announce, _announced, _Recorder

OLD_TEXT = "Старое сообщение бота, которого эта база не знает"


def _lost_answers(bot: Bot) -> TelegramGateway:
    return delivery.gateway(bot, attempts=2, answer_timeout=0.3)


@pytest.mark.asyncio
async def test_the_first_message_ever_sent_to_a_chat_is_found_not_sent_again(
    fake_api: FakeBotApi, engine: sa.Engine, session: Session
) -> None:
    """On main a chat with no known message had nothing to count from: its first message was sent again."""
    fake_api.last_ids[CHAT] = 0  # a new group: the bot's card is its first message
    (league,) = make_league(session)
    answer(session, league, 0, (kirov(12, 13), kirov(12, 20)))
    bot = Bot(TOKEN, base_url=fake_api.base_url)
    await bot.initialize()
    target = Target(CHAT, SCHEDULE, ANNOUNCEMENTS)
    try:
        fake_api.late_answers[("sendMessage", 1)] = 1.0  # the card is posted, its answer comes too late
        lost = await Notifier(_lost_answers(bot), target, bind=engine).deliver_pending()
        assert lost.stopped and "исход неизвестен" in lost.error
        (pending,) = session.exec(select(TelegramPending)).all()
        assert pending.after_message_id == 0  # nothing known in the chat to count from
        fake_api.someone_posts(CHAT)
        again = await delivery.notifier(bot, target, engine).deliver_pending()
    finally:
        await bot.shutdown()
    assert again.delivered and not again.stopped
    cards = [c for c in fake_api.accepted("sendMessage") if c.params["text"] == pending.text]
    assert len(cards) == 1, "the card was posted twice"
    session.expire_all()
    assert session.exec(select(MatchCard)).one().message_id == 1
    assert _undelivered(session) == []


@pytest.mark.asyncio
@pytest.mark.parametrize("posted", [True, False], ids=["posted", "never reached Telegram"])
async def test_an_old_message_of_ours_the_database_does_not_know_is_never_changed(
    fake_api: FakeBotApi, engine: sa.Engine, session: Session, posted: bool
) -> None:
    """On main the probe edited every id after the newest known one with the pending text: an old message of ours
    there took the announcement's text."""
    (league,) = make_league(session)
    answer(session, league, 0, (kirov(12, 13), kirov(12, 20)))
    bot = Bot(TOKEN, base_url=fake_api.base_url)
    await bot.initialize()
    target = Target(CHAT, SCHEDULE, ANNOUNCEMENTS)
    try:
        assert (await delivery.notifier(bot, target, engine).deliver_pending()).delivered
        old = fake_api.our_message(CHAT, OLD_TEXT)  # e.g. sent before this database was restored from a backup
        _announce(session, league.season_id, ["Тур 4 открыт"])
        if posted:
            fake_api.late_answers[("sendMessage", len(fake_api.all_calls("sendMessage")) + 1)] = 1.0
            lost = await Notifier(_lost_answers(bot), target, bind=engine).deliver_pending()
        else:
            fake_api.down = True
            lost = await delivery.notifier(bot, target, engine, attempts=1).deliver_pending()
            fake_api.down = False
        assert lost.stopped and session.exec(select(TelegramPending)).all()
        again = await delivery.notifier(bot, target, engine).deliver_pending()
    finally:
        await bot.shutdown()
    assert again.delivered and not again.stopped
    assert fake_api.messages[(CHAT, old)]["text"] == OLD_TEXT
    assert not fake_api.messages[(CHAT, old)].get("markup")  # the probe's mark was taken off again
    ((text, count),) = _announced(fake_api).items()
    assert "Тур 4 открыт" in text and count == 1
    assert not [c for c in fake_api.all_calls("editMessageText") if c.params["message_id"] == old]
    assert _undelivered(session) == []


HISTORY = PROBE_IDS * 3  # people's messages in the group before the bot's first one


@pytest.mark.asyncio
@pytest.mark.parametrize("deleted", [False, True], ids=["history", "history with deleted messages"])
async def test_the_first_message_to_a_group_with_history_is_found_within_a_paced_bounded_look(
    fake_api: FakeBotApi, engine: sa.Engine, session: Session, deleted: bool
) -> None:
    """The bot's first message in a group that has talked for a while has an id far past the chat's first: on
    main the probe looked at ids 1…PROBE_IDS only (people's messages), gave up and posted the card a second time.
    Now the chat's newest id is found by halving (a deleted message here and there does not end the chat) and the
    ids just before it are looked at — bounded, within Telegram's per-group pace."""
    fake_api.last_ids[CHAT] = 0
    for _ in range(31):
        fake_api.someone_posts(CHAT)
    old = fake_api.our_message(CHAT, OLD_TEXT)  # id 32, which the doubling asks about: read, never changed
    for _ in range(HISTORY - old):
        fake_api.someone_posts(CHAT)
    if deleted:  # a moderated group: some of the ids the halving asks about are gone
        for message_id in (1, 8, 16, 17):
            fake_api.delete_message(CHAT, message_id)
    (league,) = make_league(session)
    answer(session, league, 0, (kirov(12, 13), kirov(12, 20)))
    now = [1000.0]

    async def sleep(seconds: float) -> None:
        now[0] += seconds  # time passes only when the notifier waits

    bot = Bot(TOKEN, base_url=fake_api.base_url)
    await bot.initialize()
    target = Target(CHAT, SCHEDULE, ANNOUNCEMENTS)
    try:
        fake_api.late_answers[("sendMessage", 1)] = 1.0  # the card is posted, its answer comes too late
        lost = await Notifier(_lost_answers(bot), target, bind=engine).deliver_pending()
        assert lost.stopped and "исход неизвестен" in lost.error
        (pending,) = session.exec(select(TelegramPending)).all()
        assert pending.after_message_id == 0  # nothing of ours known in the chat
        for _ in range(3):
            fake_api.someone_posts(CHAT)  # people go on talking after the card
        gateway = _Recorder(delivery.gateway(bot), now)
        again = await Notifier(
            gateway, target, bind=engine, sleep=sleep, monotonic=lambda: now[0], pace=Pace()
        ).deliver_pending()
    finally:
        await bot.shutdown()
    assert again.delivered and not again.stopped
    cards = [c for c in fake_api.accepted("sendMessage") if c.params["text"] == pending.text]
    assert len(cards) == 1, "the card was posted twice"
    session.expire_all()
    assert session.exec(select(MatchCard)).one().message_id == HISTORY + 1
    probes = [c for c in fake_api.all_calls("editMessageReplyMarkup") if c.params.get("reply_markup")]
    assert len(probes) <= PROBE_SEARCH_CALLS  # bounded: halving, not id after id
    times = [t for chat, t in gateway.calls if chat == CHAT]
    for limit, window in GROUP_LIMITS:
        worst = max(sum(1 for u in times if t <= u < t + window) for t in times)
        assert worst <= limit, f"{worst} calls to the group within {window} s"
    assert all(not m.get("markup") for m in fake_api.messages.values())  # every probe's mark was taken off
    assert fake_api.messages[(CHAT, old)]["text"] == OLD_TEXT
    assert [c for c in probes if c.params["message_id"] == old]  # it was looked at, and left as it was
    assert not fake_api.all_calls("editMessageText")
    assert _undelivered(session) == []
