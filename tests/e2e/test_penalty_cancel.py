"""Регламент §5, §6.3: the organizer cancels a penalty with a reason; the protocol says so, the standings follow."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.e2e.conftest import ORGANIZER, PLAYERS, App, login
from tests.e2e.test_actions_protocol import SEATED, _match
from tests.e2e.test_match_admin import _form, _total


def test_a_no_show_is_cancelled_with_a_reason_and_the_standings_follow(page: Page, app: App) -> None:
    match = _match(app, with_penalty=True)  # a no-show of SEATED[0], −80 000
    absent = SEATED[0]
    assert absent in PLAYERS
    login(page, app, ORGANIZER, path="/standings")
    penalised = _total(page, absent)
    page.goto(f"{app.url}/match/{match.id}")
    expect(page.get_by_role("row", name=re.compile(rf"^{absent} −80\s000 неявка"))).to_be_visible()
    form = _form(page, "Отменить штраф")
    form.get_by_role("combobox", name="Какой штраф").click()
    page.get_by_role("option", name=f"{absent}: неявка, −80 000").click()
    form.get_by_role("button", name="Отменить штраф").click()
    expect(page.get_by_role("alert")).to_contain_text("Укажите причину отмены")  # asked, nothing undone
    form.get_by_label("Причина отмены").fill("предупредил организатора заранее")
    form.get_by_role("button", name="Отменить штраф").click()
    expect(page.get_by_role("status")).to_contain_text("Штраф отменён")
    expect(page.get_by_role("row", name=re.compile(rf"^{absent} −80\s000 неявка"))).to_have_count(0)
    cancelled = page.get_by_role("row").filter(has_text="штраф отменён")
    expect(cancelled).to_contain_text("предупредил организатора заранее")
    expect(cancelled).to_contain_text(f"{absent} −80 000")
    page.goto(f"{app.url}/standings")
    expect(page.get_by_role("row", name=absent, exact=True)).to_be_visible()
    assert _total(page, absent) == penalised + 80_000
