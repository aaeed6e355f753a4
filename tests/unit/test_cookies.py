"""The site's cookies carry `Secure` over https and, behind a TLS proxy, whenever the public address is https."""

from __future__ import annotations

import asyncio
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import pytest

from discard_app import http_guard
from discard_app.session_cookie import DEVICE_COOKIE, adopt_cookie, cookies_secure
from services.core import security
from services.core.config import Settings


@pytest.mark.parametrize(
    ("scheme", "public_url", "secure"),
    [
        ("https", None, True),
        ("http", None, False),
        ("http", "http://127.0.0.1:3000", False),
        ("http", "https://liga.example.ru", True),  # the proxy speaks http to the app; the players use https
        ("http", "HTTPS://liga.example.ru", True),
    ],
)
def test_cookies_are_secure_when_the_site_is_reached_over_https(scheme: str, public_url: str | None, secure: bool):
    assert cookies_secure(scheme, public_url) is secure
    assert adopt_cookie("t", days=1, secure=cookies_secure(scheme, public_url)).endswith("; Secure") is secure


def test_the_public_address_comes_from_the_environment() -> None:
    assert Settings.from_env({"PUBLIC_URL": "https://liga.example.ru"}).public_url == "https://liga.example.ru"
    assert Settings.from_env({}).public_url is None


KEY = b"s" * 32


@pytest.fixture(autouse=True)
def _device_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """The signing key as the database would give it (read once per process)."""
    monkeypatch.setattr(http_guard, "_device_key_cache", [KEY])


def _through_guard(scheme: str, cookie: str = "") -> tuple[list[dict], dict]:
    """What the guard sends back for one page load, and the scope the site behind it saw."""
    sent: list[dict] = []
    seen: dict = {}

    async def page(scope, receive, send) -> None:  # noqa: ANN001 - a bare ASGI app standing for the site
        seen.update(scope)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    async def receive() -> dict:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    headers = [(b"host", b"liga"), *([(b"cookie", cookie.encode())] if cookie else [])]
    scope = {"type": "http", "scheme": scheme, "method": "GET", "path": "/", "headers": headers}
    # in a thread of its own: after the browser tests, Playwright's event loop runs in this one
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, http_guard.security_guard(page)(scope, receive, send)).result()
    return sent, seen


def _new_device_cookies(sent: list[dict]) -> list[str]:
    return [v.decode() for k, v in sent[0]["headers"] if k == b"set-cookie" and v.startswith(DEVICE_COOKIE.encode())]


def _device_cookie(scheme: str) -> str:
    """The Set-Cookie the guard adds to a first page load (no device cookie yet) arriving with `scheme`."""
    sent, _ = _through_guard(scheme)
    (cookie,) = _new_device_cookies(sent)
    return cookie


def test_behind_a_tls_proxy_the_guard_marks_its_cookie_secure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(http_guard, "settings", replace(http_guard.settings, public_url=None))
    assert not _device_cookie("http").endswith("; Secure")
    assert _device_cookie("https").endswith("; Secure")
    monkeypatch.setattr(http_guard, "settings", replace(http_guard.settings, public_url="https://liga.example.ru"))
    assert _device_cookie("http").endswith("; Secure")


def _device_header(scope: dict) -> str:
    return dict(scope["headers"])[http_guard.DEVICE_HEADER].decode()


def test_an_invented_device_cookie_counts_as_none_and_gets_a_signed_one() -> None:
    """Finding 29.3: a fresh invented `discard_device` per guess was a fresh lockout each time."""
    sent, seen = _through_guard("http", f"{DEVICE_COOKIE}=invented-{uuid.uuid4()}")
    assert _device_header(seen) == ""  # the login limits use the address then
    (issued,) = _new_device_cookies(sent)
    value = issued.split(";", 1)[0].split("=", 1)[1]
    device_id = security.signed_device_id(value, KEY)
    assert device_id
    sent, seen = _through_guard("http", f"{DEVICE_COOKIE}={value}")
    assert _device_header(seen) == security.token_digest(device_id)
    assert _new_device_cookies(sent) == []  # a signed one is kept
