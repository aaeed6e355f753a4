"""/schedule: the organizer sets how many tables a room has (issue 27): a wrong number is refused with a clear
error and changes nothing, a right one is saved and shown with the room."""

from __future__ import annotations

import uuid

from playwright.sync_api import Browser, expect
from sqlmodel import select

from services.core.db import session_scope
from services.core.models import Room, User, utc_now
from services.scheduling import organizer as scheduling_admin
from tests.e2e.conftest import ORGANIZER, App, login
from tests.e2e.test_organizer_desk import PHONE


def test_the_organizer_sets_a_rooms_tables_on_the_schedule_page(browser: Browser, app: App) -> None:
    name = f"Веранда {uuid.uuid4().hex[:4]}"
    with session_scope(app.engine()) as session:
        organizer = session.exec(select(User).where(User.display_name == ORGANIZER)).one()
        room_id = scheduling_admin.add_room(session, name=name, actor_user_id=organizer.id, now=utc_now()).id
    context = browser.new_context(locale="ru-RU", timezone_id="Europe/Kirov", **PHONE)
    page = context.new_page()
    try:
        login(page, app, ORGANIZER, path="/schedule")
        expect(page.get_by_text(f"{name}: столов 1", exact=True)).to_be_visible()
        page.get_by_label("Помещение, где меняется число столов").select_option(label=name)
        page.get_by_label("Число столов", exact=True).fill("0")
        page.get_by_role("button", name="Сохранить число столов").click()
        expect(page.get_by_role("alert")).to_contain_text("Число столов — целое от 1 до 50.")
        with session_scope(app.engine()) as session:
            assert session.get(Room, room_id).tables == 1
        page.get_by_label("Число столов", exact=True).fill("4")
        page.get_by_role("button", name="Сохранить число столов").click()
        expect(page.get_by_text(f"{name}: столов 4", exact=True)).to_be_visible()
        with session_scope(app.engine()) as session:
            assert session.get(Room, room_id).tables == 4
    finally:
        context.close()
