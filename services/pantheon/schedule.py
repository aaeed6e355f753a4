"""The Pantheon import repeated every N minutes (a live match day), for a background thread, the bot's job queue
or `discard pantheon sync --every N`; imports no reflex and no telegram."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import timedelta

import sqlalchemy as sa
from sqlmodel import col, select

from services.core.db import session_scope
from services.core.models import Role, User
from services.pantheon.sync import SyncError, SyncSummary, run_sync
from services.results.repo import current_season_id

log = logging.getLogger(__name__)


def organizer_id(bind: sa.Engine | None = None, login: str | None = None) -> int | None:
    """The organizer the import is recorded as: the named one, else the first."""
    with session_scope(bind) as session:
        query = select(User.id).where(User.role == Role.ORGANIZER).order_by(col(User.id))
        if login:
            query = query.where(User.login_name == login)
        return session.exec(query).first()


def sync_current_season(bind: sa.Engine | None = None) -> SyncSummary | None:
    """One scheduled import of the latest season as its first organizer; None (logged) when it cannot start."""
    with session_scope(bind) as session:
        season_id = current_season_id(session)
    actor = organizer_id(bind)
    if season_id is None or actor is None:
        log.info("Pantheon import skipped: no season or no organizer yet")
        return None
    try:
        summary = run_sync(season_id, actor, bind=bind)
    except SyncError as e:  # no Pantheon settings yet, or an import from the page is running
        log.info("Pantheon import skipped: %s", e)
        return None
    if summary.error:
        log.warning("Pantheon import stopped: %s", summary.error)
    else:
        log.info("Pantheon import: %s", summary.text())
    return summary


def run_sync_periodically(
    season_id: int,
    actor_user_id: int,
    *,
    every: timedelta,
    stop: threading.Event,
    bind: sa.Engine | None = None,
    on_summary: Callable[[SyncSummary], None] | None = None,
) -> None:
    """Import, wait `every`, repeat until `stop` is set; a failed run is logged and the next one continues it."""
    while not stop.is_set():
        try:
            summary = run_sync(season_id, actor_user_id, bind=bind)
        except SyncError as e:
            log.warning("Pantheon import skipped: %s", e)
        else:
            if summary.error:
                log.warning("Pantheon import stopped: %s", summary.error)
            if on_summary:
                on_summary(summary)
        stop.wait(every.total_seconds())
