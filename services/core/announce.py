"""Announcing a change once its transaction has committed, in this process and to every other one; imports no reflex.

Any connection that executed a write (INSERT, UPDATE, DELETE) marks itself. When its transaction commits:
- on PostgreSQL a `NOTIFY discard_changes` goes out inside that transaction, so PostgreSQL delivers it to every
  listener (each web worker's watcher, `discard_app/live_push.py`) exactly when — and only if — the change commits,
  whichever process made it (a web worker, the bot, the command line, the Pantheon import);
- in this process, the listeners given to `on_commit` are called right after the session's commit (a web worker's
  own change reaches its open pages without waiting for the next stamp read).
A rolled-back transaction announces nothing. A read-only transaction (a page's load) announces nothing either.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable

import sqlalchemy as sa
from sqlalchemy.orm import Session

CHANNEL = "discard_changes"
WRITES = ("insert", "update", "delete", "replace")
_WROTE = "discard_wrote"

_listeners: list[Callable[[], None]] = []
_committed = threading.local()  # a write committed on this thread since the session's last after_commit


def on_commit(listener: Callable[[], None]) -> Callable[[], None]:
    """Calls `listener()` (from whichever thread committed) after each committed write of this process; returns
    the function that removes it again."""
    _listeners.append(listener)
    return lambda: _listeners.remove(listener) if listener in _listeners else None


@sa.event.listens_for(sa.Engine, "before_cursor_execute")
def _mark_write(
    conn: sa.Connection,
    cursor: object,
    statement: str,
    parameters: object,
    context: object,
    executemany: bool,
) -> None:  # noqa: ARG001
    if statement.lstrip()[:7].lower().startswith(WRITES):
        conn.info[_WROTE] = True


@sa.event.listens_for(sa.Engine, "commit")
def _notify(conn: sa.Connection) -> None:
    """Just before the database commits a transaction that wrote: the NOTIFY rides in that transaction."""
    if not conn.info.pop(_WROTE, False):
        return
    _committed.wrote = True
    if conn.dialect.name == "postgresql":
        # The raw cursor: a statement through SQLAlchemy here would re-enter these events.
        dbapi_connection = conn.connection.dbapi_connection
        assert dbapi_connection is not None  # None only once the connection is closed, never inside a commit
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"NOTIFY {CHANNEL}")
        finally:
            cursor.close()


@sa.event.listens_for(sa.Engine, "rollback")
def _forget(conn: sa.Connection) -> None:
    conn.info.pop(_WROTE, None)


@sa.event.listens_for(Session, "after_commit")
def _announce(session: Session) -> None:  # noqa: ARG001
    """After the commit: tell this process's listeners (a failing listener never fails the committed change)."""
    if not getattr(_committed, "wrote", False):
        return
    _committed.wrote = False
    for listener in list(_listeners):
        with contextlib.suppress(Exception):  # the change is committed; a listener's trouble is its own
            listener()
