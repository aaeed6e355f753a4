"""/schedule: the organizer sets how many tables a room has (issue 27), and reads how long a proposal holds one, which
the season's rules set (issue 41): a wrong number is refused with a clear error and changes nothing, a right one is
saved and shown."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import Browser, expect
from sqlmodel import select

from services.core.db import session_scope
from services.core.models import Room, User, utc_now
from services.core.ruleset import of_season
from services.league import season_rules
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


def _set_hold(app: App, hours: str) -> None:
    with session_scope(app.engine()) as session:
        organizer = session.exec(select(User).where(User.display_name == ORGANIZER)).one()
        season_rules.apply_rules(
            session,
            current_season(session),
            {"proposal_hold_hours": hours},
            reason="время удержания для проверки",
            actor=organizer,
            now=utc_now(),
        )


def test_the_proposal_hold_is_set_with_the_seasons_rules_not_on_the_schedule_page(browser: Browser, app: App) -> None:
    """Issue 27 item 6, issue 41: /schedule says how long a proposal holds its table and where that is changed; the
    rules form on /regulation changes it with the season's other rules (one way): a wrong value is refused next to
    the form and changes nothing, a right one is saved and /schedule shows it."""
    with session_scope(app.engine()) as session:
        if of_season(current_season(session)).proposal_hold_hours != 48:
            _set_hold(app, "48")
    context = browser.new_context(locale="ru-RU", timezone_id="Europe/Kirov", **PHONE)
    page = context.new_page()
    field = page.get_by_label("Предложение держит стол, часов")
    try:
        login(page, app, ORGANIZER, path="/schedule")
        expect(page.get_by_text("Предложение держит стол 48 ч, пока все четверо не подтвердят.")).to_be_visible()
        page.get_by_role("link", name="Изменить в правилах сезона").click()
        expect(field).to_have_value("48")
        field.fill("169")
        page.get_by_role("button", name="Показать, что изменится").click()
        expect(page.get_by_role("alert")).to_contain_text("Предложение держит стол, часов: целое число от 1 до 168")
        with session_scope(app.engine()) as session:
            assert of_season(current_season(session)).proposal_hold_hours == 48
        field.fill("6")
        page.get_by_role("button", name="Показать, что изменится").click()
        expect(page.get_by_text("Предложение держит стол, часов: 48 → 6")).to_be_visible()
        page.get_by_label("Причина изменения").fill("короткое удержание")
        page.get_by_role("button", name="Записать изменение").click()
        expect(
            page.get_by_role("status").filter(has_text=re.compile("Правила сезона сохранены|Поправка записана"))
        ).to_be_visible()
        with session_scope(app.engine()) as session:
            assert of_season(current_season(session)).proposal_hold_hours == 6
        page.goto(f"{app.url}/schedule")
        expect(page.get_by_text("Предложение держит стол 6 ч, пока все четверо не подтвердят.")).to_be_visible()
        expect(page.get_by_label("Часов удержания стола")).to_have_count(0)  # no second form for it
    finally:
        context.close()
        _set_hold(app, "48")  # the other browser tests' proposals hold the default time
