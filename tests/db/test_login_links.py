"""Issue 44: the bot's «Открыть на сайте» — a one-time login link, opened through the site's own route as the ASGI
server calls it: it sets the same HttpOnly session cookie as the login form and opens the match's page, once, within
its few minutes, for the person it was made for."""

from __future__ import annotations

import asyncio
from contextlib import contextmanager
from datetime import timedelta

import pytest
import sqlalchemy as sa
from sqlmodel import Session

from discard_app import api, http_guard
from discard_app.api import http_api
from discard_app.http_guard import security_guard
from discard_app.session_cookie import SESSION_COOKIE
from services.core.db import session_scope
from services.core.models import utc_now
from services.core.urls import login_link_url
from services.league import accounts
from services.league.login_links import LINK_TTL, create_login_link
from tests import factories

app = security_guard(http_api)


@pytest.fixture(autouse=True)
def _database(engine: sa.Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    scope = contextmanager(lambda: (yield from _scope(engine)))
    monkeypatch.setattr(api, "session_scope", scope)
    monkeypatch.setattr(http_guard, "session_scope", scope)
    monkeypatch.setattr(http_guard, "_device_key_cache", [])


def _scope(engine: sa.Engine):  # noqa: ANN202
    with session_scope(engine) as session:
        yield session


def _open(code: str) -> tuple[int, dict[str, str], list[str], str]:
    """GET the link as a phone's browser does: status, headers, the session cookies set, the body."""
    answer: dict = {"headers": [], "body": b""}

    async def receive() -> dict:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        if message["type"] == "http.response.start":
            answer["status"], answer["headers"] = message["status"], message.get("headers", [])
        elif message["type"] == "http.response.body":
            answer["body"] += message.get("body", b"")

    path = login_link_url(code)
    scope = {
        "type": "http", "method": "GET", "path": path, "raw_path": path.encode(), "query_string": b"",
        "scheme": "https", "server": ("127.0.0.1", 3000), "client": ("10.0.0.7", 5555), "root_path": "",
        "http_version": "1.1", "asgi": {"version": "3.0"}, "headers": [(b"host", b"liga.example.ru")],
    }  # fmt: skip
    asyncio.run(app(scope, receive, send))
    headers = {k.decode().lower(): v.decode() for k, v in answer["headers"]}
    cookies = [v.decode() for k, v in answer["headers"] if k.lower() == b"set-cookie" and SESSION_COOKIE.encode() in v]
    return answer["status"], headers, cookies, answer["body"].decode()


def test_a_login_link_opens_the_matchs_page_logged_in_once(session: Session) -> None:
    league = factories.league(session)
    person = league.users[1]
    code = create_login_link(session, user_id=person.id, match_id=league.match.id, now=utc_now())
    session.commit()

    status, headers, (cookie,), _ = _open(code)
    assert status == 303 and headers["location"] == f"/match/{league.match.id}/schedule"
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Secure" in cookie
    token = cookie.split(";", 1)[0].split("=", 1)[1]
    user = accounts.user_for_token(session, token, now=utc_now())
    assert user is not None and user.id == person.id  # the person it was made for, as the login form would

    status, _, cookies, body = _open(code)  # a second opening: used up
    assert (status, cookies) == (410, []) and "уже использована или устарела" in body


def test_an_expired_or_invented_link_logs_nobody_in(session: Session) -> None:
    league = factories.league(session)
    old = create_login_link(
        session, user_id=league.users[0].id, match_id=league.match.id, now=utc_now() - LINK_TTL - timedelta(seconds=1)
    )
    session.commit()
    for code in (old, "invented-code", "1"):
        status, _, cookies, body = _open(code)
        assert (status, cookies) == (410, []) and "Открыть на сайте" in body
