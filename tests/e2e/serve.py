"""Serves an already built front end and the backend on one port: what `reflex run --env prod --single-port` does
after its build (Reflex's own `run_backend_prod` with the compiled pages mounted), without building again.

    python -m tests.e2e.serve PORT    # with REFLEX_WEB_WORKDIR naming a folder `reflex export --no-zip` built

The bundle does not carry its backend's port (discard_app/same_origin.py), so one build serves every app of a test
run, each on its own port and database, side by side.
"""

from __future__ import annotations

import sys

from reflex.utils import exec as reflex_exec
from reflex_base import constants
from reflex_base.config import get_config
from reflex_base.environment import environment


def main() -> None:
    port = int(sys.argv[1])
    environment.REFLEX_ENV_MODE.set(constants.Env.PROD)
    environment.REFLEX_SKIP_COMPILE.set(True)  # the pages were compiled by the build
    loglevel = get_config().loglevel.subprocess_level()
    reflex_exec.run_backend_prod("127.0.0.1", port, loglevel, mount_frontend_compiled_app=True)


if __name__ == "__main__":
    main()
