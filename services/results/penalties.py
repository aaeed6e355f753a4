"""Penalties, judge rulings and tie decisions, each recorded in the match protocol; imports no reflex.

Регламент §6.3: the organizer assigns penalties; nothing here assigns one by itself. The EMA sanctions ladder
is only offered as a suggestion text.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlmodel import Session, col, func, select

from services.core.audit import record_audit
from services.core.db import lock_row
from services.core.models import (
    Booking,
    Hanchan,
    HanchanResult,
    JudgeRuling,
    Match,
    Penalty,
    Player,
    Role,
    Seat,
    TieDecision,
    User,
    saved,
)
from services.core.wording import format_points
from services.results.entry import ResultsError
from services.results.hanchans import get_match, match_rules, require_organizer
from services.results.repo import db_standings
from services.results.scoring import MAX_PENALTY
from services.scheduling.decide import hanchan_meeting
from services.scheduling.rules import format_kirov

NO_SHOW = "no_show"
CONDUCT = "conduct"
NO_SHOW_REASON = "неявка без предупреждения и уважительной причины (Регламент §5)"
# EMA, разъяснение санкций §3.1: предупреждение → 5 → 10 → 20 → 30 → … очков МКР.
EMA_LADDER = ("предупреждение", "5 очков", "10 очков", "20 очков", "30 очков")
# Регламент §5: «Опоздание до 30 минут включительно допускается». Someone is absent, not late, only once a booked
# meeting of the match (the §6.1 fallback Sunday is booked too) began more than this long ago.
LATENESS_ALLOWED = timedelta(minutes=30)


class NoShowTooEarly(ResultsError):
    """A no-show penalty for a match whose booked meeting has not begun (or began less than 30 minutes ago)."""


def _require_meeting_begun(session: Session, match: Match, player_id: int, now: datetime) -> None:
    """Регламент §5: a no-show is not coming to a meeting that took place — the match's booked meeting (an active
    booking; a released one was called off, which is no no-show) started more than LATENESS_ALLOWED before `now`.
    Lateness up to 30 minutes is allowed, so the penalty waits for it. A player whose points are in a hanchan of
    that meeting came (a split match's earlier meeting does not count: they may miss the later one)."""
    meetings = [
        (b.start_at, b.hanchans or 0)
        for b in session.exec(
            select(Booking).where(Booking.match_id == match.id, col(Booking.active)).order_by(col(Booking.start_at))
        ).all()
    ]
    starts = [start for start, _ in meetings]
    if begun := [start for start in starts if start + LATENESS_ALLOWED < now]:
        played = session.exec(
            select(Hanchan.number)
            .join(HanchanResult, col(HanchanResult.hanchan_id) == Hanchan.id)
            .where(
                Hanchan.match_id == match.id,
                col(Hanchan.superseded_by_id).is_(None),
                HanchanResult.player_id == player_id,
            )
            .order_by(col(Hanchan.number))
        ).all()
        at_it = [n for n in played if hanchan_meeting(meetings, n) == begun[-1]]
        if at_it:
            raise ResultsError(
                f"Очки игрока уже внесены в ханчан {at_it[0]} этой встречи — значит, игрок был за столом: неявку "
                "записать нельзя (Регламент §5). Если результат внесён ошибочно, сначала исправьте его."
            )
        return
    if not starts:
        raise NoShowTooEarly(
            "У матча нет забронированной встречи: штраф за неявку назначается только за встречу, которая "
            "уже началась (Регламент §5)."
        )
    raise NoShowTooEarly(
        f"Встреча матча назначена на {format_kirov(starts[0])}; опоздание до 30 минут включительно допускается "
        f"(Регламент §5): штраф за неявку — позже {format_kirov(starts[0] + LATENESS_ALLOWED)}."
    )


def ema_step(previous: int) -> str:
    """The EMA ladder's step (clarification §3.1) after `previous` recorded conduct offences: «5 очков»."""
    return EMA_LADDER[previous] if previous < len(EMA_LADDER) else f"{30 + 10 * (previous - 4)} очков"


def conduct_offences(session: Session, player_id: int) -> int:
    """Conduct penalties and warnings already recorded for this player (a Player row is one season)."""
    return session.exec(
        select(func.count(col(Penalty.id))).where(Penalty.player_id == player_id, Penalty.kind == CONDUCT)
    ).one()


def _player_of_match(session: Session, match: Match, player_id: int) -> Player:
    """A seated player, or the one a substitute replaced (a no-show keeps his penalty: Регламент §5)."""
    if not player_id:
        raise ResultsError("Выберите игрока.")
    seat = session.exec(
        select(Seat).where(
            Seat.match_id == match.id,
            (col(Seat.player_id) == player_id) | (col(Seat.substitute_for_player_id) == player_id),
        )
    ).first()
    player = session.get(Player, player_id)
    if seat is None or player is None:
        raise ResultsError("Игрок не участвует в этом матче.")
    return player


def _audit_penalty(session: Session, user: User, match: Match, penalty: Penalty, note: str, *, now: datetime) -> None:
    session.flush()
    record_audit(
        session,
        actor_user_id=user.id,
        action="penalty.add",
        entity="match",
        entity_id=match.id,
        after={
            "penalty_id": penalty.id,
            "player": penalty.player_id,
            "points": penalty.points,
            "kind": penalty.kind,
            "warning": penalty.warning,
        },
        reason=note,
        now=now,
    )


def add_no_show(
    session: Session, user: User, match_id: int, player_id: int, reason: str = "", *, now: datetime
) -> Penalty:
    """Регламент §5: the first no-show without warning — a warning and the season's no-show penalty for the match."""
    require_organizer(user)
    match = get_match(session, match_id)
    player = _player_of_match(session, match, player_id)
    exists = session.exec(
        select(Penalty.id).where(Penalty.match_id == match.id, Penalty.player_id == player.id, Penalty.kind == NO_SHOW)
    ).first()
    if exists is not None:
        raise ResultsError("Штраф за неявку в этом матче уже назначен.")
    _require_meeting_begun(session, match, saved(player.id), now)
    rules = match_rules(session, saved(match.id))
    penalty = Penalty(
        match_id=saved(match.id),
        player_id=saved(player.id),
        points=-rules.no_show_penalty,  # Регламент §5, §6.3: штраф за первую неявку — правило сезона
        kind=NO_SHOW,
        warning=True,
        reason=reason.strip() or NO_SHOW_REASON,
        decided_by_user_id=saved(user.id),
        decided_at=now,
    )
    session.add(penalty)
    _audit_penalty(session, user, match, penalty, penalty.reason, now=now)
    return penalty


def cancel_penalty(session: Session, user: User, penalty_id: int | None, *, reason: str, now: datetime) -> Penalty:
    """Регламент §5, §6.3: the organizer's penalty (a no-show, conduct, a chombo recorded by hand) is undone with a
    reason. The row goes, so every standing is computed without it; the protocol keeps both the penalty and its
    cancellation (the audit rows), with what it was and why."""
    require_organizer(user)
    if not penalty_id:
        raise ResultsError("Выберите штраф.")
    match_id = session.exec(select(Penalty.match_id).where(Penalty.id == penalty_id)).first()
    if match_id is None:
        raise ResultsError("Этот штраф уже отменён или не найден.")
    lock_row(session, Match, match_id)  # two cancellations at once: the second finds it gone
    penalty = session.get(Penalty, penalty_id, populate_existing=True)
    if penalty is None:
        raise ResultsError("Этот штраф уже отменён или не найден.")
    if not reason.strip():
        raise ResultsError("Укажите причину отмены штрафа.")
    before = {"penalty_id": penalty.id, "player": penalty.player_id, "points": penalty.points, "kind": penalty.kind}
    session.delete(penalty)
    record_audit(
        session,
        actor_user_id=user.id,
        action="penalty.cancel",
        entity="match",
        entity_id=match_id,
        before=before,
        reason=reason.strip(),
        now=now,
    )
    return penalty


def add_conduct_penalty(
    session: Session,
    user: User,
    match_id: int,
    player_id: int,
    *,
    amount: int | None,
    violation: str,
    basis: str,
    now: datetime,
) -> Penalty:
    """Регламент §6.3: the violation, the amount and the basis go into the match protocol.

    `amount` is the number of points taken (0: a warning without points, the first step of the EMA ladder); None is
    what the form had when it was not a number.
    """
    require_organizer(user)
    match = get_match(session, match_id)
    player = _player_of_match(session, match, player_id)
    problems = []
    if amount is None:
        problems.append("размер штрафа — целое число очков (0 — предупреждение без очков)")
    elif not 0 <= amount <= MAX_PENALTY:
        problems.append(
            f"размер штрафа — от 0 до {format_points(MAX_PENALTY)} очков (0 — предупреждение), "
            f"указано {format_points(amount)}"
        )
    if not violation.strip():
        problems.append("опишите нарушение")
    if not basis.strip():
        problems.append("укажите основание (пункт RRC 2.0 или регламента, или решение организатора)")
    if problems or amount is None:
        raise ResultsError(problems)
    penalty = Penalty(
        match_id=saved(match.id),
        player_id=saved(player.id),
        points=-amount,
        kind=CONDUCT,
        warning=amount == 0,
        reason=f"{violation.strip()}. Основание: {basis.strip()}",
        decided_by_user_id=saved(user.id),
        decided_at=now,
    )
    session.add(penalty)
    _audit_penalty(session, user, match, penalty, penalty.reason, now=now)
    return penalty


def add_ruling(
    session: Session,
    user: User,
    match_id: int,
    *,
    hanchan_number: int | None,
    actions: str,
    disagreement: str,
    decision: str,
    now: datetime,
    photos: Sequence[str] = (),
) -> JudgeRuling:
    """Регламент §6.2 «Порядок обращения к судье»: the judge (or the organizer) records a ruling."""
    if user.role not in (Role.JUDGE, Role.ORGANIZER):
        raise ResultsError("Решение судьи записывает судья или организатор.")
    match = get_match(session, match_id)
    problems = []
    if hanchan_number is not None and not 1 <= hanchan_number <= match.planned_hanchans:
        problems.append(f"номер ханчана должен быть от 1 до {match.planned_hanchans}")
    for text, what in (
        (actions, "последовательность действий"),
        (disagreement, "суть разногласия"),
        (decision, "решение"),
    ):
        if not text.strip():
            problems.append(f"укажите {what}")
    if problems:
        raise ResultsError(problems)
    ruling = JudgeRuling(
        match_id=saved(match.id),
        hanchan_number=hanchan_number,
        actions=actions.strip(),
        disagreement=disagreement.strip(),
        decision=decision.strip(),
        photos="\n".join(photos),  # paths inside the upload directory (services.results.ruling_photos)
        judge_user_id=saved(user.id),
        at=now,
    )
    session.add(ruling)
    session.flush()
    record_audit(
        session,
        actor_user_id=user.id,
        action="ruling.add",
        entity="match",
        entity_id=match.id,
        after={"ruling_id": ruling.id, "hanchan": hanchan_number, "photos": len(photos)},
        reason=ruling.decision,
        now=now,
    )
    return ruling


def unresolved_ties(session: Session, season_id: int) -> list[tuple[int, list[tuple[int, str]]]]:
    """Регламент §4: the standings groups still equal after average place, as (shared place, [(id, name)])."""
    groups: dict[int, list[tuple[int, str]]] = {}
    for row in db_standings(session, season_id):
        if row.unresolved_tie:
            groups.setdefault(row.place, []).append((int(row.player), row.name))
    return sorted(groups.items())


def decide_tie(
    session: Session, user: User, season_id: int, ordered: list[int], reason: str, *, now: datetime
) -> TieDecision:
    """Регламент §4: still equal after average place — the organizer decides; the order must name one
    currently unresolved group of the standings exactly, best first."""
    require_organizer(user)
    if not reason.strip():
        raise ResultsError("Укажите основание решения.")
    groups: dict[int, set[int]] = {}
    for row in db_standings(session, season_id):
        if row.unresolved_tie:
            groups.setdefault(row.place, set()).add(int(row.player))
    if len(set(ordered)) != len(ordered) or set(ordered) not in groups.values():
        raise ResultsError("Порядок должен назвать ровно всех участников одного неразрешённого равенства.")
    decision = TieDecision(
        season_id=season_id,
        ordered_player_ids=",".join(map(str, ordered)),
        reason=reason.strip(),
        decided_by_user_id=saved(user.id),
        decided_at=now,
    )
    session.add(decision)
    session.flush()
    record_audit(
        session,
        actor_user_id=user.id,
        action="tie.decide",
        entity="season",
        entity_id=season_id,
        after={"order": ordered},
        reason=reason.strip(),
        now=now,
    )
    return decision
