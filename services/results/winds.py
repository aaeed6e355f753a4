"""Random starting winds before each hanchan, recorded (Регламент §4 «Выбор начальных ветров»); imports no reflex."""

from __future__ import annotations

import json
import random

from sqlmodel import Session, col, select

from services.core.audit import record_audit
from services.core.errors import LeagueError
from services.core.models import AuditRecord, Hanchan, Match, MatchStatus, Role, User, saved
from services.results import repo as results_repo
from services.results.scoring import shuffle_winds
from services.scheduling.repo import lock_for_write


class WindsError(LeagueError):
    """A refused wind draw; the message is Russian and shown as is."""


def draw_winds(session: Session, match_id: int, number: int, *, actor: User, rng: random.Random) -> tuple[int, ...]:
    """Регламент §4 «Выбор начальных ветров»: a random East, South, West, North for hanchan `number`, recorded.

    The draw is in the audit trail (the hanchan's row does not exist before it is played); an entered hanchan
    without winds takes them from there (`attach_winds`). A seated player draws once per hanchan — otherwise
    the table could redraw until the seats suit someone; the judge or the organizer may redraw, and the
    redraw keeps the previous winds in its audit row. The match row is locked (SQLite: the write lock) from
    the check to the record, so two simultaneous draws cannot both be first.
    """
    lock_for_write(session)
    match = session.exec(select(Match).where(Match.id == match_id).with_for_update()).first()
    if match is None or match.status == MatchStatus.DRAFT:
        raise WindsError(f"Матч {match_id} не найден.")
    seated = results_repo.seated_player_ids(session, match_id)
    if (
        actor.role not in (Role.ORGANIZER, Role.JUDGE)
        and results_repo.user_player_in_match(session, saved(actor.id), match_id) is None
    ):
        raise WindsError("Ветра перемешивают участники матча, судья или организатор.")
    if not 1 <= number <= match.planned_hanchans:
        raise WindsError(f"Номер ханчана — от 1 до {match.planned_hanchans}.")
    if len(seated) != 4:
        raise WindsError("За столом должно быть четыре игрока.")
    previous = drawn_winds(session, match_id).get(number)
    staff = actor.role in (Role.ORGANIZER, Role.JUDGE)
    if previous is not None and not staff:
        raise WindsError(f"Ветра ханчана {number} уже выбраны. Перевыбрать их может судья или организатор.")
    winds = shuffle_winds(seated, rng)
    record_audit(
        session,
        actor_user_id=actor.id,
        action="hanchan.winds",
        entity="match",
        entity_id=match_id,
        before={"number": number, "winds": list(previous)} if previous is not None else None,
        after={"number": number, "winds": list(winds)},
        reason="перевыбор ветров" if previous is not None else "",
    )
    session.flush()
    attach_winds(session, match_id)
    return tuple(int(p) for p in winds)


def drawn_winds(session: Session, match_id: int) -> dict[int, tuple[int, ...]]:
    """The latest wind draw of each hanchan number of the match."""
    out: dict[int, tuple[int, ...]] = {}
    for record in session.exec(
        select(AuditRecord)
        .where(AuditRecord.entity == "match", AuditRecord.entity_id == match_id, AuditRecord.action == "hanchan.winds")
        .order_by(col(AuditRecord.id))
    ):
        data = json.loads(record.after or "{}")
        out[int(data["number"])] = tuple(int(p) for p in data["winds"])
    return out


def attach_winds(session: Session, match_id: int) -> None:
    """Copies drawn winds onto entered hanchans that have none (Hanchan.winds: ids E,S,W,N)."""
    drawn = drawn_winds(session, match_id)
    for hanchan in session.exec(select(Hanchan).where(Hanchan.match_id == match_id, col(Hanchan.winds).is_(None))):
        if hanchan.number in drawn:
            hanchan.winds = ",".join(str(p) for p in drawn[hanchan.number])
            session.add(hanchan)
