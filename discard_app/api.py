"""HTTP routes beside the Reflex app: the ICS feeds of the club calendar and of each player's own meetings, the
two steps that put the session token into (and out of) an HttpOnly cookie, and the bot's one-time login link."""

from __future__ import annotations

import html

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route

from discard_app import routes, texts
from discard_app.http_guard import BODY_LIMITS, SESSION_HEADER, sent_by_own_page
from discard_app.session_cookie import (
    ADOPT_PATH,
    FORGET_PATH,
    adopt_cookie,
    cookies_secure,
    forget_cookie,
    link_login_script,
)
from services.core.config import settings
from services.core.db import session_scope
from services.core.models import utc_now
from services.core.urls import site_address
from services.league import accounts, login_links
from services.scheduling.calendar_feed import club_ics, personal_ics

ICS_TYPE = "text/calendar; charset=utf-8"


def _site_url(request: Request) -> str:
    """The site's address for the feeds' links: PUBLIC_URL, else the address the client asked."""
    return site_address(settings.public_url, f"{request.url.scheme}://{request.url.netloc}")


def club_calendar(request: Request) -> Response:
    # The club calendar names matches (their players, as the public match pages do) and activities: no token.
    with session_scope() as session:
        body = club_ics(session, site_url=_site_url(request))
    return Response(body, media_type=ICS_TYPE, headers={"Cache-Control": "no-cache"})


def my_calendar(request: Request) -> Response:
    with session_scope() as session:
        body = personal_ics(session, request.path_params["token"], site_url=_site_url(request))
    if body is None:
        return PlainTextResponse(texts.HTTP_NO_CALENDAR, status_code=404)
    return Response(body, media_type=ICS_TYPE, headers={"Cache-Control": "no-cache, private"})


async def adopt_session(request: Request) -> Response:
    """The login handler gave the page a new token: it comes back here once and leaves as an HttpOnly cookie.
    Only a live session's token from this site's own page is adopted."""
    if not sent_by_own_page(request.scope):
        return PlainTextResponse(texts.HTTP_FORBIDDEN, status_code=403)  # before a byte of the body is read
    token = (await _read_capped(request, BODY_LIMITS[ADOPT_PATH])).decode(errors="replace")
    with session_scope() as session:
        user = accounts.user_for_token(session, token, now=utc_now())
    if user is None:
        return PlainTextResponse(texts.HTTP_NO_SESSION, status_code=403)
    response = PlainTextResponse("ok", headers={"Cache-Control": "no-store"})
    response.headers.append("set-cookie", adopt_cookie(token, days=settings.session_days, secure=_secure(request)))
    return response


def forget_session(request: Request) -> Response:
    """Logout's last step: the session ends (again, if the handler already ended it) and the cookie goes. Only
    for the site's own page: another site's form must not drop a browser's cookie and orphan its session."""
    if not sent_by_own_page(request.scope):
        return PlainTextResponse(texts.HTTP_FORBIDDEN, status_code=403)
    digest = request.headers.get(SESSION_HEADER.decode(), "")
    if digest:
        with session_scope() as session:
            accounts.logout_digest(session, digest)
    response = PlainTextResponse("ok", headers={"Cache-Control": "no-store"})
    response.headers.append("set-cookie", forget_cookie(secure=_secure(request)))
    return response


def login_link_page(_request: Request) -> Response:
    """The bot's «Открыть на сайте» (issue 44) lands here with its code in the fragment, which the request does not
    carry (no access log or proxy sees it): the page posts it to `open_login_link`, from the site itself, so the
    SameSite=Strict cookie is set and sent even though Telegram opened the link from outside the site."""
    script = link_login_script(routes.LOGIN_LINK, texts.LOGIN_LINK_FAILED)
    page = (
        '<!doctype html><html lang="ru"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(texts.LOGIN_LINK_TITLE)}</title></head><body>"
        f'<p id="say" role="status">{html.escape(texts.LOGIN_LINK_OPENING)}</p>'
        f"<noscript>{html.escape(texts.LOGIN_LINK_NO_SCRIPT)}</noscript><script>{script}</script></body></html>"
    )
    return HTMLResponse(page, headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})


async def open_login_link(request: Request) -> Response:
    """The code posted by `login_link_page`: used up, the same HttpOnly session as the login form's is set, and the
    answer is the match's scheduling page to load. Only from the site's own page, as /auth/adopt."""
    if not sent_by_own_page(request.scope):
        return PlainTextResponse(texts.HTTP_FORBIDDEN, status_code=403)  # before a byte of the body is read
    code = (await _read_capped(request, BODY_LIMITS[routes.LOGIN_LINK])).decode(errors="replace")
    with session_scope() as session:
        opened = login_links.open_login_link(session, code, now=utc_now(), session_days=settings.session_days)
    if opened is None:
        return PlainTextResponse(texts.HTTP_LOGIN_LINK_GONE, status_code=410, headers={"Cache-Control": "no-store"})
    response = PlainTextResponse(routes.match_schedule_url(opened.match_id), headers={"Cache-Control": "no-store"})
    response.headers.append(
        "set-cookie", adopt_cookie(opened.token, days=settings.session_days, secure=_secure(request))
    )
    return response


async def _read_capped(request: Request, cap: int) -> bytes:
    """At most `cap` bytes of the body, streamed: the rest is never held (the guard has refused a larger
    declared size already)."""
    body = b""
    async for chunk in request.stream():
        body += chunk[: cap - len(body)]
        if len(body) >= cap:
            break
    return body


# Sync handlers: Starlette runs them in a thread, so SQL never blocks the event loop.
http_api = Starlette(
    routes=[
        Route(routes.CLUB_ICS, club_calendar, methods=["GET"]),
        Route(routes.PERSONAL_ICS, my_calendar, methods=["GET"]),
        Route(ADOPT_PATH, adopt_session, methods=["POST"]),
        Route(FORGET_PATH, forget_session, methods=["POST"]),
        Route(routes.LOGIN_LINK, login_link_page, methods=["GET"]),
        Route(routes.LOGIN_LINK, open_login_link, methods=["POST"]),
    ]
)


def _secure(request: Request) -> bool:
    return cookies_secure(request.url.scheme, settings.public_url)
