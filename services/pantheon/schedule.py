"""The Pantheon import repeated every N minutes (a live match day), for a background thread; imports no reflex."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import timedelta

import sqlalchemy as sa

from services.pantheon.sync import SyncError, SyncSummary, run_sync

log = logging.getLogger(__name__)


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
