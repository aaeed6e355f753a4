"""Tab tokens never reach the logs (issue 40 item 3): the messages Reflex and the server write with one."""

from __future__ import annotations

import io
import logging
import uuid

import pytest

from discard_app import log_redaction


@pytest.fixture
def written() -> io.StringIO:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logging.Formatter("%(name)s %(message)s"))
    logging.getLogger().addHandler(handler)
    before = logging.getLogRecordFactory()
    log_redaction.install()
    yield out
    logging.setLogRecordFactory(before)
    logging.getLogger().removeHandler(handler)


def test_a_tab_token_is_masked_in_reflexs_and_the_servers_lines(written: io.StringIO) -> None:
    token = str(uuid.uuid4())
    logging.getLogger("reflex.app").warning(f"Attempting to send delta to disconnected client {token!r}")
    logging.getLogger("uvicorn.error").warning(
        '%s - "WebSocket %s" [accepted]', "127.0.0.1:5000", f"/_event/?EIO=4&transport=websocket&token={token}"
    )
    text = written.getvalue()
    assert token not in text and token.upper() not in text
    assert text.count(log_redaction.MASK) == 2 and "disconnected client" in text and "[accepted]" in text
