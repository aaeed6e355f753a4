"""What a tab shows that must not rest in its state: kept in this process's memory per tab, never pickled.

Reflex pickles every var of a tab's state — public or underscore — into the state files (or Redis) and keeps
them until the tab has been idle about an hour, also after the tab was closed. The organizer's view of every
player's intervals and a person's calendar-feed link are kept here instead, under the tab's token, and shown
through computed vars that are not cached (recomputed for each update, so never stored on the state; Reflex keeps
on the state what it last sent of such a var to skip resending it — the value itself for a string, only a digest
for a list — so these vars return lists). A tab's
entries go when its pages are forgotten (leaving the page, another session) and after an hour untouched; a
restart forgets them all, and the page reads them again at its next load. A tab's events reach the worker that
holds its websocket, which is the worker whose memory this is.
"""

from __future__ import annotations

import threading
import time
from typing import TypeVar

T = TypeVar("T")
IDLE_SECONDS = 3600.0

_memory: dict[str, tuple[float, dict[str, object]]] = {}
_lock = threading.Lock()


def remember(tab: str, key: str, value: object) -> None:
    now = time.monotonic()
    with _lock:
        for other, (at, _) in list(_memory.items()):
            if now - at > IDLE_SECONDS:
                del _memory[other]
        entry = _memory.setdefault(tab, (now, {}))[1]
        entry[key] = value
        _memory[tab] = (now, entry)


def recall(tab: str, key: str, default: T) -> T:
    with _lock:
        found = _memory.get(tab)
        return found[1].get(key, default) if found else default  # type: ignore[return-value]


def forget(tab: str) -> None:
    with _lock:
        _memory.pop(tab, None)
