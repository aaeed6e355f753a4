"""Linking Telegram by a one-time code, private messages, announcements queued for the bot."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from sqlmodel import Session, select

from services.core.models import OutboxEvent, Season, User
from services.core.text_limits import limit_for
from services.league.accounts import AccountError
from services.league.announcements import list_announcements, publish_announcement
from services.notifier.cards import MAX_MESSAGE, announcement_text
from services.notifier.linking import (
    CODE_TTL,
    create_link_code,
    deep_link,
    redeem_link_code,
    set_private_messages,
    unlink,
)
from tests.factories import PLAYED

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def _user(session: Session, name: str) -> User:
    user = User(login_name=name, display_name=name.title(), password_hash="x")
    session.add(user)
    session.commit()
    return user


def test_a_code_links_once_and_a_new_code_replaces_the_old(session: Session) -> None:
    anna, boris = _user(session, "anna"), _user(session, "boris")
    old = create_link_code(session, anna.id, now=NOW).code
    code = create_link_code(session, anna.id, now=NOW).code
    assert old != code and deep_link("@discard_bot", code) == f"https://t.me/discard_bot?start={code}"
    assert redeem_link_code(session, old, telegram_user_id=1, telegram_username=None, now=NOW) is None

    linked = redeem_link_code(session, code.lower(), telegram_user_id=42, telegram_username="anna_i", now=NOW)
    assert linked.id == anna.id and (anna.telegram_user_id, anna.telegram_username) == (42, "anna_i")
    assert redeem_link_code(session, code, telegram_user_id=43, telegram_username=None, now=NOW) is None

    # The same Telegram account linked to another player moves there.
    other = create_link_code(session, boris.id, now=NOW).code
    redeem_link_code(session, other, telegram_user_id=42, telegram_username="anna_i", now=NOW)
    assert anna.telegram_user_id is None and boris.telegram_user_id == 42


def test_an_expired_code_is_refused_and_used_up(session: Session) -> None:
    anna = _user(session, "anna")
    code = create_link_code(session, anna.id, now=NOW).code
    assert redeem_link_code(session, code, telegram_user_id=5, telegram_username=None, now=NOW + CODE_TTL) is None
    assert anna.telegram_user_id is None


def test_private_messages_need_a_linked_account(session: Session) -> None:
    anna = _user(session, "anna")
    assert set_private_messages(session, anna, True) is False
    redeem_link_code(
        session, create_link_code(session, anna.id, now=NOW).code, telegram_user_id=9, telegram_username=None, now=NOW
    )
    assert set_private_messages(session, anna, True) is True
    unlink(session, anna)
    assert (anna.telegram_user_id, anna.telegram_private_messages) == (None, False)


def test_an_announcement_is_kept_and_queued_in_one_transaction(session: Session) -> None:
    season = Season(name="Лига 2026")
    organizer = _user(session, "bogdan")
    session.add(season)
    session.commit()
    with pytest.raises(AccountError):
        publish_announcement(session, season, "   ", author_user_id=organizer.id, now=PLAYED)
    with pytest.raises(AccountError):
        publish_announcement(session, season, "я" * 3501, author_user_id=organizer.id, now=PLAYED)
    assert session.exec(select(OutboxEvent)).all() == []

    first = publish_announcement(session, season, "Тур 1 начинается", author_user_id=organizer.id, now=PLAYED)
    publish_announcement(session, season, "Итоги тура 1", author_user_id=organizer.id, now=PLAYED)
    session.commit()
    events = session.exec(select(OutboxEvent).order_by(OutboxEvent.id)).all()
    assert [e.kind for e in events] == ["announcement", "announcement"]
    assert json.loads(events[0].payload) == {"announcement_id": first.id}
    assert [a.text for a in list_announcements(session, season.id)] == ["Итоги тура 1", "Тур 1 начинается"]


def test_an_announcement_as_long_as_its_form_field_allows_is_published_whole(session: Session) -> None:
    """The form stops at `limit_for("text")` and says so: exactly that many characters are taken, one more is not,
    and the Telegram card carries the whole text within one message."""
    season = Season(name="Лига 2026")
    organizer = _user(session, "bogdan")
    session.add(season)
    session.commit()
    longest = "я" * limit_for("text")
    with pytest.raises(AccountError):
        publish_announcement(session, season, longest + "я", author_user_id=organizer.id, now=PLAYED)
    kept = publish_announcement(session, season, longest, author_user_id=organizer.id, now=PLAYED)
    session.commit()
    assert kept.text == longest
    card = announcement_text(kept.text)
    assert longest in card and len(card) <= MAX_MESSAGE
