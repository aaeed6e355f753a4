"""Sliding-window counters of login attempts per client and in total, with the clock passed in; imports no app."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

PER_CLIENT_ATTEMPTS = 10  # a person mistyping needs a few; a script needs thousands
GLOBAL_ATTEMPTS = 60  # per window, from clients that never logged in successfully
WINDOW_SECONDS = 60.0


@dataclass
class AttemptLimiter:
    """At most `per_client` attempts per client and `total` attempts from unknown clients per window.

    A known client (one that has logged in here before) is held only to its own limit, so a flood of strangers
    cannot keep the organizer out.
    """

    per_client: int = PER_CLIENT_ATTEMPTS
    total: int = GLOBAL_ATTEMPTS
    window: float = WINDOW_SECONDS
    _clients: dict[str, deque[float]] = field(default_factory=dict)
    _all: deque[float] = field(default_factory=deque)

    def try_client(self, client: str, *, now: float) -> bool:
        """Counts one attempt of this client; False when the client has used up its window."""
        self._expire(now)
        mine = self._clients.setdefault(client, deque())
        if len(mine) >= self.per_client:
            return False
        mine.append(now)
        return True

    def try_total(self, *, known: bool, now: float) -> bool:
        """Counts one attempt toward the total unless the client is known; False when the total is used up."""
        self._expire(now)
        if known:
            return True
        if len(self._all) >= self.total:
            return False
        self._all.append(now)
        return True

    def _expire(self, now: float) -> None:
        while self._all and now - self._all[0] >= self.window:
            self._all.popleft()
        for client in list(self._clients):
            times = self._clients[client]
            while times and now - times[0] >= self.window:
                times.popleft()
            if not times:
                del self._clients[client]
