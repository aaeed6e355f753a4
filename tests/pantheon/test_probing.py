"""Issue 29: the Pantheon address field must not probe which internal ports answer. Whatever answers not as
Pantheon — an HTTP error, an HTML page, a JSON that is not Pantheon's, a refused connection, a timeout — reads as
the same one message; the operator's log keeps what it was."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest

from services.pantheon import client as pantheon_client
from services.pantheon.client import NOT_PANTHEON, PantheonClient, PantheonError
from tests.pantheon.fake_pantheon import EVENT

# What some internal service might answer at a guessed address: (status, content type, body, delay in seconds).
ANSWERS = {
    "404": (404, "text/plain", b"not found"),
    "500": (500, "application/json", b'{"code": "internal", "msg": "redis at 10.0.0.5 refused"}'),
    "401": (401, "text/plain", b"who are you"),
    "302": (302, "text/plain", b""),
    "html": (200, "text/html", b"<html>admin panel</html>"),
    "other json": (200, "application/json", b'["status ok", "version 7.2"]'),
    "slow": (200, "application/json", b"{}"),
}


class _Service(BaseHTTPRequestHandler):
    answer: tuple[int, str, bytes] = (404, "text/plain", b"")
    delay = 0.0

    def log_message(self, *_: Any) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        time.sleep(self.delay)
        status, kind, body = self.answer
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        if 300 <= status < 400:
            self.send_header("Location", "http://127.0.0.1:1/elsewhere")
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def service(request: pytest.FixtureRequest) -> Iterator[str]:
    name = request.param
    handler = type("Answer", (_Service,), {"answer": ANSWERS[name], "delay": 1.0 if name == "slow" else 0.0})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def closed_port() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}"


def _message(url: str) -> PantheonError:
    with PantheonClient(url) as client, pytest.raises(PantheonError) as error:
        client.get_registered_players(EVENT)
    return error.value


@pytest.mark.parametrize("service", list(ANSWERS), indirect=True)
def test_every_non_pantheon_answer_reads_as_a_closed_port(
    service: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(pantheon_client, "TIMEOUT", httpx.Timeout(0.3))  # "slow" answers after a second
    answered, refused = _message(service), _message(closed_port())
    assert str(answered) == str(refused) == NOT_PANTHEON
    assert answered.detail != refused.detail  # the operator still learns what it was
    assert service in caplog.text  # the log names the address that answered
    for leaked in ("redis", "admin panel", "version", "HTTP", "404", "500"):
        assert leaked not in str(answered)
