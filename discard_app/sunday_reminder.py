"""The site's share of the Sunday reminder (Регламент §3): a lifespan task asks once a minute whether it is due (and
whether an open proposal is due for its reminder a day before its start).

So a Sunday evening with the bot down still gets its reminder: the site writes it into the outbox (once per Sunday
across every process, `services/notifier/reminders.py`) and the bot sends it when it is up. Imports no telegram.
"""

from __future__ import annotations

import asyncio
import logging

from services.core.config import settings
from services.core.db import session_scope
from services.core.models import utc_now
from services.notifier.reminders import queue_due_reminder, queue_meeting_reminders, queue_proposal_reminders
from services.notifier.sunday import reminder_time_of

log = logging.getLogger(__name__)
CHECK_SECONDS = 60


def queue_if_due() -> bool:
    """One check with the site's clock, read once here (the shell's); True when this process wrote the Sunday
    reminder. The proposals and booked meetings due for their reminder a day before their start are written in the
    same check."""
    now = utc_now()
    with session_scope() as session:
        queue_proposal_reminders(session, now=now)
        queue_meeting_reminders(session, now=now)
        return queue_due_reminder(session, now=now, reminder_time=reminder_time_of(settings)) is not None


async def sunday_reminder_loop() -> None:
    """Runs for the app's lifetime; a failed check (the database restarting) is logged and tried a minute later."""
    while True:
        try:
            # Reading the pending matches computes their common options: off the event loop.
            if await asyncio.to_thread(queue_if_due):
                log.info("Sunday reminder queued by the site")
        except Exception:  # noqa: BLE001 — the site must keep serving; the next minute retries
            log.exception("Sunday reminder check failed")
        await asyncio.sleep(CHECK_SECONDS)
