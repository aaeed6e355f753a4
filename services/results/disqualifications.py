"""The register of disqualifications (Регламент §5): one year or permanent, with the protocol it comes from.

A disqualified person cannot be entered into a season while the disqualification runs. Imports no reflex.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlmodel import Session, col, select

from services.core.audit import record_audit
from services.core.errors import LeagueError
from services.core.models import Disqualification, Match, Role, User, saved
from services.core.wording import agreed

TERMS = {"year": "на год", "permanent": "пожизненно"}


class DisqualificationError(LeagueError):
    """A refused action on the register; the message is Russian and nothing has changed."""


@dataclass(frozen=True)
class RegisterRow:
    id: int
    name: str
    reason: str
    match_id: int | None
    starts_on: date
    ends_on: date | None


def year_later(day: date) -> date:
    try:
        return day.replace(year=day.year + 1)
    except ValueError:  # 29 February
        return day.replace(year=day.year + 1, day=28)


def active_disqualification(session: Session, user_id: int, on: date) -> Disqualification | None:
    """The disqualification in force on `on`, if any (a one-year one ends the day before its anniversary)."""
    rows = session.exec(
        select(Disqualification).where(Disqualification.user_id == user_id, col(Disqualification.starts_on) <= on)
    ).all()
    return next((d for d in rows if d.ends_on is None or on < d.ends_on), None)


def disqualified_on(session: Session, user_ids: list[int], on: date) -> set[int]:
    """Which of these people a disqualification holds on `on` (one query, as `active_disqualification`)."""
    rows = session.exec(
        select(Disqualification).where(
            col(Disqualification.user_id).in_(user_ids), col(Disqualification.starts_on) <= on
        )
    ).all()
    return {d.user_id for d in rows if d.ends_on is None or on < d.ends_on}


def refusal_text(name: str, row: Disqualification) -> str:
    until = "пожизненно" if row.ends_on is None else f"до {row.ends_on:%d.%m.%Y}"
    return f"«{name}» {agreed(name, 'дисквалифицирован', 'дисквалифицирована')} {until}: {row.reason}"


def record_disqualification(
    session: Session,
    user: User,
    *,
    term: str,
    reason: str,
    match_id: int | None,
    starts_on: date,
    actor_user_id: int | None,
) -> Disqualification:
    """Регламент §5: disqualification for a year or permanently, with the reason and the match protocol."""
    if term not in TERMS:
        raise DisqualificationError("Выберите срок: на год или пожизненно.")
    if not reason.strip():
        raise DisqualificationError("Укажите причину дисквалификации.")
    if user.role != Role.PLAYER:
        raise DisqualificationError("Дисквалифицировать можно только игрока.")
    if match_id is not None and session.get(Match, match_id) is None:
        raise DisqualificationError(f"Матча №{match_id} нет: укажите протокол, из которого следует решение.")
    row = Disqualification(
        user_id=saved(user.id),
        reason=reason.strip(),
        match_id=match_id,
        starts_on=starts_on,
        ends_on=None if term == "permanent" else year_later(starts_on),
        decided_by_user_id=actor_user_id,
    )
    session.add(row)
    session.flush()
    record_audit(
        session,
        actor_user_id=actor_user_id,
        action="disqualification.record",
        entity="user",
        entity_id=user.id,
        after={"term": term, "match_id": match_id, "starts_on": starts_on.isoformat()},
        reason=row.reason,
    )
    return row


def register(session: Session) -> list[RegisterRow]:
    rows = session.exec(
        select(Disqualification, User)
        .join(User, col(User.id) == Disqualification.user_id)
        .order_by(col(Disqualification.starts_on).desc(), col(Disqualification.id).desc())
    ).all()
    return [RegisterRow(saved(d.id), u.display_name, d.reason, d.match_id, d.starts_on, d.ends_on) for d, u in rows]
