"""Issue 44: the player's remote — «Подтверждаю» / «Не могу» on a proposal's private message, tapped in the chat and
handled by the real python-telegram-bot against the fake Bot API, through the services the page uses (Регламент §3)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from datetime import datetime

import pytest
import pytest_asyncio
import sqlalchemy as sa
from sqlmodel import Session, col, select
from telegram import Bot, Update
from telegram.ext import Application

from services.core import outbox as kinds
from services.core.models import (
    Booking,
    LoginLink,
    MeetingProposal,
    OutboxEvent,
    ProposalConfirmation,
    Role,
    TelegramButton,
    User,
)
from services.league import accounts, login_links
from services.notifier.bot import OUTBOX_JOB, build_application
from services.notifier.outbox import Notifier, Target
from services.notifier.reminders import queue_proposal_reminders
from services.scheduling import booking
from services.scheduling.availability import own_availability
from services.scheduling.organizer import apply_fallback, book_activity
from services.scheduling.rules import format_span
from tests.bot import delivery
from tests.bot.conftest import ANNOUNCEMENTS, CHAT, SCHEDULE, bot_config
from tests.bot.fake_api import FakeBotApi
from tests.bot.league import League, answer, kirov, link, make_league, propose
from tests.bot.test_bot_process import _command

pytestmark = pytest.mark.asyncio
PRIVATE = (9101, 9102, 9103, 9104)  # the four players' Telegram accounts, each linked, private messages on
STRANGER = 9999  # an account linked to nobody


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock(kirov(8, 12))  # the window is open, the proposal (14.12 13:00) days ahead


async def _start(fake_api: FakeBotApi, engine: sa.Engine, clock: Clock) -> Application:
    app = build_application(bot_config(fake_api), bind=engine, clock=clock, gateway_options={"backoff": 0.01})
    await app.initialize()
    return app


@pytest_asyncio.fixture
async def app(fake_api: FakeBotApi, engine: sa.Engine, clock: Clock) -> AsyncIterator[Application]:
    application = await _start(fake_api, engine, clock)
    yield application
    await application.shutdown()


@pytest.fixture
def league(session: Session) -> Iterator[League]:
    """Four linked players free on 14.12 13:00–20:00; the first proposes 13:00, three hanchans (and has confirmed)."""
    (league,) = make_league(session)
    for index, telegram_id in enumerate(PRIVATE):
        link(session, league, index, telegram_id, None, private=True)
        answer(session, league, index, (kirov(14, 13), kirov(14, 20)))
    yield league


async def _deliver(app: Application) -> None:
    (job,) = app.job_queue.get_jobs_by_name(OUTBOX_JOB)
    await job.run(app)


def _button(fake_api: FakeBotApi, chat: int, label: str) -> tuple[int, str]:
    """The newest message of ours in the chat and the callback data of its button `label`."""
    message_id, _ = fake_api.last_message(chat)
    return message_id, dict(fake_api.buttons(chat, message_id))[label]


async def _tap(app: Application, fake_api: FakeBotApi, chat: int, message_id: int, data: str, *, by: int) -> dict:
    """`by` taps the button; returns what the bot answered the tap."""
    before = len(fake_api.answers())
    await app.process_update(Update.de_json(fake_api.tap(chat, message_id, data, by=by), app.bot))
    (answered,) = fake_api.answers()[before:]
    return answered


def _answers(session: Session, proposal_id: int) -> dict[int, bool]:
    session.expire_all()
    rows = session.exec(select(ProposalConfirmation).where(ProposalConfirmation.proposal_id == proposal_id))
    return {r.player_id: r.confirmed for r in rows}


async def test_three_confirmations_from_the_chat_book_the_meeting(
    app: Application, fake_api: FakeBotApi, session: Session, league: League
) -> None:
    proposal_id = propose(session, league, kirov(14, 13))
    await _deliver(app)
    # The group card carries no buttons; the proposer, who has answered, gets no question.
    card_id, card = fake_api.last_message(CHAT)
    assert card["markup"] is None and fake_api.buttons(CHAT, card_id) == []
    assert fake_api.texts_to(PRIVATE[0]) == []
    for chat in PRIVATE[1:]:
        message_id, message = fake_api.last_message(chat)
        assert "Вам предложено время встречи: пн 14.12.2026 13:00–17:30" in message["text"]
        labels = [label for label, _ in fake_api.buttons(chat, message_id)]
        assert labels == ["Подтверждаю", "Не могу"]
    # The callback carries an opaque stored token: no user id, no proposal number.
    data = [d for chat in PRIVATE[1:] for _, d in fake_api.buttons(chat, fake_api.last_message(chat)[0])]
    assert len(set(data)) == len(data)
    for d in data:
        assert len(d) >= 20 and not d.isdigit()
        assert session.get(TelegramButton, d) is not None

    message_id, confirm = _button(fake_api, PRIVATE[1], "Подтверждаю")
    answered = await _tap(app, fake_api, PRIVATE[1], message_id, confirm, by=PRIVATE[1])
    assert answered["text"] == "Подтверждение записано."
    edited = fake_api.last_message(PRIVATE[1])[1]
    assert "Вы подтвердили; ждём: Вера Сидорова, Глеб Орлов." in edited["text"]
    assert [label for label, _ in fake_api.buttons(PRIVATE[1], message_id)] == ["Не могу"]
    assert _answers(session, proposal_id) == {league.player_ids[0]: True, league.player_ids[1]: True}

    message_id, confirm = _button(fake_api, PRIVATE[2], "Подтверждаю")
    await _tap(app, fake_api, PRIVATE[2], message_id, confirm, by=PRIVATE[2])
    message_id, confirm = _button(fake_api, PRIVATE[3], "Подтверждаю")
    answered = await _tap(app, fake_api, PRIVATE[3], message_id, confirm, by=PRIVATE[3])
    assert answered["text"] == "Все четверо подтвердили: помещение забронировано."
    edited = fake_api.last_message(PRIVATE[3])[1]
    assert edited["text"].startswith("<b>Тур 2, стол 1</b>\nВстреча забронирована:")
    message_id = fake_api.last_message(PRIVATE[3])[0]
    assert [b for b, _ in fake_api.buttons(PRIVATE[3], message_id)] == [  # now the meeting's own question
        "Не смогу, время убрать",
        "Не смогу, время оставить",
    ]
    session.expire_all()
    (meeting,) = session.exec(select(Booking).where(Booking.match_id == league.match_id)).all()
    assert (meeting.start_at, meeting.active) == (kirov(14, 13), True)


async def test_not_for_me_declines_the_proposal_as_on_the_page(
    app: Application, fake_api: FakeBotApi, session: Session, league: League
) -> None:
    proposal_id = propose(session, league, kirov(14, 13))
    await _deliver(app)
    message_id, decline = _button(fake_api, PRIVATE[2], "Не могу")
    answered = await _tap(app, fake_api, PRIVATE[2], message_id, decline, by=PRIVATE[2])
    assert answered["text"] == "Вы отклонили это время."
    session.expire_all()
    assert session.get(MeetingProposal, proposal_id).status == "declined"
    assert _answers(session, proposal_id)[league.player_ids[2]] is False
    edited = fake_api.last_message(PRIVATE[2])[1]
    assert "Вы отклонили это время." in edited["text"] and edited["markup"] is None


async def test_a_forwarded_button_does_nothing_for_another_account(
    app: Application, fake_api: FakeBotApi, session: Session, league: League
) -> None:
    proposal_id = propose(session, league, kirov(14, 13))
    await _deliver(app)
    message_id, confirm = _button(fake_api, PRIVATE[1], "Подтверждаю")
    before = fake_api.last_message(PRIVATE[1])[1]
    # Forwarded to a stranger, and to another player of the same match: neither can answer for Борис.
    for other in (STRANGER, PRIVATE[2]):
        forwarded = fake_api.forward(PRIVATE[1], message_id, to=other)
        answered = await _tap(app, fake_api, other, forwarded, confirm, by=other)
        assert answered["text"] == "Эта кнопка не ваша: ответить ею может только тот игрок, кому бот её прислал."
    # An invented token (a guessed number) is no button.
    answered = await _tap(app, fake_api, PRIVATE[1], message_id, str(proposal_id), by=PRIVATE[1])
    assert answered["text"].startswith("Эта кнопка больше не действует")
    assert _answers(session, proposal_id) == {league.player_ids[0]: True}
    assert fake_api.last_message(PRIVATE[1])[1] == before
    assert [c for c in fake_api.all_calls("editMessageText") if c.params["chat_id"] != CHAT] == []


async def test_a_double_tap_is_answered_as_the_first_and_books_once(
    app: Application, fake_api: FakeBotApi, session: Session, league: League
) -> None:
    proposal_id = propose(session, league, kirov(14, 13))
    booking.answer_meeting(
        session, proposal_id=proposal_id, user_id=league.user_ids[1], confirmed=True, now=kirov(8, 12)
    )
    booking.answer_meeting(
        session, proposal_id=proposal_id, user_id=league.user_ids[2], confirmed=True, now=kirov(8, 12)
    )
    session.commit()
    await _deliver(app)
    message_id, confirm = _button(fake_api, PRIVATE[3], "Подтверждаю")
    first = await _tap(app, fake_api, PRIVATE[3], message_id, confirm, by=PRIVATE[3])
    second = await _tap(app, fake_api, PRIVATE[3], message_id, confirm, by=PRIVATE[3])
    assert first["text"] == second["text"] == "Все четверо подтвердили: помещение забронировано."
    session.expire_all()
    assert len(session.exec(select(Booking).where(Booking.match_id == league.match_id)).all()) == 1
    booked = session.exec(select(OutboxEvent).where(OutboxEvent.kind == kinds.BOOKED)).all()
    confirmed = session.exec(
        select(OutboxEvent).where(OutboxEvent.kind == kinds.CONFIRMED, col(OutboxEvent.id) > 0)
    ).all()
    assert len(booked) == 1 and len(confirmed) == 3  # the two on the site and the one tap


async def test_a_person_tapping_fast_gets_the_replies_at_the_chats_pace(
    app: Application, fake_api: FakeBotApi, session: Session, league: League
) -> None:
    """Telegram allows about one message a second in a chat, edits included: the replies to fast taps (and
    /matches' messages) wait for the pace the delivery pass keeps, and count in it — never a burst into one chat.
    The pace's clock is the test's: nothing waits for real."""
    clock, waits = [1000.0], []

    async def sleep(seconds: float) -> None:
        waits.append(round(seconds, 3))
        clock[0] += seconds

    notifier = app.bot_data["notifier"]
    notifier.sleep, notifier.monotonic = sleep, lambda: clock[0]
    calls = []
    real_edit, real_send = notifier.gateway.edit, notifier.gateway.send

    async def edit(chat_id: int, *args: object, **kwargs: object) -> None:
        calls.append((chat_id, clock[0]))
        await real_edit(chat_id, *args, **kwargs)

    async def send(chat_id: int, *args: object, **kwargs: object) -> int:
        calls.append((chat_id, clock[0]))
        return await real_send(chat_id, *args, **kwargs)

    notifier.gateway.edit, notifier.gateway.send = edit, send
    propose(session, league, kirov(14, 13))
    await _deliver(app)
    message_id, confirm = _button(fake_api, PRIVATE[1], "Подтверждаю")
    for _ in range(3):  # three taps as fast as a thumb goes: the first is answered, the others as the first
        await _tap(app, fake_api, PRIVATE[1], message_id, confirm, by=PRIVATE[1])
    await app.process_update(_command(app, "/matches", user_id=PRIVATE[1]))
    mine = [at for chat, at in calls if chat == PRIVATE[1]]
    assert len(mine) == 1 + 3 + 1  # the proposal's message, three edits, /matches' one message
    assert all(later - earlier >= 1.0 for earlier, later in zip(mine, mine[1:], strict=False))
    assert waits  # the replies waited for the pace (none is sent faster than one a second)


async def test_a_tap_after_the_proposal_ended_changes_nothing_and_says_why(
    app: Application, fake_api: FakeBotApi, session: Session, league: League
) -> None:
    proposal_id = propose(session, league, kirov(14, 13))
    await _deliver(app)
    # Глеб declines on the site; Борис taps «Подтверждаю» on the message he got before.
    booking.answer_meeting(
        session, proposal_id=proposal_id, user_id=league.user_ids[3], confirmed=False, now=kirov(8, 13)
    )
    session.commit()
    message_id, confirm = _button(fake_api, PRIVATE[1], "Подтверждаю")
    answered = await _tap(app, fake_api, PRIVATE[1], message_id, confirm, by=PRIVATE[1])
    assert answered["text"] == "Это предложение уже не действует."
    assert league.player_ids[1] not in _answers(session, proposal_id)
    edited = fake_api.last_message(PRIVATE[1])[1]
    assert "Это время отклонено." in edited["text"] and edited["markup"] is None


async def test_the_bot_restarted_between_message_and_tap(
    fake_api: FakeBotApi, engine: sa.Engine, session: Session, league: League, clock: Clock
) -> None:
    proposal_id = propose(session, league, kirov(14, 13))
    first = await _start(fake_api, engine, clock)
    await _deliver(first)
    await first.shutdown()
    confirm_2 = _button(fake_api, PRIVATE[1], "Подтверждаю")
    confirm_3 = _button(fake_api, PRIVATE[2], "Подтверждаю")

    # A new process knows the buttons from the database: Борис's tap two days later counts.
    clock.now = kirov(10, 12)
    second = await _start(fake_api, engine, clock)
    try:
        answered = await _tap(second, fake_api, PRIVATE[1], *confirm_2, by=PRIVATE[1])
        assert answered["text"] == "Подтверждение записано."
        # Вера tapped while the bot was down, and it came back after the time began: decided by the state now.
        clock.now = kirov(14, 14)
        update = fake_api.tap(PRIVATE[2], *confirm_3, by=PRIVATE[2])
        fake_api.too_old.add(update["callback_query"]["id"])  # Telegram no longer takes an answer to it
        await second.process_update(Update.de_json(update, second.bot))
    finally:
        await second.shutdown()
    assert _answers(session, proposal_id) == {league.player_ids[0]: True, league.player_ids[1]: True}
    edited = fake_api.last_message(PRIVATE[2])[1]
    assert "Время встречи уже началось" in edited["text"] and edited["markup"] is None


async def test_a_reminder_whose_answer_never_came_is_found_with_its_buttons(
    bot: Bot, fake_api: FakeBotApi, engine: sa.Engine, session: Session, league: League
) -> None:
    propose(session, league, kirov(14, 13))
    target = Target(CHAT, SCHEDULE, ANNOUNCEMENTS)
    await delivery.notifier(bot, target, engine, clock=lambda: kirov(8, 12)).deliver_pending()
    queue_proposal_reminders(session, now=kirov(13, 14))  # a day before: the three who have not answered
    session.commit()
    sends = len(fake_api.all_calls("sendMessage"))
    fake_api.late_answers[("sendMessage", sends + 1)] = 1.0  # Борис's reminder is posted; its answer comes too late
    gateway = delivery.gateway(bot, attempts=2, answer_timeout=0.3)
    lost = await Notifier(gateway, target, bind=engine, clock=lambda: kirov(13, 14)).deliver_pending()
    assert lost.stopped
    again = await delivery.notifier(bot, target, engine, clock=lambda: kirov(13, 15)).deliver_pending()
    assert again.delivered and not again.stopped
    reminders = [t for t in fake_api.texts_to(PRIVATE[1]) if "меньше чем через сутки" in t]
    assert len(reminders) == 1  # found by the probe, not sent again
    message_id, _ = fake_api.last_message(PRIVATE[1])
    assert [label for label, _ in fake_api.buttons(PRIVATE[1], message_id)] == ["Подтверждаю", "Не могу"]


async def test_the_fourth_tap_after_the_table_was_taken_books_nothing_and_says_so(
    app: Application, fake_api: FakeBotApi, session: Session, league: League
) -> None:
    proposal_id = propose(session, league, kirov(14, 13))  # on 1.12: the table is held for 48 hours
    for index in (1, 2):
        booking.answer_meeting(
            session, proposal_id=proposal_id, user_id=league.user_ids[index], confirmed=True, now=kirov(2, 12)
        )
    session.commit()
    await _deliver(app)
    organizer = User(login_name="org", display_name="Богдан Бойко", password_hash="x", role=Role.ORGANIZER)
    session.add(organizer)
    session.flush()
    # The hold has passed: the club's only table goes to a D&D evening on the same day.
    book_activity(
        session, title="D&D", start=kirov(14, 12), end=kirov(14, 18), actor_user_id=organizer.id, now=kirov(5, 12)
    )
    session.commit()
    message_id, confirm = _button(fake_api, PRIVATE[3], "Подтверждаю")
    answered = await _tap(app, fake_api, PRIVATE[3], message_id, confirm, by=PRIVATE[3])
    assert "занят" in answered["text"]
    session.expire_all()
    assert session.get(MeetingProposal, proposal_id).status == "failed"
    assert session.exec(select(Booking).where(Booking.match_id == league.match_id)).all() == []
    edited = fake_api.last_message(PRIVATE[3])[1]
    assert "Встреча не забронирована:" in edited["text"] and edited["markup"] is None


def _own_time(session: Session, league: League, index: int) -> list[tuple[datetime, datetime]]:
    session.expire_all()
    return [
        (i.start, i.end) for i in own_availability(session, match_id=league.match_id, user_id=league.user_ids[index])
    ]


@pytest.mark.parametrize(
    ("label", "said", "own_time_left"),
    [
        ("Не смогу, время убрать", "это время убрано из вашей доступности", [(kirov(14, 17, 30), kirov(14, 20))]),
        ("Не смогу, время оставить", "Ваша доступность не изменилась", [(kirov(14, 13), kirov(14, 20))]),
    ],
)
async def test_cannot_come_from_the_booked_meetings_message_asks_the_pages_question(  # noqa: PLR0913
    app: Application,
    fake_api: FakeBotApi,
    session: Session,
    league: League,
    label: str,
    said: str,
    own_time_left: list,
) -> None:
    proposal_id = propose(session, league, kirov(14, 13))
    for index in (1, 2, 3):
        booking.answer_meeting(
            session, proposal_id=proposal_id, user_id=league.user_ids[index], confirmed=True, now=kirov(2, 12)
        )
    session.commit()
    await _deliver(app)
    message_id, message = fake_api.last_message(PRIVATE[2])
    assert "Встреча забронирована:" in message["text"] and "Не сможете прийти?" in message["text"]
    assert [b for b, _ in fake_api.buttons(PRIVATE[2], message_id)] == [
        "Не смогу, время убрать",
        "Не смогу, время оставить",
    ]
    tapped = dict(fake_api.buttons(PRIVATE[2], message_id))[label]
    other_id, keep = _button(fake_api, PRIVATE[1], "Не смогу, время оставить")
    first = await _tap(app, fake_api, PRIVATE[2], message_id, tapped, by=PRIVATE[2])
    second = await _tap(app, fake_api, PRIVATE[2], message_id, tapped, by=PRIVATE[2])  # a double tap
    assert said in first["text"] and second["text"] == first["text"]
    session.expire_all()
    (meeting,) = session.exec(select(Booking).where(Booking.match_id == league.match_id)).all()
    assert not meeting.active
    assert _own_time(session, league, 2) == own_time_left
    assert len(session.exec(select(OutboxEvent).where(OutboxEvent.kind == kinds.RELEASED)).all()) == 1
    edited = fake_api.last_message(PRIVATE[2])[1]
    assert "Бронь встречи снята." in edited["text"] and edited["markup"] is None
    # The other three hear it as from the page; the other buttons of the released meeting now say it is gone.
    await _deliver(app)
    assert "Бронь встречи снята." in fake_api.texts_to(PRIVATE[0])[-1]
    answered = await _tap(app, fake_api, PRIVATE[1], other_id, keep, by=PRIVATE[1])
    assert answered["text"] == "Этой брони уже нет."  # the page's «обновите страницу» means nothing here


async def test_a_day_before_a_booked_meeting_the_four_are_recalled_with_cannot_come(
    app: Application, fake_api: FakeBotApi, engine: sa.Engine, session: Session, league: League, clock: Clock
) -> None:
    proposal_id = propose(session, league, kirov(14, 13))
    for index in (1, 2, 3):
        booking.answer_meeting(
            session, proposal_id=proposal_id, user_id=league.user_ids[index], confirmed=True, now=kirov(2, 12)
        )
    session.commit()
    await _deliver(app)
    notifier = app.bot_data["notifier"]
    clock.now = kirov(13, 12)  # more than a day before 14.12 13:00: not yet
    assert notifier.queue_proposal_reminders() == 0
    clock.now = kirov(13, 13, 30)
    assert notifier.queue_proposal_reminders() == 1
    assert notifier.queue_proposal_reminders() == 0  # once, whichever process asks again
    await _deliver(app)
    for chat in PRIVATE:
        message_id, message = fake_api.last_message(chat)
        assert message["text"].startswith(
            "<b>Тур 2, стол 1</b>\nВстреча меньше чем через сутки:\n• пн 14.12.2026 13:00"
        )
        assert "Не сможете прийти?" in message["text"]
    message_id, cannot = _button(fake_api, PRIVATE[0], "Не смогу, время убрать")
    answered = await _tap(app, fake_api, PRIVATE[0], message_id, cannot, by=PRIVATE[0])
    assert "Бронь снята" in answered["text"]
    session.expire_all()
    assert not session.exec(select(Booking).where(Booking.match_id == league.match_id)).one().active


ORGANIZER_CHAT = 9200


async def test_cannot_come_on_the_binding_fallback_keeps_it_and_warns_the_organizer(
    app: Application, fake_api: FakeBotApi, session: Session, league: League, clock: Clock
) -> None:
    """Регламент §6.1 «Это время обязательно для участников»: the organizer's fallback on 20.12 18:00 asks the binding
    question; «Не смогу, время убрать» keeps the booking and the player's time, answers why, and the organizer is
    told once however often it is tapped (Регламент §5: «с предупреждением»; the organizer decides, §6.3)."""
    organizer = User(login_name="org-binding", display_name="Богдан Бойко", password_hash="x", role=Role.ORGANIZER,
                     telegram_user_id=ORGANIZER_CHAT)  # fmt: skip
    session.add(organizer)
    session.flush()
    fallback = apply_fallback(session, match_id=league.match_id, actor_user_id=organizer.id, now=clock.now)
    session.commit()
    assert fallback.start_at == kirov(20, 18)
    await _deliver(app)
    message_id, message = fake_api.last_message(PRIVATE[2])
    assert "Запасная дата обязательна (Регламент §6.1): «Не смогу» бронь не снимет" in message["text"]
    assert "Не сможете прийти?" not in message["text"]
    _, tapped = _button(fake_api, PRIVATE[2], "Не смогу, время убрать")
    for _ in range(2):  # a double tap: one warning
        answered = await _tap(app, fake_api, PRIVATE[2], message_id, tapped, by=PRIVATE[2])
        assert answered["text"] == (
            "Запасная дата обязательна (Регламент §6.1): бронь остаётся. Организатор получил ваше предупреждение и "
            "решит, переносить ли матч."
        )
    session.expire_all()
    assert session.get_one(Booking, fallback.id).active
    assert _own_time(session, league, 2) == [(kirov(14, 13), kirov(14, 20))]
    assert session.exec(select(OutboxEvent).where(OutboxEvent.kind == kinds.RELEASED)).all() == []
    await _deliver(app)
    (warned,) = fake_api.texts_to(ORGANIZER_CHAT)
    assert "Вера Сидорова предупредила: не сможет прийти на запасную дату" in warned
    assert "вс 20.12.2026 18:00" in warned


SITE = "https://liga.example.ru"


async def test_open_on_the_site_sends_a_one_time_login_link_to_the_owner_only(
    fake_api: FakeBotApi, engine: sa.Engine, session: Session, league: League, clock: Clock
) -> None:
    app = build_application(bot_config(fake_api, site_url=SITE), bind=engine, clock=clock)
    await app.initialize()
    try:
        propose(session, league, kirov(14, 13))
        await _deliver(app)
        card_id, _ = fake_api.last_message(CHAT)
        assert fake_api.buttons(CHAT, card_id) == []  # the group card stays without buttons
        message_id, message = fake_api.last_message(PRIVATE[1])
        rows = message["markup"]["inline_keyboard"]
        assert [[b["text"] for b in row] for row in rows] == [["Подтверждаю", "Не могу"], ["Открыть на сайте"]]
        open_token = rows[1][0]["callback_data"]
        assert SITE not in str(rows)  # no link sits in a message for hours: a tap makes a fresh one

        forwarded = fake_api.forward(PRIVATE[1], message_id, to=PRIVATE[2])
        refused = await _tap(app, fake_api, PRIVATE[2], forwarded, open_token, by=PRIVATE[2])
        assert refused["text"].startswith("Эта кнопка не ваша")
        assert not [t for t in fake_api.texts_to(PRIVATE[2]) if "уже с входом" in t]

        answered = await _tap(app, fake_api, PRIVATE[1], message_id, open_token, by=PRIVATE[1])
        assert answered["text"] == "Ссылка для входа отправлена отдельным сообщением."
        link_id, link = fake_api.last_message(PRIVATE[1])
        assert "действует 5 минут и только один раз" in link["text"]
        ((label, url),) = fake_api.buttons(PRIVATE[1], link_id)
        # The code rides in the fragment, which no browser sends: no access log or proxy sees it.
        assert label == "Открыть на сайте" and url.startswith(f"{SITE}/auth/telegram#")
        code = url.split("#", 1)[1]
        assert "/" not in code and len(code) >= 30

        # A double tap, and the same button on another message, while that link is live: no second code.
        sent = len(fake_api.accepted("sendMessage"))
        again = await _tap(app, fake_api, PRIVATE[1], message_id, open_token, by=PRIVATE[1])
        assert again["text"] == "Ссылка для входа уже отправлена отдельным сообщением выше и действует до 12:05."
        await app.process_update(_command(app, "/matches", user_id=PRIVATE[1]))
        listed_id, _ = fake_api.last_message(PRIVATE[1])
        sent += 1  # /matches' own message
        other = dict(fake_api.buttons(PRIVATE[1], listed_id))["Открыть на сайте"]
        assert (await _tap(app, fake_api, PRIVATE[1], listed_id, other, by=PRIVATE[1]))["text"] == again["text"]
        assert len(fake_api.accepted("sendMessage")) == sent
        assert len(session.exec(select(LoginLink).where(LoginLink.user_id == league.user_ids[1])).all()) == 1

        opened = login_links.open_login_link(session, code, now=clock.now, session_days=30)
        assert opened is not None and opened.match_id == league.match_id
        assert accounts.user_for_token(session, opened.token, now=clock.now).id == league.user_ids[1]
        assert login_links.open_login_link(session, code, now=clock.now, session_days=30) is None  # once
        session.commit()
        # Used up: the next tap sends a fresh link.
        answered = await _tap(app, fake_api, PRIVATE[1], message_id, open_token, by=PRIVATE[1])
        assert answered["text"] == "Ссылка для входа отправлена отдельным сообщением."
        ((_, fresh),) = fake_api.buttons(PRIVATE[1], fake_api.last_message(PRIVATE[1])[0])
        assert fresh != url
    finally:
        await app.shutdown()


async def test_matches_lists_the_current_matches_with_the_next_action_and_its_buttons(
    app: Application, fake_api: FakeBotApi, session: Session, league: League
) -> None:
    proposal_id = propose(session, league, kirov(14, 13))
    await app.process_update(_command(app, "/matches", user_id=PRIVATE[1]))
    message_id, message = fake_api.last_message(PRIVATE[1])
    assert message["text"].startswith(
        "<b>Тур 2, стол 1 — Подтвердил 1 из 4</b>\nКогда: игровое окно пн 07.12 — вс 20.12 включительно"
    )
    assert "Дальше: подтвердите время пн 14.12.2026 13:00, 3 ханчана" in message["text"]
    confirm = dict(fake_api.buttons(PRIVATE[1], message_id))["Подтверждаю"]
    answered = await _tap(app, fake_api, PRIVATE[1], message_id, confirm, by=PRIVATE[1])
    assert answered["text"] == "Подтверждение записано."
    assert league.player_ids[1] in _answers(session, proposal_id)

    # The proposer has confirmed: only «Не могу» applies, and the action is the others'.
    await app.process_update(_command(app, "/matches", user_id=PRIVATE[0]))
    message_id, message = fake_api.last_message(PRIVATE[0])
    assert "Дальше: ждём подтверждения: Вера Сидорова, Глеб Орлов" in message["text"]
    assert [label for label, _ in fake_api.buttons(PRIVATE[0], message_id)] == ["Не могу"]

    await app.process_update(_command(app, "/matches", user_id=STRANGER))
    assert fake_api.texts_to(STRANGER) == [
        "Этот Telegram не привязан к игроку лиги. Привяжите его на странице «Профиль» на сайте."
    ]


async def test_the_blockers_hint_adds_exactly_the_hinted_time(
    app: Application, fake_api: FakeBotApi, session: Session, clock: Clock
) -> None:
    (league,) = make_league(session)
    for index, telegram_id in enumerate(PRIVATE):
        link(session, league, index, telegram_id, None, private=True)
    for index in (0, 1, 2):
        answer(session, league, index, (kirov(14, 13), kirov(14, 20)))
    answer(session, league, 3, (kirov(15, 13), kirov(15, 20)))  # Глеб alone blocks the match
    await _deliver(app)
    assert [t for chat in PRIVATE[:3] for t in fake_api.texts_to(chat)] == []  # nobody else hears of his time
    message_id, message = fake_api.last_message(PRIVATE[3])
    labels = [label for label, _ in fake_api.buttons(PRIVATE[3], message_id)]
    assert labels and all(label.startswith("Добавить пн 14.12.2026 ") for label in labels)
    label, add = fake_api.buttons(PRIVATE[3], message_id)[0]
    hinted = label.removeprefix("Добавить ")

    first = await _tap(app, fake_api, PRIVATE[3], message_id, add, by=PRIVATE[3])
    second = await _tap(app, fake_api, PRIVATE[3], message_id, add, by=PRIVATE[3])  # a double tap
    assert first["text"] == second["text"] == f"Добавлено в вашу доступность: {hinted}."
    own = _own_time(session, league, 3)
    added = [span for span in own if span != (kirov(15, 13), kirov(15, 20))]
    assert len(own) == 2 and len(added) == 1 and format_span(*added[0]) == hinted  # exactly the hinted span
    edited = fake_api.last_message(PRIVATE[3])[1]
    assert f"Добавлено в вашу доступность: {hinted}." in edited["text"] and "Сейчас: " in edited["text"]
    assert edited["markup"] is None


async def test_no_message_or_answer_carries_another_players_time(
    fake_api: FakeBotApi, engine: sa.Engine, session: Session, clock: Clock
) -> None:
    app = build_application(bot_config(fake_api, site_url=SITE), bind=engine, clock=clock)
    await app.initialize()
    try:
        (league,) = make_league(session)
        for index, telegram_id in enumerate(PRIVATE):
            link(session, league, index, telegram_id, None, private=True)
        # Common time is 14.12 13:00–20:00; every other boundary is one player's own.
        own = {
            0: ((kirov(14, 8), kirov(14, 23)), (kirov(15, 7, 30), kirov(15, 9, 30))),
            1: ((kirov(14, 10), kirov(14, 22)),),
            2: ((kirov(14, 12), kirov(14, 21)), (kirov(17, 14), kirov(17, 16))),
            3: ((kirov(14, 13), kirov(14, 20)),),
        }
        marks = {
            0: ("08:00", "23:00", "07:30", "09:30", "15.12"),
            1: ("10:00", "22:00"),
            2: ("12:00", "21:00", "17.12"),
        }
        for index, spans in own.items():
            answer(session, league, index, *spans)
        propose(session, league, kirov(14, 13))
        await _deliver(app)
        for chat in PRIVATE[1:3]:
            message_id, confirm = _button(fake_api, chat, "Подтверждаю")
            await _tap(app, fake_api, chat, message_id, confirm, by=chat)
        for chat in PRIVATE:
            await app.process_update(_command(app, "/matches", user_id=chat))
        message_id, confirm = _button(fake_api, PRIVATE[3], "Подтверждаю")
        await _tap(app, fake_api, PRIVATE[3], message_id, confirm, by=PRIVATE[3])
        await _deliver(app)
    finally:
        await app.shutdown()
    said: list[tuple[int, str]] = [
        (c.params["chat_id"], c.params["text"])
        for c in fake_api.accepted()
        if c.method in ("sendMessage", "editMessageText") and "text" in c.params
    ]
    said += [(0, a.get("text", "")) for a in fake_api.answers()]
    assert len(said) > 12
    for chat, text in said:
        for index, personal in marks.items():
            if chat != PRIVATE[index]:
                for mark in personal:
                    assert mark not in text, f"{mark!r} of player {index} reached chat {chat}: {text}"
