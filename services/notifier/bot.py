"""The bot process: a python-telegram-bot Application with the outbox poll, the Sunday reminder and commands.

Imports telegram (the bot process may); everything it says comes from `cards`, everything it reads
from `snapshot` and the link services, so the site works the same with the bot off (Регламент §3).
"""

from __future__ import annotations

import asyncio
import logging
import time as monotonic_time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from typing import Any

import sqlalchemy as sa
from telegram import Update
from telegram import User as TelegramUser
from telegram.constants import ChatType, ParseMode
from telegram.error import BadRequest, NetworkError
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    ExtBot,
    JobQueue,
)

from services.core import bot_status
from services.core.config import Settings
from services.core.db import session_scope, use_database
from services.core.models import utc_now
from services.notifier import cards, remote
from services.notifier import linking as telegram_link
from services.notifier.outbox import Notifier, Target
from services.notifier.sunday import reminder_time_of
from services.notifier.telegram import TelegramGateway
from services.pantheon.schedule import sync_current_season

log = logging.getLogger(__name__)
OUTBOX_JOB = "outbox"
REMINDER_JOB = "sunday_reminder"
PANTHEON_JOB = "pantheon_sync"
MAX_PAUSE = 300.0  # seconds between passes at most while Telegram stays unreachable


@dataclass(frozen=True)
class BotConfig:
    token: str
    api_url: str | None
    target: Target
    reminder_time: time  # aware: Kirov time
    poll_seconds: float = 5.0
    pantheon_sync_minutes: float | None = None  # None: no scheduled Pantheon import
    claim_seconds: float = 120.0  # a claim on outbox events; a killed process's events wait this long at most
    site_url: str | None = None  # PUBLIC_URL: the private messages' «Открыть на сайте» links lead there
    reminder_check_seconds: float = 60.0  # how often the bot asks whether the Sunday reminder is due (cheap)


def config_from_settings(settings: Settings) -> BotConfig:
    """Raises ValueError (in Russian) when the bot cannot run: no token or no group chat."""
    if not settings.bot_token:
        raise ValueError("TELEGRAM_BOT_TOKEN не задан: бот не запускается, сайт работает без него.")
    if settings.chat_id is None:
        raise ValueError("TELEGRAM_CHAT_ID не задан: боту некуда публиковать карточки матчей.")
    return BotConfig(
        token=settings.bot_token,
        api_url=settings.bot_api_url,
        target=Target(settings.chat_id, settings.schedule_thread_id, settings.announcements_thread_id),
        reminder_time=reminder_time_of(settings),
        pantheon_sync_minutes=settings.pantheon_sync_minutes,
        claim_seconds=settings.claim_seconds,
        site_url=settings.public_url,
    )


# The application as `ApplicationBuilder().build()` makes it (python-telegram-bot's default context types)
BotApplication = Application[
    ExtBot[None],
    ContextTypes.DEFAULT_TYPE,
    dict[Any, Any],
    dict[Any, Any],
    dict[Any, Any],
    JobQueue[ContextTypes.DEFAULT_TYPE],
]


@dataclass
class PollState:
    """Backoff between passes while Telegram is down; the gateway already retried within the pass."""

    failures: int = 0
    resume_at: float = 0.0


def _notifier(context: ContextTypes.DEFAULT_TYPE) -> Notifier:
    notifier: Notifier = context.application.bot_data["notifier"]  # set by build_application
    return notifier


async def poll_outbox(context: ContextTypes.DEFAULT_TYPE) -> None:
    assert context.job is not None  # a job's callback
    state = context.job.data
    assert isinstance(state, PollState)  # given by build_application
    if monotonic_time.monotonic() < state.resume_at:
        return
    notifier = _notifier(context)
    result = await notifier.deliver_pending()
    if result.stopped:
        state.failures += 1
        pause = min(context.application.bot_data["config"].poll_seconds * 2**state.failures, MAX_PAUSE)
        state.resume_at = monotonic_time.monotonic() + pause
        log.warning("Telegram unreachable, %d events wait; next try in %.0f s", result.failed, pause)
        return
    state.failures, state.resume_at = 0, 0.0
    notifier.heartbeat(connected=True)


async def _queue_due_reminder(bot_data: dict[Any, Any]) -> None:
    # Регламент §3: «В воскресенье вечером бот напоминает о незавершённом согласовании».
    # Asked at start and every minute, not only at 19:00 on Sunday: a bot that was down on Sunday catches up (a late
    # reminder, while the windows it is about are open), and the site or `discard reminders` may have written it
    # first (services/notifier/reminders.py). The outbox poll delivers it and retries it when Telegram fails.
    notifier: Notifier = bot_data["notifier"]
    reminder_time = bot_data["config"].reminder_time
    # The database read computes the pending matches' common options: off the event loop.
    if await asyncio.to_thread(notifier.queue_reminder, reminder_time):
        log.info("Sunday reminder queued")
    # Регламент §3: a proposal not answered by all four a day before its start is recalled to them, same cadence.
    if reminded := await asyncio.to_thread(notifier.queue_proposal_reminders):
        log.info("%s proposal reminder(s) queued", reminded)
    # Issue 43 item 5: the cards time alone made stale (a begun time, a passed fallback, an ended hold), same cadence.
    if stale := await asyncio.to_thread(notifier.queue_stale_cards):
        log.info("%s card(s) stale by time queued", stale)
    # Регламент §6.2: a judge call unanswered for ten minutes goes to the organizer (once per call), same cadence.
    if escalated := await asyncio.to_thread(notifier.queue_escalations):
        log.info("%s unanswered judge call(s) queued for the organizer", escalated)


async def sunday_reminder(context: ContextTypes.DEFAULT_TYPE) -> None:
    await _queue_due_reminder(context.application.bot_data)


async def pantheon_sync(context: ContextTypes.DEFAULT_TYPE) -> None:
    # Регламент §6.2: results live in Pantheon; importing them often keeps the standings live on a match day.
    # The import is blocking (HTTP and database): a worker thread keeps the bot answering meanwhile.
    await asyncio.to_thread(sync_current_season, _notifier(context).bind)


async def _reply(update: Update, text: str) -> None:
    message = update.effective_message
    assert message is not None  # a command's update, or one the error handler checked
    await message.reply_text(text, parse_mode=ParseMode.HTML)


def _sender(update: Update) -> TelegramUser:
    account = update.effective_user
    assert account is not None  # a command in a private chat has its sender
    return account


def _private(update: Update) -> bool:
    return update.effective_chat is not None and update.effective_chat.type == ChatType.PRIVATE


async def start_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    if not _private(update):
        await _reply(update, cards.PRIVATE_ONLY)
        return
    if not context.args:
        await _reply(update, cards.START_HELP)
        return
    notifier, account = _notifier(context), _sender(update)
    with session_scope(notifier.bind) as session:
        user = telegram_link.redeem_link_code(
            session,
            context.args[0],
            telegram_user_id=account.id,
            telegram_username=account.username,
            now=notifier.clock(),
        )
        name = user.display_name if user else None
    await _reply(update, cards.linked_text(name) if name else cards.LINK_FAILED)


async def stop_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    if not _private(update):
        await _reply(update, cards.PRIVATE_ONLY)
        return
    with session_scope(_notifier(context).bind) as session:
        user = telegram_link.unlink_telegram(session, _sender(update).id)
    await _reply(update, cards.UNLINKED if user else cards.NOT_LINKED)


async def matches_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    if not _private(update):
        await _reply(update, cards.PRIVATE_ONLY)
        return
    notifier = _notifier(context)
    # Issue 44: one message per current match with the buttons that apply; the board is read off the event loop.
    found = await asyncio.to_thread(
        remote.matches, notifier.bind, _sender(update).id, now=notifier.clock(), site_url=notifier.site_url
    )
    if found is None:
        await _reply(update, cards.NOT_LINKED)
        return
    for text, buttons in found:  # a private chat's id is its person's; at the chat's pace, as every reply
        await notifier.paced(_sender(update).id)
        await notifier.gateway.send(_sender(update).id, text, buttons=buttons)


async def button_pressed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A tap on a private message's button (issue 44, Регламент §3): decided now, by the services the page uses,
    answered in Russian, and its message then says what happened. Only the owner's own message is edited."""
    query = update.callback_query
    assert query is not None  # the handler is registered for callback queries only
    notifier = _notifier(context)
    # The answer locks the match and may book (the whole board): off the event loop.
    pressed = await asyncio.to_thread(
        remote.press,
        notifier.bind,
        query.data or "",
        telegram_user_id=query.from_user.id,
        now=notifier.clock(),
        message_id=query.message.message_id if query.message is not None else 0,
        site_url=notifier.site_url,
    )
    try:
        await query.answer(pressed.answer, show_alert=pressed.alert)
    except BadRequest as error:  # a tap that waited while the bot was down: "query is too old"; the edit still tells
        log.info("tap not answered: %s", error)
    message = query.message  # the answer above is no message; the edit and the reply go at the chat's pace
    if pressed.text is not None and message is not None and message.chat.id == query.from_user.id:
        await notifier.paced(message.chat.id)
        await notifier.gateway.edit(message.chat.id, message.message_id, pressed.text, buttons=pressed.keyboard)
    if pressed.reply is not None:  # the login link: to the person's own private chat only (their account's id)
        text, buttons = pressed.reply
        await notifier.paced(query.from_user.id)
        await notifier.gateway.send(query.from_user.id, text, buttons=buttons)


def _what_failed(update: object, context: ContextTypes.DEFAULT_TYPE) -> str:
    """The update or job an error came from, by its ids and command word only: a message's text can hold a secret
    (/start carries the one-time link code), so the rest of it is never logged."""
    if isinstance(update, Update):
        message = update.effective_message
        command = (message.text or "").split(maxsplit=1)[0][:32] if message and message.text else ""
        chat = update.effective_chat.id if update.effective_chat else None
        sender = update.effective_user.id if update.effective_user else None
        return f"update {update.update_id} (chat {chat}, from {sender}, {command or 'no command'})"
    if context.job is not None:
        return f"job {context.job.name}"
    return "polling"


def _without_token(text: str, token: str) -> str:
    """Bot API URLs carry the token: a traceback that quotes one must not put it in the log."""
    secret = token.split(":", 1)[-1]
    return text.replace(token, "<token>").replace(secret, "<token>") if secret else text


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Every exception a command or a job raised, and a failed getUpdates: logged without secrets and not raised
    again, so the bot keeps polling and the next update is handled. The player whose command failed is told so."""
    error, token = context.error, context.bot.token
    where = _what_failed(update, context)
    if update is None and isinstance(error, NetworkError):
        # Telegram unreachable while polling: python-telegram-bot retries by itself; no traceback for every try.
        log.warning("Telegram unreachable while polling: %s", _without_token(str(error), token))
        return
    trace = "".join(traceback.format_exception(type(error), error, error.__traceback__)) if error else ""
    log.error("error while handling %s:\n%s", where, _without_token(trace, token))
    if isinstance(update, Update) and update.effective_message is not None and _private(update):
        try:
            await _reply(update, cards.COMMAND_FAILED)
        except Exception as reply_error:  # Telegram itself failing: the log above already tells
            log.warning("could not tell %s about the error: %s", where, _without_token(str(reply_error), token))


async def _post_init(application: BotApplication) -> None:
    username = application.bot.username  # initialize() called getMe
    application.bot_data["notifier"].heartbeat(connected=True, bot_username=username)
    log.info("connected to Telegram as @%s", username)
    # At start, before the first poll: a Sunday missed while the bot was down is sent now (late), not in a minute.
    await _queue_due_reminder(application.bot_data)


async def _post_shutdown(application: BotApplication) -> None:
    notifier: Notifier = application.bot_data["notifier"]
    with session_scope(notifier.bind) as session:
        bot_status.record_stopped(session, now=notifier.clock())


def build_application(
    config: BotConfig,
    *,
    bind: sa.Engine | None = None,
    clock: Callable[[], datetime] = utc_now,
    gateway_options: dict[str, Any] | None = None,
) -> BotApplication:
    builder = ApplicationBuilder().token(config.token).post_init(_post_init).post_shutdown(_post_shutdown)
    if config.api_url:
        builder = builder.base_url(config.api_url)
    application = builder.build()
    gateway = TelegramGateway(application.bot, **(gateway_options or {}))
    lease = timedelta(seconds=config.claim_seconds)
    application.bot_data["notifier"] = Notifier(
        gateway, config.target, bind=bind, clock=clock, lease=lease, site_url=config.site_url
    )
    application.bot_data["config"] = config
    application.add_handler(CommandHandler("start", start_command))
    application.add_handler(CommandHandler("stop", stop_command))
    application.add_handler(CommandHandler("matches", matches_command))
    application.add_handler(CallbackQueryHandler(button_pressed))
    application.add_error_handler(on_error)
    jobs = application.job_queue
    assert jobs is not None  # python-telegram-bot[job-queue] is a dependency
    jobs.run_repeating(poll_outbox, interval=config.poll_seconds, first=1, name=OUTBOX_JOB, data=PollState())
    jobs.run_repeating(sunday_reminder, interval=config.reminder_check_seconds, first=1, name=REMINDER_JOB)
    if config.pantheon_sync_minutes:
        jobs.run_repeating(pantheon_sync, interval=config.pantheon_sync_minutes * 60, first=10, name=PANTHEON_JOB)
    return application


def main(settings: Settings | None = None) -> int:
    """`python -m services.notifier` and `discard bot`: runs until interrupted."""
    from services.core.config import settings as env_settings

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger().setLevel(logging.INFO)
    # httpx logs every request URL at INFO, and Bot API URLs contain the token.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    settings = settings or env_settings
    try:
        config = config_from_settings(settings)
    except ValueError as error:
        log.error("%s", error)
        return 2
    use_database(settings.database_url)  # the process names its database: services never read the settings
    build_application(config).run_polling(allowed_updates=[Update.MESSAGE, Update.CALLBACK_QUERY])
    return 0
