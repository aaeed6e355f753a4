"""Every submit button of the site stands in the one form component (discard_app/components/form.py): this walks
the pages as the organizer (who sees the most forms) and fails on any submit button outside it, except the ones
still listed here — the list of forms not yet moved only shrinks."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import Page, expect

from discard_app import texts
from discard_app.components.form import FORM_MARK
from tests.e2e.conftest import LETTERS, ORGANIZER, App, login
from tests.e2e.test_actions_protocol import _match, settled

# page -> the submit buttons not yet on the form component (issue 25 item 1)
NOT_YET_MOVED = {}
# Pages none of whose forms are moved yet (the list only shrinks; the desk's item forms moved, issue 25 item 1).
NOT_YET_MOVED_PAGES: set[str] = set()
PAGES = [
    "/", "/roster", "/draw", "/standings", "/match/{id}", "/match/{id}/schedule", "/schedule", "/calendar",
    "/playoff", "/announcements", "/profile", "/pantheon", "/desk", "/seasons", "/seasons/manage",
    "/disqualifications", "/regulation", "/staff",
]  # fmt: skip
SUBMITS = f"""() => [...document.querySelectorAll('button[type=submit], input[type=submit]')]
    .map(b => [b.innerText.trim(), !!b.closest('form[{FORM_MARK}]')])"""
MOVED = {
    "/match/{id}": {"Сохранить результат", "Записать исправление", "Назначить штраф за неявку"},
    "/roster": {"Добавить игрока", "Изменить статус", "Записать"},
    "/draw": {"Сохранить окна"},
    "/profile": {"Сменить пароль"},
    "/announcements": {"Опубликовать"},
    "/regulation": {"Опубликовать изменение", "Показать", "Показать, что изменится"},
    "/disqualifications": {"Записать дисквалификацию"},
    "/staff": {"Добавить"},
    "/desk": {"Назначить судью"},  # and each open item's own action form
    "/schedule": {"Добавить в календарь", "Добавить помещение", "Сохранить число столов"},
    "/pantheon": {"Сохранить"},
    "/playoff": {"Закрыть регулярный этап"},
    "/seasons/manage": {"Начать сезон"},
}


def test_every_submit_button_stands_in_the_form_component(page: Page, app: App) -> None:
    match = _match(app, with_hanchan=True)  # the correction and dispute forms need a hanchan
    login(page, app, ORGANIZER)
    expect(page).to_have_url(re.compile(r"/$"))
    outside: dict[str, set[str]] = {}
    for path in PAGES:
        page.goto(app.url + path.format(id=match.id))
        page.wait_for_load_state("networkidle")
        expect(page.get_by_role("heading").first).to_be_visible()
        for text in MOVED.get(path, set()):  # the on-load event's forms, in the form component
            expect(page.locator(f"form[{FORM_MARK}] button[type=submit]", has_text=text).first).to_be_visible()
        settled(app)  # and whatever else the on-load event and what it chains render
        buttons = page.evaluate(SUBMITS)
        inside = {text for text, moved in buttons if moved}
        assert MOVED.get(path, set()) <= inside, f"{path}: expected on the form component: {MOVED[path] - inside}"
        if path in NOT_YET_MOVED_PAGES:
            continue
        if found := {text for text, moved in buttons if not moved} - NOT_YET_MOVED.get(path, set()):
            outside[path] = found
    assert not outside, f"submit buttons outside the form component: {outside}"


def test_a_refused_status_change_keeps_the_chosen_player_and_status(page: Page, app: App) -> None:
    """Issue 25: a missing reason used to clear the chosen player and status; now they stay, and a double click on
    «Добавить игрока» adds one person."""
    name = f"Новенький {uuid.uuid4().hex[:6].translate(LETTERS)}"
    login(page, app, ORGANIZER, path="/roster")
    page.get_by_label(texts.ROSTER_NAME).fill(name)
    page.get_by_role("button", name="Добавить игрока").dblclick()
    expect(page.get_by_role("status").filter(has_text=texts.ROSTER_ADDED)).to_be_visible()
    expect(page.locator("#roster-issued-password")).to_contain_text(name)  # its password shown, not wiped
    expect(page.get_by_role("rowheader", name=name, exact=True)).to_have_count(1)
    page.get_by_role("combobox", name="Игрок").click()
    page.get_by_role("option", name=name).click()
    page.get_by_role("combobox", name="Статус").nth(1).click()
    page.get_by_role("option", name="снят").click()
    page.get_by_role("button", name="Изменить статус").click()
    expect(page.get_by_role("alert")).to_contain_text("укажите причину")
    # Issue 45 item 7: the new answer replaces the old one, the issued password's line with it
    expect(page.locator("#roster-issued-password")).to_be_hidden()
    expect(page.get_by_role("combobox", name="Игрок")).to_have_text(name)  # still chosen
    expect(page.get_by_role("combobox", name="Статус").nth(1)).to_have_text("снят")


def test_a_first_name_alone_is_asked_about_before_an_account_is_made(page: Page, app: App) -> None:
    """Issue 45 item 10: a one-word name for a new person asks «Только имя, без фамилии?»; «Дописать фамилию»
    makes nothing, «Создать без фамилии» makes the account and shows its password."""
    name = f"Одноимённый{uuid.uuid4().hex[:6].translate(LETTERS)}"
    login(page, app, ORGANIZER, path="/roster")
    page.get_by_label(texts.ROSTER_NAME).fill(name)
    page.get_by_role("button", name="Добавить игрока").click()
    question = page.get_by_role("alertdialog", name=f"Только имя, без фамилии: «{name}»?")
    expect(question).to_contain_text("Лучше дописать фамилию")
    question.get_by_role("button", name="Дописать фамилию").click()
    expect(question).to_have_count(0)
    expect(page.get_by_role("rowheader", name=name, exact=True)).to_have_count(0)
    expect(page.locator("#roster-issued-password")).to_be_hidden()
    page.get_by_role("button", name="Добавить игрока").click()
    question.get_by_role("button", name="Создать без фамилии").click()
    expect(page.get_by_role("rowheader", name=name, exact=True)).to_have_count(1)
    expect(page.locator("#roster-issued-password")).to_contain_text(f"Пароль для «{name}»")
