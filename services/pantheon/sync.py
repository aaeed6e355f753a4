"""The Pantheon import: read the event's finished games newest first and place each one; imports no reflex.

One transaction per game, so a failure part-way leaves the games before it imported and a rerun completes.
Every import reads the whole season (paged) and compares each game's content (its reconstructed results) with
what was imported, so a game re-scored in Pantheon is followed whenever it ended. One import runs at a time,
across processes: it takes a lease on the season's Pantheon settings; a second one is told that one is running.
"""

from __future__ import annotations

import json
import logging
import os
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlmodel import Session, col, func, select

from services.core.db import session_scope
from services.core.errors import LeagueError
from services.core.models import PantheonGame, PantheonPlayer, PantheonSettings, Role, Season, User, utc_now
from services.core.ruleset import of_season
from services.pantheon import placement
from services.pantheon.client import PantheonClient, PantheonError
from services.pantheon.games import GameConfig, GameResult
from services.pantheon.penalties import apply_penalty
from services.pantheon.placement import IGNORED, IMPORTED, PENDING, PLACED
from services.pantheon.reconstruct import ReconstructError, TableGame, ended_at_utc, reconstruct
from services.scheduling.rules import format_kirov

log = logging.getLogger(__name__)

PAGE_SIZE = 50
# How long an import's lease holds without being renewed (it is renewed on every page): a crashed import's
# lease runs out by itself.
LEASE = timedelta(minutes=10)
NO_SETTINGS = "Сначала укажите адрес API Pantheon и номер события."
RUNNING = "Импорт из Pantheon уже идёт (запущен {since}): дождитесь его окончания."


class SyncError(LeagueError):
    """The import cannot start (no settings, not the organizer, already running); the message is Russian."""


@dataclass
class SyncSummary:
    read: int = 0
    imported: int = 0
    updated: int = 0
    unchanged: int = 0
    pending: int = 0  # games on the organizer's list awaiting a decision after this import
    penalties: int = 0  # Pantheon penalties recorded as league conduct penalties by this import
    error: str | None = None
    finished: bool = False

    def text(self) -> str:
        line = (
            f"Прочитано игр: {self.read}; импортировано: {self.imported}; обновлено: {self.updated}; "
            f"без изменений: {self.unchanged}; требуют решения: {self.pending}."
        )
        if self.penalties:
            line += f" Штрафов из Pantheon внесено: {self.penalties}."
        return f"{line} Ошибка: {self.error}" if self.error else line


Progress = Callable[[SyncSummary], None]
Clock = Callable[[], datetime]


def _mapping(session: Session, season_id: int) -> tuple[dict[int, int], dict[int, str]]:
    rows = session.exec(select(PantheonPlayer).where(PantheonPlayer.season_id == season_id)).all()
    return {r.person_id: r.player_id for r in rows}, {r.person_id: r.title for r in rows}


def _end(game: GameResult, config: GameConfig) -> datetime | None:
    try:
        return ended_at_utc(game.date, config.timezone)
    except ReconstructError:
        return None


def _pending(row: PantheonGame, reason: str) -> str:
    row.status, row.reason = PENDING, reason
    return "pending"


def apply_game(
    session: Session,
    season_id: int,
    game: GameResult,
    config: GameConfig,
    mapping: dict[int, int],
    titles: dict[int, str],
    actor: User,
    *,
    now: datetime,
) -> str:
    """Upsert one game by its hash; returns imported | updated | unchanged | pending."""
    table: TableGame | None
    try:
        table = reconstruct(game, config, of_season(session.get(Season, season_id)))
        data, problem = json.dumps(table.as_json(), sort_keys=True), ""
    except ReconstructError as e:
        table, data, problem = None, "", str(e)
    row = session.exec(
        select(PantheonGame).where(PantheonGame.season_id == season_id, PantheonGame.session_hash == game.session_hash)
    ).first()
    if row is None:
        row = PantheonGame(season_id=season_id, session_hash=game.session_hash, data=data, status=PENDING)
    elif row.data == data and row.status != PENDING:
        return "unchanged"
    was_placed = row.status in PLACED
    row.data, row.ended_at, row.updated_at = data, _end(game, config), now
    session.add(row)
    session.flush()
    if row.status == IGNORED:
        return "unchanged"  # the organizer's decision stands; the new version is kept for the record
    if table is None:
        prefix = f"{placement.CHANGED_REASON}: " if was_placed else ""
        return _pending(row, prefix + problem)
    if was_placed:
        reason = placement.replace(session, row, table, mapping, actor, now=now)
        return _pending(row, reason) if reason else "updated"
    return place(session, season_id, row, table, mapping, titles, actor, now=now)


def place(
    session: Session,
    season_id: int,
    row: PantheonGame,
    table: TableGame,
    mapping: dict[int, int],
    titles: dict[int, str],
    actor: User,
    *,
    now: datetime,
) -> str:
    match, reason = placement.find_match(session, season_id, table, mapping, titles)
    if match is not None:
        reason = placement.enter(session, row, match, table, mapping, actor, now=now) or ""
    return _pending(row, reason) if reason else "imported"


def _count(summary: SyncSummary, outcome: str) -> None:
    if outcome != "pending":
        setattr(summary, outcome, getattr(summary, outcome) + 1)


def run_sync(
    season_id: int,
    actor_user_id: int,
    *,
    client: PantheonClient | None = None,
    bind: sa.Engine | None = None,
    page_size: int = PAGE_SIZE,
    progress: Progress | None = None,
    clock: Clock = utc_now,
) -> SyncSummary:
    """Import the season's Pantheon event; the summary carries a Russian error instead of raising mid-way.

    A long job of many transactions, so it takes a clock, not one instant (like the notifier): each game, the
    lease and each penalty read it once, and what they store comes from that reading."""
    owner = f"{os.getpid()}:{uuid.uuid4().hex[:8]}"
    _take_lease(season_id, owner, bind, now=clock())
    try:
        with session_scope(bind) as session:
            actor = session.get(User, actor_user_id)
            if actor is None or actor.role != Role.ORGANIZER:
                raise SyncError("Импорт из Pantheon запускает организатор.")
            settings = session.get(PantheonSettings, season_id)
            if settings is None:
                raise SyncError(NO_SETTINGS)
            mapping, titles = _mapping(session, season_id)
        own = client is None
        try:
            client = client or PantheonClient(
                settings.api_url, admin_token=settings.admin_token, admin_person_id=settings.admin_person_id
            )
        except PantheonError as e:  # a stored address that is not http(s): said like any setup problem
            raise SyncError(str(e)) from None
        try:
            return _sync(season_id, settings, actor, client, mapping, titles, bind, page_size, progress, owner, clock)
        finally:
            if own:
                client.close()
    finally:
        _lease(season_id, owner, bind, now=clock(), release=True)


def _take_lease(season_id: int, owner: str, bind: sa.Engine | None, *, now: datetime) -> None:
    """One conditional UPDATE: the database lets exactly one of two simultaneous imports have it."""
    with session_scope(bind) as session:
        result = session.execute(
            sa.update(PantheonSettings)
            .where(
                col(PantheonSettings.season_id) == season_id,
                sa.or_(col(PantheonSettings.sync_until).is_(None), col(PantheonSettings.sync_until) < now),
            )
            .values(sync_owner=owner, sync_until=now + LEASE)
        )
        assert isinstance(result, sa.CursorResult)  # an UPDATE's result counts its rows
        if result.rowcount:
            return
        settings = session.get(PantheonSettings, season_id)
    if settings is None:
        raise SyncError(NO_SETTINGS)
    since = format_kirov(settings.sync_until - LEASE) if settings.sync_until else "только что"
    raise SyncError(RUNNING.format(since=since))


def _lease(season_id: int, owner: str, bind: sa.Engine | None, *, now: datetime, release: bool = False) -> None:
    with session_scope(bind) as session:
        session.execute(
            sa.update(PantheonSettings)
            .where(col(PantheonSettings.season_id) == season_id, col(PantheonSettings.sync_owner) == owner)
            .values(sync_owner=None if release else owner, sync_until=None if release else now + LEASE)
        )


def _sync(
    season_id: int,
    settings: PantheonSettings,
    actor: User,
    client: PantheonClient,
    mapping: dict[int, int],
    titles: dict[int, str],
    bind: sa.Engine | None,
    page_size: int,
    progress: Progress | None,
    owner: str,
    clock: Clock,
) -> SyncSummary:
    summary = SyncSummary()
    seen: set[str] = set()
    newest: datetime | None = None
    complete = False
    try:
        config = client.get_game_config(settings.event_id)
        offset = 0
        while True:
            _lease(season_id, owner, bind, now=clock())
            page = client.get_last_games(settings.event_id, limit=page_size, offset=offset)
            names = {**{p.id: p.title for p in page.players}, **titles}
            batch = []
            # The whole season, every time: a game re-scored in Pantheon keeps its end time, so no cut-off by
            # time is safe; an unchanged game costs one comparison of its content.
            for game in page.games:
                end = _end(game, config)
                newest = max(filter(None, (newest, end)), default=None)
                if game.session_hash not in seen:
                    batch.append(game)
                    seen.add(game.session_hash)
            # Oldest first inside a page, so a match's hanchans are numbered in order as they arrive.
            for game in sorted(batch, key=lambda g: g.date):
                summary.read += 1
                with session_scope(bind) as session:
                    outcome = apply_game(session, season_id, game, config, mapping, names, actor, now=clock())
                _count(summary, outcome)
                if progress:
                    progress(summary)
            offset += len(page.games)
            if not page.games or len(page.games) < page_size or offset >= page.total:
                complete = True
                break
    except (PantheonError, SyncError) as e:
        summary.error = str(e)
    except sa.exc.SQLAlchemyError:
        log.exception("Pantheon import stopped by a database error")
        summary.error = "Ошибка базы данных, импорт остановлен. Повторите импорт."
    retry_pending(season_id, actor, seen, summary, bind, clock=clock)
    if client.has_admin:  # the admin credentials are optional: without them penalties are entered by hand
        import_penalties(season_id, settings.event_id, actor, client, summary, bind, clock=clock)
    with session_scope(bind) as session:
        row = session.get_one(PantheonSettings, season_id)
        if complete and newest is not None:
            row.synced_through = max(filter(None, (row.synced_through, newest)))
        summary.pending = session.exec(
            select(func.count()).where(PantheonGame.season_id == season_id, PantheonGame.status == PENDING)
        ).one()
        summary.finished = True
        row.last_summary = json.dumps(asdict(summary), ensure_ascii=False)
        session.add(row)
    if progress:
        progress(summary)
    return summary


def retry_pending(
    season_id: int, actor: User, seen: set[str], summary: SyncSummary, bind: sa.Engine | None, *, clock: Clock
) -> None:
    """Games waiting on the list are tried again: the organizer may have mapped a player or fixed a window."""
    with session_scope(bind) as session:
        ids = session.exec(
            select(PantheonGame.id).where(
                PantheonGame.season_id == season_id,
                PantheonGame.status == PENDING,
                col(PantheonGame.session_hash).not_in(seen),
                PantheonGame.data != "",
            )
        ).all()
    for game_id in ids:
        with session_scope(bind) as session:
            mapping, titles = _mapping(session, season_id)
            row = session.get_one(PantheonGame, game_id)
            table = placement.table_from_json(row.data)
            assert table is not None  # read among the games with data
            outcome = place(session, season_id, row, table, mapping, titles, actor, now=clock())
        if outcome == IMPORTED:
            summary.imported += 1


def import_penalties(
    season_id: int,
    event_id: int,
    actor: User,
    client: PantheonClient,
    summary: SyncSummary,
    bind: sa.Engine | None,
    *,
    clock: Clock,
) -> None:
    """Регламент §6.3: Pantheon's penalties become conduct penalties of their matches, each once.

    A failure here (no rights, a bad token) is reported in the summary; the games imported above stay imported.
    """
    try:
        items = client.list_penalties(event_id)
        for item in items:
            with session_scope(bind) as session:
                mapping, titles = _mapping(session, season_id)
                outcome = apply_penalty(session, season_id, item, mapping, titles, actor, now=clock())
            summary.penalties += int(outcome == "added")
    except PantheonError as e:
        _add_error(summary, f"штрафы из Pantheon не прочитаны: {e}")
    except sa.exc.SQLAlchemyError as e:
        log.exception("Pantheon penalties stopped by a database error")
        _add_error(summary, f"ошибка базы данных при записи штрафов ({type(e).__name__}), повторите импорт")


def _add_error(summary: SyncSummary, problem: str) -> None:
    """Keep an earlier error of the games import: the organizer needs to see both."""
    summary.error = f"{summary.error}; {problem}" if summary.error else problem[0].upper() + problem[1:]
