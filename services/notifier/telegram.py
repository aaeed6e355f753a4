"""The Telegram adapter on python-telegram-bot 22: send and edit with retries; with bot.py, the only telegram importer.

Network errors, timeouts and HTTP 5xx are retried with exponential backoff; HTTP 429 waits the
`retry_after` Telegram asks for. When retries run out a `DeliveryError` leaves the event undelivered.

A message sent whose answer never came (the read timed out, the connection broke after the request went out)
may have been posted: it is not sent again within the pass. The answer is waited for long (`answer_timeout`,
30 s; Telegram answers in well under a second), so a slow answer is read, not taken for a failure.
"""

from __future__ import annotations

import asyncio
import html
import logging
import re
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import TypeVar

import httpx
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, LinkPreviewOptions, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TelegramError, TimedOut

from services.notifier.outbox import CHANGED, NONE, OTHER, OURS, DeliveryError, MessageGone, Undeliverable
from services.notifier.remote import Keyboard

log = logging.getLogger(__name__)
T = TypeVar("T")
_NO_PREVIEW = LinkPreviewOptions(is_disabled=True)
# Put on a message of ours for the moment the probe reads it back, then its own buttons (if any) put back.
_PROBE_MARK = InlineKeyboardMarkup([[InlineKeyboardButton("…", callback_data="probe")]])


def markup(buttons: Keyboard) -> InlineKeyboardMarkup | None:
    """A private message's buttons (services/notifier/remote.py): a tap sends back only the opaque token."""
    if not buttons:
        return None
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(b.label, url=b.url)
                if b.url
                else InlineKeyboardButton(b.label, callback_data=b.token)
                for b in row
            ]
            for row in buttons
        ]
    )


# The request went out but no answer came: Telegram may have posted the message.
_MAYBE_SENT = (httpx.ReadTimeout, httpx.WriteTimeout, httpx.ReadError, httpx.WriteError, httpx.RemoteProtocolError)


def retry_seconds(error: RetryAfter) -> float:
    value = error.retry_after
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


class TelegramGateway:
    """`Gateway` for `Notifier`: the bot's HTTP calls with the retry policy around them."""

    def __init__(
        self,
        bot: Bot,
        *,
        attempts: int = 5,
        backoff: float = 1.0,
        max_backoff: float = 60.0,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        answer_timeout: float = 30.0,
    ) -> None:
        self.bot, self.attempts, self.backoff, self.max_backoff, self.sleep = bot, attempts, backoff, max_backoff, sleep
        self.answer_timeout = answer_timeout

    async def _call(self, what: str, call: Callable[[], Awaitable[T]], *, repeatable: bool = True) -> T:
        delay = self.backoff
        last: TelegramError | None = None
        for attempt in range(1, self.attempts + 1):
            try:
                return await call()
            except RetryAfter as error:  # HTTP 429: Telegram says exactly how long to wait
                wait = retry_seconds(error)
                log.warning("%s: flood control, waiting %.0f s as Telegram asks", what, wait)
                last = error
                await self.sleep(wait)
                continue
            except (BadRequest, Forbidden):
                raise  # about this one request, not the network: the caller decides
            except (TimedOut, NetworkError) as error:  # timeouts, connection failures and HTTP 5xx
                if not repeatable and isinstance(error.__cause__, _MAYBE_SENT):
                    raise DeliveryError(f"{what}: ответ Telegram не получен, исход неизвестен ({error})") from error
                last = error
                log.warning("%s failed (attempt %d of %d): %s", what, attempt, self.attempts, error)
            except TelegramError as error:  # a bad token, a migrated chat: keep the event, say why
                raise DeliveryError(f"{what}: {error}") from error
            if attempt < self.attempts:
                await self.sleep(delay)
                delay = min(delay * 2, self.max_backoff)
        raise DeliveryError(f"{what}: {last}")

    async def send(self, chat_id: int, text: str, *, thread_id: int | None = None, buttons: Keyboard = ()) -> int:
        async def call() -> int:
            message = await self.bot.send_message(
                chat_id,
                text,
                message_thread_id=thread_id,
                reply_markup=markup(buttons),
                parse_mode=ParseMode.HTML,
                link_preview_options=_NO_PREVIEW,
                read_timeout=self.answer_timeout,
            )
            return message.message_id

        try:
            return await self._call("sendMessage", call, repeatable=False)
        except (BadRequest, Forbidden) as error:
            raise Undeliverable(str(error)) from error

    def _edit_call(
        self, chat_id: int, message_id: int, text: str, buttons: Keyboard
    ) -> Callable[[], Awaitable[object]]:
        """One `editMessageText` with this text and these buttons (none: a message without any), as `_call`
        retries it."""

        async def call() -> object:
            return await self.bot.edit_message_text(
                text,
                chat_id=chat_id,
                message_id=message_id,
                reply_markup=markup(buttons),
                parse_mode=ParseMode.HTML,
                link_preview_options=_NO_PREVIEW,
                read_timeout=self.answer_timeout,
            )

        return call

    async def edit(self, chat_id: int, message_id: int, text: str, *, buttons: Keyboard = ()) -> None:
        try:
            await self._call("editMessageText", self._edit_call(chat_id, message_id, text, buttons))
        except BadRequest as error:
            message = str(error).lower()
            if "message is not modified" in message:
                return  # the card already shows this text
            if "message to edit not found" in message or "message can't be edited" in message:
                raise MessageGone(str(error)) from error
            raise Undeliverable(str(error)) from error
        except Forbidden as error:
            raise Undeliverable(str(error)) from error

    async def probe(self, chat_id: int, message_id: int, text: str, *, buttons: Keyboard = ()) -> str:
        """What the message with this id is, without ever changing its text: a mark (one button) is put on it and
        taken off at once (`buttons`, the pending message's own, put back in its place). Someone else's message
        "can't be edited", an id past the chat's last message (or a deleted one) is "not found"; ours comes back
        with its text, which is compared with `text` — identical is OURS, another text of ours (a message this
        database does not know) is CHANGED and stays as it was, without buttons."""

        def mark(keyboard: InlineKeyboardMarkup | None) -> Callable[[], Awaitable[object]]:
            async def call() -> object:
                return await self.bot.edit_message_reply_markup(
                    chat_id=chat_id, message_id=message_id, reply_markup=keyboard, read_timeout=self.answer_timeout
                )

            return call

        try:
            message = await self._call("editMessageReplyMarkup (probe)", mark(_PROBE_MARK))
        except BadRequest as error:
            if "message to edit not found" in str(error).lower():
                return NONE
            return OTHER  # "message can't be edited" (another's), or anything else that is not ours
        except Forbidden as error:
            raise Undeliverable(str(error)) from error
        try:
            await self._call("editMessageReplyMarkup (probe, undone)", mark(markup(buttons)))
        except BadRequest as error:
            log.warning("probe mark on message %s in chat %s not taken off: %s", message_id, chat_id, error)
        seen = message.text if isinstance(message, Message) else None
        return OURS if seen is not None and seen.strip() == plain_text(text).strip() else CHANGED


def plain_text(html_text: str) -> str:
    """A message's text as Telegram gives it back: without the HTML tags (they come as entities), unescaped."""
    return html.unescape(re.sub(r"<[^>]+>", "", html_text))
