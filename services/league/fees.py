"""The registration fee (Регламент §1): paid or refunded, with the date; seen by the organizer only. Imports no
reflex."""

from __future__ import annotations

from datetime import date

from sqlmodel import Session, col, select

from services.core.audit import record_audit
from services.core.errors import LeagueError
from services.core.models import Player, Registration, saved

ACTIONS = {"paid": "оплачен", "refunded": "возвращён", "unpaid": "не оплачен"}


class FeeError(LeagueError):
    """A refused fee record; the message is Russian and nothing has changed."""


def fee_label(row: Registration | None) -> str:
    if row is not None and row.fee_refunded_on is not None:
        return f"возвращён {row.fee_refunded_on:%d.%m.%Y}"
    if row is not None and row.fee_paid_on is not None:
        return f"оплачен {row.fee_paid_on:%d.%m.%Y}"
    return "не оплачен"


def fee_labels(session: Session, season_id: int) -> dict[int, str]:
    """Player id → what the roster shows in the fee column."""
    players = [saved(pid) for pid in session.exec(select(Player.id).where(Player.season_id == season_id)).all()]
    rows = {r.player_id: r for r in session.exec(select(Registration).where(col(Registration.player_id).in_(players)))}
    return {p: fee_label(rows.get(p)) for p in players}


def record_fee(session: Session, player: Player, action: str, on: date, *, actor_user_id: int | None) -> str:
    """Records a payment or a refund on `on` (or clears a mistaken payment); returns the new label."""
    if action not in ACTIONS:
        raise FeeError("Выберите: оплачен, возвращён или не оплачен.")
    row = session.get(Registration, saved(player.id)) or Registration(player_id=saved(player.id))
    before = fee_label(row)
    if action == "paid":
        row.fee_paid_on, row.fee_refunded_on = on, None
    elif action == "refunded":
        if row.fee_paid_on is None:
            raise FeeError("Взнос не был оплачен: возвращать нечего.")
        if on < row.fee_paid_on:
            raise FeeError("Возврат не может быть раньше оплаты.")
        row.fee_refunded_on = on
    else:
        row.fee_paid_on = row.fee_refunded_on = None
    session.add(row)
    after = fee_label(row)
    record_audit(
        session,
        actor_user_id=actor_user_id,
        action="fee.record",
        entity="player",
        entity_id=player.id,
        before={"fee": before},
        after={"fee": after},
    )
    session.flush()
    return after
