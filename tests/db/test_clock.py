"""What a service stores comes from the `now` its caller passes, not from the real clock; seating a substitute
writes its outbox event, and the bot's card and the open pages follow it. On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import uuid
from datetime import timedelta

import pytest
import sqlalchemy as sa
from sqlmodel import Session, col, select

from services.core import outbox
from services.core.changes import match_stamp, player_stamp
from services.core.models import (
    Announcement,
    AuditRecord,
    Hanchan,
    JudgeAssignment,
    JudgeRuling,
    OutboxEvent,
    Penalty,
    Player,
    Role,
    TelegramSend,
    TieDecision,
    User,
)
from services.league.announcements import publish_announcement
from services.league.substitution import seat_substitute
from services.league.withdrawal import withdraw_player
from services.notifier.outbox import Notifier, Target
from services.notifier.remote import Keyboard
from services.notifier.snapshot import match_snapshot
from services.playoff.hanchan_entry import enter_hanchan
from services.results.entry import Entry
from services.results.hanchans import (
    REPEAT_WINDOW,
    RepeatedResult,
    correct_hanchan,
    dispute_hanchan,
    resolve_dispute,
)
from services.results.judge_calls import answer_call, assign_judge, call_judge, close_call
from services.results.penalties import add_conduct_penalty, add_no_show, add_ruling, decide_tie
from services.results.scoring import TableResult
from services.scheduling import organizer as scheduling_admin
from tests import factories as f
from tests.factories import NOW, PLAYED, kirov

# 18.11.2026 15:07:13 Kirov: inside tour 1's window, and weeks away from the real clock of any test run.
FAR = PLAYED + timedelta(minutes=7, seconds=13)
MINUTE = timedelta(minutes=1)


def _entry(league: f.League, points: tuple[int, ...] = (40000, 30000, 30000, 20000)) -> Entry:
    return Entry(tuple(TableResult(p.id, x) for p, x in zip(league.players, points, strict=False)), 0)


def _newest(session: Session, model: type) -> int:
    """The table's newest id: PostgreSQL's database is shared by the run's tests, so each reads only its own rows."""
    return session.exec(select(sa.func.max(model.id))).one() or 0


def _audit(session: Session, since: int) -> dict[str, list]:
    rows: dict[str, list] = {}
    for row in session.exec(select(AuditRecord).where(AuditRecord.id > since).order_by(col(AuditRecord.id))).all():
        rows.setdefault(row.action, []).append(row.at)
    return rows


def test_a_hanchan_entered_disputed_resolved_and_corrected_keeps_the_callers_instants(db: sa.Engine) -> None:
    with Session(db, expire_on_commit=False) as session:
        league = f.league(session)
        f.begun_meeting(session, league.match.id, f.MET)
        since = _newest(session, AuditRecord)
        first = enter_hanchan(session, league.users[0], league.match.id, _entry(league), now=FAR)
        dispute_hanchan(session, league.users[1], first.id, "очки не те", now=FAR + MINUTE)
        resolve_dispute(session, league.organizer, first.id, "очки верны", now=FAR + 2 * MINUTE)
        fixed = correct_hanchan(session, league.organizer, first.id, _entry(league, (30000, 40000, 30000, 20000)),
                                reason="опечатка", decision="исправить", now=FAR + 3 * MINUTE)  # fmt: skip
        session.commit()
    with Session(db) as session:
        assert session.get(Hanchan, first.id).entered_at == FAR
        assert session.get(Hanchan, fixed.id).entered_at == FAR + 3 * MINUTE
        audit = _audit(session, since)
        assert audit["hanchan.enter"] == [FAR]
        assert audit["hanchan.dispute"] == [FAR + MINUTE]
        assert audit["hanchan.dispute_resolved"] == [FAR + 2 * MINUTE]
        assert audit["hanchan.correct"] == [FAR + 3 * MINUTE]


def test_the_double_submit_check_compares_with_the_passed_now(db: sa.Engine) -> None:
    with Session(db, expire_on_commit=False) as session:
        league = f.league(session)
        f.begun_meeting(session, league.match.id, f.MET)
        player, mid = league.users[0], league.match.id
        enter_hanchan(session, player, mid, _entry(league), now=FAR, repeat_ok=False)
        with pytest.raises(RepeatedResult):
            enter_hanchan(session, player, mid, _entry(league), now=FAR + timedelta(seconds=30), repeat_ok=False)
        # A minute later by the caller's clock the same scores are a real hanchan, whatever the real clock says.
        second = enter_hanchan(
            session, player, mid, _entry(league), now=FAR + REPEAT_WINDOW + timedelta(seconds=1), repeat_ok=False
        )
        session.commit()
        assert second.number == 2


def test_a_withdrawal_and_its_replay_keep_the_callers_instant(db: sa.Engine) -> None:
    with Session(db, expire_on_commit=False) as session:
        league = f.league(session)
        f.begun_meeting(session, league.match.id, f.MET)
        since = _newest(session, AuditRecord)
        enter_hanchan(session, league.organizer, league.match.id, _entry(league), now=FAR)
        withdraw_player(session, league.players[0], reason="переезд", actor_user_id=league.organizer.id,
                        replay_match_ids=[league.match.id], participants_agreed=True, now=FAR + MINUTE)  # fmt: skip
        session.commit()
    with Session(db) as session:
        audit = _audit(session, since)
        assert audit["player.status"] == [FAR + MINUTE]
        assert audit["match.replay"] == [FAR + MINUTE, FAR + MINUTE]


def test_penalties_rulings_and_tie_decisions_are_decided_at_the_callers_now(db: sa.Engine) -> None:
    with Session(db, expire_on_commit=False) as session:
        league = f.league(session)
        since = _newest(session, AuditRecord)
        a, b, c, d = (p.id for p in league.players)
        mid = league.match.id
        # hanchan 1 at a first meeting; d does not come to the second (Регламент §5: a no-show is for that meeting)
        f.begun_meeting(session, mid, FAR - timedelta(hours=3), hanchans=1)
        f.begun_meeting(session, mid, FAR - timedelta(hours=1), hanchans=2)
        enter_hanchan(session, league.organizer, mid, _entry(league, (35000, 35000, 25000, 25000)), now=FAR)
        no_show = add_no_show(session, league.organizer, mid, d, now=FAR + MINUTE)
        conduct = add_conduct_penalty(session, league.organizer, mid, c, amount=0, violation="шум", basis="RRC 2.0",
                                      now=FAR + 2 * MINUTE)  # fmt: skip
        ruling = add_ruling(session, league.organizer, mid, hanchan_number=1, actions="сброс", disagreement="чомбо?",
                            decision="не чомбо", now=FAR + 3 * MINUTE)  # fmt: skip
        tie = decide_tie(session, league.organizer, league.season.id, [b, a], "жребий", now=FAR + 4 * MINUTE)
        session.commit()
    with Session(db) as session:
        assert session.get(Penalty, no_show.id).decided_at == FAR + MINUTE
        assert session.get(Penalty, conduct.id).decided_at == FAR + 2 * MINUTE
        assert session.get(JudgeRuling, ruling.id).at == FAR + 3 * MINUTE
        assert session.get(TieDecision, tie.id).decided_at == FAR + 4 * MINUTE
        audit = _audit(session, since)
        assert audit["penalty.add"] == [FAR + MINUTE, FAR + 2 * MINUTE]
        assert audit["ruling.add"] == [FAR + 3 * MINUTE]
        assert audit["tie.decide"] == [FAR + 4 * MINUTE]


def test_a_judge_assignment_call_answer_and_ruling_keep_the_callers_instants(db: sa.Engine) -> None:
    during = kirov(20, 19)  # the meeting is 20.11 18:00–22:30
    with Session(db, expire_on_commit=False) as session:
        league = f.league(session)
        since = _newest(session, AuditRecord)
        judge = f.user(session, name="Судья", role=Role.JUDGE)
        since_event = _newest(session, OutboxEvent)
        scheduling_admin.assign_meeting(session, match_id=league.match.id, start=kirov(20, 18), hanchans=3,
                                        room_id=league.room.id, actor_user_id=league.organizer.id, now=NOW)  # fmt: skip
        assignment = assign_judge(session, league.organizer, judge_user_id=judge.id, match_id=league.match.id, now=FAR)
        call = call_judge(session, league.users[0], league.match.id, hanchan_number=1, description="спор",
                          now=during)  # fmt: skip
        answer_call(session, judge, call.id, now=during + MINUTE)
        ruling = close_call(session, judge, call.id, actions="сброс", disagreement="фуритен", decision="не фуритен",
                            now=during + 5 * MINUTE)  # fmt: skip
        session.commit()
    with Session(db) as session:
        assert session.get(JudgeAssignment, assignment.id).assigned_at == FAR
        assert session.get(JudgeRuling, ruling.id).at == during + 5 * MINUTE
        audit = _audit(session, since)
        assert audit["judge.assign"] == [FAR]
        assert (audit["judge.call"], audit["judge.answer"]) == ([during], [during + MINUTE])
        assert audit["ruling.add"] == audit["judge.close"] == [during + 5 * MINUTE]
        events = session.exec(
            select(OutboxEvent).where(OutboxEvent.kind == outbox.JUDGE_CALLED, OutboxEvent.id > since_event)
        ).all()
        assert [e.created_at for e in events] == [during]


FIRST_MESSAGE = 100


def _chat() -> int:
    """A chat of the test's own: on PostgreSQL other tests' cards stay in the shared database."""
    return -100_000 - uuid.uuid4().int % 1_000_000


class FakeGateway:
    """Records what the notifier sends or edits; Telegram's message ids count from 100."""

    def __init__(self) -> None:
        self.sent: list[tuple[int, str]] = []
        self.edited: list[tuple[int, int, str]] = []

    async def send(self, chat_id: int, text: str, *, thread_id: int | None = None, buttons: Keyboard = ()) -> int:
        self.sent.append((chat_id, text))
        return FIRST_MESSAGE - 1 + len(self.sent)

    async def edit(self, chat_id: int, message_id: int, text: str, *, buttons: Keyboard = ()) -> None:
        self.edited.append((chat_id, message_id, text))


def test_seating_a_substitute_writes_one_event_the_card_and_the_pages_follow(db: sa.Engine) -> None:
    with Session(db, expire_on_commit=False) as session:
        league = f.league(session)
        since = _newest(session, AuditRecord)
        replaced = league.players[3]
        replaced_user = league.users[3]
        before = (match_stamp(session, league.match.id), player_stamp(session, replaced_user.id))
        snap = match_snapshot(session, league.match.id, now=FAR)
    gateway, chat = FakeGateway(), _chat()
    notifier = Notifier(gateway, Target(chat_id=chat), bind=db, clock=lambda: FAR)
    asyncio.run(notifier.update_card(snap, None))  # the card as Telegram shows it before the substitution
    [(_, old_card)] = gateway.sent
    assert replaced_user.display_name in old_card
    with Session(db, expire_on_commit=False) as session:
        seat = seat_substitute(session, league.organizer, league.match.id, replaced.id, new_name="Запасной Игрок",
                               reason="заболел", now=FAR)  # fmt: skip
        session.commit()
    with Session(db) as session:
        events = session.exec(select(OutboxEvent).where(OutboxEvent.match_id == league.match.id)).all()
        assert [e.kind for e in events] == [outbox.SUBSTITUTE_SEATED]
        assert events[0].created_at == FAR
        payload = json.loads(events[0].payload)
        assert payload == {
            "replaced": replaced_user.display_name,
            "replaced_player_id": replaced.id,
            "substitute": "Запасной Игрок",
            "substitute_player_id": seat.player_id,
        }
        substitute_user = session.get(User, session.get(Player, seat.player_id).user_id)
        assert substitute_user.created_at == FAR
        audit = _audit(session, since)
        assert audit["seat.substitute"] == [FAR] and audit["player.register"] == [FAR]
        # The match's pages, and the replaced player's home page, see the change within a poll.
        after = (match_stamp(session, league.match.id), player_stamp(session, replaced_user.id))
        assert after[0] != before[0] and after[1] != before[1]

    asyncio.run(notifier.deliver_pending())
    [card] = [text for to, message_id, text in gateway.edited if (to, message_id) == (chat, FIRST_MESSAGE)]
    assert "Запасной Игрок" in card and replaced_user.display_name not in card
    with Session(db) as session:
        assert session.get(OutboxEvent, events[0].id).delivered_at == FAR


def test_an_announcement_and_its_telegram_message_keep_the_callers_instants(db: sa.Engine) -> None:
    with Session(db, expire_on_commit=False) as session:
        league = f.league(session)
        since = _newest(session, AuditRecord)
        since_event = _newest(session, OutboxEvent)
        announcement = publish_announcement(
            session, league.season, "Тур 2 начинается", author_user_id=league.organizer.id, now=FAR
        )
        session.commit()
    notifier = Notifier(FakeGateway(), Target(chat_id=_chat()), bind=db, clock=lambda: FAR + MINUTE)
    asyncio.run(notifier.deliver_pending())
    with Session(db) as session:
        assert session.get(Announcement, announcement.id).created_at == FAR
        [event] = session.exec(
            select(OutboxEvent).where(OutboxEvent.kind == outbox.ANNOUNCEMENT, OutboxEvent.id > since_event)
        ).all()
        assert event.created_at == FAR
        assert _audit(session, since)["announcement.publish"] == [FAR]
        [send] = session.exec(select(TelegramSend).where(TelegramSend.event_id == event.id)).all()
        assert send.sent_at == FAR + MINUTE
