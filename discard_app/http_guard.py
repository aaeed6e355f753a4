"""The ASGI layer in front of Reflex: session cookies become digests, pages get security headers, `/_upload`
is refused before its body is read, every other request body is refused by its declared size and cut off at it, and
a websocket frame past `text_limits.EVENT_FRAME_MAX` closes its socket before Socket.IO reads it.

The browser's session token lives only in an HttpOnly cookie. Reflex copies a connection's headers into the tab's
state (and so into the state files), so the raw cookie never reaches it: this layer swaps the session and device
cookies for their SHA-256 digests in headers of its own (`x-discard-session`, `x-discard-device`), which are
what the database stores anyway and are no login by themselves.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

import anyio

from discard_app import texts
from discard_app.session_cookie import ADOPT_PATH, DEVICE_COOKIE, SESSION_COOKIE, cookies_secure
from discard_app.state import session_binding
from services.core import security, text_limits
from services.core.config import settings
from services.core.db import session_scope
from services.core.models import Role, utc_now
from services.core.urls import LOGIN_LINK_PATH
from services.league import accounts, login_guard
from services.results.ruling_photos import MAX_BYTES, MAX_PHOTOS

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

SESSION_HEADER = b"x-discard-session"
DEVICE_HEADER = b"x-discard-device"
UPLOAD_PATH = "/_upload"
# Регламент §6.2: only the judge and the organizer attach photos to a ruling (the site's only upload).
UPLOAD_ROLES = frozenset({Role.JUDGE, Role.ORGANIZER})
UPLOAD_MAX_BYTES = MAX_PHOTOS * MAX_BYTES + 1024 * 1024  # the photos plus the form's own bytes
DEVICE_MAX_AGE = 400 * 24 * 3600
# Besides the upload the site reads two bodies over HTTP: the session token handed to /auth/adopt and the bot's
# login link code posted to its page's path. Any other route (Reflex's own included) gets a small allowance, so a
# large body never reaches a reader that buffers it.
BODY_LIMITS = {ADOPT_PATH: 256, LOGIN_LINK_PATH: 256}
OTHER_BODY_LIMIT = 64 * 1024


def content_security_policy(host: str) -> str:
    """What the compiled Reflex front end needs: its own scripts (with inline and eval, which Reflex uses for
    `call_script` and its hydration), inline styles of Radix, the websocket to this host; nothing from
    elsewhere, no framing."""
    return "; ".join(
        [
            "default-src 'self'",
            "script-src 'self' 'unsafe-inline' 'unsafe-eval'",
            "style-src 'self' 'unsafe-inline'",
            "img-src 'self' data: blob:",
            "font-src 'self' data:",
            f"connect-src 'self' ws://{host} wss://{host}",
            "frame-ancestors 'none'",
            "base-uri 'self'",
            "form-action 'self'",
            "object-src 'none'",
        ]
    )


def _header(scope: Scope, name: bytes) -> str:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            text: str = value.decode("latin-1")
            return text
    return ""


def same_origin(scope: Scope) -> bool:
    """A request a browser sent from this site's own pages (or with no Origin at all, as a page load)."""
    origin = _header(scope, b"origin")
    return not origin or urlsplit(origin).netloc == _header(scope, b"host")


def sent_by_own_page(scope: Scope) -> bool:
    """A POST the site's own script made: browsers send Origin with every POST (a foreign page's form or fetch
    included), so it must be there and name this host; `null` (a sandboxed or file page) is nobody's origin. A
    browser without Origin still says where the request came from in Sec-Fetch-Site."""
    origin = _header(scope, b"origin")
    if origin:
        return origin != "null" and urlsplit(origin).netloc == _header(scope, b"host")
    return _header(scope, b"sec-fetch-site") == "same-origin"


def _split_cookies(scope: Scope) -> tuple[list[tuple[bytes, bytes]], str, str]:
    """The headers without our cookies and our digest headers, then the session and device cookie values."""
    session_token = device = ""
    headers: list[tuple[bytes, bytes]] = []
    for key, value in scope.get("headers", []):
        name = key.lower()
        if name in (SESSION_HEADER, DEVICE_HEADER):
            continue  # never trust a client's own digest headers
        if name == b"cookie":
            rest = []
            for part in value.decode("latin-1").split(";"):
                key_text, _, cookie = part.strip().partition("=")
                if key_text == SESSION_COOKIE:
                    session_token = cookie
                elif key_text == DEVICE_COOKIE:
                    device = cookie
                elif key_text:
                    rest.append(part.strip())
            if rest:
                headers.append((b"cookie", "; ".join(rest).encode("latin-1")))
            continue
        headers.append((key, value))
    return headers, session_token, device


def client_key(device_digest: str, client_ip: str) -> str:
    """Who is trying to log in, for the rate limit and the lockout: the browser's device, else its address."""
    return f"device:{device_digest}" if device_digest else f"ip:{client_ip}"


_device_key_cache: list[bytes] = []


def _read_device_key() -> bytes:
    with session_scope() as session:
        return login_guard.site_key(session, login_guard.DEVICE_KEY)


async def _device_key() -> bytes:
    """The key that signs device cookies: read from the database once per process (every worker shares it)."""
    if not _device_key_cache:
        _device_key_cache.append(await anyio.to_thread.run_sync(_read_device_key))
    return _device_key_cache[0]


def _role_for_digest(digest: str) -> str | None:
    with session_scope() as session:
        user = accounts.user_for_digest(session, digest, now=utc_now())
        return str(user.role) if user else None


async def _plain(send: Send, status: int, text: str) -> None:
    body = text.encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


def security_guard(app: ASGIApp) -> ASGIApp:
    """Wraps the whole site (pages, websocket, uploads, feeds)."""

    async def guard(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await app(scope, receive, send)
            return
        headers, token, device = _split_cookies(scope)
        session_digest = security.token_digest(token) if token and same_origin(scope) else ""
        # Only a device id this server signed counts (an invented one per guess was a fresh lockout each time).
        device_key = await _device_key()
        device_id = security.signed_device_id(device, device_key) if device else None
        device_digest = security.token_digest(device_id) if device_id else ""
        headers += [(SESSION_HEADER, session_digest.encode()), (DEVICE_HEADER, device_digest.encode())]
        scope = {**scope, "headers": headers}
        if scope["type"] == "websocket":
            await app(scope, _frames_capped(receive, send), send)
            return
        send = _with_headers(send, scope, device_key=device_key if device_id is None else None)
        if scope["path"].rstrip("/") == UPLOAD_PATH and scope.get("method") == "POST":
            await _guard_upload(app, scope, receive, send, session_digest)
            return
        limit = BODY_LIMITS.get(scope["path"], OTHER_BODY_LIMIT)
        refusal = _body_refusal(scope, limit)
        if refusal is not None:
            await _plain(send, *refusal)
            return
        await app(scope, _capped(receive, int(_header(scope, b"content-length") or 0)), send)

    return guard


def _with_headers(send: Send, scope: Scope, *, device_key: bytes | None) -> Send:
    """Security headers on every page; a new signed device cookie when `device_key` is given (the browser had
    none this server signed)."""
    host = _header(scope, b"host")
    secure = "; Secure" if cookies_secure(str(scope.get("scheme", "")), settings.public_url) else ""

    async def send_with_headers(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", []))
            present = {k.lower() for k, _ in headers}
            for name, value in (
                (b"content-security-policy", content_security_policy(host)),
                (b"x-frame-options", "DENY"),
                (b"x-content-type-options", "nosniff"),
                (b"referrer-policy", "same-origin"),
            ):
                if name not in present:
                    headers.append((name, value.encode()))
            if device_key is not None:
                # A random id for this browser: the login lockout counts per device, so a stranger's failures
                # do not lock the owner's browser out of their own account.
                value = security.sign_device(secrets.token_urlsafe(24), device_key)
                cookie = f"{DEVICE_COOKIE}={value}; Path=/; Max-Age={DEVICE_MAX_AGE}"
                headers.append((b"set-cookie", f"{cookie}; HttpOnly; SameSite=Strict{secure}".encode()))
            message = {**message, "headers": headers}
        await send(message)

    return send_with_headers


WEBSOCKET_TOO_BIG = 1009  # RFC 6455: "message too big"


def _frames_capped(receive: Receive, send: Send, cap: int = text_limits.EVENT_FRAME_MAX) -> Receive:
    """The websocket's frames up to `cap` (characters of text, bytes of binary): a larger one closes the socket
    (1009) and reaches Reflex as the client's disconnect, so nothing parses or queues it."""

    async def capped_receive() -> Message:
        message = await receive()
        if message["type"] == "websocket.receive":
            size = len(message.get("text") or "") or len(message.get("bytes") or b"")
            if size > cap:
                log.warning("websocket frame of %d refused (the cap is %d)", size, cap)
                await send({"type": "websocket.close", "code": WEBSOCKET_TOO_BIG})
                return {"type": "websocket.disconnect", "code": WEBSOCKET_TOO_BIG}
        return message

    return capped_receive


def _body_refusal(scope: Scope, limit: int) -> tuple[int, str] | None:
    """Refused by the headers alone, before a byte of the body is read: no declared size for a streamed body, or
    a declared size past what this route ever reads."""
    declared = _header(scope, b"content-length")
    if declared and not declared.isdigit():
        return 400, texts.HTTP_BAD_LENGTH
    if not declared and _header(scope, b"transfer-encoding"):
        return 411, texts.HTTP_LENGTH_REQUIRED
    if declared and int(declared) > limit:
        return 413, texts.HTTP_TOO_LARGE
    return None


def _capped(receive: Receive, cap: int) -> Receive:
    """The body as declared and no further: what streams past the declared size is dropped, never buffered."""
    received = 0
    ended = False

    async def capped_receive() -> Message:
        nonlocal received, ended
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return message
            if ended:
                continue  # past the end the app was given: only a disconnect is worth passing on
            body = message.get("body", b"")
            if received + len(body) > cap:
                log.warning("request body longer than its Content-Length: cut off")
            body = body[: cap - received]
            received += len(body)
            ended = not message.get("more_body") or received >= cap
            return {**message, "body": body, "more_body": not ended}

    return capped_receive


async def _guard_upload(app: ASGIApp, scope: Scope, receive: Receive, send: Send, session_digest: str) -> None:
    """The role first, then the declared size, then the size while streaming; only then Reflex reads the body."""
    role = await anyio.to_thread.run_sync(_role_for_digest, session_digest) if session_digest else None
    if role not in UPLOAD_ROLES:
        await _plain(send, 403, texts.HTTP_UPLOAD_FORBIDDEN)
        return
    declared = _header(scope, b"content-length")
    if not declared.isdigit():
        await _plain(send, 411, texts.HTTP_LENGTH_REQUIRED)
        return
    if int(declared) > UPLOAD_MAX_BYTES:
        await _plain(send, 413, texts.HTTP_UPLOAD_TOO_LARGE.format(megabytes=UPLOAD_MAX_BYTES // (1024 * 1024)))
        return
    tab = _header(scope, b"reflex-client-token")
    if tab:
        session_binding.expect_upload(tab, session_digest)
    received = 0

    async def limited_receive() -> Message:
        nonlocal received
        message = await receive()
        if message["type"] == "http.request":
            received += len(message.get("body", b""))
            if received > int(declared):
                log.warning("upload body longer than its Content-Length: cut off")
                return {"type": "http.disconnect"}
        return message

    await app(scope, limited_receive, send)
