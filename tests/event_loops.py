"""An async scenario run to its end from a synchronous test."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine


def run_in_a_loop_of_its_own(scenario: Callable[[], Coroutine[object, object, None]], timeout: float = 120) -> None:
    """Runs the scenario in a thread and an event loop of its own: after the browser tests, Playwright's sync API
    leaves an event loop running in the main thread, and pytest-asyncio cannot start another there. A failure is
    re-raised here; a scenario still running after `timeout` seconds fails the test."""
    failure: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(scenario())
        except BaseException as error:  # noqa: BLE001 - re-raised in the test's own thread
            failure.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout)
    assert not thread.is_alive(), "the scenario did not end"
    if failure:
        raise failure[0]
