"""A bounded pool of threads for password checks, so argon2 never runs on the web server's event loop; imports no
app.

Three lanes share the line (issue 29, finding 2): OPEN for an address that is not flooding, NEWCOMER for a browser
that has not failed yet at a flooding address (a new phone on the club's Wi-Fi while scripts flood from it), FLOOD
for the flood itself. The flood's checks wait in places of their own and go after every waiting check of the other
two, so a flood that fills the line never keeps a new browser's right password out. Going last never means going
unanswered: every check has a wait, and when it is over before its turn the check is withdrawn and answered
«try again» at once.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from enum import Enum
from typing import Any, TypeVar

from services.core import rate_limit

T = TypeVar("T")

WORKERS = 1  # one check at a time: argon2 takes a whole core, and the event loop needs the other one
# Checks queued or running at most; past them a login is refused at once. Within a turn the line is first come,
# first served, so a login that arrives while a flood keeps the pool busy waits its turn instead of being refused.
MAX_WAITING = 32
# The places the flood may take (attempts from an address past its free failures, `rate_limit.flood_delay`, by a
# browser that has failed already or has no signed device); the rest stay free for everyone else's logins.
FLOOD_PLACES = 24
# The places of new browsers at flooding addresses: more than a Wi-Fi's phones type a password at once, few enough
# that a script minting a fresh device per guess (each one new until it fails) never holds the line of other
# addresses. When they are taken a new browser waits a little for one (they free at once: their checks go first),
# then waits in the flood's lane — both out of the check's one wait (`run`'s `wait`).
NEWCOMER_PLACES = 4
NEWCOMER_WAIT_SECONDS = 1.0
# The places one address may hold in the open and the flood's lanes together (the login page names the address as
# the check's `owner`; its new browsers' places come on top), and within a lane addresses take turns: a check's
# place in the line is its address's next turn, not its arrival.
# An address's first free failures are not yet a flood: in `bench/login_load.py --stranger` (when the count still
# started afresh every minute) its burst took all MAX_WAITING places at each restart, and the phones elsewhere
# (127.0.0.2) were answered «Сейчас слишком много входов» at once (all 30 of the 140 refused).
OWNER_PLACES = FLOOD_PLACES
# A check whose turn has not come this long after it asked is answered «try again» at that moment, wherever it
# waits in the line (a timer, not the thread reaching it: the flood's lane goes last, so its checks could wait for
# as long as others kept coming). The login page passes what is left of rate_limit.ANSWER_SECONDS after its
# address's delay; a check without a delay (a password change, a login from an address that does not flood) has it all.
MAX_QUEUED_SECONDS = rate_limit.ANSWER_SECONDS


class Lane(Enum):
    """Which line a check waits in."""

    OPEN = "open"
    NEWCOMER = "newcomer"
    FLOOD = "flood"


_TURN = {Lane.OPEN: 0, Lane.NEWCOMER: 0, Lane.FLOOD: 1}  # a lower turn is checked first


class PoolBusy(RuntimeError):
    """Too many password checks at once: the caller answers «try again» instead of waiting."""


class BoundedPool:
    def __init__(
        self,
        workers: int = WORKERS,
        max_waiting: int = MAX_WAITING,
        flood_places: int = FLOOD_PLACES,
        newcomer_places: int = NEWCOMER_PLACES,
        max_queued_seconds: float = MAX_QUEUED_SECONDS,
        newcomer_wait_seconds: float = NEWCOMER_WAIT_SECONDS,
        owner_places: int = OWNER_PLACES,
    ) -> None:
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="password")
        self._slots = threading.BoundedSemaphore(max_waiting)
        self._lane_slots = {
            Lane.FLOOD: threading.BoundedSemaphore(min(flood_places, max_waiting)),
            Lane.NEWCOMER: threading.BoundedSemaphore(min(newcomer_places, max_waiting)),
        }
        self._max_queued = max_queued_seconds
        self._newcomer_wait = newcomer_wait_seconds
        self._owner_places = owner_places
        self._owner_held: dict[str, int] = {}  # the open and flood places each owner holds, under the line's lock
        # A heap of (turn, the owner's turn, arrival, job): the owner's turn is one more than the turn of the check
        # that began last, or of its owner's previous check if that is later (start-time fair queueing), so an
        # address that asks once goes right after the check running, however many one flooding address has waiting.
        self._line: list[tuple[int, int, int, Callable[[], None]]] = []
        self._line_lock = threading.Lock()
        self._arrivals = itertools.count()
        self._begun = 0  # the owner's turn of the check that began last
        self._owner_turn: dict[str, int] = {}

    async def run(
        self, fn: Callable[..., T], *args: object, lane: Lane = Lane.OPEN, wait: float | None = None, owner: str = ""
    ) -> T:
        """Runs fn(*args) in a worker thread, in its lane's turn and its `owner`'s (the address asking) turn among
        the others', in the order of arrival for one owner. PoolBusy at once when every place it may take is taken
        (a NEWCOMER whose own places stay taken waits in the flood's; a named owner holds at most `owner_places`
        in the open and the flood's lanes together), and as soon as it has waited `wait` seconds
        (`max_queued_seconds` by default) without its turn coming."""
        deadline = time.monotonic() + (self._max_queued if wait is None else wait)
        if lane is Lane.NEWCOMER and not await self._newcomer_place(
            min(deadline, time.monotonic() + self._newcomer_wait)
        ):
            lane = Lane.FLOOD  # the new browsers' places stayed taken: this one waits with the flood
        if lane is Lane.FLOOD and not self._lane_slots[Lane.FLOOD].acquire(blocking=False):
            raise PoolBusy
        counted = bool(owner) and lane is not Lane.NEWCOMER  # a new browser's own places are beyond the share
        if counted and not self._owner_place(owner):
            if lane is Lane.FLOOD:
                self._lane_slots[lane].release()
            raise PoolBusy  # this address holds its share of the line: the rest stay free for other addresses
        try:
            if lane is Lane.OPEN:
                return await self._queued(fn, args, lane, deadline, owner)
            try:
                return await self._queued(fn, args, lane, deadline, owner)
            finally:
                self._lane_slots[lane].release()  # the lane's own place, taken above
        finally:
            if counted:
                self._leave_owner_place(owner)

    def _owner_place(self, owner: str) -> bool:
        with self._line_lock:
            held = self._owner_held.get(owner, 0)
            if held >= self._owner_places:
                return False
            self._owner_held[owner] = held + 1
            return True

    def _leave_owner_place(self, owner: str) -> None:
        with self._line_lock:
            if (left := self._owner_held[owner] - 1) > 0:
                self._owner_held[owner] = left
            else:
                del self._owner_held[owner]

    async def _newcomer_place(self, until: float) -> bool:
        """A new browser's place, waited for until `until`: one frees as soon as its check (the first in line) is
        over. Polled, so the pool serves any event loop."""
        while not self._lane_slots[Lane.NEWCOMER].acquire(blocking=False):
            if time.monotonic() >= until:
                return False
            await asyncio.sleep(0.02)
        return True

    async def _queued(
        self, fn: Callable[..., T], args: tuple[object, ...], lane: Lane, deadline: float, owner: str
    ) -> T:
        if not self._slots.acquire(blocking=False):
            raise PoolBusy
        try:
            loop = asyncio.get_running_loop()
            answer: asyncio.Future[T] = loop.create_future()

            def job() -> None:
                try:
                    result = fn(*args)
                except BaseException as error:  # noqa: BLE001 - handed to the waiting coroutine
                    loop.call_soon_threadsafe(_settle, answer, None, error)
                else:
                    loop.call_soon_threadsafe(_settle, answer, result, None)

            with self._line_lock:
                turn = max(self._begun, self._owner_turn.get(owner, 0)) + 1
                self._owner_turn[owner] = turn
                entry = (_TURN[lane], turn, next(self._arrivals), job)
                heapq.heappush(self._line, entry)
            self._executor.submit(self._next)  # one turn per check: a thread takes the best waiting one
            late = loop.call_later(max(0.0, deadline - time.monotonic()), self._too_late, entry, answer)
            try:
                return await answer
            finally:
                late.cancel()
                self._withdraw(entry)  # a tab that went away while it waited: nobody would read this check
        finally:
            self._slots.release()

    def _withdraw(self, entry: tuple[int, int, int, Callable[[], None]]) -> bool:
        """Takes a check out of the line if its turn has not come (True), under the line's lock: a check is either
        taken by the thread or withdrawn, never both."""
        with self._line_lock:
            try:
                self._line.remove(entry)
            except ValueError:
                return False  # its check has begun (or is over): it is answered by its result
            heapq.heapify(self._line)
            return True

    def _too_late(self, entry: tuple[int, int, int, Callable[[], None]], answer: asyncio.Future[Any]) -> None:
        if self._withdraw(entry):
            _settle(answer, None, PoolBusy())  # not checked: the browser hears «try again» now

    def _next(self) -> None:
        with self._line_lock:
            if not self._line:
                return  # the check this turn was for was withdrawn
            _, turn, _, job = heapq.heappop(self._line)
            self._begun = max(self._begun, turn)
            if len(self._owner_turn) > 4 * MAX_WAITING:  # owners with nothing waiting past the one begun
                self._owner_turn = {o: t for o, t in self._owner_turn.items() if t > self._begun}
        job()


def _settle(answer: asyncio.Future[Any], result: object, error: BaseException | None) -> None:
    if answer.done():
        return
    if error is not None:
        answer.set_exception(error)
    else:
        answer.set_result(result)


password_pool = BoundedPool()
