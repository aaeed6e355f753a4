"""At most once per rendered form: a one-time action key is a primary key, claimed in the action's transaction.

The page's guarded action helper (`discard_app/state/action.py`) claims the key first, runs the service in the
same transaction and records what it answered. A second send of the same key — a double click, a resent frame —
waits for the first transaction (the key's unique index), then finds its row and answers with its result, having
changed nothing. A refused action rolls back with its claim, so the corrected form may be sent again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col

from services.core import db
from services.core.db import session_scope
from services.core.models import ActionKey, utc_now

MAX_KEY = 64


def claim(session: Session, key: str, *, user_id: int, action: str) -> None:
    """Claims the key in this transaction (flushed at once, so a concurrent claim waits for this one).

    Raises `sa.exc.IntegrityError` when the key was claimed by a committed transaction: the caller rolls back and
    reads `first_result`.
    """
    db.write(
        session, _CLAIM, {"key": key[:MAX_KEY], "user_id": user_id, "action": action, "result": "", "at": utc_now()}
    )


def record(session: Session, key: str, result: str) -> None:
    db.write(session, _RECORD, {"k": key[:MAX_KEY], "result": result})


# Built once, and run as plain statements (no ORM object to track and flush): every action claims and records
# its key (issue 26, the save's cost)
_CLAIM = sa.insert(ActionKey)
_RECORD = sa.update(ActionKey).where(col(ActionKey.key) == sa.bindparam("k")).values(result=sa.bindparam("result"))


def first_result(session: Session, key: str, *, user_id: int) -> str | None:
    """What the first send of this key answered; None when the key is not this user's (or unknown)."""
    row = session.get(ActionKey, key[:MAX_KEY])
    if row is None or row.user_id != user_id:
        return None
    return row.result


@dataclass(frozen=True)
class Performed:
    value: Any  # what the service returned; None for a repeat
    message: str
    repeated: bool = False


def perform_once(
    key: str,
    *,
    user_id: int,
    action: str,
    run: Callable[[Session], tuple[Any, str]],
    bind: sa.Engine | None = None,
) -> Performed:
    """`run(session)` -> (value, message) in one transaction with the key's claim; once per key (an empty key:
    every time). A repeat answers with the first message. The service's own errors pass through, rolled back."""
    try:
        with session_scope(bind) as session:
            if key:
                claim(session, key, user_id=user_id, action=action)
            value, message = run(session)
            if key:
                record(session, key, message)
    except sa.exc.IntegrityError:
        if not key:
            raise
        with session_scope(bind) as session:
            first = first_result(session, key, user_id=user_id)
        if first is None:  # another user's key, or the clash was the service's own
            raise
        return Performed(None, first, repeated=True)
    return Performed(value, message)
