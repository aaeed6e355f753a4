"""The session cookie: how the browser receives, keeps and drops its login token; imports nothing of the app.

The token lives only in an HttpOnly cookie, which no script of the page (and no Reflex state) can read.
"""

from __future__ import annotations

import json

SESSION_COOKIE = "discard_session"
DEVICE_COOKIE = "discard_device"
ADOPT_PATH = "/auth/adopt"
FORGET_PATH = "/auth/forget"
EPOCH_KEY = "discard_session_epoch"


def cookies_secure(scheme: str, public_url: str | None) -> bool:
    """Whether the site's cookies carry `Secure`: when this request came over https, and always when the site's
    public address is https — behind a TLS proxy the app itself sees plain http from the proxy."""
    return scheme == "https" or (public_url or "").lower().startswith("https://")


def adopt_cookie(token: str, *, days: int, secure: bool) -> str:
    """The Set-Cookie value that hands the browser its session token, readable by no script."""
    flags = "; Secure" if secure else ""
    return f"{SESSION_COOKIE}={token}; Path=/; Max-Age={days * 24 * 3600}; HttpOnly; SameSite=Strict{flags}"


def forget_cookie(*, secure: bool) -> str:
    flags = "; Secure" if secure else ""
    return f"{SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict{flags}"


def adopt_script(token: str, next_path: str) -> str:
    """The browser sends its new token to ADOPT_PATH (which sets the HttpOnly cookie), tells its other tabs,
    and loads the next page afresh, so the websocket reconnects with the cookie."""
    request = json.dumps({"method": "POST", "credentials": "same-origin", "body": token})
    return f"fetch({json.dumps(ADOPT_PATH)}, {request}).then(() => {_switched(next_path)})"


def link_login_script(post_path: str, failed: str) -> str:
    """The bot's login link page (issue 44): the code, read from the address's fragment (which no request carries)
    and taken off the address at once, is posted to `post_path`, which sets the HttpOnly cookie and answers with the
    match's page; the other tabs are told, as after the login form, and that page loads. A refusal's words (or
    `failed`, when the site did not answer) replace the page's."""
    request = {"method": "POST", "credentials": "same-origin"}
    return (
        "(() => { const code = window.location.hash.slice(1);"
        " history.replaceState(null, '', window.location.pathname);"
        " const say = (t) => { document.getElementById('say').textContent = t; };"
        f" fetch({json.dumps(post_path)}, {{...{json.dumps(request)}, body: code}})"
        ".then((r) => r.text().then((t) => { if (r.ok) { "
        f"localStorage.setItem({json.dumps(EPOCH_KEY)}, String(Date.now())); window.location.replace(t); }}"
        " else say(t); }))"
        f".catch(() => say({json.dumps(failed)})); }})();"
    )


def forget_script(next_path: str) -> str:
    """The browser drops the cookie (FORGET_PATH answers with an expired one), tells its other tabs, and only then
    loads `next_path`: a page loaded while the answer was on its way would come up still holding the cookie, and
    the late notice to the other tabs would reach that page too and reload it under the person's hands (seen as a
    login typed right after a logout arriving empty)."""
    request = json.dumps({"method": "POST", "credentials": "same-origin"})
    return f"fetch({json.dumps(FORGET_PATH)}, {request}).finally(() => {_switched(next_path)})"


def _switched(next_path: str) -> str:
    return (
        f"{{ localStorage.setItem({json.dumps(EPOCH_KEY)}, String(Date.now()));"
        f" window.location.replace({json.dumps(next_path)}); }}"
    )


# Another tab of the same browser reloads when this one logs in or out: its page must not keep showing
# (or send again) what the previous user saw.
OTHER_TABS_SCRIPT = (
    "window.addEventListener('storage', (e) => {"
    + f" if (e.key === {json.dumps(EPOCH_KEY)}) window.location.reload(); "
    + "});"
)
