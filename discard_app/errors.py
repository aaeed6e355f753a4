"""What a person reads when an event handler fails in a way it did not foresee (Reflex's own toast is English).

Foreseen refusals are the handlers' own messages; this is the safety net under them. The traceback goes to the
log; the toast says, in Russian, what to do. Every unit of work rolls back on an error (`session_scope`), so a
failed action changed nothing unless it had already committed — hence «проверьте, сохранилось ли».
"""

from __future__ import annotations

import logging

import reflex as rx
from reflex.event import EventSpec

from discard_app import texts

log = logging.getLogger(__name__)


def unexpected_error(exception: Exception) -> EventSpec:
    log.error("an event handler failed", exc_info=exception)
    return rx.toast.error(texts.UNEXPECTED_ERROR, id="backend_error", position="top-center", duration=10_000)
