"""One browser tab shared by two people: nothing the organizer's pages held reaches the next user's browser."""

from __future__ import annotations

from playwright.sync_api import Page, WebSocket, expect
from sqlmodel import Session, select

from services.core.models import User
from tests.e2e.conftest import ORGANIZER, PLAYERS, App, login, logout


def test_logout_leaves_nothing_of_the_organizer_in_the_tab(page: Page, app: App) -> None:
    login(page, app, ORGANIZER)
    expect(page.get_by_role("heading", name="Мои матчи")).to_be_visible()
    page.goto(app.url + "/calendar")
    expect(page.get_by_text("/calendar/me/")).to_be_visible()
    engine = app.engine()
    with Session(engine) as session:
        token = session.exec(select(User.calendar_token).where(User.display_name == ORGANIZER)).one()
    engine.dispose()
    assert token and token in page.content()

    frames: list[str] = []

    def listen(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: frames.append(str(payload)))

    page.on("websocket", listen)
    logout(page)
    # The same tab (the same Reflex state), the next person: a page load sends them the whole state tree.
    login(page, app, PLAYERS[4])
    expect(page.get_by_role("heading", name="Мои матчи")).to_be_visible()
    page.reload()
    expect(page.get_by_role("heading", name="Мои матчи")).to_be_visible()
    assert frames, "the websocket frames were not captured"
    assert not [f for f in frames if token in f]
