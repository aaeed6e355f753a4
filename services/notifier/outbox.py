"""The outbox reader and delivery pass: cards, private messages, announcements, reminders. Imports no telegram.

Talks to Telegram only through a `Gateway` (see `services/notifier/telegram.py`), so an event is
marked delivered only after the gateway returned, i.e. after Telegram accepted the message.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Protocol

import sqlalchemy as sa
from sqlmodel import col, select

from services.core.db import session_scope
from services.core.models import Announcement, MatchCard, OutboxEvent, User, utc_now
from services.core.outbox import DRAW_APPROVED, JUDGE_CALLED
from services.notifier import cards
from services.notifier import status as bot_status
from services.notifier.snapshot import MatchSnapshot, match_snapshot, window_matches

log = logging.getLogger(__name__)
BATCH = 500


class DeliveryError(Exception):
    """Telegram could not be reached even after retries: stop the pass, keep every event."""


class MessageGone(Exception):
    """The message to edit no longer exists in the chat (someone deleted the card)."""


class Undeliverable(Exception):
    """Telegram refused this one message for good (a user blocked the bot, a wrong chat)."""


class Gateway(Protocol):
    async def send(self, chat_id: int, text: str, *, thread_id: int | None = None) -> int: ...

    async def edit(self, chat_id: int, message_id: int, text: str) -> None: ...


@dataclass(frozen=True)
class Target:
    """Where things go: the league group and its two forum topics."""

    chat_id: int
    schedule_thread_id: int | None = None
    announcements_thread_id: int | None = None


@dataclass
class PassResult:
    delivered: int = 0
    failed: int = 0
    error: str | None = None
    stopped: bool = False  # Telegram unreachable: the rest waits for the next pass


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _mark(bind: sa.Engine | None, ids: list[int], *, now: datetime, error: str | None) -> None:
    with session_scope(bind) as session:
        for event in session.exec(select(OutboxEvent).where(col(OutboxEvent.id).in_(ids))):
            if error is None:
                event.delivered_at = now
            else:
                event.attempts += 1
                event.last_error = error[: bot_status.MAX_ERROR]
        if error is None:
            bot_status.record_delivery(session, now=now)


class Notifier:
    """One delivery pass at a time (the job queue never overlaps a job with itself)."""

    def __init__(
        self,
        gateway: Gateway,
        target: Target,
        *,
        bind: sa.Engine | None = None,
        clock: Callable[[], datetime] = utc_now,
    ) -> None:
        self.gateway, self.target, self.bind, self.clock = gateway, target, bind, clock

    async def deliver_pending(self) -> PassResult:
        """One card update per match however many events it has; the card shows the current state."""
        with session_scope(self.bind) as session:
            events = session.exec(
                select(OutboxEvent)
                .where(col(OutboxEvent.delivered_at).is_(None))
                .order_by(col(OutboxEvent.id))
                .limit(BATCH)
            ).all()
        by_match: dict[int, list[OutboxEvent]] = {}
        others: list[OutboxEvent] = []
        for event in events:
            (by_match.setdefault(event.match_id, []) if event.match_id is not None else others).append(event)
        result = PassResult()
        work = [(evs, partial(self._deliver_match, mid, evs)) for mid, evs in by_match.items()]
        work += [([ev], partial(self._deliver_other, ev)) for ev in others]
        for group, deliver in work:
            ids = [e.id for e in group]
            try:
                await deliver()
            except DeliveryError as error:
                # Telegram is unreachable: keep this and every later event for the next pass.
                self._fail(ids, str(error), connected=False)
                result.failed += len(ids)
                result.error, result.stopped = str(error), True
                return result
            except Undeliverable as error:
                log.warning("outbox events %s refused by Telegram: %s", ids, error)
                self._fail(ids, str(error), connected=True)
                result.failed += len(ids)
                result.error = str(error)
                continue
            _mark(self.bind, ids, now=self.clock(), error=None)
            result.delivered += len(ids)
        return result

    def _fail(self, ids: list[int], error: str, *, connected: bool) -> None:
        _mark(self.bind, ids, now=self.clock(), error=error)
        with session_scope(self.bind) as session:
            bot_status.record_error(session, now=self.clock(), error=error, connected=connected)

    async def _deliver_match(self, match_id: int, events: list[OutboxEvent]) -> None:
        with session_scope(self.bind) as session:
            snap = match_snapshot(session, match_id)
            card = session.get(MatchCard, match_id)
        if snap is None:
            return
        await self.update_card(snap, card)
        await self._private_messages(snap, {e.kind for e in events})

    async def update_card(self, snap: MatchSnapshot, card: MatchCard | None) -> None:
        text = cards.card_text(snap)
        digest = text_hash(text)
        chat = self.target.chat_id
        if card is not None and card.chat_id == chat and card.text_hash == digest:
            return  # Telegram already shows exactly this
        message_id = None
        if card is not None and card.chat_id == chat:
            try:
                await self.gateway.edit(chat, card.message_id, text)
                message_id = card.message_id
            except MessageGone:
                log.info("card of match %s was deleted in the chat: posting a new one", snap.match_id)
        if message_id is None:
            message_id = await self.gateway.send(chat, text, thread_id=self.target.schedule_thread_id)
        with session_scope(self.bind) as session:
            row = session.get(MatchCard, snap.match_id) or MatchCard(match_id=snap.match_id, chat_id=chat, message_id=0)
            row.chat_id, row.message_id, row.text_hash, row.updated_at = chat, message_id, digest, self.clock()
            session.add(row)

    async def _private_messages(self, snap: MatchSnapshot, kinds: set[str]) -> None:
        """Only what is still true now: a proposal since booked sends no «waiting for you»."""
        messages: list[tuple[int, str]] = []
        wanting = [s for s in snap.seats if s.private_messages and s.telegram_user_id is not None]
        proposal = snap.proposal
        if "proposed" in kinds and proposal is not None:
            answered = proposal.confirmed | proposal.declined
            text = cards.proposal_waiting_text(snap)
            messages += [(s.telegram_user_id, text) for s in wanting if s.player_id not in answered]
        if snap.bookings and ({"booked", "moved"} & kinds):
            text = cards.booked_text(snap, moved="moved" in kinds and "booked" not in kinds)
            messages += [(s.telegram_user_id, text) for s in wanting]
        if "released" in kinds:
            messages += [(s.telegram_user_id, cards.released_text(snap)) for s in wanting]
        for chat_id, text in messages:
            try:
                await self.gateway.send(chat_id, text)
            except Undeliverable as error:
                log.info("private message to a player not delivered: %s", error)

    async def _deliver_other(self, event: OutboxEvent) -> None:
        if event.kind == DRAW_APPROVED:
            await self._draw_approved(json.loads(event.payload or "{}"))
            return
        if event.kind == JUDGE_CALLED:
            await self._judge_called(json.loads(event.payload or "{}"))
            return
        if event.kind != "announcement":
            log.warning("outbox event %s of kind %r has no match and no handler: skipped", event.id, event.kind)
            return
        announcement_id = json.loads(event.payload or "{}").get("announcement_id")
        with session_scope(self.bind) as session:
            announcement = session.get(Announcement, announcement_id) if announcement_id else None
        if announcement is None:
            return
        await self.gateway.send(
            self.target.chat_id,
            cards.announcement_text(announcement.text),
            thread_id=self.target.announcements_thread_id,
        )

    async def _judge_called(self, payload: dict) -> None:
        """Регламент §6.2: the judge's private message, when their Telegram is linked."""
        with session_scope(self.bind) as session:
            judge = session.get(User, payload.get("judge_user_id") or 0)
            chat_id = judge.telegram_user_id if judge else None
        if chat_id is not None:
            await self.gateway.send(chat_id, cards.judge_call_text(payload))

    async def _draw_approved(self, payload: dict) -> None:
        windows = [(datetime.fromisoformat(s), datetime.fromisoformat(e)) for s, e in payload.get("windows", [])]
        text = cards.draw_approved_text(str(payload.get("season", "")), int(payload.get("matches", 0)), windows)
        await self.gateway.send(self.target.chat_id, text, thread_id=self.target.announcements_thread_id)

    async def send_reminder(self, now: datetime | None = None) -> int:
        """Регламент §3: on Sunday evening, the matches of the current window not yet scheduled. No penalties."""
        with session_scope(self.bind) as session:
            snaps = window_matches(session, now or self.clock())
        texts = cards.reminder_texts(snaps)
        for text in texts:
            await self.gateway.send(self.target.chat_id, text, thread_id=self.target.schedule_thread_id)
        return len(texts)

    def heartbeat(self, *, connected: bool, bot_username: str | None = None) -> None:
        with session_scope(self.bind) as session:
            bot_status.record_heartbeat(session, now=self.clock(), connected=connected, bot_username=bot_username)
