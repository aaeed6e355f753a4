"""The site's own origins, the only ones a browser may call it from across origins (CORS) or open its events'
websocket from; pure, imports nothing of the app.

Reflex's default is every origin (`*`), which its CORS middleware answers by echoing any Origin, `null` included,
with credentials allowed. The site is served from one origin: the public address behind the proxy (PUBLIC_URL),
the address the front end was built for (REFLEX_API_URL), or 127.0.0.1 / localhost on its port.
"""

from __future__ import annotations

from urllib.parse import urlsplit


def _origin(url: str) -> str | None:
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    default = {"http": 80, "https": 443}[parts.scheme]
    port = f":{parts.port}" if parts.port and parts.port != default else ""
    return f"{parts.scheme}://{parts.hostname.lower()}{port}"


def site_origins(env: dict[str, str]) -> list[str]:
    """Every origin the site itself is served from, without duplicates, in a stable order."""
    port = env.get("PORT") or "3000"
    candidates = [env.get("PUBLIC_URL") or "", env.get("REFLEX_API_URL") or ""]
    candidates += [f"http://127.0.0.1:{port}", f"http://localhost:{port}"]
    found: list[str] = []
    for url in candidates:
        origin = _origin(url) if url else None
        if origin and origin not in found:
            found.append(origin)
    return found
