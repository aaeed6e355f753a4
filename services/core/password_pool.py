"""A bounded pool of threads for password checks, so argon2 never runs on the web server's event loop."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")

WORKERS = 1  # one check at a time: argon2 takes a whole core, and the event loop needs the other one
# Checks queued or running at most; past them a login is refused at once. The line is first come, first served,
# so a login that arrives while a flood keeps the pool busy waits its turn behind what is already queued instead of
# being refused (issue 29: with eight places, eight flooding sockets of one address refused a new browser there).
MAX_WAITING = 32
# The places a flooding address's attempts may take (an address past its free failures, `rate_limit.flood_delay`);
# the rest stay free for every other address's logins, so a flood never fills the line for them.
FLOOD_PLACES = 24
# A check that waited this long for its turn is not run but answered «try again»: the event holding the tab's
# state stays well inside Reflex's 10-second state lock (with the flooding address's delay of up to 4 s).
MAX_QUEUED_SECONDS = 4.0


class PoolBusy(RuntimeError):
    """Too many password checks at once: the caller answers «try again» instead of waiting."""


class BoundedPool:
    def __init__(
        self,
        workers: int = WORKERS,
        max_waiting: int = MAX_WAITING,
        flood_places: int = FLOOD_PLACES,
        max_queued_seconds: float = MAX_QUEUED_SECONDS,
    ) -> None:
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="password")
        self._slots = threading.BoundedSemaphore(max_waiting)
        self._flood_slots = threading.BoundedSemaphore(min(flood_places, max_waiting))
        self._max_queued = max_queued_seconds

    async def run(self, fn: Callable[..., T], *args: object, flooding: bool = False) -> T:
        """Runs fn(*args) in a worker thread, in the order of arrival; PoolBusy at once when every place is taken
        (for a `flooding` caller: every place a flood may take), or when it waited past `max_queued_seconds`."""
        if flooding and not self._flood_slots.acquire(blocking=False):
            raise PoolBusy
        try:
            if not self._slots.acquire(blocking=False):
                raise PoolBusy
            try:
                queued_at = time.monotonic()

                def in_turn() -> T:
                    if time.monotonic() - queued_at > self._max_queued:
                        raise PoolBusy  # its turn came too late: not checked, the browser tries again
                    return fn(*args)

                return await asyncio.get_running_loop().run_in_executor(self._executor, in_turn)
            finally:
                self._slots.release()
        finally:
            if flooding:
                self._flood_slots.release()


password_pool = BoundedPool()
