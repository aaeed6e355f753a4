"""Calling the judge to the table (Регламент §6.2) and assigning judges (§6.3); imports no reflex.

A seated player calls during a booked meeting: the call names the match, the hanchan and what happened. It goes to
the judge assigned to the match, else to its day, else to its round, else to the league's judge; unanswered for ten
minutes it reaches the organizer too. The call, its answer and the ruling that closes it are in the match protocol.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlmodel import Session, col, select

from services.core import outbox
from services.core.audit import record_audit
from services.core.models import (
    Booking,
    JudgeAssignment,
    JudgeCall,
    JudgeRuling,
    Match,
    OutboxEvent,
    Role,
    Round,
    Stage,
    User,
    saved,
)
from services.core.text_limits import limit_for
from services.results.entry import ResultsError
from services.results.hanchans import get_match, require_organizer
from services.results.penalties import add_ruling
from services.results.repo import current_season_id, user_player_in_match
from services.scheduling.intervals import kirov_date
from services.scheduling.repo import match_info

# Регламент §6.2: «при невозможности связаться — к организатору»: unanswered this long, the organizer sees the call
# too (on the desk, and one private message through the bot: `escalate_unanswered`).
ESCALATE_AFTER = timedelta(minutes=10)
EARLY = timedelta(minutes=30)  # Регламент §5: a meeting may start up to 30 minutes late, or a little early
DESCRIPTION_LIMIT = limit_for("description")


def _season_of(session: Session, match: Match) -> int:
    round_ = session.get_one(Round, match.round_id)
    return session.get_one(Stage, round_.stage_id).season_id


def assign_judge(
    session: Session,
    user: User,
    *,
    judge_user_id: int,
    match_id: int | None = None,
    round_id: int | None = None,
    day: str | None = None,
    now: datetime,
) -> JudgeAssignment:
    """Регламент §6.3: the organizer assigns a judge to exactly one of a match, a day (YYYY-MM-DD, Kirov) or a round."""
    require_organizer(user)
    judge = session.get(User, judge_user_id) if judge_user_id else None
    if judge is None or judge.role not in (Role.JUDGE, Role.ORGANIZER):
        raise ResultsError("Выберите судью.")
    if sum(x is not None and x != "" for x in (match_id, round_id, day)) != 1:
        raise ResultsError("Выберите одно: матч, день или тур.")
    if match_id:
        season_id = _season_of(session, get_match(session, match_id))
    elif round_id:
        round_ = session.get(Round, round_id)
        if round_ is None:
            raise ResultsError("Выберите тур.")
        season_id = session.get_one(Stage, round_.stage_id).season_id
    else:
        try:
            datetime.strptime(day or "", "%Y-%m-%d")
        except ValueError:
            raise ResultsError("День указывается как ГГГГ-ММ-ДД.") from None
        current = current_season_id(session)
        if current is None:
            raise ResultsError("Сезон ещё не создан.")
        season_id = current
    row = JudgeAssignment(
        season_id=season_id,
        judge_user_id=saved(judge.id),
        match_id=match_id or None,
        round_id=round_id or None,
        day=day or None,
        assigned_by_user_id=saved(user.id),
        assigned_at=now,
    )
    session.add(row)
    session.flush()
    record_audit(
        session,
        actor_user_id=user.id,
        action="judge.assign",
        entity="judgeassignment",
        entity_id=row.id,
        after={"judge": judge.display_name, "match": match_id, "round": round_id, "day": day},
        now=now,
    )
    return row


def judge_for(session: Session, match: Match, at: datetime) -> User | None:
    """The match's own judge, else the day's, else the round's (the newest assignment wins), else the league's."""
    day = kirov_date(at).isoformat()
    rows = session.exec(
        select(JudgeAssignment)
        .where(
            (col(JudgeAssignment.match_id) == match.id)
            | (col(JudgeAssignment.day) == day)
            | (col(JudgeAssignment.round_id) == (match.window_round_id or match.round_id))
        )
        .order_by(col(JudgeAssignment.id).desc())
    ).all()
    for wanted in ("match", "day", "round"):
        for r in rows:
            if (wanted == "match" and r.match_id) or (wanted == "day" and r.day) or (wanted == "round" and r.round_id):
                return session.get(User, r.judge_user_id)
    return session.exec(select(User).where(User.role == Role.JUDGE).order_by(col(User.id))).first()


def call_judge(
    session: Session, user: User, match_id: int, *, hanchan_number: int | None, description: str, now: datetime
) -> JudgeCall:
    """Регламент §6.2: a seated player, during a booked meeting of the match, with a short description."""
    match = get_match(session, match_id)
    if user_player_in_match(session, saved(user.id), saved(match.id)) is None:
        raise ResultsError("Позвать судью может только игрок за этим столом.")
    meeting = session.exec(
        select(Booking).where(
            Booking.match_id == match.id, Booking.active, Booking.start_at <= now + EARLY, Booking.end_at > now
        )
    ).first()
    if meeting is None:
        raise ResultsError("Судью зовут во время встречи матча: сейчас встреча не идёт.")
    description = " ".join(description.split())
    if not description:
        raise ResultsError("Опишите коротко, что произошло.")
    if len(description) > DESCRIPTION_LIMIT:
        raise ResultsError(f"Описание — не длиннее {DESCRIPTION_LIMIT} знаков.")
    if hanchan_number is not None and not 1 <= hanchan_number <= match.planned_hanchans:
        raise ResultsError(f"Номер ханчана — от 1 до {match.planned_hanchans}.")
    judge = judge_for(session, match, now)
    call = JudgeCall(
        match_id=saved(match.id),
        hanchan_number=hanchan_number,
        description=description,
        called_by_user_id=saved(user.id),
        judge_user_id=judge.id if judge else None,
        called_at=now,
    )
    session.add(call)
    session.flush()
    record_audit(
        session,
        actor_user_id=user.id,
        action="judge.call",
        entity="match",
        entity_id=match.id,
        after={"call": call.id, "hanchan": hanchan_number, "judge": judge.display_name if judge else None},
        reason=description,
        now=now,
    )
    if judge is not None:
        # No match id: the event is a private message, not a change of the match's card.
        outbox.emit(
            session,
            outbox.JUDGE_CALLED,
            None,
            now=now,
            judge_user_id=judge.id,
            call_match_id=match.id,
            match=match_info(session, saved(match.id)).title,
            hanchan=hanchan_number,
            description=description,
            caller=user.display_name,
        )
    return call


def _open_call(session: Session, call_id: int) -> JudgeCall:
    call = session.get(JudgeCall, call_id) if call_id else None
    if call is None:
        raise ResultsError("Выберите вызов судьи.")
    if call.closed_at is not None:
        raise ResultsError("Этот вызов уже закрыт решением.")
    return call


def _require_judge(user: User) -> None:
    if user.role not in (Role.JUDGE, Role.ORGANIZER):
        raise ResultsError("Отвечать на вызов может только судья или организатор.")


def answer_call(session: Session, user: User, call_id: int, *, now: datetime) -> JudgeCall:
    """The judge (or the organizer) takes the call: «иду»; recorded in the protocol."""
    _require_judge(user)
    call = _open_call(session, call_id)
    if call.answered_at is None:
        call.answered_at, call.answered_by_user_id = now, user.id
        session.add(call)
        record_audit(session, actor_user_id=user.id, action="judge.answer", entity="match", entity_id=call.match_id,
                     after={"call": call.id}, now=now)  # fmt: skip
    return call


def close_call(
    session: Session, user: User, call_id: int, *, actions: str, disagreement: str, decision: str, now: datetime
) -> JudgeRuling:
    """The ruling closes the call (Регламент §6.2: match, hanchan, sequence of actions, disagreement, decision)."""
    _require_judge(user)
    call = _open_call(session, call_id)
    ruling = add_ruling(
        session,
        user,
        call.match_id,
        hanchan_number=call.hanchan_number,
        actions=actions,
        disagreement=disagreement,
        decision=decision,
        now=now,
    )
    if call.answered_at is None:
        call.answered_at, call.answered_by_user_id = now, user.id
    call.ruling_id, call.closed_at = ruling.id, now
    session.add(call)
    record_audit(session, actor_user_id=user.id, action="judge.close", entity="match", entity_id=call.match_id,
                 after={"call": call.id, "ruling_id": ruling.id}, reason=ruling.decision, now=now)  # fmt: skip
    return ruling


def open_calls_for(session: Session, user: User, *, now: datetime) -> list[JudgeCall]:
    """The calls this person must see: a judge their own and those with no judge; the organizer every call
    unanswered for ten minutes, and those nobody was assigned to."""
    calls = session.exec(select(JudgeCall).where(col(JudgeCall.closed_at).is_(None)).order_by(col(JudgeCall.id))).all()
    if user.role == Role.JUDGE:
        return [c for c in calls if c.judge_user_id in (user.id, None)]
    if user.role == Role.ORGANIZER:
        return [
            c
            for c in calls
            if c.judge_user_id in (user.id, None) or (c.answered_at is None and now - c.called_at >= ESCALATE_AFTER)
        ]
    return []


UNANSWERED_KEY = "judge-call-unanswered-"  # + the call's id: the outbox's unique key of its escalation


def escalate_unanswered(session: Session, *, now: datetime) -> list[JudgeCall]:
    """Регламент §6.2: each open call unanswered for ESCALATE_AFTER gets one «judge call unanswered» event for the
    organizers — at most once per call however often and from however many processes this runs (a unique key)."""
    escalated = select(OutboxEvent.id).where(
        OutboxEvent.once_key == sa.literal(UNANSWERED_KEY) + sa.cast(JudgeCall.id, sa.String)
    )
    calls = session.exec(
        select(JudgeCall).where(
            col(JudgeCall.closed_at).is_(None),
            col(JudgeCall.answered_at).is_(None),
            JudgeCall.called_at <= now - ESCALATE_AFTER,
            ~sa.exists(escalated),  # the minute job reads only the calls not told yet
        )
    ).all()
    written = []
    for c in calls:
        waited = int((now - c.called_at).total_seconds() // 60)
        event = outbox.emit_once(
            session,
            outbox.JUDGE_CALL_UNANSWERED,
            f"{UNANSWERED_KEY}{c.id}",
            now=now,
            call_id=c.id,
            call_match_id=c.match_id,
            match=match_info(session, c.match_id).title,
            hanchan=c.hanchan_number,
            description=c.description,
            waited_minutes=waited,
        )
        if event is not None:
            written.append(c)
    return written
