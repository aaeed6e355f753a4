"""The organizer publishes an announcement and sees the bot's state; a player reads it and gets a link code."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import ORGANIZER, PLAYERS, App, login

pytestmark = pytest.mark.e2e


def test_announcement_and_telegram_link_code(app: App, page: Page, browser) -> None:  # noqa: ANN001
    login(page, app, ORGANIZER, path="/announcements")
    expect(page.get_by_role("heading", name="Объявления", level=1)).to_be_visible()
    expect(page.get_by_text("Бот не подключён")).to_be_visible()  # no bot runs in this test
    page.get_by_label("Текст объявления").fill("Тур 2 начинается в понедельник — e2e")
    page.get_by_role("button", name="Опубликовать").click()
    expect(page.get_by_role("status")).to_contain_text("Объявление опубликовано")
    expect(page.get_by_text("Тур 2 начинается в понедельник — e2e")).to_be_visible()
    expect(page.get_by_text(re.compile(r"Событий ждут отправки: [1-9]"))).to_be_visible()

    player = browser.new_context(locale="ru-RU", timezone_id="Europe/Kirov").new_page()
    login(player, app, PLAYERS[5], path="/announcements")
    expect(player.get_by_text("Тур 2 начинается в понедельник — e2e")).to_be_visible()
    expect(player.get_by_label("Текст объявления")).to_have_count(0)
    expect(player.get_by_text("Telegram-бот")).to_have_count(0)  # the bot's state is for the organizer

    player.goto(f"{app.url}/profile")
    expect(player.get_by_text("Telegram не привязан")).to_be_visible()
    player.get_by_role("button", name="Получить код привязки").click()
    expect(player.get_by_text(re.compile(r"Ваш одноразовый код: [A-Z2-9]{10}"))).to_be_visible()
    player.context.close()


def test_a_second_press_on_the_form_its_publication_emptied_is_the_same_press(app: App, page: Page) -> None:
    """A double tap whose second press comes after the page emptied the form (components/form.py, assets/forms.js):
    answered as the first, not refused as a new, empty announcement."""
    login(page, app, ORGANIZER, path="/announcements")
    text = "Двойное нажатие — одно объявление, e2e"
    field = page.get_by_label("Текст объявления")
    field.fill(text)
    button = page.get_by_role("button", name="Опубликовать")
    button.click()
    expect(page.get_by_role("status")).to_contain_text("Объявление опубликовано")
    expect(field).to_have_value("")  # the second press sees the emptied form
    button.click()
    expect(page.get_by_role("status")).to_contain_text("Объявление опубликовано")
    expect(page.get_by_role("alert")).to_have_count(0)  # not «Напишите текст объявления.»
    expect(page.get_by_text(text)).to_have_count(1)
