"""Cards follow the truth (issue 43 item 5): a neighbour's hold made or ended, and time alone, re-render a match's
Telegram card, edited only when its text changes — the real bot process (its outbox poll and its minute job) and the
real python-telegram-bot against the fake Bot API."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import datetime

import pytest
import sqlalchemy as sa
from sqlmodel import Session
from telegram import Bot
from telegram.ext import Application

from services.notifier.bot import build_application
from services.notifier.outbox import Target
from services.scheduling import booking
from tests.bot import delivery
from tests.bot.conftest import ANNOUNCEMENTS, CHAT, SCHEDULE, bot_config
from tests.bot.fake_api import TOKEN, FakeBotApi
from tests.bot.league import PROPOSED_AT, answer, kirov, make_league, propose

pytestmark = pytest.mark.asyncio
IN_WINDOW = kirov(8, 12)  # the window is 07.12–21.12 (Kirov)
THURSDAY = "чт 10.12.2026 19:00–23:00"
SATURDAY = "сб 12.12.2026 13:00–20:00"
EVENING = "сб 12.12.2026 13:00–17:30"  # three hanchans exactly: a hold on it leaves nothing
NO_TABLE = "Общее время есть, но столы клуба в это время заняты"


class Clock:
    """The league's clock, moved by the test while the bot runs."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def cards(fake_api: FakeBotApi) -> list[str]:
    """The texts of the cards in the group as Telegram shows them now, by match (posted in match order)."""
    return [m["text"] for (chat, _), m in sorted(fake_api.messages.items()) if chat == CHAT]


async def until(fake_api: FakeBotApi, condition: Callable[[list[str]], bool], seconds: float = 20) -> list[str]:
    """Waits for the cards to meet `condition` (the bot polls every 0.2 s), then returns them; fails after `seconds`."""
    deadline = time.monotonic() + seconds
    while not condition(shown := cards(fake_api)):
        assert time.monotonic() < deadline, f"the cards never came to that: {shown}"
        await asyncio.sleep(0.05)
    return shown


def bot_app(fake_api: FakeBotApi, engine: sa.Engine, clock: Clock) -> Application:
    return build_application(
        bot_config(fake_api, poll_seconds=0.2, reminder_check_seconds=0.2),
        bind=engine,
        clock=clock,
        gateway_options={"backoff": 0.01, "attempts": 2},
    )


async def started(app: Application) -> None:
    await app.initialize()
    await app.post_init(app)
    await app.start()


async def stopped(app: Application) -> None:
    await app.stop()
    await app.shutdown()


async def test_time_alone_edits_the_card_once_when_an_option_has_begun(
    fake_api: FakeBotApi, engine: sa.Engine, session: Session
) -> None:
    (league,) = make_league(session)
    for index in range(4):
        answer(session, league, index, (kirov(10, 19), kirov(10, 23)), (kirov(12, 13), kirov(12, 20)))
    clock = Clock(IN_WINDOW)
    app = bot_app(fake_api, engine, clock)
    await started(app)
    try:
        [card] = await until(fake_api, lambda shown: len(shown) == 1)
        assert THURSDAY in card and SATURDAY in card
        clock.now = kirov(11, 9)  # Thursday's evening is over; nothing was written
        [card] = await until(fake_api, lambda shown: THURSDAY not in shown[0])
        assert "Общие варианты: 1" in card and SATURDAY in card
        edits = len(fake_api.accepted("editMessageText"))
        clock.now = kirov(11, 9, 45)  # a grid point passes: the look runs again, the text is the same
        await asyncio.sleep(1)  # several minute jobs and polls at 0.2 s
    finally:
        await stopped(app)
    assert len(fake_api.accepted("editMessageText")) == edits == 1
    assert len(fake_api.accepted("sendMessage")) == 1


async def test_a_card_whose_delivery_was_under_way_as_time_moved_is_looked_at_again(
    fake_api: FakeBotApi, engine: sa.Engine, session: Session
) -> None:
    """Seen in a full run: the minute job looked just after a grid point passed while a delivery begun before it was
    under way, left that match to the delivery, and never looked again; the delivery had rendered the card as it was
    before the grid point, so the card kept Thursday's gone evening."""
    (league,) = make_league(session)
    for index in range(4):
        answer(session, league, index, (kirov(10, 19), kirov(10, 23)), (kirov(12, 13), kirov(12, 20)))
    bot = Bot(TOKEN, base_url=fake_api.base_url)
    await bot.initialize()
    clock = Clock(IN_WINDOW)
    notifier = delivery.notifier(bot, Target(CHAT, SCHEDULE, ANNOUNCEMENTS), engine, clock=clock)
    try:
        await notifier.deliver_pending()
        assert notifier.queue_stale_cards() == 0  # the first look: the card shows both evenings, as it should
        # A repaint that changes no common option: an event for the match, its delivery about to begin.
        answer(
            session,
            league,
            0,
            (kirov(10, 19), kirov(10, 23)),
            (kirov(12, 13), kirov(12, 20)),
            (kirov(13, 10), kirov(13, 12)),
        )
        clock.now = kirov(11, 9)  # Thursday's evening is over
        assert notifier.queue_stale_cards() == 0  # the match is left to its delivery
        clock.now = IN_WINDOW  # the delivery renders the card as of when it began, before the grid point
        await notifier.deliver_pending()
        clock.now = kirov(11, 9)
        assert notifier.queue_stale_cards() == 1  # looked at again: the card is stale
        await notifier.deliver_pending()
    finally:
        await bot.shutdown()
    [card] = cards(fake_api)
    assert THURSDAY not in card and SATURDAY in card


async def test_a_neighbours_hold_takes_the_only_table_from_the_card_and_gives_it_back(
    fake_api: FakeBotApi, engine: sa.Engine, session: Session
) -> None:
    """One table: match 1's proposal holds it, so match 2's card says its common time has no free table; declined,
    the card offers the time again; proposed anew and left to its hold's end, time alone gives it back."""
    first, second = make_league(session, tables=2, room_tables=1)
    for league in (first, second):
        for index in range(4):
            answer(session, league, index, (kirov(12, 13), kirov(12, 17, 30)))
    clock = Clock(PROPOSED_AT)
    app = bot_app(fake_api, engine, clock)
    await started(app)
    try:
        await until(fake_api, lambda shown: len(shown) == 2 and all(EVENING in c for c in shown))
        proposal_id = propose(session, first, kirov(12, 13))
        await until(fake_api, lambda shown: NO_TABLE in shown[1] and EVENING not in shown[1])
        booking.answer_meeting(
            session, confirmed=False, proposal_id=proposal_id, user_id=first.user_ids[1], now=PROPOSED_AT
        )
        session.commit()
        await until(fake_api, lambda shown: EVENING in shown[1] and NO_TABLE not in shown[1])
        propose(session, first, kirov(12, 13))
        await until(fake_api, lambda shown: NO_TABLE in shown[1])
        clock.now = kirov(4, 12)  # the 48 hours' hold has ended: no one wrote anything
        await until(fake_api, lambda shown: EVENING in shown[1] and NO_TABLE not in shown[1])
    finally:
        await stopped(app)
