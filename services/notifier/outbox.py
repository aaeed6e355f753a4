"""The outbox reader and delivery pass: cards, private messages, announcements, reminders. Imports no telegram.

Talks to Telegram only through a `Gateway` (see `services/notifier/telegram.py`), so an event is
marked delivered only after the gateway returned, i.e. after Telegram accepted the message.

Exactly once, as far as Telegram allows: a pass first claims its events (owner and expiry on each row, taken
under SQLite's write lock or, on PostgreSQL, a short advisory lock with FOR UPDATE SKIP LOCKED), never
an event whose match another live claim holds, and renews the claim right before every call, skipping the events
another process took once their claim ran out (a long pass at Telegram's pace), so two bot processes never send
one event or post one card twice. A card's message id, and every other message's id (`TelegramSend`), is
committed before the next message is sent, so a pass that is repeated after a crash edits the card and skips what
was already sent.

A send whose answer never came (the bot killed while Telegram answered, a read that timed out) leaves its
`TelegramPending` row, one per chat at most, set right before the send (after the pace's wait). Whoever sends to
that chat next first looks for the message: message ids are sequential per chat, so it reads back the ids after
the newest one it knew of (from the chat's first when it knew none), without changing them
(`TelegramGateway.probe`): a message of ours with exactly this text is the one, and its id is recorded instead of
sending it again; only when none of the few ids probed is it, the message is sent. Every call is paced within
Telegram's per-chat limits (`services/notifier/pacing.py`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
import time as clock_time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from functools import partial
from typing import Any, Protocol

import sqlalchemy as sa
from sqlmodel import Session, col, select

from services.core import bot_status
from services.core import outbox as kinds
from services.core.db import session_scope
from services.core.models import (
    Announcement,
    MatchCard,
    OutboxEvent,
    Role,
    TelegramPending,
    TelegramSend,
    UnblockHint,
    User,
    saved,
    utc_now,
)
from services.notifier import cards
from services.notifier.cards import text_hash
from services.notifier.claims import LEASE, claim_events, renew_claims
from services.notifier.freshness import stale_cards, time_moved
from services.notifier.pacing import Pace
from services.notifier.reminders import (
    pending_matches,
    queue_due_reminder,
    queue_meeting_reminders,
    queue_proposal_reminders,
)
from services.notifier.remote import (
    CONFIRM,
    DECLINE,
    Keyboard,
    booking_keyboard,
    hint_keyboard,
    keyboard_json,
    keyboard_of,
    proposal_keyboard,
    with_open,
)
from services.notifier.snapshot import MatchSnapshot, SeatView, match_snapshot
from services.notifier.sunday import is_late
from services.results.judge_calls import escalate_unanswered
from services.scheduling.decide import PROPOSAL_REMINDER_BEFORE

log = logging.getLogger(__name__)


class DeliveryError(Exception):
    """Telegram could not be reached even after retries: stop the pass, keep every event."""


class MessageGone(Exception):
    """The message to edit no longer exists in the chat (someone deleted the card)."""


class Undeliverable(Exception):
    """Telegram refused this one message for good (a user blocked the bot, a wrong chat)."""


class ClaimLost(Exception):
    """The pass no longer holds the claim on the events it is delivering: another process took them over."""


# What the probe finds at a message id: ours with this text, someone else's, nothing there, or ours with another
# text (a message of ours this database does not know: left as it was, and not taken for the one in flight).
OURS, OTHER, NONE, CHANGED = "ours", "other", "none", "changed"
PROBE_IDS = 12  # how many ids after the newest known one are looked at: the pending one and others' chatter
# With no message of ours known in the chat (the first one ever sent there), its newest id is found by halving:
# an id counts as past the chat's end only when PROBE_END_RUN ids from it are all not found (a deleted message or
# two in a moderated group do not end it). Ids go up to 2**31, so at most 31 doublings and 31 halvings.
PROBE_END_RUN = 3
PROBE_SEARCH_CALLS = 2 * 31 * PROBE_END_RUN + PROBE_IDS  # probes at most, the halving and the ids before the end


class Gateway(Protocol):
    async def send(self, chat_id: int, text: str, *, thread_id: int | None = None, buttons: Keyboard = ()) -> int: ...

    async def edit(self, chat_id: int, message_id: int, text: str, *, buttons: Keyboard = ()) -> None: ...

    async def probe(self, chat_id: int, message_id: int, text: str, *, buttons: Keyboard = ()) -> str: ...


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


def _mark(bind: sa.Engine | None, ids: list[int], *, now: datetime, error: str | None) -> None:
    """Delivered, or failed and released for the next pass (by any process)."""
    with session_scope(bind) as session:
        for event in session.exec(select(OutboxEvent).where(col(OutboxEvent.id).in_(ids))):
            if error is None:
                event.delivered_at = now
            else:
                event.attempts += 1
                event.last_error = error[: bot_status.MAX_ERROR]
            event.claimed_by, event.claimed_until = None, None
        if error is None:
            bot_status.record_delivery(session, now=now)


def _key(pending: TelegramPending) -> tuple[object, ...]:
    return (pending.kind, pending.event_id, pending.part, pending.match_id)


def _newest_known(session: Session, chat_id: int) -> int:
    """The newest message id of ours this database knows in the chat."""
    sent = session.exec(select(sa.func.max(TelegramSend.message_id)).where(TelegramSend.chat_id == chat_id)).one()
    card = session.exec(select(sa.func.max(MatchCard.message_id)).where(MatchCard.chat_id == chat_id)).one()
    return max(sent or 0, card or 0)


def _record(session: Session, pending: TelegramPending, message_id: int, *, now: datetime) -> None:
    """What Telegram accepted: the event's message (TelegramSend) or the match's card (MatchCard); a hint is also
    the match's last hint to that chat (UnblockHint), in the same commit."""
    if pending.kind == "card":
        assert pending.match_id is not None  # a card is a match's
        row = session.get(MatchCard, pending.match_id) or MatchCard(
            match_id=pending.match_id, chat_id=pending.chat_id, message_id=0
        )
        row.chat_id, row.message_id, row.text_hash, row.updated_at = (
            pending.chat_id,
            message_id,
            text_hash(pending.text),
            now,
        )
        session.add(row)
        return
    if pending.kind == "hint":
        assert pending.match_id is not None  # a hint is a match's
        hint = session.get(UnblockHint, (pending.match_id, pending.chat_id)) or UnblockHint(
            match_id=pending.match_id, chat_id=pending.chat_id, text_hash=""
        )
        hint.text_hash, hint.sent_at = text_hash(pending.text), now
        session.add(hint)
    assert pending.event_id is not None  # any other send is an event's
    done = session.exec(
        select(TelegramSend.id).where(
            TelegramSend.event_id == pending.event_id,
            TelegramSend.chat_id == pending.chat_id,
            TelegramSend.part == pending.part,
        )
    ).first()
    if done is None:
        session.add(
            TelegramSend(
                event_id=pending.event_id,
                chat_id=pending.chat_id,
                part=pending.part,
                message_id=message_id,
                sent_at=now,
            )
        )


def _drop_pending(session: Session, chat_id: int, owner: str) -> None:
    session.exec(
        sa.delete(TelegramPending).where(col(TelegramPending.chat_id) == chat_id, col(TelegramPending.owner) == owner)
    )


class Notifier:
    """One delivery pass at a time (the job queue never overlaps a job with itself)."""

    def __init__(
        self,
        gateway: Gateway,
        target: Target,
        *,
        bind: sa.Engine | None = None,
        clock: Callable[[], datetime] = utc_now,
        lease: timedelta = LEASE,
        pace: Pace | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        monotonic: Callable[[], float] = clock_time.monotonic,
        site_url: str | None = None,
    ) -> None:
        self.gateway, self.target, self.bind, self.clock, self.lease = gateway, target, bind, clock, lease
        self.pace, self.sleep, self.monotonic = pace or Pace(), sleep, monotonic
        self.site_url = site_url  # the site's public address: «Открыть на сайте» on the private messages needs it
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._holding: list[int] = []  # the events being delivered: their claim is renewed before each message
        self._looked_at: datetime | None = None  # the last look for cards time made stale (`queue_stale_cards`)

    def _hold(self) -> None:
        """Renews the claim on the events being delivered, or raises ClaimLost: checked right before every call, so
        a pass that outlived a claim (a long backlog at Telegram's pace) never sends what another process took."""
        if self._holding and not renew_claims(self.bind, self._holding, self.owner, until=self.clock() + self.lease):
            raise ClaimLost(f"outbox events {self._holding} are another process's now")

    async def deliver_pending(self) -> PassResult:
        """One card update per match however many events it has; the card shows the current state."""
        events = claim_events(self.bind, self.owner, now=self.clock(), lease=self.lease)
        by_match: dict[int, list[OutboxEvent]] = {}
        others: list[OutboxEvent] = []
        for event in events:
            (by_match.setdefault(event.match_id, []) if event.match_id is not None else others).append(event)
        result = PassResult()
        work = [(evs, partial(self._deliver_match, mid, evs)) for mid, evs in by_match.items()]
        work += [([ev], partial(self._deliver_other, ev)) for ev in others]
        for index, (group, deliver) in enumerate(work):
            ids = [saved(e.id) for e in group]
            self._holding = ids
            try:
                self._hold()
                await deliver()
            except ClaimLost as lost:
                log.info("%s: left to the process that holds them", lost)
                continue
            except DeliveryError as error:
                # Telegram is unreachable: keep this and every later event for the next pass.
                self._fail(ids, str(error), connected=False)
                for later, _ in work[index + 1 :]:  # released: any process may retry
                    renew_claims(self.bind, [saved(e.id) for e in later], self.owner, until=self.clock())
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
            snap = match_snapshot(session, match_id, now=self.clock())
            card = session.get(MatchCard, match_id)
        if snap is None:
            return
        await self.update_card(snap, card)
        await self._private_messages(snap, {e.kind: saved(e.id) for e in events})

    async def update_card(self, snap: MatchSnapshot, card: MatchCard | None) -> None:
        text = cards.card_text(snap)
        digest = text_hash(text)
        chat = self.target.chat_id
        if card is not None and card.chat_id == chat and card.text_hash == digest:
            return  # Telegram already shows exactly this
        message_id = None
        if card is not None and card.chat_id == chat:
            try:
                await self._paced(chat)
                await self.gateway.edit(chat, card.message_id, text)
                message_id = card.message_id
            except MessageGone:
                log.info("card of match %s was deleted in the chat: posting a new one", snap.match_id)
        if message_id is not None:
            with session_scope(self.bind) as session:
                _record(
                    session,
                    TelegramPending(chat_id=chat, kind="card", match_id=snap.match_id, text=text),
                    message_id,
                    now=self.clock(),
                )
            return
        # Recorded before anything else is sent: a repeated pass edits this card instead of posting another.
        pending = TelegramPending(chat_id=chat, kind="card", match_id=snap.match_id, text=text)
        await self._post(pending, thread_id=self.target.schedule_thread_id)

    async def send_once(
        self,
        event_id: int,
        chat_id: int,
        text: str,
        *,
        part: int = 0,
        thread_id: int | None = None,
        hint_of: int | None = None,
        buttons: Keyboard = (),
    ) -> None:
        """Sends one message of an event unless it was sent before; records its id before returning. `hint_of`: the
        match whose unblock hint this is (recorded as the last hint to this chat in the same commit); `buttons`: the
        private message's buttons (services/notifier/remote.py)."""
        with session_scope(self.bind) as session:
            done = session.exec(
                select(TelegramSend.id).where(
                    TelegramSend.event_id == event_id, TelegramSend.chat_id == chat_id, TelegramSend.part == part
                )
            ).first()
        if done is not None:
            return
        kind = "send" if hint_of is None else "hint"
        pending = TelegramPending(
            chat_id=chat_id,
            kind=kind,
            event_id=event_id,
            part=part,
            match_id=hint_of,
            text=text,
            buttons=keyboard_json(buttons),
        )
        await self._post(pending, thread_id=thread_id)

    async def paced(self, chat_id: int) -> None:
        """Waits until one more call to this chat fits Telegram's limits, then counts it. The bot's replies to a
        person's taps and commands wait here too (`bot.py`): a person tapping fast gets their edits at the chat's
        pace, not a 429, and the delivery pass counts them."""
        while (wait := self.pace.wait(chat_id, self.monotonic())) > 0:
            await self.sleep(wait)
        self.pace.record(chat_id, self.monotonic())

    async def _paced(self, chat_id: int) -> None:
        await self.paced(chat_id)
        self._hold()  # a paced backlog takes a while: the claim is renewed before each call

    async def _post(self, pending: TelegramPending, *, thread_id: int | None) -> int:
        """Sends the message of `pending` once: the chat's unresolved message first found or given up, the pace
        waited and the claim renewed, this one marked as in flight only then (a mark older than a claim is a gone
        sender's), sent, then recorded (and its mark removed) in one commit."""
        chat_id, text = pending.chat_id, pending.text
        while True:
            found = await self._settle(pending)
            if found is not None:
                return found  # it had been sent before the crash: recorded now, not sent again
            await self._paced(chat_id)
            if self._mark_in_flight(pending):
                break  # else another sender marked the chat while this one waited for the pace
        try:
            message_id = await self.gateway.send(
                chat_id, text, thread_id=thread_id, buttons=keyboard_of(pending.buttons)
            )
        except Undeliverable:
            with session_scope(self.bind) as session:
                _drop_pending(session, chat_id, self.owner)
            raise
        # A DeliveryError leaves the mark: whether Telegram posted it is not known, the next sender looks.
        with session_scope(self.bind) as session:
            _record(session, pending, message_id, now=self.clock())
            _drop_pending(session, chat_id, self.owner)
        return message_id

    def _mark_in_flight(self, pending: TelegramPending) -> bool:
        """Marks `pending` as the chat's message in flight, right before it is sent; False when another sender
        marked the chat first."""
        with session_scope(self.bind) as session:
            mark = TelegramPending(
                **{
                    **pending.model_dump(),
                    "owner": self.owner,
                    "started_at": self.clock(),
                    "after_message_id": _newest_known(session, pending.chat_id),
                }
            )
            try:
                with session.begin_nested():
                    session.add(mark)
            except sa.exc.IntegrityError:
                return False
        return True

    async def _settle(self, pending: TelegramPending) -> int | None:
        """Returns once the chat has no message in flight. An earlier mark in the chat is resolved first when it is
        this same message or its sender is gone (older than a claim); a live sender's is waited for. Returns the
        message id when this very message turns out to be in the chat already."""
        deadline = self.monotonic() + self.lease.total_seconds()
        while True:
            with session_scope(self.bind) as session:
                earlier = session.get(TelegramPending, pending.chat_id)
                if earlier is None:
                    return None
                session.expunge(earlier)
            same = _key(earlier) == _key(pending)
            if same or earlier.owner == self.owner or earlier.started_at <= self.clock() - self.lease:
                found = await self._find_pending(earlier)
                if same and found is not None:
                    return found
                continue
            if self.monotonic() > deadline:
                raise DeliveryError("другой процесс бота отправляет в этот чат слишком долго")
            await self.sleep(0.2)

    async def _find_pending(self, pending: TelegramPending) -> int | None:
        """Looks for an unresolved message in its chat and records it when it is there; removes that mark either
        way (not found: its event sends it again). Only the ids after the newest known one are probed — when none is
        known (the first message ever sent there), the ids just before the chat's end, found by halving — and only
        a message of ours with exactly this text is taken: the probe reads a message back without changing it, so
        an old message of ours that this database does not know is passed over as it is."""
        if pending.after_message_id:
            after = pending.after_message_id
            found = await self._look_at(pending, range(after + 1, after + 1 + PROBE_IDS))
        else:  # the chat's first message of ours: where the chat ends now, found by halving
            found, end = await self._chat_end(pending)
            if found is None:  # posted, if at all, among the newest ids: people's chatter may follow it
                newest = end + PROBE_END_RUN - 1
                found = await self._look_at(pending, range(newest, max(0, newest - PROBE_IDS), -1))
        with session_scope(self.bind) as session:
            if found is not None:
                log.info("message in flight before a restart found in chat %s: %s", pending.chat_id, found)
                _record(session, pending, found, now=self.clock())
            session.exec(  # this mark only: a live sender may have marked the chat anew while the probe ran
                sa.delete(TelegramPending).where(
                    col(TelegramPending.chat_id) == pending.chat_id,
                    col(TelegramPending.owner) == pending.owner,
                    col(TelegramPending.started_at) == pending.started_at,
                )
            )
        return found

    async def _probe(self, pending: TelegramPending, message_id: int) -> str:
        """One paced probe of one id (two calls when the message is ours: the mark put on and taken off)."""
        await self._paced(pending.chat_id)
        answer = await self.gateway.probe(
            pending.chat_id, message_id, pending.text, buttons=keyboard_of(pending.buttons)
        )
        if answer in (OURS, CHANGED):
            await self._paced(pending.chat_id)  # the read-back's second call (the mark taken off)
        if answer == CHANGED:
            log.info("message %s in chat %s is ours with another text, not known here", message_id, pending.chat_id)
        return answer

    async def _look_at(self, pending: TelegramPending, ids: range) -> int | None:
        """The first of `ids` that is the pending message, if any."""
        for message_id in ids:
            if await self._probe(pending, message_id) == OURS:
                return message_id
        return None

    async def _chat_end(self, pending: TelegramPending) -> tuple[int | None, int]:
        """Where the chat ends as the probe sees it, by doubling then halving: (the pending message's id when a
        probe met it on the way, else None; an id the chat goes on at, no more than PROBE_END_RUN - 1 before its
        newest message)."""

        async def there(message_id: int) -> tuple[bool, int | None]:
            """Whether the chat goes on at `message_id` (a message there or within PROBE_END_RUN ids after it),
            and the pending message's id when a probe met it."""
            for step in range(PROBE_END_RUN):
                answer = await self._probe(pending, message_id + step)
                if answer == OURS:
                    return True, message_id + step
                if answer != NONE:
                    return True, None
            return False, None

        low, high = 0, 1  # the chat goes on at `low` (0: before its first message) and not at `high`
        while high < 2**31:
            on, found = await there(high)
            if found is not None:
                return found, found
            if not on:
                break
            low, high = high, high * 2
        while high - low > 1:
            middle = (low + high) // 2
            on, found = await there(middle)
            if found is not None:
                return found, found
            low, high = (middle, high) if on else (low, middle)
        return None, low

    async def _private_messages(self, snap: MatchSnapshot, last: dict[str, int]) -> None:
        """Only what is still true now: a proposal since booked sends no «waiting for you». `last`: kind → the
        newest event of that kind in this delivery, which the message is recorded under."""
        messages: list[tuple[int, SeatView, str, int | None, Keyboard]] = []  # event, seat, text, hint's match, buttons
        wanting = [s for s in snap.seats if s.private_messages and s.telegram_user_id is not None]
        proposal = snap.proposal
        asking: tuple[int, str] | None = None  # the event and the text that ask the proposal's answer
        if kinds.PROPOSED in last and proposal is not None:
            asking = last[kinds.PROPOSED], cards.proposal_waiting_text(snap)
        # Регламент §3: a day before its start, to those who still have not answered (not with its first message).
        elif kinds.PROPOSAL_SOON in last and proposal is not None and proposal.start > self.clock():
            asking = last[kinds.PROPOSAL_SOON], cards.proposal_soon_text(snap)
        if asking is not None and proposal is not None:
            unanswered = [s for s in wanting if s.player_id not in proposal.confirmed | proposal.declined]
            keyboards = self._keyboards(snap, proposal.id, unanswered)
            messages += [(asking[0], s, asking[1], None, keyboards[s.player_id]) for s in unanswered]
        booked = [last[k] for k in (kinds.BOOKED, kinds.MOVED) if k in last]
        if snap.bookings and booked:
            moved = kinds.MOVED in last and kinds.BOOKED not in last
            with session_scope(self.bind) as session:  # «Не смогу» (issue 44): its tokens stored before the send
                for s in wanting:
                    keyboard = booking_keyboard(session, snap, s, now=self.clock())
                    text = cards.booked_text(snap, moved=moved, ask=bool(keyboard))
                    messages.append((max(booked), s, text, None, keyboard))
        # Issue 44: a day before a booked meeting, the four are recalled of it with its «Не смогу» (not with the
        # meeting's own message, just sent).
        if kinds.MEETING_SOON in last and not booked:
            soon = [b for b in snap.bookings if self.clock() < b.start <= self.clock() + PROPOSAL_REMINDER_BEFORE]
            with session_scope(self.bind) as session:
                for s in wanting if soon else []:
                    keyboard = booking_keyboard(session, snap, s, now=self.clock())
                    text = cards.meeting_soon_text(snap, soon, ask=bool(keyboard))
                    messages.append((last[kinds.MEETING_SOON], s, text, None, keyboard))
        if kinds.RELEASED in last:
            messages += [(last[kinds.RELEASED], s, cards.released_text(snap), None, ()) for s in wanting]
        # The one who blocks is told privately, once per hint: another player's repaint that leaves the hint as it
        # was sends nothing again; a changed hint (other times) is sent once (the last one is kept in UnblockHint).
        changed = [last[k] for k in (kinds.ANSWERED, kinds.OPTIONS_LOST, kinds.OPTIONS_CHANGED) if k in last]
        if changed and snap.unblock:
            with session_scope(self.bind) as session:
                told = {
                    h.chat_id: h.text_hash
                    for h in session.exec(select(UnblockHint).where(UnblockHint.match_id == snap.match_id))
                }
            for s in wanting:
                hint = cards.unblock_private_text(snap, s.player_id)
                chat = s.telegram_user_id
                assert chat is not None  # `wanting` holds linked seats only
                if hint is not None and told.get(chat) != text_hash(hint):
                    with session_scope(self.bind) as session:  # «Добавить …» (issue 44): stored before the send
                        keyboard = hint_keyboard(session, snap, s, now=self.clock())
                    messages.append((max(changed), s, hint, snap.match_id, keyboard))
        if self.site_url and messages:  # every private message about the match: «Открыть на сайте» (issue 44)
            with session_scope(self.bind) as session:
                messages = [
                    (event_id, seat, text, hint_of, self._with_open(session, buttons, seat, snap.match_id))
                    for event_id, seat, text, hint_of, buttons in messages
                ]
        for event_id, seat, text, hint_of, buttons in messages:
            try:
                await self.send_once(event_id, saved(seat.telegram_user_id), text, hint_of=hint_of, buttons=buttons)
            except Undeliverable as error:
                log.info("private message to a player not delivered: %s", error)

    def _with_open(self, session: Session, buttons: Keyboard, seat: SeatView, match_id: int) -> Keyboard:
        return with_open(
            session, buttons, user_id=seat.user_id, match_id=match_id, now=self.clock(), site_url=self.site_url
        )

    def _keyboards(self, snap: MatchSnapshot, proposal_id: int, seats: list[SeatView]) -> dict[int, Keyboard]:
        """Per seat, «Подтверждаю» / «Не могу» for the proposal it is asked to answer (issue 44). Their tokens are
        stored before the message is sent, so a tap always finds them."""
        with session_scope(self.bind) as session:
            return {
                seat.player_id: proposal_keyboard(
                    session, snap, seat, proposal_id, now=self.clock(), kinds=(CONFIRM, DECLINE)
                )
                for seat in seats
            }

    async def _deliver_other(self, event: OutboxEvent) -> None:
        payload = json.loads(event.payload or "{}")
        event_id = saved(event.id)
        if event.kind == kinds.DRAW_APPROVED:
            windows = [(datetime.fromisoformat(s), datetime.fromisoformat(e)) for s, e in payload.get("windows", [])]
            text = cards.draw_approved_text(str(payload.get("season", "")), int(payload.get("matches", 0)), windows)
            await self._announce(event_id, text)
        elif event.kind == kinds.ANNOUNCEMENT:
            with session_scope(self.bind) as session:
                announcement = session.get(Announcement, payload.get("announcement_id") or 0)
            if announcement is not None:
                await self._announce(event_id, cards.announcement_text(announcement.text))
        elif event.kind == kinds.REMINDER:
            await self._remind(event_id, datetime.fromisoformat(payload["at"]), late=bool(payload.get("late")))
        elif event.kind == kinds.JUDGE_CALLED:
            await self._judge_called(event_id, payload)
        elif event.kind == kinds.JUDGE_CALL_UNANSWERED:
            await self._to_organizers(event_id, cards.judge_call_unanswered_text(payload))
        elif event.kind == kinds.FALLBACK_WARNED:
            await self._to_organizers(event_id, cards.fallback_warned_text(payload))
        else:
            log.warning("outbox event %s of kind %r has no match and no handler: skipped", event.id, event.kind)

    async def _announce(self, event_id: int, text: str) -> None:
        await self.send_once(event_id, self.target.chat_id, text, thread_id=self.target.announcements_thread_id)

    async def _judge_called(self, event_id: int, payload: dict[str, Any]) -> None:
        """Регламент §6.2: the judge's private message, when their Telegram is linked."""
        with session_scope(self.bind) as session:
            judge = session.get(User, payload.get("judge_user_id") or 0)
            chat_id = judge.telegram_user_id if judge else None
        if chat_id is not None:
            await self.send_once(event_id, chat_id, cards.judge_call_text(payload))

    async def _to_organizers(self, event_id: int, text: str) -> None:
        """A private message to each organizer with a linked Telegram: a judge call unanswered (Регламент §6.2
        «при невозможности связаться — к организатору»), a player's warning on the binding fallback (§5, §6.1)."""
        with session_scope(self.bind) as session:
            chats = session.exec(
                select(User.telegram_user_id)
                .where(User.role == Role.ORGANIZER, col(User.telegram_user_id).is_not(None))
                .order_by(col(User.id))
            ).all()
        for part, chat_id in enumerate(chats):
            if chat_id is not None:
                await self.send_once(event_id, chat_id, text, part=part)

    def queue_escalations(self) -> int:
        """Регламент §6.2: the calls unanswered for ten minutes written to the outbox, once each (a unique key)."""
        with session_scope(self.bind) as session:
            return len(escalate_unanswered(session, now=self.clock()))

    async def _remind(self, event_id: int, at: datetime, *, late: bool = False) -> None:
        """Регламент §3: the matches of the window current at the reminder time, as they stand now, if that window
        is still open; a reminder written or sent after its Sunday says it is late (`services/notifier/reminders`)."""
        now = self.clock()
        with session_scope(self.bind) as session:
            snaps = pending_matches(session, at=at, now=now)
        late_from = at if late or is_late(at, now) else None
        for part, text in enumerate(cards.reminder_texts(snaps, late_from=late_from)):
            await self.send_once(
                event_id, self.target.chat_id, text, part=part, thread_id=self.target.schedule_thread_id
            )

    def queue_proposal_reminders(self) -> int:
        """Регламент §3: the proposals due for their reminder a day before their start, written once each, and the
        booked meetings due for theirs (issue 44)."""
        with session_scope(self.bind) as session:
            now = self.clock()
            return len(queue_proposal_reminders(session, now=now)) + len(queue_meeting_reminders(session, now=now))

    def queue_stale_cards(self) -> int:
        """Issue 43 item 5: an event for each match whose card time alone has made stale (`freshness`), when a
        grid point passed or a hold ended since the last look (the first look checks every card); how many."""
        now = self.clock()
        with session_scope(self.bind) as session:
            if not time_moved(session, since=self._looked_at, now=now):
                return 0
            stale, left_out = stale_cards(session, now=now)
            for match_id in stale:
                kinds.emit(session, kinds.TIME_PASSED, match_id, now=now)
        if not left_out:  # a card whose delivery was under way is looked at again next time (`stale_cards`)
            self._looked_at = now
        return len(stale)

    def queue_reminder(self, reminder_time: time) -> bool:
        """Регламент §3: the due Sunday's reminder written to the outbox unless a process (the site, another bot,
        `discard reminders`) already did; delivered like any other event, retried until Telegram accepts it."""
        with session_scope(self.bind) as session:
            return queue_due_reminder(session, now=self.clock(), reminder_time=reminder_time) is not None

    def heartbeat(self, *, connected: bool, bot_username: str | None = None) -> None:
        with session_scope(self.bind) as session:
            bot_status.record_heartbeat(session, now=self.clock(), connected=connected, bot_username=bot_username)
