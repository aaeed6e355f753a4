"""How long an open proposal holds its table: pure, imports no database, reflex or telegram.

Регламент §3 (the four agree on a time, then the room is booked): between the proposal and the fourth confirmation
the proposal's table is held, so another match's options do not offer it and the fourth confirmation finds it free.
A hold ends when all four confirm, someone declines, the hold time passes, or the meeting begins, whichever is
first; it is a condition on read (`Board.holds` as of `now`), so no process has to be running for it to end. While it
lasts nothing takes the table in silence (`decide.seating`): only the organizer, when no other table is free, and
then the proposal ends with its reason and its four are told (`organizer._overrule`, Регламент §3, §6.3).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from services.scheduling.rules import format_kirov


def hold_until(now: datetime, start: datetime, hours: int) -> datetime:
    """The end of the hold of a proposal made at `now` for a meeting starting at `start`: `hours` later (the season's
    `Ruleset.proposal_hold_hours`, set with its other rules), never past the start."""
    return min(now + timedelta(hours=max(hours, 0)), start)


def hold_text(until: datetime | None, now: datetime) -> str:
    """What the proposal page says about the hold («Стол удерживается до …»), or that it has ended."""
    if until is None:
        return ""
    if until <= now:
        return "Стол больше не удерживается: если его займут, бронь не получится, пока все не подтвердят."
    return f"Стол удерживается за этим предложением до {format_kirov(until)} (Киров): подтвердите до этого времени."
