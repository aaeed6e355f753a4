"""The organizer seats a technical substitute and gives the replaced player the no-show penalty (Регламент §5, §6.1)."""

from __future__ import annotations

import re
import uuid
from datetime import timedelta

from playwright.sync_api import Page, expect

from services.core.db import session_scope
from services.core.models import utc_now
from services.core.wording import declined, format_signed
from tests.e2e.conftest import LETTERS, ORGANIZER, PLAYERS, App, login
from tests.e2e.test_results import _match_for
from tests.factories import begun_meeting

TABLE = PLAYERS[8:12]


def _total(page: Page, name: str) -> int:
    row = page.get_by_role("row", name=name, exact=True)
    expect(row).to_be_visible()
    text = row.get_by_role("cell").nth(1).inner_text()  # place, name (a row header), total
    return int(re.sub(r"[^\d-]", "", text.replace("\u2212", "-")))


def _form(page: Page, button: str):  # noqa: ANN202 - a Playwright Locator
    return page.locator("form").filter(has=page.get_by_role("button", name=button))


def test_organizer_seats_a_substitute_and_the_no_show_loses_80000(page: Page, app: App) -> None:
    match_id = _match_for(app, TABLE)
    engine = app.engine()
    with session_scope(engine) as session:  # Регламент §5: a no-show only for a meeting that began
        begun_meeting(session, match_id, utc_now() - timedelta(hours=1))
    engine.dispose()
    absent, substitute = TABLE[0], f"Замена {uuid.uuid4().hex[:6].translate(LETTERS)}"  # a name is letters
    login(page, app, ORGANIZER, path="/standings")
    before = _total(page, absent)

    page.goto(f"{app.url}/match/{match_id}")
    expect(page.get_by_role("heading", name=re.compile(f"Матч {match_id}"))).to_be_visible()
    form = _form(page, "Посадить замену")
    form.get_by_role("combobox", name="Кого заменяют").click()
    page.get_by_role("option", name=absent, exact=True).click()
    form.get_by_label("Или новый игрок: имя").fill(substitute)
    form.get_by_role("button", name="Посадить замену").click()
    # No reason: refused, nothing seated.
    expect(page.get_by_role("alert")).to_contain_text("Укажите причину замены")
    expect(page.get_by_text(f"заменяет {declined(absent, 'acc')}")).to_have_count(0)
    form.get_by_label("Причина замены").fill("не пришёл и не предупредил")
    form.get_by_role("button", name="Посадить замену").click()
    expect(page.get_by_role("status")).to_have_text("Замена посажена за стол; записано в протокол матча.")
    # Issue 45 item 13: the replaced player's name in the accusative (wording.declined; «Игрок 09» stays as written)
    expect(page.get_by_text(f"{substitute} — замена, заменяет {declined(absent, 'acc')}")).to_be_visible()
    expect(page.get_by_role("row").filter(has_text="техническая замена")).to_contain_text(
        f"{substitute} заменяет {declined(absent, 'acc')}"
    )

    # Регламент §5: the replaced player still gets the no-show penalty for this match.
    no_show = _form(page, "Назначить штраф за неявку")
    no_show.get_by_role("combobox", name="Игрок").click()
    page.get_by_role("option", name=absent, exact=True).click()
    no_show.get_by_role("button", name="Назначить штраф за неявку").click()
    # Issue 45 item 10: a warning and −80 000 in one click are asked about first, in words, the season's amount.
    question = page.get_by_role("alertdialog", name=f"Записать неявку: {absent}?")
    expect(question).to_contain_text("предупреждение и штраф −80\u202f000 очков к итогу этого матча")
    question.get_by_role("button", name="Отмена").click()
    expect(question).to_have_count(0)
    expect(page.get_by_role("status")).to_have_count(0)  # nothing recorded
    no_show.get_by_role("button", name="Назначить штраф за неявку").click()
    page.get_by_role("alertdialog").get_by_role("button", name="Записать неявку и штраф").click()
    expect(page.get_by_role("status")).to_have_text("Штраф записан в протокол матча.")
    # The match's penalties table: player, points, kind, warning, basis.
    expect(page.get_by_role("row", name=re.compile(rf"^{absent} −80\s000 неявка предупреждение"))).to_be_visible()

    page.goto(f"{app.url}/standings")
    expect(page.get_by_role("row", name=absent, exact=True)).to_contain_text(format_signed(before - 80_000))
    assert _total(page, absent) == before - 80_000
    expect(page.get_by_role("row", name=substitute, exact=True)).to_have_count(0)
