"""Pantheon's event penalties (admin-only ListPenalties) recorded as league conduct penalties; imports no reflex.

Each Pantheon penalty is remembered as a `PantheonGame` row keyed "penalty:<id>" (the same unique key as a game),
so a rerun adds nothing, and one that cannot be placed waits on the organizer's list beside unplaced games.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlmodel import Session, select

from services.core.models import PantheonGame, User
from services.pantheon.games import _bool, _int, _list, _obj, _str
from services.pantheon.placement import IGNORED, IMPORTED, PENDING, PLACED
from services.results import penalties as league_penalties
from services.results.hanchans import ResultsError

KEY_PREFIX = "penalty:"
BASIS = "штраф, назначенный в Pantheon"


@dataclass(frozen=True)
class PantheonPenalty:
    id: int
    person_id: int
    amount: int  # points taken, as Pantheon shows them (its sign is not relied on)
    reason: str = ""
    session_hash: str = ""
    cancelled: bool = False


def _first(data: Mapping[str, Any], *names: str) -> Any:
    return next((data[n] for n in names if data.get(n) is not None), None)


def parse_penalties(raw: Any) -> tuple[PantheonPenalty, ...]:
    """ListPenalties' answer; its shape is not in API.md, so every field has a default and a few spellings."""
    data = _obj(raw, "ListPenalties")
    out = []
    for i, item in enumerate(_list(data.get("penalties"), "penalties")):
        where = f"penalties[{i}]"
        p = _obj(item, where)
        pid = _int(_first(p, "id", "penaltyId"), f"{where}.id", default=None)
        who = _int(_first(p, "who", "playerId", "personId"), f"{where}.who", default=None)
        session = _obj(p.get("session"), f"{where}.session")
        out.append(
            PantheonPenalty(
                id=pid,
                person_id=who,
                amount=abs(_int(p.get("amount"), f"{where}.amount")),
                reason=_str(p.get("reason"), f"{where}.reason").strip(),
                session_hash=_str(_first(p, "sessionHash") or session.get("sessionHash"), f"{where}.sessionHash"),
                cancelled=_bool(p.get("isCancelled")) or _bool(p.get("cancelled")),
            )
        )
    return tuple(out)


def _label(p: PantheonPenalty, titles: dict[int, str]) -> str:
    return f"Штраф Pantheon #{p.id} ({titles.get(p.person_id, '?')}, id {p.person_id}, {p.amount} очков)"


def _where(session: Session, season_id: int, p: PantheonPenalty, mapping: dict[int, int]) -> tuple[Any, str]:
    """The placed game's row the penalty belongs to, or the reason it goes to the organizer's list."""
    if p.person_id not in mapping:
        return None, "игрок Pantheon не сопоставлен с игроком лиги"
    if not p.session_hash:
        return None, "штраф не привязан к игре: назначьте его в матче вручную или пропустите"
    game = session.exec(
        select(PantheonGame).where(PantheonGame.season_id == season_id, PantheonGame.session_hash == p.session_hash)
    ).first()
    if game is None or game.status not in PLACED or game.match_id is None:
        return None, f"игра {p.session_hash[:8]}… не внесена в матч лиги"
    return game, ""


def apply_penalty(
    session: Session,
    season_id: int,
    p: PantheonPenalty,
    mapping: dict[int, int],
    titles: dict[int, str],
    actor: User,
    *,
    now: datetime,
) -> str:
    """Record one Pantheon penalty once; returns added | known | pending."""
    key = f"{KEY_PREFIX}{p.id}"
    row = session.exec(
        select(PantheonGame).where(PantheonGame.season_id == season_id, PantheonGame.session_hash == key)
    ).first()
    if row is not None and row.status in (IMPORTED, IGNORED):
        return "known"  # recorded already, or the organizer decided to skip it
    if p.cancelled:
        return "known"
    row = row or PantheonGame(season_id=season_id, session_hash=key, status=PENDING)
    row.updated_at = now
    game, problem = _where(session, season_id, p, mapping)
    if game is not None:
        violation = f"{p.reason or 'нарушение'} [Pantheon, штраф #{p.id}]"
        try:
            league_penalties.add_conduct_penalty(
                session,
                actor,
                game.match_id,
                mapping[p.person_id],
                amount=p.amount,
                violation=violation,
                basis=BASIS,
                now=now,
            )
        except ResultsError as e:
            problem = str(e)
        else:
            row.status, row.reason, row.match_id = IMPORTED, _label(p, titles), game.match_id
            session.add(row)
            return "added"
    row.status, row.reason = PENDING, f"{_label(p, titles)}: {problem}"
    session.add(row)
    return "pending"
