"""The organizer links the Pantheon event, confirms the suggested player mapping and imports a game; the admin token
stays with the address it was entered for, and a foreign service or a closed port reads the same (issue 29 item 1)."""

from __future__ import annotations

import re
import threading
import uuid
from datetime import UTC, datetime
from http.server import ThreadingHTTPServer

from playwright.sync_api import Page, expect
from sqlmodel import col, select

from services.core.db import session_scope
from services.core.models import Hanchan, Player, Season, Stage, User
from tests import factories
from tests.e2e.conftest import ORGANIZER, App, login
from tests.pantheon.fake_pantheon import EVENT, FakePantheon, make_game


def _table_of_four(app: App) -> list[str]:
    """Four players of their own and a match in a 2031 window, so no other test's match has the same table."""
    tag = uuid.uuid4().hex[:4]
    names = [f"Пантеон {tag} {letter}" for letter in "АБВГ"]
    engine = app.engine()
    with session_scope(engine) as session:
        season = session.exec(select(Season).order_by(col(Season.id).desc())).first()
        stage = session.exec(select(Stage).where(Stage.season_id == season.id)).first()
        order = len(session.exec(select(Player).where(Player.season_id == season.id)).all())
        players = []
        for n, name in enumerate(names, start=1):
            user = User(login_name=f"p{tag}{n}", display_name=name, password_hash="-")
            session.add(user)
            session.flush()
            player = Player(season_id=season.id, user_id=user.id, registration_order=order + n)
            session.add(player)
            session.flush()
            players.append(player)
        round_ = factories.Round(
            stage_id=stage.id,
            code="31",
            window_start=datetime(2031, 1, 1, tzinfo=UTC),
            window_end=datetime(2031, 1, 15, tzinfo=UTC),
        )
        session.add(round_)
        session.flush()
        factories.match(session, round_, players)
    engine.dispose()
    return names


def test_organizer_maps_players_and_imports_a_game(page: Page, app: App) -> None:
    names = _table_of_four(app)
    persons = [701, 702, 703, 704]
    fake = FakePantheon(titles=dict(zip(persons, names, strict=True))).start()
    fake.games = [make_game("e" * 40, "2031-01-05 20:00:00", persons, [42_000, 31_000, 25_000, 21_000], sticks=1)]
    try:
        login(page, app, ORGANIZER, path="/pantheon")
        expect(page.get_by_role("heading", name="Импорт из Pantheon")).to_be_visible()
        page.get_by_label("Адрес API Pantheon").fill(fake.url)
        page.get_by_label("Номер события").fill(str(EVENT))
        page.get_by_role("button", name="Сохранить").click()
        expect(page.get_by_role("status").filter(has_text="Настройки Pantheon сохранены")).to_be_visible()
        expect(page.get_by_text("Не сопоставлено игроков: 4")).to_be_visible()
        for name in names:
            page.get_by_role("button", name=f"Подтвердить: {name}").click()
            expect(page.get_by_role("button", name=f"Подтвердить: {name}")).to_have_count(0)
        expect(page.get_by_text("Не сопоставлено игроков: 0")).to_be_visible()
        page.get_by_role("button", name="Импортировать из Pantheon").click()
        expect(page.get_by_role("status").filter(has_text="Прочитано игр: 1")).to_contain_text(
            re.compile("импортировано: 1;.*требуют решения: 0")
        )
    finally:
        fake.stop()
    engine = app.engine()
    with session_scope(engine) as session:
        assert session.exec(select(Hanchan.riichi_left).where(Hanchan.pantheon_hash == "e" * 40)).all() == [1]
    engine.dispose()


def test_the_admin_token_never_goes_to_a_changed_address(page: Page, app: App) -> None:
    """Finding: a token saved for address A was sent to address B saved later with the token field empty."""
    first, second = FakePantheon().start(), FakePantheon().start()
    second.fail_once[("GetLastGames", None)] = (500, {"code": "internal", "msg": "<i>secret internals</i>"})
    try:
        login(page, app, ORGANIZER, path="/pantheon")
        page.get_by_label("Адрес API Pantheon").fill(first.url)
        page.get_by_label("Номер события").fill(str(EVENT))
        page.get_by_label("Id администратора (необязательно)").fill("1")
        page.get_by_label("Токен администратора (необязательно)").fill("admin-secret")
        page.get_by_role("button", name="Сохранить").click()
        expect(page.get_by_text("Токен администратора сохранён")).to_be_visible()
        page.get_by_label("Адрес API Pantheon").fill(second.url)
        page.get_by_role("button", name="Сохранить").click()
        expect(page.get_by_role("status").filter(has_text="токен администратора удалён")).to_be_visible()
        expect(page.get_by_text("Токен администратора сохранён")).to_have_count(0)
        page.get_by_role("button", name="Импортировать из Pantheon").click()
        alert = page.get_by_role("alert").filter(has_text="Pantheon не ответил как Pantheon: проверьте адрес")
        expect(alert).to_be_visible()
        expect(page.get_by_text("secret internals")).to_have_count(0)
    finally:
        first.stop()
        second.stop()
    assert second.headers and all("X-Auth-Token" not in h for h in second.headers)
    assert "ListPenalties" not in [method for method, _ in second.calls]


def test_a_foreign_http_service_and_a_closed_port_read_the_same(page: Page, app: App) -> None:
    """Issue 29: the address field cannot probe the club's network: an internal HTTP service that answers (here a
    404 with a body of its own) and a port where nothing listens show the same one message."""
    from tests.pantheon.test_probing import ANSWERS, _Service, closed_port

    handler = type("Internal", (_Service,), {"answer": ANSWERS["404"]})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    seen = []
    try:
        login(page, app, ORGANIZER, path="/pantheon")
        for address in (f"http://127.0.0.1:{server.server_address[1]}", closed_port()):
            page.get_by_label("Адрес API Pantheon").fill(address)
            page.get_by_label("Номер события").fill(str(EVENT))
            page.get_by_role("button", name="Сохранить").click()
            expect(page.get_by_role("status").filter(has_text="Настройки Pantheon сохранены")).to_be_visible()
            page.reload()  # the page reads the event's players from the stored address again: only its answer shows
            expect(page.get_by_label("Адрес API Pantheon")).to_have_value(address)
            alert = page.get_by_role("alert")
            expect(alert).to_have_text("Pantheon не ответил как Pantheon: проверьте адрес")
            seen.append(alert.inner_text())
    finally:
        server.shutdown()
        server.server_close()
    assert seen[0] == seen[1]
    expect(page.get_by_text("not found")).to_have_count(0)
