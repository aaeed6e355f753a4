"""The league's change stamp: one cheap read that moves whenever any process changes something; imports no reflex.

Every change writes an outbox event or an audit row in its own transaction (docs/architecture.md), whichever
process made it — a web worker, the bot, the command line, the Pantheon import. An open page compares this stamp
once a second and reloads its own data only when it moved, so another process's change reaches it within ~1 s
without any in-process push.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlmodel import Session, select

from services.core.models import AuditRecord, OutboxEvent


def change_stamp(session: Session) -> str:
    """The newest outbox event and audit row, as one short string (two primary-key maxima: an index read)."""
    outbox, audit = session.exec(select(sa.func.max(OutboxEvent.id), sa.func.max(AuditRecord.id))).one()
    return f"{outbox or 0}:{audit or 0}"
