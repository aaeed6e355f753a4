"""Issue 25 item 7: availability painted but not saved is never lost silently. On a 390×844 touch phone the back
button and a link away both ask once; staying keeps the painting, and after leaving through the question the next
page does not ask again (the earlier defect: the question came back at the next tap on the home page)."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Dialog, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from discard_app import texts
from tests.e2e.conftest import PLAYERS, App
from tests.e2e.test_phone_week import PHONE, _card, _label, _schedule, _scheduling_match

QUESTION = "Доступность не сохранена. Уйти со страницы?"


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(**PHONE)
    yield context.new_page()
    context.close()


class Answers:
    """Every question the page asks (window.confirm), answered as the test says: stay (dismiss) or leave."""

    def __init__(self, page: Page) -> None:
        self.asked: list[str] = []
        self.leave = False
        page.on("dialog", self._answer)

    def _answer(self, dialog: Dialog) -> None:
        self.asked.append(dialog.message)
        dialog.accept() if self.leave else dialog.dismiss()


def _back(page: Page) -> None:
    """The browser's back button. A visitor who stays cancels the navigation, so nothing commits to wait for."""
    with contextlib.suppress(PlaywrightTimeoutError):
        page.go_back(timeout=3_000)


def _wait_asked(page: Page, answers: Answers, count: int) -> None:
    for _ in range(100):
        if len(answers.asked) >= count:
            break
        page.wait_for_timeout(50)
    assert answers.asked == [QUESTION] * count


def test_unsaved_painting_asks_once_on_back_and_on_a_link_and_not_on_the_next_page(phone: Page, app: App) -> None:
    names = list(PLAYERS[12:16])
    match_id, title, day = _scheduling_match(app, names)
    _schedule(phone, app, names[0], title)  # login, the home page, its card's link: back leads home
    schedule = re.compile(rf"/match/{match_id}/schedule$")
    answers = Answers(phone)
    cell = phone.get_by_label(f"{_label(day)} 18:00", exact=True)
    cell.tap()
    cell.tap()  # a range of one cell: painted free, not saved
    expect(cell).to_have_attribute("aria-checked", "true")
    expect(phone.get_by_text("Есть несохранённые изменения.")).to_be_visible()

    phone.get_by_role("link", name=texts.SCHED_MATCH_PAGE).tap()  # a link away: asked; staying keeps the painting
    _wait_asked(phone, answers, 1)
    expect(phone).to_have_url(schedule)
    expect(cell).to_have_attribute("aria-checked", "true")

    _back(phone)  # the back button: asked; staying keeps the page and its address
    _wait_asked(phone, answers, 2)
    expect(phone).to_have_url(schedule)
    expect(cell).to_have_attribute("aria-checked", "true")

    answers.leave = True
    _back(phone)  # asked again, and this time left
    _wait_asked(phone, answers, 3)
    expect(phone).to_have_url(re.compile(r"/$"))
    card = _card(phone, title)
    card.get_by_role("link", name="Согласование времени").tap()  # the next tap on the home page is not asked
    expect(phone).to_have_url(schedule)
    phone.wait_for_function("window.discardGrid !== undefined")
    expect(cell).to_have_attribute("aria-checked", "false")  # what was left unsaved is gone, as agreed
    assert answers.asked == [QUESTION] * 3

    cell.tap()
    cell.tap()
    phone.get_by_role("link", name=texts.SCHED_MATCH_PAGE).tap()  # a link, left through the question
    _wait_asked(phone, answers, 4)
    expect(phone).to_have_url(re.compile(rf"/match/{match_id}$"))
    phone.get_by_role("link", name="Лига Дискарда").tap()  # and the match page's next link is not asked
    expect(phone).to_have_url(re.compile(r"/$"))
    expect(_card(phone, title)).to_be_visible()
    assert answers.asked == [QUESTION] * 4


FORM_QUESTION = "Введённое в форму не сохранено. Уйти со страницы?"


def test_the_phone_menu_and_logout_ask_too_and_so_does_a_typed_result(phone: Page, app: App) -> None:
    """Issue 40 item 4: on a phone, leaving the grid through «Меню» lost the painting without a word (its items
        are buttons the server redirects, not links), and what was typed into a form (the result's points, a judge
    call) was lost by any exit."""
    names = list(PLAYERS[8:12])
    match_id, title, day = _scheduling_match(app, names)
    _schedule(phone, app, names[0], title)
    schedule = re.compile(rf"/match/{match_id}/schedule$")
    answers = Answers(phone)
    cell = phone.get_by_label(f"{_label(day)} 18:00", exact=True)
    cell.tap()
    cell.tap()
    expect(cell).to_have_attribute("aria-checked", "true")
    phone.get_by_role("button", name=texts.NAV_MENU).tap()
    phone.get_by_role("menuitem", name=texts.NAV_STANDINGS).tap()  # the menu: asked; staying keeps the painting
    _wait_asked(phone, answers, 1)
    expect(phone).to_have_url(schedule)
    expect(cell).to_have_attribute("aria-checked", "true")
    phone.keyboard.press("Escape")  # the menu closes if it stayed open
    phone.get_by_role("button", name=texts.LOGOUT).tap()  # logout: asked; staying keeps the session and the page
    _wait_asked(phone, answers, 2)
    expect(phone).to_have_url(schedule)
    expect(cell).to_have_attribute("aria-checked", "true")

    answers.leave = True
    phone.get_by_role("link", name=texts.SCHED_MATCH_PAGE).tap()
    _wait_asked(phone, answers, 3)
    expect(phone).to_have_url(re.compile(rf"/match/{match_id}$"))
    answers.leave = False
    described = phone.get_by_label("Что произошло (коротко)")
    described.fill("спор о фуритене")  # typed into a form of the page, not sent
    phone.get_by_role("button", name=texts.NAV_MENU).tap()
    phone.get_by_role("menuitem", name=texts.NAV_STANDINGS).tap()
    for _ in range(100):
        if len(answers.asked) >= 4:
            break
        phone.wait_for_timeout(50)
    assert answers.asked[3:] == [FORM_QUESTION]
    expect(phone).to_have_url(re.compile(rf"/match/{match_id}$"))
    expect(described).to_have_value("спор о фуритене")
