"""A login flood through the real app (issue 29, findings 2 and 3): a new browser still gets in."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import Page, expect

from discard_app.pages.account.login import LoginState
from discard_app.session_cookie import DEVICE_COOKIE
from tests.e2e.conftest import PLAYERS, App, login
from tests.e2e.test_secrets import RawTab

FLOOD = 70  # more than main's 60 a minute for every browser that never logged in


def test_a_flood_with_invented_device_ids_does_not_shut_out_a_new_browser(page: Page, app: App) -> None:
    """On main: 70 wrong logins, each with an invented `discard_device`, each password-checked (no lockout, no
    per-client limit), then a new phone got «Сейчас слишком много входов»."""
    tabs = [
        RawTab(app, str(uuid.uuid4()), cookie=f"{DEVICE_COOKIE}=invented-{n}-{uuid.uuid4().hex}") for n in range(FLOOD)
    ]
    for n, tab in enumerate(tabs):
        tab.emit(
            f"{LoginState.get_full_name()}.submit", {"form": {"name": PLAYERS[5], "password": f"угадай {n}"}}, "/login"
        )
    answers = ["".join(tab.read(until=lambda f: "Неверное имя" in f or "лишком много" in f)) for tab in tabs]
    for tab in tabs:
        tab.close()
    checked = sum("Неверное имя" in a for a in answers)
    assert all("Неверное имя" in a or "лишком много" in a for a in answers), "the flood was not all answered"
    assert checked <= 10, f"{checked} of {FLOOD} guesses with invented device ids were password-checked"
    login(page, app, PLAYERS[6])  # a browser that never logged in here, during the flood's minute
    expect(page.get_by_role("heading", name="Мои матчи")).to_be_visible()
    expect(page).not_to_have_url(re.compile(r"/login"))
