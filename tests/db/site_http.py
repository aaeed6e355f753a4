"""The site's HTTP routes beside Reflex, called as the ASGI server calls them (through the security guard), for the
db tests of those routes; their database is the test's (`http_routes` in tests/db/conftest.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field

from discard_app.api import http_api
from discard_app.http_guard import security_guard
from discard_app.session_cookie import SESSION_COOKIE

HOST = "liga.example.ru"
SITE = f"https://{HOST}"
app = security_guard(http_api)


@dataclass
class Answer:
    status: int = 0
    headers: list[tuple[bytes, bytes]] = field(default_factory=list)
    body: bytes = b""
    read: int = 0  # bytes of the request body the app pulled from the server

    @property
    def cookies(self) -> list[str]:
        return [v.decode() for k, v in self.headers if k.lower() == b"set-cookie" and SESSION_COOKIE.encode() in v]

    def header(self, name: str) -> str:
        return next((v.decode() for k, v in self.headers if k.decode().lower() == name), "")


def call(
    path: str,
    *,
    headers: dict[str, str],
    chunks: Sequence[bytes] = (),
    method: str = "POST",
    scheme: str = "http",
) -> Answer:
    """One request: `chunks` are the body as the server streams it; the answer with what the app read of it."""
    answer = Answer()
    pending = list(chunks)

    async def receive() -> dict:
        if not pending:
            return {"type": "http.disconnect"}
        chunk = pending.pop(0)
        answer.read += len(chunk)
        return {"type": "http.request", "body": chunk, "more_body": bool(pending)}

    async def send(message: dict) -> None:
        if message["type"] == "http.response.start":
            answer.status, answer.headers = message["status"], list(message.get("headers", []))
        elif message["type"] == "http.response.body":
            answer.body += message.get("body", b"")

    scope = {
        "type": "http", "method": method, "path": path, "raw_path": path.encode(), "query_string": b"",
        "scheme": scheme, "server": ("127.0.0.1", 3000), "client": ("10.0.0.7", 5555), "root_path": "",
        "http_version": "1.1", "asgi": {"version": "3.0"},
        "headers": [(b"host", HOST.encode()), *((k.lower().encode(), v.encode()) for k, v in headers.items())],
    }  # fmt: skip
    asyncio.run(app(scope, receive, send))
    return answer
