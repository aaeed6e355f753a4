"""The fake Pantheon server for the import tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.pantheon.fake_pantheon import FakePantheon


@pytest.fixture
def pantheon() -> Iterator[FakePantheon]:
    fake = FakePantheon().start()
    yield fake
    fake.stop()
