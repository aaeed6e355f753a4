"""The bot process end to end on the fake Bot API: Sunday reminder, linking, /matches, private messages,
announcements, and no personal interval in anything the bot ever sends."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
import pytest_asyncio
import sqlalchemy as sa
from sqlmodel import Session, select
from telegram import Update
from telegram.ext import Application

from services.core.models import Booking, OutboxEvent, Season, TelegramLinkCode, User
from services.league.announcements import publish_announcement
from services.notifier.bot import OUTBOX_JOB, REMINDER_JOB, build_application
from services.notifier.linking import create_link_code
from tests.bot.conftest import ANNOUNCEMENTS, CHAT, SCHEDULE, bot_config
from tests.bot.fake_api import FakeBotApi
from tests.bot.league import (
    SUNDAY_EVENING,
    answer,
    confirm,
    kirov,
    link,
    make_league,
    propose,
)
from tests.factories import PLAYED

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def application(fake_api: FakeBotApi, engine: sa.Engine) -> AsyncIterator[Application]:
    app = build_application(
        bot_config(fake_api),
        bind=engine,
        clock=lambda: SUNDAY_EVENING,
        gateway_options={"backoff": 0.01, "attempts": 2},
    )
    await app.initialize()
    yield app
    await app.shutdown()


def _job(app: Application, name: str):  # noqa: ANN202
    (job,) = app.job_queue.get_jobs_by_name(name)
    return job


_update_ids = iter(range(1, 10_000))


def _command(app: Application, text: str, *, user_id: int, username: str | None = None, chat_type: str = "private"):
    command = text.split()[0]
    sender = {"id": user_id, "is_bot": False, "first_name": "Игрок", **({"username": username} if username else {})}
    chat = {"id": user_id if chat_type == "private" else CHAT, "type": chat_type}
    data = {
        "update_id": next(_update_ids),
        "message": {
            "message_id": 1,
            "date": int(datetime.now(UTC).timestamp()),
            "chat": chat,
            "from": sender,
            "text": text,
            "entities": [{"type": "bot_command", "offset": 0, "length": len(command)}],
        },
    }
    return Update.de_json(data, app.bot)


async def test_sunday_job_names_exactly_the_players_still_to_act(
    application: Application, fake_api: FakeBotApi, session: Session
):
    waiting, proposed, booked = make_league(session, tables=3)
    answer(session, waiting, 0, (kirov(14, 13), kirov(14, 20)))
    answer(session, waiting, 1, (kirov(14, 13), kirov(14, 20)))
    link(session, waiting, 2, 5002, "vera_s", private=False)
    for index in range(4):
        answer(session, proposed, index, (kirov(14, 13), kirov(14, 20)))
        answer(session, booked, index, (kirov(19, 13), kirov(19, 20)))
    proposal = propose(session, proposed, kirov(14, 13))
    confirm(session, proposed, proposal, 0)
    confirm(session, proposed, proposal, 1)
    done = propose(session, booked, kirov(19, 13))
    for index in range(4):
        confirm(session, booked, done, index)  # the fourth books the room

    job = _job(application, REMINDER_JOB)
    # Asked every minute (and at start), not only at 19:00: the due Sunday is decided from the clock each time.
    assert job.job.trigger.interval == timedelta(seconds=60)
    await job.run(application)  # triggered by hand: the reminder is written to the outbox once
    await job.run(application)
    await _job(application, OUTBOX_JOB).run(application)  # and delivered like any other event

    reminders = [c for c in fake_api.accepted("sendMessage") if "Напоминание" in c.params["text"]]
    (call,) = reminders
    text = call.params["text"]
    assert call.params["message_thread_id"] == SCHEDULE
    names = {u.display_name: u for u in session.exec(select(User))}
    named = {name for name in names if name.replace("<", "&lt;").replace(">", "&gt;") in text}
    expected = {"Вера Сидорова 1", "Глеб Орлов 1", "Вера Сидорова 2", "Глеб Орлов 2"}
    assert named == expected
    assert "Вера Сидорова 1 (@vera_s)" in text
    assert "стол 3" not in text  # booked: scheduling finished
    # Регламент §3: the bot assigns no fallback date and no penalty; it states the date §6.1 already fixes (the
    # window's last Sunday, 18:00) so the four know it in advance, and books nothing.
    assert not re.search(r"штраф|запасн", text, re.IGNORECASE)
    assert text.count("Если не договоритесь — вс 20.12 18:00 (Регламент §6.1)") == 2  # one per match still agreeing
    assert session.exec(select(Booking).where(Booking.start_at == kirov(20, 18))).first() is None


async def test_sunday_job_is_silent_when_everything_is_scheduled(
    application: Application, fake_api: FakeBotApi, session: Session
):
    make_league(session)  # a match exists, but its window is elsewhere in time
    application.bot_data["notifier"].clock = lambda: datetime(2027, 1, 10, 16, 0, tzinfo=UTC)
    await _job(application, REMINDER_JOB).run(application)
    await _job(application, OUTBOX_JOB).run(application)
    assert fake_api.accepted("sendMessage") == []
    session.expire_all()
    assert session.exec(select(OutboxEvent)).all() == []  # nothing to remind of: nothing written


async def test_start_code_links_the_account_and_stop_unlinks(
    application: Application, fake_api: FakeBotApi, session: Session
):
    (league,) = make_league(session)
    code = create_link_code(session, league.user_ids[0], now=SUNDAY_EVENING).code
    session.commit()

    await application.process_update(_command(application, f"/start {code}", user_id=777, username="anna_i"))

    session.expire_all()
    user = session.get(User, league.user_ids[0])
    assert (user.telegram_user_id, user.telegram_username) == (777, "anna_i")
    assert session.get(TelegramLinkCode, code) is None  # one-time
    assert "привязан к игроку Анна Иванова" in fake_api.texts_to(777)[-1]

    # The same code from another account does nothing.
    await application.process_update(_command(application, f"/start {code}", user_id=888))
    session.expire_all()
    assert session.exec(select(User).where(User.telegram_user_id == 888)).first() is None
    assert "Код не подошёл" in fake_api.texts_to(888)[-1]

    await application.process_update(_command(application, "/matches", user_id=777))
    reply = fake_api.texts_to(777)[-1]
    assert "Тур 2, стол 1 — Никто не ответил" in reply

    await application.process_update(_command(application, "/stop", user_id=777))
    session.expire_all()
    assert session.get(User, league.user_ids[0]).telegram_user_id is None
    assert "отвязан" in fake_api.texts_to(777)[-1]


async def test_an_expired_code_does_not_link(application: Application, fake_api: FakeBotApi, session: Session):
    (league,) = make_league(session)
    code = create_link_code(session, league.user_ids[1], now=datetime(2026, 12, 1, tzinfo=UTC)).code
    session.commit()
    await application.process_update(_command(application, f"/start {code}", user_id=999))
    session.expire_all()
    assert session.get(User, league.user_ids[1]).telegram_user_id is None
    assert "Код не подошёл" in fake_api.texts_to(999)[-1]


async def test_linked_players_get_private_messages_about_their_own_matches(
    application: Application, fake_api: FakeBotApi, session: Session
):
    (league,) = make_league(session)
    link(session, league, 0, 7001, "anna_i", private=True)
    link(session, league, 1, 7002, None, private=False)  # linked, but private messages switched off
    for index in range(4):
        answer(session, league, index, (kirov(14, 13), kirov(14, 20)))
    # The third player proposes (proposing counts as their confirmation): the first is asked to confirm.
    proposal = propose(session, league, kirov(14, 13), index=2)
    outbox = _job(application, OUTBOX_JOB)

    await outbox.run(application)

    (waiting,) = fake_api.texts_to(7001)
    assert "Вам предложено время встречи: пн 14.12.2026 13:00–17:30" in waiting
    assert fake_api.texts_to(7002) == []

    for index in (0, 1, 3):
        confirm(session, league, proposal, index)
    await outbox.run(application)

    booked = fake_api.texts_to(7001)[-1]
    assert "Встреча забронирована" in booked and "пн 14.12.2026 13:00–17:30, Большой зал, 3 ханчана" in booked
    assert len(fake_api.texts_to(7001)) == 2 and fake_api.texts_to(7002) == []
    (card_id,) = {k for k in fake_api.messages if k[0] == CHAT}
    assert "Состояние: <b>Забронировано</b>" in fake_api.messages[card_id]["text"]


async def test_no_text_ever_contains_a_players_personal_intervals(
    application: Application, fake_api: FakeBotApi, session: Session
):
    (league,) = make_league(session)
    link(session, league, 0, 7001, "anna_i", private=True)
    # Common time is 14.12 13:00–20:00; every other boundary below is one player's own.
    answer(session, league, 0, (kirov(14, 8), kirov(14, 23)), (kirov(15, 7, 30), kirov(15, 9, 30)))
    answer(session, league, 1, (kirov(14, 10), kirov(14, 22)))
    answer(session, league, 2, (kirov(14, 12), kirov(14, 21)), (kirov(17, 14), kirov(17, 16)))
    answer(session, league, 3, (kirov(14, 13), kirov(14, 20)))
    outbox = _job(application, OUTBOX_JOB)
    await outbox.run(application)
    proposal = propose(session, league, kirov(14, 13))
    await outbox.run(application)
    await _job(application, REMINDER_JOB).run(application)
    for index in range(4):
        confirm(session, league, proposal, index)
    await outbox.run(application)
    answer(session, league, 3, (kirov(14, 13), kirov(14, 16, 30)))  # no longer free: the booking is released
    await outbox.run(application)
    await application.process_update(_command(application, "/matches", user_id=7001))

    sent = [c.params["text"] for c in fake_api.accepted() if "text" in c.params]
    assert len(sent) >= 6  # card, edits, private messages, reminder, /matches reply
    assert any("Общие варианты: 1" in t and "пн 14.12.2026 13:00–20:00" in t for t in sent)
    for text in sent:
        for personal in ("08:00", "23:00", "10:00", "22:00", "12:00", "21:00", "07:30", "09:30", "15.12", "17.12"):
            assert personal not in text, f"{personal!r} leaked into: {text}"


async def test_announcement_is_posted_to_the_announcements_topic(
    application: Application, fake_api: FakeBotApi, session: Session
):
    (league,) = make_league(session)
    organizer = User(login_name="org", display_name="Богдан Бойко", password_hash="x", role="organizer")
    session.add(organizer)
    session.commit()
    publish_announcement(
        session,
        session.get(Season, league.season_id),
        "Итоги тура 1 & <новое> расписание",
        author_user_id=organizer.id,
        now=PLAYED,
    )
    session.commit()

    await _job(application, OUTBOX_JOB).run(application)

    (call,) = fake_api.accepted("sendMessage")
    assert call.params["chat_id"] == CHAT and call.params["message_thread_id"] == ANNOUNCEMENTS
    assert "Итоги тура 1 &amp; &lt;новое&gt; расписание" in call.params["text"]
    session.expire_all()
    assert all(e.delivered_at is not None for e in session.exec(select(OutboxEvent)))
