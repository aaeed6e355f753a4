"""/schedule: the organizer sets how many tables a room has and how long a proposal holds one (issue 27): a wrong
number is refused with a clear error and changes nothing, a right one is saved and shown."""

from __future__ import annotations

import uuid

from playwright.sync_api import Browser, expect
from sqlmodel import select

from services.core.db import session_scope
from services.core.models import Room, Season, User, utc_now
from services.league.roster import current_season
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


def test_the_organizer_sets_the_proposal_hold_time_on_the_schedule_page(browser: Browser, app: App) -> None:
    """Issue 27 item 6: the hold time field shows the current value; a wrong one is refused next to the form and
    changes nothing; a right one is saved and shown again after a reload."""
    with session_scope(app.engine()) as session:
        organizer_id = session.exec(select(User.id).where(User.display_name == ORGANIZER)).one()
        season_id = current_season(session).id
        scheduling_admin.set_proposal_hold_hours(session, season_id=season_id, hours=48, actor_user_id=organizer_id,
                                                 now=utc_now())  # fmt: skip
    context = browser.new_context(locale="ru-RU", timezone_id="Europe/Kirov", **PHONE)
    page = context.new_page()
    field = page.get_by_label("Часов удержания стола", exact=True)
    try:
        login(page, app, ORGANIZER, path="/schedule")
        expect(page.get_by_text("Сколько часов предложение держит стол (1–168 ч)")).to_be_visible()
        expect(page.get_by_text("сейчас: 48 ч", exact=True)).to_be_visible()
        expect(field).to_have_value("48")
        field.fill("169")
        page.get_by_role("button", name="Сохранить время удержания").click()
        expect(page.get_by_role("alert")).to_contain_text("целое число от 1 до 168")
        with session_scope(app.engine()) as session:
            assert session.get(Season, season_id).proposal_hold_hours == 48
        field.fill("6")
        page.get_by_role("button", name="Сохранить время удержания").click()
        expect(page.get_by_text("сейчас: 6 ч", exact=True)).to_be_visible()
        with session_scope(app.engine()) as session:
            assert session.get(Season, season_id).proposal_hold_hours == 6
        page.reload()
        expect(page.get_by_text("сейчас: 6 ч", exact=True)).to_be_visible()
        expect(field).to_have_value("6")
    finally:
        context.close()
        with session_scope(app.engine()) as session:  # the other browser tests' proposals hold the default time
            scheduling_admin.set_proposal_hold_hours(session, season_id=season_id, hours=48,
                                                     actor_user_id=organizer_id, now=utc_now())  # fmt: skip
