"""The organizer's desk after a withdrawal (Регламент §6.1): the withdrawn player's unplayed match waits for a
technical substitute, its link opens the match page's form, and once seated the item is gone. Own players and a
far-future tour (the e2e database is shared); the draw is approved through the services as test_roster_after_draw,
so this file runs after it and after test_draw (the files run in name order), which drafts the draw itself."""

from __future__ import annotations

import uuid
from datetime import timedelta

from playwright.sync_api import Browser, expect

from services.core.db import session_scope
from services.core.models import utc_now
from services.league.roster import add_player, current_season
from services.league.withdrawal import withdraw_player
from services.scheduling.intervals import Interval, at_kirov, kirov_date
from tests import factories as f
from tests.e2e.conftest import LETTERS, ORGANIZER, App, login
from tests.e2e.test_match_admin import _form
from tests.e2e.test_organizer_desk import PHONE
from tests.e2e.test_roster_after_draw import _approved_draw


def test_the_desk_lists_a_withdrawn_players_match_until_a_substitute_is_seated(browser: Browser, app: App) -> None:
    _approved_draw(app)
    tag = uuid.uuid4().hex[:5]
    names = [f"Снятая {tag}", f"Вторая {tag}", f"Третья {tag}", f"Четвёртая {tag}"]
    engine = app.engine()
    with session_scope(engine) as session:
        season = current_season(session)
        players = [add_player(session, season, n, actor_user_id=None, password="x" * 12)[0] for n in names]
        start = kirov_date(utc_now()) + timedelta(days=400 + int(tag, 16) % 300)
        match = f.match_for_names(session, names, Interval(at_kirov(start), at_kirov(start + timedelta(days=14))))
        withdraw_player(session, players[0], reason="переезд", actor_user_id=None, now=utc_now())
        match_id, key = match.id, f"substitute-{match.id}-{players[0].id}"
    engine.dispose()
    context = browser.new_context(locale="ru-RU", timezone_id="Europe/Kirov", **PHONE)
    page = context.new_page()
    try:
        login(page, app, ORGANIZER, path="/desk")
        item = page.locator(f'[data-item="{key}"]')
        expect(item).to_contain_text(f"{names[0]}: участие в сезоне прекращено")
        item.get_by_role("link", name="Посадить замену").click()
        expect(page).to_have_url(f"{app.url}/match/{match_id}")
        expect(page.get_by_text("Результат вносится после технической замены")).to_be_visible()
        form = _form(page, "Посадить замену")
        form.get_by_role("combobox", name="Кого заменяют").click()
        page.get_by_role("option", name=names[0], exact=True).click()
        form.get_by_label("Или новый игрок: имя").fill(f"Замена {tag.translate(LETTERS)}")  # a name is letters
        form.get_by_label("Причина замены").fill("переезд")
        form.get_by_role("button", name="Посадить замену").click()
        expect(page.get_by_role("status")).to_have_text("Замена посажена за стол; записано в протокол матча.")
        expect(page.get_by_text("Результат вносится после технической замены")).to_have_count(0)
        page.goto(f"{app.url}/desk")
        expect(page.get_by_role("heading").first).to_be_visible()
        expect(page.locator(f'[data-item="{key}"]')).to_have_count(0)
    finally:
        context.close()
