"""Serves an already built front end and the backend on one port: what `reflex run --env prod --single-port` does
after its build (Reflex's own `run_backend_prod` with the compiled pages mounted), without building again.

    python -m tests.e2e.serve PORT    # with REFLEX_WEB_WORKDIR naming a folder `reflex export --no-zip` built

The bundle does not carry its backend's port (discard_app/same_origin.py), so one build serves every app of a test
run, each on its own port and database, side by side.

For the tests that drive a tab by its websocket (tests/e2e/test_actions_protocol.py), the served app answers one more
Socket.IO event, `settled`: once no event of the app is queued or running (a handler, what it yields and what it
chains), it sends `settled` back on the same socket, after every update those events sent. A script reads until
then instead of waiting for a quiet second.
"""

from __future__ import annotations

import asyncio
import sys
import time
from typing import Any

from reflex.app import EventNamespace
from reflex.utils import exec as reflex_exec
from reflex_base import constants
from reflex_base.config import get_config
from reflex_base.environment import environment

SETTLE_SECONDS = 30.0


async def _on_settled(self: EventNamespace, sid: str, data: Any = None) -> None:  # noqa: ANN401 - the tab's own
    """`settled` back to this socket once the app's events are all done (their futures are dropped as they finish,
    with what they chained: reflex_base/event/processor/event_processor.py), or `unsettled` after SETTLE_SECONDS."""
    processor = self.app.event_processor
    deadline = time.monotonic() + SETTLE_SECONDS
    while processor._futures or (processor._queue is not None and not processor._queue.empty()):  # noqa: SLF001
        if time.monotonic() > deadline:
            await self.emit("unsettled", sorted(processor._futures), to=sid)  # noqa: SLF001
            return
        await asyncio.sleep(0.005)
    await self.emit("settled", data, to=sid)


def main() -> None:
    EventNamespace.on_settled = _on_settled  # type: ignore[attr-defined]
    port = int(sys.argv[1])
    environment.REFLEX_ENV_MODE.set(constants.Env.PROD)
    environment.REFLEX_SKIP_COMPILE.set(True)  # the pages were compiled by the build
    loglevel = get_config().loglevel.subprocess_level()
    reflex_exec.run_backend_prod("127.0.0.1", port, loglevel, mount_frontend_compiled_app=True)


if __name__ == "__main__":
    main()
