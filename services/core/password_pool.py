"""A bounded pool of threads for password checks, so argon2 never runs on the web server's event loop."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")

WORKERS = 1  # one check at a time: argon2 takes a whole core, and the event loop needs the other one
MAX_WAITING = 8  # beyond this many checks queued or running, a login is refused at once instead of queued


class PoolBusy(RuntimeError):
    """Too many password checks at once: the caller answers «try again» instead of waiting."""


class BoundedPool:
    def __init__(self, workers: int = WORKERS, max_waiting: int = MAX_WAITING) -> None:
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="password")
        self._slots = threading.BoundedSemaphore(max_waiting)

    async def run(self, fn: Callable[..., T], *args: object) -> T:
        """Runs fn(*args) in a worker thread; PoolBusy at once when the queue is full."""
        if not self._slots.acquire(blocking=False):
            raise PoolBusy
        try:
            return await asyncio.get_running_loop().run_in_executor(self._executor, fn, *args)
        finally:
            self._slots.release()


password_pool = BoundedPool()
