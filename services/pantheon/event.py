"""The organizer's Pantheon setup: event settings, player mapping, the decision list; imports no reflex."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlparse

from sqlmodel import Session, col, select

from services.core.audit import record_audit
from services.core.errors import LeagueError
from services.core.models import PantheonGame, PantheonPlayer, PantheonSettings, Player, Role, User, saved
from services.league.matches import seated_names
from services.pantheon import placement
from services.pantheon.games import PlayerInfo
from services.pantheon.names import name_key
from services.pantheon.placement import ASSIGNED, IGNORED, PENDING
from services.results.hanchans import ResultsError, get_match


class SetupError(LeagueError):
    """Refused input; the message is Russian and nothing was stored."""


def _organizer(user: User) -> None:
    if user.role != Role.ORGANIZER:
        raise SetupError("Это может сделать только организатор.")


def get_settings(session: Session, season_id: int) -> PantheonSettings | None:
    return session.get(PantheonSettings, season_id)


def save_settings(
    session: Session,
    user: User,
    season_id: int,
    *,
    api_url: str,
    event_id: str,
    admin_person_id: str = "",
    admin_token: str = "",
    now: datetime,
) -> PantheonSettings:
    """Check and store the event link. An empty token keeps the one stored for the same address; a new address drops
    it (the token was given to the old one: it must be entered again for the new). Never in the audit."""
    _organizer(user)
    url = (api_url or "").strip().rstrip("/")
    parts = urlparse(url)
    problems = []
    if parts.scheme not in ("http", "https") or not parts.netloc:
        problems.append(f"адрес API должен начинаться с http:// или https://, указано «{api_url}»")
    event = (event_id or "").strip()
    if not event.isdigit() or int(event) <= 0:
        problems.append(f"номер события — целое положительное число, указано «{event_id}»")
    person = (admin_person_id or "").strip()
    if person and not person.isdigit():
        problems.append(f"id администратора в Pantheon — целое число, указано «{admin_person_id}»")
    if problems:
        raise SetupError("; ".join(problems))
    row = session.get(PantheonSettings, season_id)
    before = None if row is None else {"api_url": row.api_url, "event_id": row.event_id}
    if row is None:
        row = PantheonSettings(season_id=season_id, api_url=url, event_id=int(event))
    else:
        if row.event_id != int(event):
            row.synced_through = None  # another event: read it from the start
        if row.api_url.rstrip("/") != url:
            row.admin_token = None  # bound to the address it was entered for: never sent to another one
    row.api_url, row.event_id, row.updated_at = url, int(event), now
    row.admin_person_id = int(person) if person else row.admin_person_id
    if admin_token.strip():
        row.admin_token = admin_token.strip()
    session.add(row)
    after = {"api_url": url, "event_id": int(event), "admin_token_set": bool(row.admin_token)}
    record_audit(
        session,
        actor_user_id=user.id,
        action="pantheon.settings",
        entity="season",
        entity_id=season_id,
        before=before,
        after=after,
        now=now,
    )
    return row


@dataclass(frozen=True)
class MappingRow:
    person_id: int
    title: str
    player_id: int | None  # mapped league player
    suggested_player_id: int | None  # a league player with the same name, when not mapped yet


def mapping_rows(
    session: Session, season_id: int, registered: list[PlayerInfo], players: list[tuple[int, str]]
) -> list[MappingRow]:
    """Pantheon's registered players with their mapping; unmapped ones first, with a suggestion by name."""
    mapped = {r.person_id: r for r in session.exec(select(PantheonPlayer).where(PantheonPlayer.season_id == season_id))}
    by_key: dict[str, list[int]] = {}
    for pid, name in players:
        by_key.setdefault(name_key(name), []).append(pid)
    taken = {r.player_id for r in mapped.values()}
    titles = {p.id: p.title for p in registered} | {
        pid: r.title for pid, r in mapped.items() if pid not in {p.id for p in registered}
    }
    rows = []
    for person_id, title in titles.items():
        row = mapped.get(person_id)
        candidates = [p for p in by_key.get(name_key(title), []) if p not in taken]
        suggestion = candidates[0] if row is None and len(candidates) == 1 else None
        rows.append(MappingRow(person_id, title, row.player_id if row else None, suggestion))
    return sorted(rows, key=lambda r: (r.player_id is not None, r.title.casefold()))


def map_player(
    session: Session, user: User, season_id: int, person_id: int, player_id: int | None, title: str = ""
) -> None:
    """Map (or with None, unmap) a Pantheon person to a league player of this season."""
    _organizer(user)
    row = session.exec(
        select(PantheonPlayer).where(PantheonPlayer.season_id == season_id, PantheonPlayer.person_id == person_id)
    ).first()
    before = None if row is None else row.player_id
    if player_id is None:
        if row is not None:
            session.delete(row)
    else:
        player = session.get(Player, player_id)
        if player is None or player.season_id != season_id:
            raise SetupError(f"Игрок {player_id} не участвует в этом сезоне.")
        row = row or PantheonPlayer(season_id=season_id, person_id=person_id, player_id=player_id)
        row.player_id, row.title = player_id, title or row.title
        session.add(row)
    record_audit(
        session,
        actor_user_id=user.id,
        action="pantheon.map",
        entity="season",
        entity_id=season_id,
        before={"person_id": person_id, "player_id": before},
        after={"person_id": person_id, "player_id": player_id, "title": title},
    )


@dataclass(frozen=True)
class DecisionRow:
    id: int
    session_hash: str
    ended_at: datetime | None
    status: str
    reason: str
    seats: str  # "Title (points), ..." for the organizer's eye


def games_seen(session: Session, season_id: int) -> int:
    """How many Pantheon games the imports have read for the season (placed or not)."""
    return len(session.exec(select(PantheonGame.id).where(PantheonGame.season_id == season_id)).all())


def decision_rows(session: Session, season_id: int, *, include_decided: bool = True) -> list[DecisionRow]:
    statuses = [PENDING, ASSIGNED, IGNORED] if include_decided else [PENDING]
    games = session.exec(
        select(PantheonGame)
        .where(PantheonGame.season_id == season_id, col(PantheonGame.status).in_(statuses))
        .order_by(col(PantheonGame.status) != PENDING, col(PantheonGame.ended_at).desc())
    ).all()
    titles = {
        r.person_id: r.title for r in session.exec(select(PantheonPlayer).where(PantheonPlayer.season_id == season_id))
    }
    rows = []
    for g in games:
        table = placement.table_from_json(g.data)
        seats = (
            ""
            if table is None
            else ", ".join(f"{titles.get(s.person_id) or s.person_id}: {s.points}" for s in table.seats)
        )
        rows.append(DecisionRow(saved(g.id), g.session_hash, g.ended_at, g.status, g.reason, seats))
    return rows


def _pending_game(session: Session, season_id: int, game_id: int) -> PantheonGame:
    row = session.get(PantheonGame, game_id)
    if row is None or row.season_id != season_id:
        raise SetupError(f"Игра {game_id} не найдена.")
    if row.status != PENDING:
        raise SetupError("По этой игре решение уже принято.")
    return row


def assign_game(session: Session, user: User, season_id: int, game_id: int, match_id: int, *, now: datetime) -> None:
    """The organizer places a listed game into a match by hand (its window and order do not stop them)."""
    _organizer(user)
    row = _pending_game(session, season_id, game_id)
    table = placement.table_from_json(row.data)
    if table is None:
        raise SetupError("Эту игру нельзя внести автоматически: внесите результат вручную и отметьте игру.")
    mapping = {
        r.person_id: r.player_id
        for r in session.exec(select(PantheonPlayer).where(PantheonPlayer.season_id == season_id))
    }
    unknown = placement.unknown_players(table, mapping, {})
    if unknown:
        raise SetupError(unknown + ".")
    try:
        match = get_match(session, match_id)
    except ResultsError as e:
        raise SetupError(str(e)) from None
    reason = placement.enter(session, row, match, table, mapping, user, now=now, status=ASSIGNED)
    if reason:
        raise SetupError(reason)
    row.decided_by_user_id, row.decided_at = user.id, now
    record_audit(
        session,
        actor_user_id=user.id,
        action="pantheon.assign",
        entity="match",
        entity_id=match_id,
        after={"game": row.session_hash, "hanchan_id": row.hanchan_id},
        now=now,
    )


def ignore_game(session: Session, user: User, season_id: int, game_id: int, note: str = "", *, now: datetime) -> None:
    """The organizer decides a listed game is not the league's; the decision is recorded."""
    _organizer(user)
    row = _pending_game(session, season_id, game_id)
    row.status, row.decided_by_user_id, row.decided_at = IGNORED, user.id, now
    row.reason = f"{row.reason} — пропущена организатором{': ' + note.strip() if note.strip() else ''}"
    session.add(row)
    record_audit(
        session,
        actor_user_id=user.id,
        action="pantheon.ignore",
        entity="season",
        entity_id=season_id,
        after={"game": row.session_hash},
        reason=note.strip() or "пропущена",
        now=now,
    )


def last_summary(settings: PantheonSettings | None) -> dict[str, Any] | None:
    return json.loads(settings.last_summary) if settings and settings.last_summary else None


def match_options(session: Session, season_id: int) -> list[tuple[int, str]]:
    """Every playable match of the season with a label the organizer recognises, for assigning by hand."""
    from services.core.models import Match, MatchStatus, Round, Stage

    rows = session.exec(
        select(Match, Round)
        .join(Round, col(Round.id) == Match.round_id)
        .join(Stage, col(Stage.id) == Round.stage_id)
        .where(Stage.season_id == season_id, col(Match.status).not_in([MatchStatus.DRAFT, MatchStatus.REPLAY]))
        .order_by(col(Round.id), col(Match.id))
    ).all()
    out = []
    for match, round_ in rows:
        names = seated_names(session, saved(match.id))
        out.append((saved(match.id), f"№ {match.id}: тур {round_.code}, стол {match.table} — {', '.join(names)}"))
    return out
