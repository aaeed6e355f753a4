"""The running site answers cross-origin requests only for its own origin: Reflex's default echoed any Origin,
`null` included, with credentials allowed; a foreign page cannot open the events' websocket either."""

from __future__ import annotations

import httpx
import pytest
import simple_websocket

from tests.e2e.conftest import App

FOREIGN = ["https://evil.example", "null", "http://127.0.0.1.evil.example"]


def _get(app: App, path: str, origin: str, method: str = "GET", **headers: str) -> httpx.Response:
    with httpx.Client(trust_env=False, timeout=10) as client:
        return client.request(method, f"{app.url}{path}", headers={"Origin": origin, **headers})


@pytest.mark.parametrize("origin", FOREIGN)
def test_a_foreign_origin_gets_no_cors_grant(app: App, origin: str) -> None:
    simple = _get(app, "/ping", origin)
    assert simple.status_code == 200
    # No grant: without Access-Control-Allow-Origin the browser hides the answer from the foreign page (Starlette
    # adds Allow-Credentials to every answer; alone it grants nothing).
    assert "access-control-allow-origin" not in simple.headers
    preflight = _get(
        app, "/_upload", origin, "OPTIONS",
        **{"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "reflex-client-token"},
    )  # fmt: skip
    assert preflight.headers.get("access-control-allow-origin") in (None, "")
    assert preflight.status_code >= 400


def test_the_sites_own_origin_is_granted(app: App) -> None:
    answer = _get(app, "/ping", app.url)
    assert answer.headers.get("access-control-allow-origin") == app.url
    assert answer.headers.get("access-control-allow-credentials") == "true"


@pytest.mark.parametrize("origin", ["https://evil.example", "null"])
def test_a_foreign_page_cannot_open_the_events_websocket(app: App, origin: str) -> None:
    url = app.url.replace("http://", "ws://") + "/_event/?EIO=4&transport=websocket&token=cors-probe"
    with pytest.raises(simple_websocket.ConnectionError) as refused:
        simple_websocket.Client.connect(url, headers={"Origin": origin}).close()
    assert refused.value.status_code == 403  # refused at the handshake


def test_the_sites_own_page_opens_the_websocket(app: App) -> None:
    url = app.url.replace("http://", "ws://") + "/_event/?EIO=4&transport=websocket&token=cors-probe-own"
    ws = simple_websocket.Client.connect(url, headers={"Origin": app.url})
    try:
        ws.send("40/_event,{}")
        frames = []
        while (frame := ws.receive(timeout=5)) is not None:
            frames.append(str(frame))
            if frames[-1].startswith("40/_event"):
                break
    finally:
        ws.close()
    assert any(f.startswith("40/_event") for f in frames), frames
