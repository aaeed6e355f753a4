"""The season's roster: players, their status and registration order; imports no reflex."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, func, select

from services.core.audit import record_audit
from services.core.errors import LeagueError
from services.core.models import (
    AvailabilityAnswer,
    AvailabilityInterval,
    PantheonPlayer,
    Player,
    ProposalConfirmation,
    Registration,
    Role,
    RosterStatus,
    Season,
    Seat,
    User,
    saved,
)
from services.league.accounts import AccountError, create_user

STATUS_LABELS = {
    RosterStatus.MAIN: "основной состав",
    RosterStatus.RESERVE: "резерв",
    RosterStatus.SUBSTITUTE: "техническая замена",
    RosterStatus.WITHDRAWN: "снят",
}


@dataclass(frozen=True)
class RosterRow:
    player_id: int
    user_id: int
    name: str
    status: str
    registration_order: int
    telegram_linked: bool


def current_season(session: Session) -> Season | None:
    """The season marked current (services/league/seasons.py); rows made without it: the newest."""
    return session.exec(select(Season).order_by(col(Season.is_current).desc(), col(Season.id).desc())).first()


def list_roster(session: Session, season_id: int) -> list[RosterRow]:
    rows = session.exec(
        select(Player, User)
        .join(User, col(User.id) == Player.user_id)
        .where(Player.season_id == season_id)
        .order_by(col(Player.registration_order))
    ).all()
    return [
        RosterRow(
            saved(p.id), saved(u.id), u.display_name, p.status, p.registration_order, u.telegram_user_id is not None
        )
        for p, u in rows
    ]


def default_status(season: Season) -> RosterStatus:
    """Регламент §1, §2: the draw seats the main roster once; a player registered after it joins the reserve, so the
    main roster stays the one the draw was made for (a multiple of four)."""
    return RosterStatus.RESERVE if season.draw_approved_at is not None else RosterStatus.MAIN


def add_player(
    session: Session,
    season: Season,
    display_name: str,
    *,
    status: RosterStatus | None = None,
    actor_user_id: int | None,
    password: str | None = None,
    now: datetime | None = None,
) -> tuple[Player, str]:
    """Registers a new person for the season (by default: `default_status`); registration order is kept (§1)."""
    status = status or default_status(season)
    user, password = create_user(
        session, display_name=display_name, role=Role.PLAYER, password=password, actor_user_id=actor_user_id, now=now
    )
    return enroll(session, season, user, status=status, actor_user_id=actor_user_id, now=now), password


def enroll(
    session: Session,
    season: Season,
    user: User,
    *,
    status: RosterStatus,
    actor_user_id: int | None,
    now: datetime | None,
) -> Player:
    """The person's roster line, next in registration order (Регламент §1: the order is kept), recorded in the audit."""
    last = session.exec(select(func.max(Player.registration_order)).where(Player.season_id == season.id)).one()
    player = Player(
        season_id=saved(season.id), user_id=saved(user.id), status=status, registration_order=(last or 0) + 1
    )
    session.add(player)
    session.flush()
    record_audit(
        session,
        actor_user_id=actor_user_id,
        action="player.register",
        entity="player",
        entity_id=player.id,
        after={"name": user.display_name, "status": str(status), "order": player.registration_order},
        now=now,
    )
    return player


def set_status(
    session: Session,
    player: Player,
    status: str,
    *,
    reason: str,
    actor_user_id: int | None,
    now: datetime | None = None,
) -> None:
    """Changes a roster status; withdrawal needs a reason (Регламент §6.1)."""
    if status not in set(RosterStatus):
        raise AccountError(f"Неизвестный статус: {status}.")
    if status == RosterStatus.WITHDRAWN and not reason.strip():
        raise AccountError("Для снятия участника укажите причину.")
    if player.status == status:
        return
    before = player.status
    player.status = RosterStatus(status)
    session.add(player)
    record_audit(
        session,
        actor_user_id=actor_user_id,
        action="player.status",
        entity="player",
        entity_id=player.id,
        before={"status": str(before)},
        after={"status": str(status)},
        reason=reason.strip(),
        now=now,
    )


class RosterLineError(LeagueError):
    """A roster line cannot be deleted; the message is Russian and shown as is."""


def _seated_ids(session: Session, player_ids: list[int]) -> set[int]:
    """Those of `player_ids` with a seat in any match, their own or as the one a substitute stands in for."""
    if not player_ids:
        return set()
    rows = session.exec(
        select(Seat.player_id, Seat.substitute_for_player_id).where(
            col(Seat.player_id).in_(player_ids) | col(Seat.substitute_for_player_id).in_(player_ids)
        )
    ).all()
    return {pid for row in rows for pid in row if pid is not None} & set(player_ids)


def deletable_player_ids(session: Session, season: Season) -> set[int]:
    """The lines `delete_player` would not refuse for a seat or a closed main roster (a paid fee it says itself)."""
    players = session.exec(select(Player).where(Player.season_id == season.id)).all()
    seated = _seated_ids(session, [p.id for p in players if p.id is not None])
    return {
        p.id
        for p in players
        if p.id is not None
        and p.id not in seated
        and not (season.registration_closed and p.status == RosterStatus.MAIN)
    }


def delete_player(session: Session, player: Player, *, actor_user_id: int | None, now: datetime | None = None) -> str:
    """Deletes a roster line entered by mistake, with its registration record; the account stays (other seasons).
    Returns the person's name. Refused once the player has a seat in any match: from then on the line is history
    and a player leaves by withdrawal (Регламент §6.1)."""
    user = session.get(User, player.user_id)
    name = user.display_name if user else ""
    if player.id is not None and _seated_ids(session, [player.id]):
        raise RosterLineError(
            f"У игрока «{name}» есть место в матче: строку состава удалить нельзя, участника можно только снять."
        )
    season = session.get(Season, player.season_id)
    if season is not None and season.registration_closed and player.status == RosterStatus.MAIN:
        # Регламент §1: the main roster is fixed when registration closes (and the draw is made for it)
        raise RosterLineError(
            f"Регистрация закрыта, а «{name}» в основном составе: строку удалить нельзя, участника можно только снять."
        )
    registration = session.get(Registration, player.id)
    if registration is not None and registration.fee_paid_on and not registration.fee_refunded_on:
        # Регламент §1: the fee is recorded against this line; deleting it would lose the payment
        raise RosterLineError(f"«{name}» внёс взнос: сначала отметьте его возврат, потом удаляйте строку.")
    for table in (Registration, PantheonPlayer, AvailabilityAnswer, AvailabilityInterval, ProposalConfirmation):
        for row in session.exec(select(table).where(table.player_id == player.id)).all():
            session.delete(row)
    record_audit(
        session,
        actor_user_id=actor_user_id,
        action="player.delete",
        entity="player",
        entity_id=player.id,
        before={"name": name, "status": str(player.status), "order": player.registration_order},
        now=now,
    )
    session.delete(player)
    session.flush()
    return name
