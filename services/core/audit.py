"""The audit trail: who changed what, when, from what to what, and why; imports no reflex."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from sqlmodel import Session

from services.core.models import AuditRecord


def _json(value: Any) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False, default=str, sort_keys=True)


def record_audit(
    session: Session,
    *,
    actor_user_id: int | None,
    action: str,
    entity: str,
    entity_id: int | None = None,
    before: Any = None,
    after: Any = None,
    reason: str = "",
    now: datetime | None = None,
) -> AuditRecord:
    """Adds the record to the caller's transaction: it commits or rolls back with the change. `now` is the change's
    instant (the column's own default only until every caller passes it)."""
    row = AuditRecord(
        actor_user_id=actor_user_id,
        action=action,
        entity=entity,
        entity_id=entity_id,
        before=_json(before),
        after=_json(after),
        reason=reason,
    )
    if now is not None:
        row.at = now
    session.add(row)
    return row
