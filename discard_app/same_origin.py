"""The page's own origin is its backend's: the one front-end bundle serves any address and port.

The site always runs single-port (`make run`, `make prod`: the backend serves the built pages), so the events' socket,
the ping and the uploads are at the address the page came from. Reflex bakes `api_url` (with its port) into the
bundle and swaps only a `localhost` host for the page's; this plugin makes `getBackendURL` take the page's whole
origin. One build then serves every port and every public address: the tests build once per run and start each app in
seconds, and a site behind a proxy needs no address at build time.
"""

from __future__ import annotations

from typing import Any

import reflex as rx

STATE_JS = "utils/state.js"
# Reflex 0.10.1's getBackendURL, right after it parses the endpoint: what follows it only swaps the host name.
ANCHOR = "  const endpoint = new URL(url_str);\n"
SAME_ORIGIN = """  // Discard League: single-port, the backend is the page's own origin (discard_app/same_origin.py).
  if (typeof window !== "undefined") {
    const secure = window.location.protocol === "https:";
    endpoint.protocol = endpoint.protocol.startsWith("ws") ? (secure ? "wss:" : "ws:") : window.location.protocol;
    endpoint.host = window.location.host;
    return endpoint;
  }
"""


def same_origin(state_js: str) -> str:
    """`state.js` with getBackendURL answering the page's origin; refuses a Reflex whose state.js has moved on."""
    if SAME_ORIGIN in state_js:
        return state_js
    if state_js.count(ANCHOR) != 1:
        raise RuntimeError(f"{STATE_JS}: getBackendURL has changed in this Reflex; update discard_app/same_origin.py")
    return state_js.replace(ANCHOR, ANCHOR + SAME_ORIGIN)


class SameOriginPlugin(rx.plugins.Plugin):
    def pre_compile(self, **context: Any) -> None:
        context["add_modify_task"](STATE_JS, same_origin)
