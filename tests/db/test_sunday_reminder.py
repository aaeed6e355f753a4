"""Регламент §3: the Sunday reminder written by whichever process first sees its moment pass (`queue_due_reminder`),
once per Sunday, late after Sunday's day, never about windows already closed; and `discard reminders` for a timer.
On SQLite and PostgreSQL (the races: tests/db/test_races.py)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid
from datetime import date, datetime, time, timedelta

import pytest
import sqlalchemy as sa
from sqlmodel import Session, select

from services.core import db as core_db
from services.core.models import MatchStatus, OutboxEvent
from services.notifier.reminders import queue_due_reminder, reminder_key
from services.scheduling.intervals import KIROV, at_kirov
from tests import factories as f
from tests.db.statements import statements

AT_19 = time(19, 0, tzinfo=KIROV)
FIRST_MONDAY = date(2040, 1, 2)


def sunday_league(session: Session) -> tuple[f.League, date]:
    """A fresh league whose two-week window (Monday to Monday, Kirov) no other test's Sundays fall in (the PostgreSQL
    database is shared by the run); returns it and the window's first Sunday."""
    monday = FIRST_MONDAY + timedelta(weeks=uuid.uuid4().int % 50_000)
    league = f.league(session, windows=[f.window(monday)])
    return league, monday + timedelta(days=6)


def at(day: date, hour: int, minute: int = 0, *, days: int = 0) -> datetime:
    return at_kirov(day + timedelta(days=days), hour, minute)


def reminders(session: Session, sunday: date) -> list[OutboxEvent]:
    session.expire_all()
    key = reminder_key(at(sunday, 19))
    return list(session.exec(select(OutboxEvent).where(OutboxEvent.once_key == key)).all())


def queue(session: Session, now: datetime) -> OutboxEvent | None:
    """As a process does it: its own `now`, then its commit."""
    event = queue_due_reminder(session, now=now, reminder_time=AT_19)
    session.commit()
    return event


def test_the_reminder_is_written_once_when_sunday_evening_passes(db: sa.Engine) -> None:
    with Session(db, expire_on_commit=False) as session:
        _, sunday = sunday_league(session)
        assert queue(session, at(sunday, 18, 59)) is None  # not yet: last Sunday's was before the window
        event = queue(session, at(sunday, 19))
        assert event is not None and event.match_id is None and event.kind == "sunday_reminder"
        assert json.loads(event.payload) == {"at": at(sunday, 19).isoformat(), "late": False}
        assert queue(session, at(sunday, 23, 30)) is None
        assert queue(session, at(sunday, 10, days=1)) is None  # Monday: already written on time
        assert len(reminders(session, sunday)) == 1
        # The next Sunday is a reminder of its own.
        assert queue(session, at(sunday, 19, 5, days=7)) is not None


def test_first_written_on_monday_it_is_marked_late(db: sa.Engine) -> None:
    with Session(db, expire_on_commit=False) as session:
        _, sunday = sunday_league(session)
        event = queue(session, at(sunday, 0, 0, days=1))  # Monday 00:00: Sunday's day is over
        assert json.loads(event.payload) == {"at": at(sunday, 19).isoformat(), "late": True}
        assert queue(session, at(sunday, 9, days=2)) is None
        assert len(reminders(session, sunday)) == 1


def test_nothing_is_written_once_the_windows_it_is_about_have_closed(db: sa.Engine) -> None:
    with Session(db, expire_on_commit=False) as session:
        _, first_sunday = sunday_league(session)
        last_sunday = first_sunday + timedelta(days=7)  # the window closes the next midnight
        assert queue(session, at(last_sunday, 10, days=1)) is None  # Monday after: the window is over
        assert reminders(session, last_sunday) == []
        # The same Sunday seen on time would have had its reminder: only the closed window stopped it.
        assert queue(session, at(last_sunday, 20)) is not None


def test_nothing_is_written_when_no_match_in_the_window_needs_scheduling(db: sa.Engine) -> None:
    with Session(db, expire_on_commit=False) as session:
        league, sunday = sunday_league(session)
        league.match.status = MatchStatus.COMPLETE
        session.add(league.match)
        session.commit()
        assert queue(session, at(sunday, 19, 30)) is None
        assert reminders(session, sunday) == []


def test_a_sunday_with_nothing_pending_reads_no_board(db: sa.Engine) -> None:
    """Issue 43 item 7: the check runs every minute in every process; a Sunday whose window has no match still being
    scheduled reads no board (not the later tours' matches, as it did), and one that has reads only that window's."""
    with Session(db, expire_on_commit=False) as session:
        monday = FIRST_MONDAY + timedelta(weeks=uuid.uuid4().int % 50_000)
        league = f.league(session, players=8, windows=[f.window(monday), f.window(monday + timedelta(days=14))])
        league.match.status = MatchStatus.COMPLETE
        f.match(session, league.rounds[1], league.players[4:])  # the next tour: still to schedule, not this Sunday's
        session.commit()
        sunday = monday + timedelta(days=6)
        with statements(db) as seen:
            assert queue(session, at(sunday, 19, 30)) is None
        assert not any("availabilityinterval" in s.lower() for s in seen), seen
        assert len(seen) <= 4, seen  # the key looked up, the window's matches found: none


def test_discard_reminders_writes_it_when_due_and_not_before(
    sqlite_url: str, session: Session, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    from services.commands import reminders as command
    from services.commands.cli import main

    _, sunday = sunday_league(session)
    clock = iter([at(sunday, 18, 30), at(sunday, 19, 10), at(sunday, 19, 20), at(sunday, 8, days=1)])
    monkeypatch.setattr(command, "utc_now", lambda: next(clock))

    def run() -> int:
        return main(["reminders"], database_url=sqlite_url)

    assert run() == 0  # Sunday 18:30: not due
    assert capsys.readouterr().out.strip() == command.NOT_DUE
    assert reminders(session, sunday) == []
    assert run() == 0  # 19:10: the timer's run writes it
    assert capsys.readouterr().out.strip() == f"Напоминание с воскресенья {sunday:%d.%m.%Y} поставлено в очередь бота."
    assert run() == 0 and run() == 0  # later runs, Monday included: nothing more
    assert capsys.readouterr().out.split("\n")[:2] == [command.NOT_DUE] * 2
    (event,) = reminders(session, sunday)
    assert event.delivered_at is None  # waits for the bot


@pytest.mark.asyncio
async def test_the_sites_lifespan_task_writes_it_with_the_bot_down(
    sqlite_url: str, session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The site's loop, as Reflex runs it for the app's lifetime: one check a minute (here: at once, then stopped)."""
    from discard_app import sunday_reminder as site

    core_db.use_database(sqlite_url)  # what the site does at start (discard_app.py)
    _, sunday = sunday_league(session)
    monkeypatch.setattr(site, "utc_now", lambda: at(sunday, 19))
    loop = asyncio.create_task(site.sunday_reminder_loop())
    for _ in range(100):
        await asyncio.sleep(0.05)
        if reminders(session, sunday):
            break
    loop.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await loop
    (event,) = reminders(session, sunday)
    assert json.loads(event.payload)["late"] is False


@pytest.mark.asyncio
async def test_the_sites_lifespan_task_deletes_expired_login_sessions(
    sqlite_url: str, session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 24: `purge_expired_sessions` runs on a schedule (the site's lifespan, once a day, at start first)."""
    from discard_app import discard_app as site_app
    from discard_app import session_purge as site
    from services.core.models import AuthSession, User

    assert any("session_purge_loop" in repr(t) for t in site_app.app._lifespan_tasks)  # the app runs it
    core_db.use_database(sqlite_url)  # what the site does at start (discard_app.py)
    user = User(login_name="purge", display_name="Сессия", password_hash="-")
    session.add(user)
    session.flush()
    now = at(date(2026, 12, 13), 19)
    for digest, expires in (("old", now - timedelta(days=1)), ("live", now + timedelta(days=1))):
        session.add(AuthSession(token_hash=digest, user_id=user.id, created_at=now, expires_at=expires))
    session.commit()
    monkeypatch.setattr(site, "utc_now", lambda: now)
    loop = asyncio.create_task(site.session_purge_loop())
    for _ in range(100):
        await asyncio.sleep(0.05)
        session.expire_all()
        if len(session.exec(select(AuthSession)).all()) == 1:
            break
    loop.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await loop
    assert [s.token_hash for s in session.exec(select(AuthSession)).all()] == ["live"]
