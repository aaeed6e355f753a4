"""The HTTP routes beside Reflex, called as the ASGI server calls them: a body is refused by its declared size
before a byte of it is read and is cut off past its cap while streaming; `/auth/forget` and `/auth/adopt` act only
for a request from the site's own pages."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from sqlmodel import Session

from discard_app.session_cookie import ADOPT_PATH, FORGET_PATH, SESSION_COOKIE
from services.core.models import utc_now
from services.league import accounts
from tests import factories
from tests.db.site_http import HOST, SITE, call

pytestmark = pytest.mark.usefixtures("http_routes")


def _logged_in(engine: sa.Engine) -> str:
    with Session(engine, expire_on_commit=False) as session:
        token = accounts.start_session(session, factories.user(session), now=utc_now(), session_days=30)
        session.commit()
    return token


def _alive(engine: sa.Engine, token: str) -> bool:
    with Session(engine) as session:
        return accounts.user_for_token(session, token, now=utc_now()) is not None


@pytest.mark.parametrize("origin", ["https://evil.example", "null", f"http://{HOST}.evil.example"])
def test_another_site_cannot_log_a_browser_out(engine: sa.Engine, origin: str) -> None:
    token = _logged_in(engine)
    answer = call(FORGET_PATH, headers={"origin": origin, "cookie": f"{SESSION_COOKIE}={token}", "content-length": "0"})
    assert answer.status == 403
    assert answer.cookies == []  # the victim's cookie is not touched
    assert _alive(engine, token)


def test_the_sites_own_logout_drops_the_cookie_and_the_session(engine: sa.Engine) -> None:
    token = _logged_in(engine)
    answer = call(FORGET_PATH, headers={"origin": SITE, "cookie": f"{SESSION_COOKIE}={token}", "content-length": "0"})
    assert answer.status == 200
    assert answer.cookies and "Max-Age=0" in answer.cookies[0]
    assert not _alive(engine, token)


def test_adopt_refuses_a_huge_body_by_its_declared_size_without_reading_it(engine: sa.Engine) -> None:
    chunk = b"x" * (1024 * 1024)
    answer = call(ADOPT_PATH, headers={"content-length": str(150 * len(chunk))}, chunks=[chunk] * 150)
    assert answer.status == 413
    assert answer.read == 0


def test_adopt_cuts_a_body_that_streams_past_its_cap(engine: sa.Engine) -> None:
    chunk = b"x" * (64 * 1024)
    answer = call(ADOPT_PATH, headers={"origin": SITE, "transfer-encoding": "chunked"}, chunks=[chunk] * 100)
    assert answer.status in (411, 413)
    assert answer.read <= len(chunk)
    answer = call(ADOPT_PATH, headers={"origin": SITE, "content-length": "40"}, chunks=[chunk] * 100)  # a lie
    assert answer.status == 403  # the token is cut at its declared 40 bytes: no session of that name
    assert answer.read <= len(chunk)


def test_adopt_from_another_site_is_refused_before_its_body(engine: sa.Engine) -> None:
    token = _logged_in(engine)
    body = token.encode()
    answer = call(ADOPT_PATH, headers={"origin": "null", "content-length": str(len(body))}, chunks=[body])
    assert answer.status == 403 and answer.cookies == [] and answer.read == 0


def test_adopt_from_the_site_sets_the_cookie(engine: sa.Engine) -> None:
    token = _logged_in(engine)
    body = token.encode()
    answer = call(ADOPT_PATH, headers={"origin": SITE, "content-length": str(len(body))}, chunks=[body])
    assert answer.status == 200
    assert answer.cookies and answer.cookies[0].startswith(f"{SESSION_COOKIE}={token};")


def test_any_other_route_refuses_a_body_past_its_cap(engine: sa.Engine) -> None:
    chunk = b"x" * (1024 * 1024)
    answer = call("/calendar/club.ics", headers={"content-length": str(150 * len(chunk))}, chunks=[chunk] * 150)
    assert answer.status == 413 and answer.read == 0
