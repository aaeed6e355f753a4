"""Builds the front end the browser tests serve, into the folder given, before the tests start:

python -m tests.e2e.frontend DIR    # `make test` runs it beside mypy and names DIR in DISCARD_TEST_FRONTEND
"""

from __future__ import annotations

import sys
from pathlib import Path

from tests.e2e.conftest import build_frontend

if __name__ == "__main__":
    build_frontend(Path(sys.argv[1]))
