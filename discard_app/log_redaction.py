"""Tab tokens never reach the logs: a token alone is no login (the session cookie is), but a log line that carries
one (Reflex's «delta to disconnected client '…'», a server's «WebSocket /_event/?…&token=…») hands a reader the
name of someone's tab. Every log record's message is written with its UUIDs masked, whatever logger wrote it."""

from __future__ import annotations

import logging
import re

UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
MASK = "<tab>"


class _Redacted(logging.LogRecord):
    def getMessage(self) -> str:  # noqa: N802 — logging's own name
        return UUID.sub(MASK, super().getMessage())


def install() -> None:
    """Once, when the app module is imported: every record made afterwards, by any logger, is redacted."""
    logging.setLogRecordFactory(_Redacted)
