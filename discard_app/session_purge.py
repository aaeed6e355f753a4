"""Expired login sessions are deleted once a day by a lifespan task of the site (the sessions are the site's), so
their rows do not pile up. Imports no telegram."""

from __future__ import annotations

import asyncio
import logging

from services.core.db import session_scope
from services.core.models import utc_now
from services.league.accounts import purge_expired_sessions

log = logging.getLogger(__name__)
PURGE_SECONDS = 24 * 60 * 60


def purge_once() -> int:
    """One pass with the site's clock, read once here; how many expired sessions were deleted."""
    with session_scope() as session:
        return purge_expired_sessions(session, now=utc_now())


async def session_purge_loop() -> None:
    """Runs for the app's lifetime: at start, then once a day; a failed pass is logged and tried the next day."""
    while True:
        try:
            if removed := await asyncio.to_thread(purge_once):
                log.info("Deleted %d expired login sessions", removed)
        except Exception:  # noqa: BLE001 — the site must keep serving; tomorrow's pass retries
            log.exception("Expired session purge failed")
        await asyncio.sleep(PURGE_SECONDS)
