"""The regulation on the site (Регламент §7): an amendment is in force from its announcement, announced on the site
and through the bot's outbox in the same transaction."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import Session, select

from services.core.models import Announcement, OutboxEvent
from services.league.regulation import RegulationError, in_force, publish, versions
from tests.db.test_results import League

T0 = datetime(2026, 10, 2, 9, 0, tzinfo=UTC)


def test_an_amendment_is_in_force_from_its_announcement(session: Session, league: League) -> None:
    org = league.organizer.id
    first = publish(session, "1. Общие положения\nМатч — три ханчана.", reason="", now=T0, author_user_id=org)
    assert first.reason == "исходная редакция"
    assert session.exec(select(Announcement)).all() == []  # the first text is not an amendment
    at = T0 + timedelta(days=30)
    amended = publish(
        session, "1. Общие положения\nМатч — четыре ханчана.", reason="четыре ханчана в матче", now=at,
        author_user_id=org,
    )  # fmt: skip
    session.commit()
    assert in_force(session, T0 - timedelta(seconds=1)) is None
    assert in_force(session, at - timedelta(seconds=1)).id == first.id
    assert in_force(session, at).id == amended.id
    assert [v.id for v in versions(session)] == [first.id, amended.id]
    announcement = session.exec(select(Announcement)).one()
    assert "Изменение регламента от 01.11.2026 12:00" in announcement.text
    assert "четыре ханчана в матче" in announcement.text
    event = session.exec(select(OutboxEvent).where(OutboxEvent.kind == "announcement")).one()
    assert json.loads(event.payload) == {"announcement_id": announcement.id}


def test_an_amendment_needs_a_reason_and_a_change(session: Session, league: League) -> None:
    org = league.organizer.id
    publish(session, "Текст", reason="", now=T0, author_user_id=org)
    with pytest.raises(RegulationError, match="без причины"):
        publish(session, "Новый текст", reason=" ", now=T0 + timedelta(days=1), author_user_id=org)
    with pytest.raises(RegulationError, match="не изменился"):
        publish(session, "Текст\n", reason="опечатка", now=T0 + timedelta(days=1), author_user_id=org)
    with pytest.raises(RegulationError, match="пуст"):
        publish(session, "  ", reason="опечатка", now=T0 + timedelta(days=1), author_user_id=org)
    assert len(versions(session)) == 1
