"""The league's judges and experts (Регламент §1: the chief judge and the experts for disputed cases; §6.3: the
judge decides the game, the organizer the organisation): created and given or taken their role by the organizer on
the site. Imports no reflex."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, select

from services.core.audit import record_audit
from services.core.errors import LeagueError
from services.core.models import Role, User
from services.core.text_limits import person_name_problem
from services.core.wording import ROLE_NAMES
from services.league.accounts import create_user

STAFF_ROLES = (Role.JUDGE, Role.EXPERT)


class StaffError(LeagueError):
    """A refused change of the league's staff; the message is Russian and nothing has changed."""


@dataclass(frozen=True)
class StaffMember:
    user_id: int
    name: str
    role: str  # "judge" or "expert"
    telegram: bool  # linked: the judge's calls and the desk's news reach them privately


def staff(session: Session) -> list[StaffMember]:
    rows = session.exec(
        select(User)
        .where(col(User.role).in_([str(r) for r in STAFF_ROLES]))
        .order_by(col(User.role), User.display_name)
    ).all()
    return [StaffMember(u.id or 0, u.display_name, str(u.role), u.telegram_user_id is not None) for u in rows]


def _role(value: str, allowed: tuple[Role, ...]) -> Role:
    if value not in {str(r) for r in allowed}:
        raise StaffError("Выберите роль: " + " или ".join(ROLE_NAMES[str(r)] for r in allowed) + ".")
    return Role(value)


def add_staff(session: Session, name: str, role: str, *, actor_user_id: int | None, now: datetime) -> tuple[User, str]:
    """A new judge or expert with an issued password (shown once by the caller); a person already on the site is
    given the role with `set_role` instead, so nobody has two accounts."""
    chosen = _role(role, STAFF_ROLES)
    name = " ".join(name.split())
    if problem := person_name_problem(name):
        raise StaffError(f"{problem[0].upper()}{problem[1:]}.")  # «Не указано имя.», not «Имя: не указано имя.»
    return create_user(session, display_name=name, role=chosen, actor_user_id=actor_user_id, now=now)


def set_role(session: Session, user_id: int, role: str, *, actor_user_id: int | None, now: datetime) -> User:
    """Makes a person a judge, an expert, or a player again (the role taken back); the organizer stays one."""
    chosen = _role(role, (*STAFF_ROLES, Role.PLAYER))
    user = session.exec(select(User).where(User.id == user_id).with_for_update()).first()
    if user is None:
        raise StaffError("Такого человека нет.")
    if user.role == Role.ORGANIZER:
        raise StaffError(f"«{user.display_name}» — организатор: эта роль здесь не меняется.")
    if user.role == chosen:
        raise StaffError(f"«{user.display_name}» уже {ROLE_NAMES[str(chosen)]}.")
    before = str(user.role)
    user.role = chosen
    session.add(user)
    record_audit(session, actor_user_id=actor_user_id, action="user.role", entity="user", entity_id=user.id,
                 before={"role": before}, after={"role": str(chosen)}, now=now)  # fmt: skip
    session.flush()
    return user
