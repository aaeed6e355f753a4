"""`discard reminders`: write the due Sunday reminder (and the reminders of proposals a day before their start) into
the bot's outbox (Регламент §3), for a timer (cron, systemd),
so a Sunday with the bot down still gets its reminder, sent when the bot is up; imports no reflex and no telegram."""

from __future__ import annotations

import argparse
import json
from datetime import datetime

from services.core.config import settings
from services.core.db import session_scope
from services.core.models import utc_now
from services.notifier.reminders import queue_due_reminder, queue_meeting_reminders, queue_proposal_reminders
from services.notifier.sunday import reminder_time_of
from services.scheduling.intervals import to_kirov

QUEUED = "Напоминание с воскресенья {day} поставлено в очередь бота{late}."
SOON_QUEUED = (
    "Напоминаний о встречах (предложенных и забронированных) за сутки до начала поставлено в очередь бота: {n}."
)
NOT_DUE = "Напоминание не нужно: оно уже в очереди, его время ещё не пришло или согласовывать нечего."


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "reminders", help="поставить в очередь бота воскресное напоминание, когда пора (для таймера; бот не нужен)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Always 0: «not due» is what most of a timer's runs answer, not a failure."""
    now = utc_now()
    with session_scope() as session:
        soon = queue_proposal_reminders(session, now=now) + queue_meeting_reminders(session, now=now)
        event = queue_due_reminder(session, now=now, reminder_time=reminder_time_of(settings))
    if soon:
        print(SOON_QUEUED.format(n=len(soon)))
    if event is None:
        print(NOT_DUE)
        return 0
    payload = json.loads(event.payload)
    day = f"{to_kirov(datetime.fromisoformat(payload['at'])):%d.%m.%Y}"
    print(QUEUED.format(day=day, late=", с опозданием" if payload.get("late") else ""))
    return 0
