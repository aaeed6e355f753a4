"""One bounded pool of threads for password checks, so argon2 never runs on the web server's event loop; imports
no app.

A check waits at most ANSWER_SECONDS for its turn and its run; past that, or when PLACES checks are already queued
or running, the caller is answered «try again shortly» (PoolBusy) instead of waiting on. Floods are kept out before
the pool (services/league/login_guard.py), so the line stays short.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")

WORKERS = 1  # argon2id at one lane takes one core; the event loop keeps the other
PLACES = 32  # checks queued or running at most: at ~25 ms each, under a second of work
# Well inside Reflex's 10-second state lock with Redis, which the login event holds throughout.
ANSWER_SECONDS = 6.0


class PoolBusy(RuntimeError):
    """The check did not get its turn in time: the caller answers «try again shortly»."""


class PasswordPool:
    def __init__(self, workers: int = WORKERS, places: int = PLACES, seconds: float = ANSWER_SECONDS) -> None:
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="password")
        self._places = threading.BoundedSemaphore(places)  # a thread's semaphore: any event loop may ask
        self._seconds = seconds

    async def run(self, fn: Callable[..., T], *args: object) -> T:
        """fn(*args) in the pool's thread, or PoolBusy at once when every place is taken, or once ANSWER_SECONDS
        have passed (a check that has not begun by then is withdrawn: asyncio cancels its future)."""
        if not self._places.acquire(blocking=False):
            raise PoolBusy
        try:
            check = asyncio.get_running_loop().run_in_executor(self._executor, fn, *args)
            return await asyncio.wait_for(check, self._seconds)
        except TimeoutError:
            raise PoolBusy from None
        finally:
            self._places.release()


password_pool = PasswordPool()
