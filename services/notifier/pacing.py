"""How long to wait before the next call to a chat, within Telegram's limits; pure, imports no telegram.

Telegram's published limits: about one message a second in one chat, at most 20 messages a minute in one group,
about 30 a second overall; beyond them it answers 429. A backlog (the bot was down through a busy evening) goes
out at this pace instead of in one burst.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field

Limits = tuple[tuple[int, float], ...]  # (at most this many calls, per this many seconds)
GROUP_LIMITS: Limits = ((20, 60.0), (1, 1.0))
PRIVATE_LIMITS: Limits = ((1, 1.0),)
OVERALL_LIMITS: Limits = ((30, 1.0),)


def wait_seconds(times: Sequence[float], now: float, limits: Limits) -> float:
    """Seconds until one more call fits every limit, given the earlier calls' times (oldest first)."""
    wait = 0.0
    for limit, window in limits:
        recent = [t for t in times if now - t < window]
        if len(recent) >= limit:
            wait = max(wait, recent[-limit] + window - now)
    return wait


@dataclass
class Pace:
    """The calls made per chat, to pace the next one; groups are the chats with a negative id."""

    group: Limits = GROUP_LIMITS
    private: Limits = PRIVATE_LIMITS
    overall: Limits = OVERALL_LIMITS
    _chats: dict[int, deque[float]] = field(default_factory=dict)
    _all: deque[float] = field(default_factory=deque)

    def wait(self, chat_id: int, now: float) -> float:
        mine = self._chats.get(chat_id, ())
        limits = self.group if chat_id < 0 else self.private
        return max(wait_seconds(mine, now, limits), wait_seconds(self._all, now, self.overall))

    def record(self, chat_id: int, now: float) -> None:
        keep = max(window for _, window in (*self.group, *self.private, *self.overall))
        for times in (self._chats.setdefault(chat_id, deque()), self._all):
            times.append(now)
            while times and now - times[0] >= keep:
                times.popleft()
