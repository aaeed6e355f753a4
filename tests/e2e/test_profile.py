"""The profile page: one's own password change ends every other session; the calendar link is renewed there."""

from __future__ import annotations

import re
import urllib.error
import urllib.request
import uuid

from playwright.sync_api import Browser, Page, expect

from services.core.db import session_scope
from services.league.accounts import create_user
from tests.e2e.conftest import App, login


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def _new_player(app: App) -> tuple[str, str]:
    name, password = f"Профиль {uuid.uuid4().hex[:6]}", "старый-пароль-1"
    engine = app.engine()
    with session_scope(engine) as session:
        create_user(session, display_name=name, password=password)
    engine.dispose()
    return name, password


def test_changing_ones_password_ends_the_other_sessions(browser: Browser, page: Page, app: App) -> None:
    name, old = _new_player(app)
    elsewhere = browser.new_context().new_page()
    for p in (page, elsewhere):
        login(p, app, name, old)
        expect(p.get_by_role("heading", name="Мои матчи")).to_be_visible()
    expect(page.get_by_text("игрок").first).to_be_visible()  # the header says who and as whom
    page.goto(f"{app.url}/profile")
    page.get_by_label("Текущий пароль").fill(old)
    page.get_by_label("Новый пароль", exact=True).fill("новый-пароль-1")
    page.get_by_label("Новый пароль ещё раз").fill("новый-пароль-2")
    page.get_by_role("button", name="Сменить пароль").click()
    expect(page.get_by_role("alert")).to_contain_text("не совпадают")
    page.get_by_label("Текущий пароль").fill(old)
    page.get_by_label("Новый пароль", exact=True).fill("новый-пароль-1")
    page.get_by_label("Новый пароль ещё раз").fill("новый-пароль-1")
    page.get_by_role("button", name="Сменить пароль").click()
    expect(page.get_by_role("status")).to_contain_text("Пароль изменён")
    elsewhere.goto(f"{app.url}/")
    expect(elsewhere).to_have_url(re.compile(r"/login"))  # the other browser is logged out
    page.goto(f"{app.url}/")
    expect(page.get_by_role("heading", name="Мои матчи")).to_be_visible()  # this one is not
    login(elsewhere, app, name, "новый-пароль-1")
    expect(elsewhere.get_by_role("heading", name="Мои матчи")).to_be_visible()
    elsewhere.context.close()


def test_the_calendar_link_is_renewed_on_the_profile(page: Page, app: App) -> None:
    name, password = _new_player(app)
    login(page, app, name, password)
    expect(page.get_by_role("heading", name="Мои матчи")).to_be_visible()
    page.goto(f"{app.url}/profile")
    page.get_by_role("button", name="Получить ссылку").click()
    expect(page.get_by_role("status")).to_have_text("Ссылка готова.")  # the first: no old link to speak of
    first = page.locator("code", has_text="/calendar/me/").inner_text()
    assert _status(first) == 200
    page.get_by_role("button", name="Сделать новую ссылку").click()
    expect(page.get_by_role("status")).to_contain_text("старая больше не работает")
    expect(page.locator("code", has_text="/calendar/me/")).not_to_have_text(first)
    second = page.locator("code", has_text="/calendar/me/").inner_text()
    assert _status(first) == 404 and _status(second) == 200


def test_the_password_form_says_its_policy_keeps_the_fields_and_refuses_spaces(page: Page, app: App) -> None:
    name, old = _new_player(app)
    login(page, app, name, old)
    expect(page.get_by_role("heading", name="Мои матчи")).to_be_visible()
    page.goto(f"{app.url}/profile")
    expect(page.get_by_text("не из одних пробелов и не ваше имя для входа")).to_be_visible()
    button = page.get_by_role("button", name="Сменить пароль")
    button.click()  # an empty form says what is missing
    expect(page.get_by_role("alert")).to_contain_text("Введите текущий пароль")
    page.get_by_label("Текущий пароль").fill(old)
    page.get_by_label("Новый пароль", exact=True).fill(" " * 10)
    page.get_by_label("Новый пароль ещё раз").fill(" " * 10)
    button.click()
    expect(page.get_by_role("alert")).to_contain_text("из одних пробелов")
    expect(page.get_by_label("Текущий пароль")).to_have_value(old)  # the fields stay as typed
    expect(page.get_by_label("Новый пароль ещё раз")).to_have_value(" " * 10)
    page.get_by_label("Новый пароль", exact=True).fill(name)
    page.get_by_label("Новый пароль ещё раз").fill(name)
    button.click()
    expect(page.get_by_role("alert")).to_contain_text("не должен совпадать с именем")
    page.get_by_label("Новый пароль", exact=True).fill("новый-пароль-1")
    page.get_by_label("Новый пароль ещё раз").fill("новый-пароль-1")
    button.dblclick()  # a double tap: changed once, and the answer stays «Пароль изменён»
    expect(page.get_by_role("status")).to_contain_text("Пароль изменён")
    expect(page.get_by_role("alert")).to_have_count(0)
    expect(page.get_by_label("Текущий пароль")).to_have_value("")  # done: the form is empty again
    page.context.clear_cookies()
    login(page, app, name, " " * 10)
    expect(page.get_by_role("heading", name="Мои матчи")).to_have_count(0)
    login(page, app, name, "новый-пароль-1")
    expect(page.get_by_role("heading", name="Мои матчи")).to_be_visible()


def test_the_calendar_feed_is_offered_as_a_webcal_subscription_on_a_phone(browser: Browser, app: App) -> None:
    """Issue 28, item 7: /profile (and /calendar) offer the personal feed as a webcal:// link and a copy button."""
    name, password = _new_player(app)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    login(page, app, name, password)
    expect(page.get_by_role("heading", name="Мои матчи")).to_be_visible()
    page.goto(f"{app.url}/profile")
    page.get_by_role("button", name="Получить ссылку").click()
    feed = page.locator("code", has_text="/calendar/me/").inner_text()
    webcal = "webcal://" + feed.split("://", 1)[1]
    expect(page.get_by_test_id("webcal-link")).to_have_attribute("href", webcal)
    expect(page.get_by_role("button", name="Подписаться в календаре")).to_be_visible()
    expect(page.get_by_role("button", name="Скопировать ссылку")).to_be_visible()
    page.reload()  # offered again on the next visit, not only right after it was made
    expect(page.get_by_test_id("webcal-link")).to_have_attribute("href", webcal)
    page.goto(f"{app.url}/calendar")
    expect(page.get_by_test_id("webcal-link")).to_have_attribute("href", webcal)
    context.close()
