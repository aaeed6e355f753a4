"""Counting the SQL statements a read issues: a page's reads must not grow with the season."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import sqlalchemy as sa


@contextmanager
def statements(engine: sa.Engine) -> Iterator[list[str]]:
    """The statements sent through `engine` inside the block, in order."""
    seen: list[str] = []

    def count(conn, cursor, statement, *args) -> None:  # noqa: ANN001, ANN002
        seen.append(statement)

    sa.event.listen(engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        sa.event.remove(engine, "before_cursor_execute", count)
