"""Issue 44: the bot's «Открыть на сайте» — a one-time login link, opened through the site's own routes as the ASGI
server calls them. The code rides in the link's fragment, which no request carries: the page at the link's path
posts it, from the site itself, and the answer sets the same HttpOnly session cookie as the login form and names the
match's page — once, within its few minutes, for the person it was made for; no second live code per person and
match."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import Session

from services.core.models import utc_now
from services.core.urls import LOGIN_LINK_PATH, login_link_url
from services.league import accounts
from services.league.login_links import LINK_TTL, create_login_link
from tests import factories
from tests.db.site_http import SITE, Answer, call

pytestmark = pytest.mark.usefixtures("http_routes")


def _open(code: str, origin: str = SITE) -> Answer:
    """What the link's page posts: its code, from the site's own page (as the browser's Origin says)."""
    body = code.encode()
    return call(LOGIN_LINK_PATH, headers={"origin": origin, "content-length": str(len(body))}, chunks=[body],
                scheme="https")  # fmt: skip


def test_the_link_keeps_its_code_out_of_every_request_line() -> None:
    code = "x" * 32
    path, _, fragment = login_link_url(code).partition("#")
    assert (path, fragment) == (LOGIN_LINK_PATH, code)  # the fragment is never sent: no log or proxy sees it
    page = call(path, headers={}, method="GET")
    assert page.status == 200 and page.header("cache-control") == "no-store"
    assert "location.hash" in page.body.decode() and code not in page.body.decode()


def test_a_login_link_opens_the_matchs_page_logged_in_once(session: Session) -> None:
    league = factories.league(session)
    person = league.users[1]
    code = create_login_link(session, user_id=person.id, match_id=league.match.id, now=utc_now()).code
    session.commit()
    assert code is not None

    answer = _open(code)
    (cookie,) = answer.cookies
    assert answer.status == 200 and answer.body.decode() == f"/match/{league.match.id}/schedule"
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Secure" in cookie
    token = cookie.split(";", 1)[0].split("=", 1)[1]
    user = accounts.user_for_token(session, token, now=utc_now())
    assert user is not None and user.id == person.id  # the person it was made for, as the login form would

    again = _open(code)  # a second opening: used up
    assert (again.status, again.cookies) == (410, []) and "уже использована или устарела" in again.body.decode()


def test_another_sites_post_of_a_code_logs_nobody_in(session: Session) -> None:
    league = factories.league(session)
    code = create_login_link(session, user_id=league.users[0].id, match_id=league.match.id, now=utc_now()).code
    session.commit()
    assert code is not None
    refused = _open(code, origin="https://evil.example")
    assert (refused.status, refused.cookies, refused.read) == (403, [], 0)
    assert _open(code).status == 200  # refused before the code was read: still the person's to use


def test_one_live_link_per_person_and_match(session: Session) -> None:
    league = factories.league(session)
    person, now = league.users[0], utc_now()
    first = create_login_link(session, user_id=person.id, match_id=league.match.id, now=now)
    second = create_login_link(session, user_id=person.id, match_id=league.match.id, now=now + timedelta(minutes=1))
    assert first.code is not None and (second.code, second.expires_at) == (None, first.expires_at)
    later = create_login_link(session, user_id=person.id, match_id=league.match.id, now=first.expires_at)
    assert later.code not in (None, first.code)  # the first ran out: a fresh one


def test_an_expired_or_invented_link_logs_nobody_in(session: Session) -> None:
    league = factories.league(session)
    old = create_login_link(
        session, user_id=league.users[0].id, match_id=league.match.id, now=utc_now() - LINK_TTL - timedelta(seconds=1)
    ).code
    session.commit()
    assert old is not None
    for code in (old, "invented-code", "1", ""):
        answer = _open(code)
        assert (answer.status, answer.cookies) == (410, []) and "Открыть на сайте" in answer.body.decode()
