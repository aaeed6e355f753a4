"""The HTTP routes beside Reflex, called as the ASGI server calls them: a body is refused by its declared size
before a byte of it is read and is cut off past its cap while streaming; `/auth/forget` and `/auth/adopt` act only
for a request from the site's own pages."""

from __future__ import annotations

import asyncio
from contextlib import contextmanager
from dataclasses import dataclass, field

import pytest
import sqlalchemy as sa
from sqlmodel import Session

from discard_app import api, http_guard
from discard_app.api import http_api
from discard_app.http_guard import security_guard
from discard_app.session_cookie import ADOPT_PATH, FORGET_PATH, SESSION_COOKIE
from services.core.db import session_scope
from services.core.models import utc_now
from services.league import accounts
from tests import factories

HOST = "liga.example.ru"
SITE = f"https://{HOST}"
app = security_guard(http_api)


@pytest.fixture(autouse=True)
def _database(engine: sa.Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    scope = contextmanager(lambda: (yield from _scope(engine)))
    monkeypatch.setattr(api, "session_scope", scope)
    # The guard signs device cookies with the site's key, read from this test's database.
    monkeypatch.setattr(http_guard, "session_scope", scope)
    monkeypatch.setattr(http_guard, "_device_key_cache", [])


def _scope(engine: sa.Engine):  # noqa: ANN202
    with session_scope(engine) as session:
        yield session


@dataclass
class Answer:
    status: int = 0
    headers: list[tuple[bytes, bytes]] = field(default_factory=list)
    body: bytes = b""
    read: int = 0  # bytes of the request body the app pulled from the server

    @property
    def cookies(self) -> list[str]:
        return [v.decode() for k, v in self.headers if k.lower() == b"set-cookie" and SESSION_COOKIE.encode() in v]


def call(path: str, *, headers: dict[str, str], chunks: list[bytes] = ()) -> Answer:  # type: ignore[assignment]
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
        "type": "http", "method": "POST", "path": path, "raw_path": path.encode(), "query_string": b"",
        "scheme": "http", "server": ("127.0.0.1", 3000), "client": ("10.0.0.7", 5555), "root_path": "",
        "http_version": "1.1", "asgi": {"version": "3.0"},
        "headers": [(b"host", HOST.encode()), *((k.lower().encode(), v.encode()) for k, v in headers.items())],
    }  # fmt: skip
    asyncio.run(app(scope, receive, send))
    return answer


def _logged_in(engine: sa.Engine) -> str:
    with Session(engine, expire_on_commit=False) as session:
        token = accounts.start_session(session, factories.user(session), now=utc_now(), session_days=30)
        session.commit()
    return token


def _alive(engine: sa.Engine, token: str) -> bool:
    with Session(engine) as session:
        return accounts.user_for_token(session, token, now=utc_now()) is not None


@pytest.mark.parametrize("origin", ["https://evil.example", "null", f"http://{HOST}.evil.example"])
def test_another_site_cannot_log_a_browser_out(engine: sa.Engine, origin: str) -> None:
    token = _logged_in(engine)
    answer = call(FORGET_PATH, headers={"origin": origin, "cookie": f"{SESSION_COOKIE}={token}", "content-length": "0"})
    assert answer.status == 403
    assert answer.cookies == []  # the victim's cookie is not touched
    assert _alive(engine, token)


def test_the_sites_own_logout_drops_the_cookie_and_the_session(engine: sa.Engine) -> None:
    token = _logged_in(engine)
    answer = call(FORGET_PATH, headers={"origin": SITE, "cookie": f"{SESSION_COOKIE}={token}", "content-length": "0"})
    assert answer.status == 200
    assert answer.cookies and "Max-Age=0" in answer.cookies[0]
    assert not _alive(engine, token)


def test_adopt_refuses_a_huge_body_by_its_declared_size_without_reading_it(engine: sa.Engine) -> None:
    chunk = b"x" * (1024 * 1024)
    answer = call(ADOPT_PATH, headers={"content-length": str(150 * len(chunk))}, chunks=[chunk] * 150)
    assert answer.status == 413
    assert answer.read == 0


def test_adopt_cuts_a_body_that_streams_past_its_cap(engine: sa.Engine) -> None:
    chunk = b"x" * (64 * 1024)
    answer = call(ADOPT_PATH, headers={"origin": SITE, "transfer-encoding": "chunked"}, chunks=[chunk] * 100)
    assert answer.status in (411, 413)
    assert answer.read <= len(chunk)
    answer = call(ADOPT_PATH, headers={"origin": SITE, "content-length": "40"}, chunks=[chunk] * 100)  # a lie
    assert answer.status == 403  # the token is cut at its declared 40 bytes: no session of that name
    assert answer.read <= len(chunk)


def test_adopt_from_another_site_is_refused_before_its_body(engine: sa.Engine) -> None:
    token = _logged_in(engine)
    body = token.encode()
    answer = call(ADOPT_PATH, headers={"origin": "null", "content-length": str(len(body))}, chunks=[body])
    assert answer.status == 403 and answer.cookies == [] and answer.read == 0


def test_adopt_from_the_site_sets_the_cookie(engine: sa.Engine) -> None:
    token = _logged_in(engine)
    body = token.encode()
    answer = call(ADOPT_PATH, headers={"origin": SITE, "content-length": str(len(body))}, chunks=[body])
    assert answer.status == 200
    assert answer.cookies and answer.cookies[0].startswith(f"{SESSION_COOKIE}={token};")


def test_any_other_route_refuses_a_body_past_its_cap(engine: sa.Engine) -> None:
    chunk = b"x" * (1024 * 1024)
    answer = call("/calendar/club.ics", headers={"content-length": str(150 * len(chunk))}, chunks=[chunk] * 150)
    assert answer.status == 413 and answer.read == 0
