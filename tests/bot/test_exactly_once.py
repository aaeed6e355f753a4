"""Exactly once, as far as Telegram allows: a late answer, an answer that never comes, two bot processes on one
database, and a bot killed (SIGKILL) in the middle of a send — no duplicate card or message, no lost event."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter

import pytest
import sqlalchemy as sa
from sqlmodel import Session, select
from telegram import Bot
from telegram.request import HTTPXRequest

from services.core.models import OutboxEvent, Season, User
from services.league.announcements import publish_announcement
from services.notifier.cards import announcement_text
from services.notifier.outbox import Notifier, Target
from tests.bot import delivery
from tests.bot.fake_api import TOKEN, FakeBotApi
from tests.bot.league import answer, kirov, link, make_league, propose
from tests.bot.test_process import ROOT, _env
from tests.factories import PLAYED

CHAT, SCHEDULE, ANNOUNCEMENTS = -100424242, 5, 6
PRIVATE = (7101, 7102)  # the Telegram ids of the two players who want private messages


def _undelivered(session: Session) -> list[OutboxEvent]:
    session.expire_all()
    return list(session.exec(select(OutboxEvent).where(OutboxEvent.delivered_at.is_(None))).all())


def _sent(fake_api: FakeBotApi) -> Counter:
    """(chat, topic) → how many messages Telegram accepted there."""
    return Counter((c.params["chat_id"], c.params.get("message_thread_id")) for c in fake_api.accepted("sendMessage"))


@pytest.mark.asyncio
async def test_a_late_answer_is_waited_for_and_the_card_posted_once(fake_api: FakeBotApi, engine: sa.Engine, session):
    (league,) = make_league(session)
    answer(session, league, 0, (kirov(12, 13), kirov(12, 20)))
    fake_api.late_answers[("sendMessage", 1)] = 1.5  # Telegram posts the card at once but answers late
    bot = Bot(TOKEN, base_url=fake_api.base_url, request=HTTPXRequest(read_timeout=0.5))
    await bot.initialize()
    try:
        notifier = delivery.notifier(bot, Target(CHAT, SCHEDULE), engine, attempts=3)
        result = await notifier.deliver_pending()
    finally:
        await bot.shutdown()
    assert result.delivered >= 1 and not result.stopped
    assert _sent(fake_api) == {(CHAT, SCHEDULE): 1}
    assert _undelivered(session) == []


@pytest.mark.asyncio
async def test_an_answer_that_never_comes_is_not_sent_again_and_the_event_kept(
    fake_api: FakeBotApi, engine: sa.Engine, session: Session
):
    (league,) = make_league(session)
    answer(session, league, 0, (kirov(12, 13), kirov(12, 20)))
    fake_api.late_answers[("sendMessage", 1)] = 1.0
    bot = Bot(TOKEN, base_url=fake_api.base_url)
    await bot.initialize()
    try:
        gateway = delivery.gateway(bot, attempts=3, answer_timeout=0.3)
        result = await Notifier(gateway, Target(CHAT, SCHEDULE), bind=engine).deliver_pending()
    finally:
        await bot.shutdown()
    assert result.stopped and "исход неизвестен" in result.error
    assert len(fake_api.all_calls("sendMessage")) == 1  # not repeated blindly within the pass
    waiting = _undelivered(session)  # nothing lost: the events wait for the next pass
    assert waiting and len(waiting) == len(session.exec(select(OutboxEvent)).all())


def _league_with_everything(session: Session) -> None:
    """Three matches with cards to post, two players wanting private messages, an announcement."""
    first, *others = make_league(session, tables=3)
    for n, telegram_id in enumerate(PRIVATE, start=1):
        link(session, first, n, telegram_id, None, private=True)
    for league in (first, *others):
        for index in range(4):
            answer(session, league, index, (kirov(12, 13), kirov(12, 20)))
    propose(session, first, kirov(12, 13))  # «you are asked to confirm» to players 1 and 2
    organizer = User(login_name="org", display_name="Богдан Бойко", password_hash="x", role="organizer")
    session.add(organizer)
    session.commit()
    publish_announcement(
        session, session.get(Season, first.season_id), "Тур 2 открыт", author_user_id=organizer.id, now=PLAYED
    )
    session.commit()


def _bot_process(fake_api: FakeBotApi, database_url: str, *, claim_seconds: float = 2) -> subprocess.Popen:
    env = _env(
        DATABASE_URL=database_url,
        TELEGRAM_BOT_TOKEN=TOKEN,
        TELEGRAM_API_URL=fake_api.base_url,
        TELEGRAM_CHAT_ID=str(CHAT),
        TELEGRAM_SCHEDULE_THREAD_ID=str(SCHEDULE),
        TELEGRAM_ANNOUNCEMENTS_THREAD_ID=str(ANNOUNCEMENTS),
        TELEGRAM_CLAIM_SECONDS=str(claim_seconds),
    )
    return subprocess.Popen(
        [sys.executable, "-m", "services.notifier"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _wait_delivered(session: Session, processes: list[subprocess.Popen], seconds: float = 40) -> None:
    deadline = time.monotonic() + seconds
    while _undelivered(session) and time.monotonic() < deadline and all(p.poll() is None for p in processes):
        time.sleep(0.2)


def _stop(processes: list[subprocess.Popen]) -> None:
    for p in processes:
        if p.poll() is None:
            p.send_signal(signal.SIGINT)
    for p in processes:
        p.wait(30)


EXPECTED = {(CHAT, SCHEDULE): 3, (CHAT, ANNOUNCEMENTS): 1, (PRIVATE[0], None): 1, (PRIVATE[1], None): 1}


def test_two_bot_processes_on_one_database_deliver_every_event_once(
    fake_api: FakeBotApi, sqlite_url: str, session: Session
) -> None:
    _league_with_everything(session)
    fake_api.late_answers[("sendMessage", 1)] = 1.0  # the first pass is slow: the other process's pass overlaps
    processes = [_bot_process(fake_api, sqlite_url) for _ in range(2)]
    try:
        _wait_delivered(session, processes)
    finally:
        _stop(processes)
    assert _undelivered(session) == []
    assert _sent(fake_api) == EXPECTED


def test_a_bot_killed_mid_send_is_replaced_without_a_duplicate_or_a_lost_message(
    fake_api: FakeBotApi, sqlite_url: str, session: Session
) -> None:
    _league_with_everything(session)
    fake_api.hold = ("sendMessage", 3)  # the first match's card and one private message sent, the second in flight
    first = _bot_process(fake_api, sqlite_url)
    try:
        assert fake_api.held.wait(40), "the bot never reached the held send"
        os.kill(first.pid, signal.SIGKILL)
        first.wait(10)
        fake_api.release_held.set()  # the request in flight never reached Telegram
        second = _bot_process(fake_api, sqlite_url)
        _wait_delivered(session, [second])
    finally:
        _stop([p for p in (first, locals().get("second")) if p is not None])
    assert _undelivered(session) == []
    assert _sent(fake_api) == EXPECTED


def test_two_bots_at_telegrams_pace_post_each_announcement_once_on_sqlite_and_postgresql(
    fake_api: FakeBotApi, db: sa.Engine
) -> None:
    """Issue 43: a pass claims its ten events once and sends them at one a second to the group, far longer than a
    one-second claim; the second bot takes over what the first no longer holds, and nothing is posted twice. (On
    main the first bot, its pass going on, posted again what the second had in flight.)"""
    texts = [f"Новость {n}" for n in range(1, 11)]
    with Session(db, expire_on_commit=False) as session:
        (league,) = make_league(session)
        organizer = User(login_name="org", display_name="Богдан Бойко", password_hash="x", role="organizer")
        session.add(organizer)
        session.flush()
        for text in texts:
            publish_announcement(
                session, session.get(Season, league.season_id), text, author_user_id=organizer.id, now=PLAYED
            )
        session.commit()
        url = db.url.render_as_string(hide_password=False)
        fake_api.hold_answer = ("sendMessage", 2)  # posted; its answer comes once the second bot is posting too
        processes = [_bot_process(fake_api, url, claim_seconds=1)]
        try:
            assert fake_api.held.wait(40), "the first bot never sent its second announcement"
            processes.append(_bot_process(fake_api, url, claim_seconds=1))
            deadline = time.monotonic() + 40
            while len(fake_api.accepted("sendMessage")) < 3 and time.monotonic() < deadline:
                time.sleep(0.1)
            fake_api.release_held.set()  # the first bot's pass goes on, at the group's pace, beside the second's
            _wait_delivered(session, processes, seconds=60)
        finally:
            _stop(processes)
        assert _undelivered(session) == []
    posted = Counter(c.params["text"] for c in fake_api.accepted("sendMessage"))
    assert {text: posted[announcement_text(text)] for text in texts} == dict.fromkeys(texts, 1)


@pytest.mark.asyncio
async def test_two_notifiers_claim_disjoint_events_on_sqlite_and_postgresql(fake_api: FakeBotApi, db: sa.Engine):
    import asyncio

    with Session(db, expire_on_commit=False) as session:
        _league_with_everything(session)
        mine = {e.id for e in session.exec(select(OutboxEvent).where(OutboxEvent.delivered_at.is_(None))).all()}
    fake_api.late_answers[("sendMessage", 1)] = 0.5  # the first pass is still sending when the second starts
    bot = Bot(TOKEN, base_url=fake_api.base_url)
    await bot.initialize()
    target = Target(CHAT, SCHEDULE, ANNOUNCEMENTS)
    try:
        first, second = (delivery.notifier(bot, target, db) for _ in range(2))
        await asyncio.gather(first.deliver_pending(), second.deliver_pending())
        await asyncio.gather(first.deliver_pending(), second.deliver_pending())  # what the second had to skip
    finally:
        await bot.shutdown()
    with Session(db) as session:
        left = session.exec(select(OutboxEvent.id).where(OutboxEvent.delivered_at.is_(None))).all()
    assert not mine & set(left)
    assert _sent(fake_api) == EXPECTED


@pytest.mark.asyncio
async def test_the_sunday_reminder_survives_telegram_failing_at_the_reminder_time(
    fake_api: FakeBotApi, engine: sa.Engine, session: Session
):
    from services.notifier.bot import OUTBOX_JOB, REMINDER_JOB, build_application
    from tests.bot.conftest import bot_config
    from tests.bot.league import SUNDAY_EVENING

    make_league(session)  # nobody has answered: the reminder names all four
    app = build_application(
        bot_config(fake_api), bind=engine, clock=lambda: SUNDAY_EVENING, gateway_options={"backoff": 0.01}
    )
    await app.initialize()
    try:
        (reminder,) = app.job_queue.get_jobs_by_name(REMINDER_JOB)
        (poll,) = app.job_queue.get_jobs_by_name(OUTBOX_JOB)
        fake_api.down = True  # Telegram fails at 19:00, for all the gateway's retries
        await reminder.run(app)
        await poll.run(app)
        assert fake_api.accepted("sendMessage") == []
        fake_api.down = False
        poll.data.resume_at = 0.0  # the poll's backoff is over
        await poll.run(app)
        await reminder.run(app)  # a second process's job, or a restart at 19:00: still one reminder a week
        await poll.run(app)
    finally:
        await app.shutdown()
    (sent,) = fake_api.accepted("sendMessage")
    assert "Напоминание" in sent.params["text"] and "Анна Иванова" in sent.params["text"]
    assert _undelivered(session) == []
