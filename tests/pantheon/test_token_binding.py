"""The Pantheon admin token goes only to the address it was entered for: a changed address drops it until it is
entered again; the client speaks only http(s) to the configured host and follows no redirect; an error shows neither
the HTTP status nor what the other side wrote (tests/pantheon/test_probing.py)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
import sqlalchemy as sa
from sqlmodel import Session

from services.core.models import PantheonSettings
from services.pantheon import event
from services.pantheon.client import PantheonClient, PantheonError
from services.pantheon.sync import SyncError, run_sync
from tests import factories
from tests.factories import PLAYED
from tests.pantheon.fake_pantheon import EVENT, FakePantheon
from tests.pantheon.test_sync import league, three_games  # noqa: F401 (league is a fixture)

TOKEN = "admin-secret"


@pytest.fixture
def elsewhere() -> Iterator[FakePantheon]:
    """A second server the organizer (or whoever took the form) points the event at."""
    fake = FakePantheon().start()
    yield fake
    fake.stop()


def _save(session: Session, lg: factories.League, url: str, token: str) -> PantheonSettings:
    row = event.save_settings(
        session, lg.organizer, lg.season.id, api_url=url, event_id=str(EVENT), admin_person_id="1",
        admin_token=token, now=PLAYED,
    )  # fmt: skip
    session.commit()
    return row


def test_a_changed_address_drops_the_stored_token(
    session: Session,
    engine: sa.Engine,
    league: factories.League,  # noqa: F811
    pantheon: FakePantheon,
    elsewhere: FakePantheon,
) -> None:
    pantheon.games = elsewhere.games = three_games()
    _save(session, league, pantheon.url, TOKEN)
    row = _save(session, league, elsewhere.url, "")  # the form keeps the token field empty
    assert row.admin_token is None
    run_sync(league.season.id, league.organizer.id, bind=engine)
    assert elsewhere.calls  # the games were read from the new address…
    assert all("X-Auth-Token" not in h and TOKEN not in json.dumps(h) for h in elsewhere.headers)  # …no token
    assert "ListPenalties" not in [method for method, _ in elsewhere.calls]
    # Entered again for the new address, it is used there.
    row = _save(session, league, elsewhere.url, TOKEN)
    assert row.admin_token == TOKEN
    # The same address saved again (a trailing slash is the same address) keeps it.
    assert _save(session, league, elsewhere.url + "/", "").admin_token == TOKEN


def test_an_unchanged_address_keeps_the_token(
    session: Session,
    league: factories.League,  # noqa: F811
    pantheon: FakePantheon,
) -> None:
    _save(session, league, pantheon.url, TOKEN)
    assert _save(session, league, pantheon.url, "").admin_token == TOKEN


class _Redirect(BaseHTTPRequestHandler):
    target = ""

    def log_message(self, *_: Any) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802
        self.send_response(307)
        self.send_header("Location", self.target + self.path)
        self.send_header("Content-Length", "0")
        self.end_headers()


def test_a_redirect_is_not_followed_and_the_token_stays(pantheon: FakePantheon) -> None:
    handler = type("ToFake", (_Redirect,), {"target": pantheon.url})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        with (
            PantheonClient(url, admin_token=TOKEN, admin_person_id=1) as client,
            pytest.raises(PantheonError, match="Pantheon не ответил как Pantheon"),
        ):
            client.list_penalties(EVENT)
    finally:
        server.shutdown()
        server.server_close()
    assert pantheon.calls == [] and pantheon.headers == []


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://127.0.0.1/", "gopher://127.0.0.1:6379/", "//host/x"])
def test_only_http_or_https_is_spoken(url: str) -> None:
    with pytest.raises(PantheonError, match="http:// или https://"):
        PantheonClient(url, admin_token=TOKEN, admin_person_id=1)


def test_an_error_shows_neither_the_status_nor_the_body(pantheon: FakePantheon) -> None:
    secret = "<b>internal: redis at 10.0.0.5:6379 refused</b>"
    pantheon.fail_once[("GetGameConfig", None)] = (500, {"code": "internal", "msg": secret, "meta": {"cause": secret}})
    with PantheonClient(pantheon.url) as client, pytest.raises(PantheonError) as error:
        client.get_game_config(EVENT)
    assert str(error.value) == "Pantheon не ответил как Pantheon: проверьте адрес"
    assert "redis" not in str(error.value) and "internal" not in str(error.value)


def test_a_stored_address_that_is_not_http_stops_the_import_with_a_message(
    session: Session,
    engine: sa.Engine,
    league: factories.League,  # noqa: F811
    pantheon: FakePantheon,
) -> None:
    _save(session, league, pantheon.url, TOKEN)
    row = session.get(PantheonSettings, league.season.id)
    row.api_url = "file:///etc/passwd"  # written before the form checked addresses, or by hand
    session.add(row)
    session.commit()
    with pytest.raises(SyncError, match="http:// или https://"):
        run_sync(league.season.id, league.organizer.id, bind=engine)
