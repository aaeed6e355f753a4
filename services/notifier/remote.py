"""The player's remote (issue 44): the buttons of the private messages and what a tap does; imports no telegram.

Регламент §3: the four agree on a time through the bot as on the site. A button's callback carries only an opaque
random token (`TelegramButton`); the kind, the proposal and whose button it is stay on the server. A tap is honoured
only from the Telegram account linked to that person, goes through the page's own services and decision core
(`booking.answer_meeting`), once per button (`action_keys.perform_once`: a second tap is answered as the first),
and is decided by the state at the moment it is handled. Every refusal changes nothing and is answered in Russian.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, select

from services.core import action_keys
from services.core.db import session_scope
from services.core.errors import LeagueError
from services.core.models import Booking, MeetingProposal, ProposalConfirmation, Room, TelegramButton, User, saved
from services.core.urls import login_link_url
from services.league.login_links import LINK_TTL, create_login_link
from services.notifier import cards
from services.notifier.snapshot import MatchSnapshot, ProposalView, SeatView, match_snapshot, user_match_snapshots
from services.scheduling import availability, booking
from services.scheduling.intervals import Interval, to_kirov
from services.scheduling.rules import BINDING_KEPT
from services.views.todo import home_cards

CONFIRM, DECLINE = "confirm", "decline"  # a proposal's answers
CANNOT_FREE, CANNOT_KEEP = "cannot_free", "cannot_keep"  # «Не смогу» on a booking, with or without its time
OPEN = "open"  # «Открыть на сайте»: a one-time login link to the match's page, sent to the private chat
ADD = "add"  # the blocker's hint «Добавить это время»: the hinted span joins the person's own time
TOKEN_BYTES = 16  # 22 characters of a URL-safe token: Telegram's callback_data holds 64 bytes
KEY_PREFIX = "tg:"  # a tap's action key: the button's token and its message's id, apart from the pages' keys


@dataclass(frozen=True)
class Button:
    """One button: a tap sends `token` back (`url`: a link the phone opens instead)."""

    label: str
    token: str = ""
    url: str = ""


Keyboard = tuple[tuple[Button, ...], ...]


def keyboard_json(keyboard: Keyboard) -> str:
    return json.dumps([[vars(b) for b in row] for row in keyboard], ensure_ascii=False) if keyboard else ""


def keyboard_of(text: str) -> Keyboard:
    return tuple(tuple(Button(**b) for b in row) for row in json.loads(text)) if text else ()


def token_for(  # noqa: PLR0913
    session: Session, *, user_id: int, match_id: int, kind: str, subject_id: int, now: datetime, detail: str = ""
) -> str:
    """The person's button of this kind for this subject: made once, the same for every message that shows it."""
    found = session.exec(
        select(TelegramButton.token).where(
            TelegramButton.user_id == user_id,
            TelegramButton.kind == kind,
            TelegramButton.subject_id == subject_id,
            TelegramButton.detail == detail,
        )
    ).first()
    if found is not None:
        return found
    token = secrets.token_urlsafe(TOKEN_BYTES)
    try:
        with session.begin_nested():
            session.add(
                TelegramButton(
                    token=token,
                    user_id=user_id,
                    match_id=match_id,
                    kind=kind,
                    subject_id=subject_id,
                    detail=detail,
                    created_at=now,
                )
            )
    except sa.exc.IntegrityError:  # another process made it first
        return token_for(
            session, user_id=user_id, match_id=match_id, kind=kind, subject_id=subject_id, now=now, detail=detail
        )
    return token


def proposal_keyboard(
    session: Session, snap: MatchSnapshot, seat: SeatView, proposal_id: int, *, now: datetime, kinds: Sequence[str]
) -> Keyboard:
    labels = {CONFIRM: cards.BUTTON_CONFIRM, DECLINE: cards.BUTTON_DECLINE}
    row = tuple(
        Button(
            labels[kind],
            token_for(
                session, user_id=seat.user_id, match_id=snap.match_id, kind=kind, subject_id=proposal_id, now=now
            ),
        )
        for kind in kinds
    )
    return (row,) if row else ()


def booking_keyboard(session: Session, snap: MatchSnapshot, seat: SeatView, *, now: datetime) -> Keyboard:
    """«Не смогу» for each of the match's meetings not yet begun, as two buttons answering the page's question
    (also take the time out of my availability?); a split match's meetings are told apart by their date."""
    rows = []
    ahead = [b for b in snap.bookings if b.start > now]
    for meeting in ahead:
        day = f"{to_kirov(meeting.start):%d.%m}: " if len(ahead) > 1 else ""
        rows.append(
            tuple(
                Button(
                    day + label,
                    token_for(
                        session, user_id=seat.user_id, match_id=snap.match_id, kind=kind, subject_id=meeting.id, now=now
                    ),
                )
                for kind, label in ((CANNOT_FREE, cards.BUTTON_CANNOT_FREE), (CANNOT_KEEP, cards.BUTTON_CANNOT_KEEP))
            )
        )
    return tuple(rows)


def _span(detail: str) -> Interval:
    start, end = detail.split("/")
    return Interval(datetime.fromisoformat(start), datetime.fromisoformat(end))


def hint_keyboard(session: Session, snap: MatchSnapshot, seat: SeatView, *, now: datetime) -> Keyboard:
    """«Добавить …» for each time the person's own hint names (theirs alone: `snap.unblock` is per player)."""
    return tuple(
        (
            Button(
                cards.add_button(o.start, o.end),
                token_for(
                    session,
                    user_id=seat.user_id,
                    match_id=snap.match_id,
                    kind=ADD,
                    subject_id=snap.match_id,
                    now=now,
                    detail=f"{o.start.isoformat()}/{o.end.isoformat()}",
                ),
            ),
        )
        for o in snap.unblock.get(seat.player_id, ())
    )


def with_open(
    session: Session, keyboard: Keyboard, *, user_id: int, match_id: int, now: datetime, site_url: str | None
) -> Keyboard:
    """`keyboard` and, below it, «Открыть на сайте» (every private message about a match carries it; not without
    the site's public address, which the link needs)."""
    if not site_url:
        return keyboard
    token = token_for(session, user_id=user_id, match_id=match_id, kind=OPEN, subject_id=match_id, now=now)
    return (*keyboard, (Button(cards.BUTTON_OPEN, token),))


@dataclass(frozen=True)
class Pressed:
    """What a tap is answered with (`alert`: a refusal, shown until dismissed), the message's new text and buttons
    (None: the message is left as it is), and a new message to the person's chat (`reply`: its text and buttons)."""

    answer: str
    text: str | None = None
    keyboard: Keyboard = ()
    alert: bool = False
    reply: tuple[str, Keyboard] | None = None


def press(  # noqa: PLR0913
    bind: sa.Engine | None,
    token: str,
    *,
    telegram_user_id: int,
    now: datetime,
    message_id: int = 0,
    site_url: str | None = None,
) -> Pressed:
    """A tap on a button, as the page's answer would be: only by the linked account of the button's person. A
    second tap of the button on the same message (`message_id`) is answered as the first and does nothing; the
    same button on a later message (the hint sent again, another /matches) acts on the state then."""
    with session_scope(bind) as session:
        button = session.get(TelegramButton, token) if 0 < len(token) <= 2 * TOKEN_BYTES else None
        user = session.get(User, button.user_id) if button is not None else None
        if button is None or user is None:
            return Pressed(cards.TAP_UNKNOWN, alert=True)
        if user.telegram_user_id != telegram_user_id:  # a forwarded message tapped by another account
            return Pressed(cards.TAP_NOT_YOURS, alert=True)
        session.expunge(button)
        user_id = saved(user.id)
    if button.kind == OPEN:
        with session_scope(bind) as session:  # a session of its own: its first statement locks the person
            return _login_link(session, button, user_id, now=now, site_url=site_url)
    try:
        performed = action_keys.perform_once(
            f"{KEY_PREFIX}{token}:{message_id}",
            user_id=user_id,
            action=f"telegram.{button.kind}.{button.subject_id}",
            run=partial(_perform, button, user_id, now),
            bind=bind,
        )
        answer = performed.message
    except LeagueError as error:
        answer = " ".join(error.lines())
    with session_scope(bind) as session:
        text, keyboard = message(session, button, user_id, now=now)
        if text is not None:
            keyboard = with_open(
                session, keyboard, user_id=user_id, match_id=button.match_id, now=now, site_url=site_url
            )
    return Pressed(cards.tap_answer(answer), text, keyboard)


def _login_link(
    session: Session, button: TelegramButton, user_id: int, *, now: datetime, site_url: str | None
) -> Pressed:
    """«Открыть на сайте»: a one-time link for the person who tapped (checked: the button's own), sent to their
    private chat only; each opens once within `LINK_TTL`. While their earlier link to the match is live, a tap (a
    double tap, another message's button) makes no second code and says so."""
    if not site_url:
        return Pressed(cards.TAP_UNKNOWN, alert=True)
    link = create_login_link(session, user_id=user_id, match_id=button.match_id, now=now)  # first: it locks
    snap = match_snapshot(session, button.match_id, now=now)
    if snap is None:  # the match is gone (a button's match never is): the code is made, but sent nowhere
        return Pressed(cards.TAP_UNKNOWN, alert=True)
    if link.code is None:
        return Pressed(cards.link_still_live(link.expires_at))
    url = site_url.rstrip("/") + login_link_url(link.code)
    minutes = int(LINK_TTL.total_seconds() // 60)
    return Pressed(
        cards.TAP_LINK_SENT, reply=(cards.login_link_text(snap, minutes), ((Button(cards.BUTTON_OPEN, url=url),),))
    )


def _perform(button: TelegramButton, user_id: int, now: datetime, session: Session) -> tuple[Any, str]:
    if button.kind == ADD:  # Регламент §3: the player's own availability, saved as the page saves it
        span = _span(button.detail)
        availability.add_time(session, match_id=button.match_id, user_id=user_id, span=span, now=now)
        return None, cards.added_answer(span.start, span.end)
    if button.kind in (CANNOT_FREE, CANNOT_KEEP):  # Регламент §3, §6.1: the page's «Не смогу», its question answered
        free = button.kind == CANNOT_FREE
        kept = availability.cannot_come(
            session, booking_id=button.subject_id, user_id=user_id, now=now, take_time_out=free
        ).active  # Регламент §6.1: the binding fallback stays; the organizer was told
        return None, BINDING_KEPT if kept else cards.TAP_CANNOT_FREED if free else cards.TAP_CANNOT_KEPT
    confirmed = button.kind == CONFIRM
    proposal = booking.answer_meeting(
        session, proposal_id=button.subject_id, user_id=user_id, confirmed=confirmed, now=now
    ).proposal
    if proposal.status == "failed":  # recorded; what the player reads is why (the table is gone)
        return None, proposal.failure_reason or ""
    return None, cards.TAP_BOOKED if proposal.status == "booked" else (
        cards.TAP_CONFIRMED if confirmed else cards.TAP_DECLINED
    )


def message(session: Session, button: TelegramButton, user_id: int, *, now: datetime) -> tuple[str | None, Keyboard]:
    """The button's message as it reads now for its person, with the buttons that still apply."""
    snap = match_snapshot(session, button.match_id, now=now)
    seat = next((s for s in snap.seats if s.user_id == user_id), None) if snap else None
    if snap is None or seat is None:
        return None, ()
    if button.kind == ADD:  # the person's hint as it is now, or what was added once none is left
        text = cards.unblock_private_text(snap, seat.player_id)
        if text is None:
            span = _span(button.detail)
            return cards.added_text(snap, span.start, span.end), ()
        return text, hint_keyboard(session, snap, seat, now=now)
    if button.kind in (CANNOT_FREE, CANNOT_KEEP):
        meeting = session.get(Booking, button.subject_id)
        if meeting is None:
            return None, ()
        shown = next((b for b in snap.bookings if b.id == meeting.id), None)
        if shown is None:  # released (or played): the match as it stands now
            return cards.released_text(snap), ()
        text = cards.booking_outcome_text(snap, shown, now=now)
        return text, booking_keyboard(session, snap, seat, now=now)
    proposal = session.get(MeetingProposal, button.subject_id)
    if proposal is None:
        return None, ()
    if proposal.status == "booked":  # the message becomes the booked meeting's, with its «Не смогу»
        keyboard = booking_keyboard(session, snap, seat, now=now)
        return cards.booked_text(snap, ask=bool(keyboard)), keyboard
    answers = session.exec(
        select(ProposalConfirmation.player_id, ProposalConfirmation.confirmed).where(
            ProposalConfirmation.proposal_id == proposal.id
        )
    ).all()
    room = session.get(Room, proposal.room_id)
    view = ProposalView(
        id=saved(proposal.id),
        start=proposal.start_at,
        end=proposal.end_at,
        hanchans=proposal.hanchans,
        room=room.name if room else "",
        confirmed=frozenset(p for p, ok in answers if ok),
        declined=frozenset(p for p, ok in answers if not ok),
    )
    text = cards.proposal_outcome_text(
        snap, view, status=proposal.status, player_id=seat.player_id, now=now, reason=proposal.failure_reason
    )
    live = proposal.status == "open" and proposal.start_at > now
    kinds = () if not live else (DECLINE,) if seat.player_id in view.confirmed else (CONFIRM, DECLINE)
    return text, proposal_keyboard(session, snap, seat, saved(proposal.id), now=now, kinds=kinds)


def matches(
    bind: sa.Engine | None, telegram_user_id: int, *, now: datetime, site_url: str | None = None
) -> list[tuple[str, Keyboard]] | None:
    """/matches in the private chat: one message per current match of the linked person — its state and their next
    action as the home page words them — with the buttons that apply; the played ones in one list when nothing is
    current. None: the account is linked to nobody."""
    with session_scope(bind) as session:
        user, snaps = user_match_snapshots(session, telegram_user_id, now=now)
        if user is None:
            return None
        current = {c.match_id: c for c in home_cards(session, user, now) if not c.past}
        out = []
        for snap in snaps:
            card = current.get(snap.match_id)
            seat = next((s for s in snap.seats if s.user_id == user.id), None)
            if card is None:
                continue
            keyboard: Keyboard = ()
            if seat is not None:
                keyboard = _answer_keyboard(session, snap, seat, now=now) + booking_keyboard(
                    session, snap, seat, now=now
                )
                keyboard = with_open(
                    session, keyboard, user_id=seat.user_id, match_id=snap.match_id, now=now, site_url=site_url
                )
            out.append((cards.match_now_text(snap, action=card.action, when=card.when), keyboard))
        return out or [(cards.matches_text(snaps), ())]


def _answer_keyboard(session: Session, snap: MatchSnapshot, seat: SeatView, *, now: datetime) -> Keyboard:
    """The live proposal's buttons that still apply to the person: both before they answered, «Не могу» after
    they confirmed, none once they declined or it began."""
    proposal = snap.proposal
    if proposal is None or proposal.start <= now or seat.player_id in proposal.declined:
        return ()
    kinds = (DECLINE,) if seat.player_id in proposal.confirmed else (CONFIRM, DECLINE)
    return proposal_keyboard(session, snap, seat, proposal.id, now=now, kinds=kinds)
