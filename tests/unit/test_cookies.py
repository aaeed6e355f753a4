"""The site's cookies carry `Secure` over https and, behind a TLS proxy, whenever the public address is https."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import pytest

from discard_app import http_guard
from discard_app.session_cookie import DEVICE_COOKIE, adopt_cookie, cookies_secure
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


def _device_cookie(scheme: str) -> str:
    """The Set-Cookie the guard adds to a first page load (no device cookie yet) arriving with `scheme`."""
    sent: list[dict] = []

    async def page(scope, receive, send) -> None:  # noqa: ANN001 - a bare ASGI app standing for the site
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    async def receive() -> dict:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {"type": "http", "scheme": scheme, "method": "GET", "path": "/", "headers": [(b"host", b"liga")]}
    # in a thread of its own: after the browser tests, Playwright's event loop runs in this one
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, http_guard.security_guard(page)(scope, receive, send)).result()
    (cookie,) = [
        v.decode() for k, v in sent[0]["headers"] if k == b"set-cookie" and v.startswith(DEVICE_COOKIE.encode())
    ]
    return cookie


def test_behind_a_tls_proxy_the_guard_marks_its_cookie_secure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(http_guard, "settings", replace(http_guard.settings, public_url=None))
    assert not _device_cookie("http").endswith("; Secure")
    assert _device_cookie("https").endswith("; Secure")
    monkeypatch.setattr(http_guard, "settings", replace(http_guard.settings, public_url="https://liga.example.ru"))
    assert _device_cookie("http").endswith("; Secure")
