"""The roster after the draw, as the organizer on a phone: a new player joins the reserve by default (Регламент §1, §2),
and «Новый пароль» asks first, naming the person. (Named to run after test_draw.py, which approves the draw.)"""

from __future__ import annotations

import re
import uuid
from datetime import timedelta

from playwright.sync_api import Browser, expect
from sqlmodel import col, select

from services.core.db import session_scope
from services.core.models import Player, RosterStatus, User, utc_now
from services.core.wording import declined
from services.league.closing import ClosingMethod, close_registration
from services.league.draw_season import approve_draw, make_draft
from services.league.roster import current_season
from services.scheduling.intervals import at_kirov, kirov_date
from services.scheduling.tour_windows import set_windows
from tests.e2e.conftest import LETTERS, ORGANIZER, App, login
from tests.e2e.test_organizer_desk import PHONE


def _approved_draw(app: App) -> None:
    """The draw of the seeded season, through the services, unless test_draw.py already approved it."""
    engine = app.engine()
    with session_scope(engine) as session:
        season = current_season(session)
        if season.draw_approved_at is None:
            if not season.registration_closed:
                close_registration(session, season, ClosingMethod.AS_IS, actor_user_id=None)
            make_draft(session, season, seed=1, actor_user_id=None)
            start = kirov_date(utc_now()) + timedelta(days=100)  # far from every other test's meetings
            windows = [
                (at_kirov(start + timedelta(days=14 * n)), at_kirov(start + timedelta(days=14 * n + 14)))
                for n in range(4)
            ]
            set_windows(session, season, windows, actor_user_id=None)
            approve_draw(session, season, actor_user_id=None)
    engine.dispose()


def test_a_player_added_after_the_draw_goes_to_the_reserve(browser: Browser, app: App) -> None:
    _approved_draw(app)
    name = f"Поздний {uuid.uuid4().hex[:5].translate(LETTERS)}"
    context = browser.new_context(locale="ru-RU", timezone_id="Europe/Kirov", **PHONE)
    page = context.new_page()
    try:
        login(page, app, ORGANIZER, path="/roster")
        expect(page.get_by_role("combobox", name="Статус").first).to_contain_text("резерв (жеребьёвка уже утверждена)")
        # The longest choice does not widen the page past the phone's 390 px (the select shortens instead).
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["viewport"]["width"]
        page.get_by_label("Имя и фамилия").fill(name)
        page.get_by_role("button", name="Добавить игрока").click()
        expect(page.get_by_role("row", name=re.compile(name))).to_contain_text("резерв")
        engine = app.engine()
        with session_scope(engine) as session:
            status = session.exec(
                select(Player.status).join(User, col(User.id) == Player.user_id).where(User.display_name == name)
            ).one()
        engine.dispose()
        assert status == RosterStatus.RESERVE
        expect(page.get_by_text(re.compile("должен быть кратен четырём"))).to_have_count(0)

        # «Новый пароль» asks first, naming the person; «Отмена» changes nothing.
        page.get_by_role("button", name=f"Новый пароль: {name}").click()
        dialog = page.get_by_role("alertdialog")
        expect(dialog).to_contain_text(f"Выдать новый пароль для {declined(name, 'gen')}?")
        dialog.get_by_role("button", name="Отмена").click()
        expect(page.get_by_role("alertdialog")).to_have_count(0)
        expect(page.get_by_text(re.compile(f"Пароль для «{name}»: "))).to_have_count(1)  # still the first one
        first = page.get_by_text(re.compile(f"Пароль для «{name}»: ")).inner_text()
        page.get_by_role("button", name=f"Новый пароль: {name}").click()
        page.get_by_role("alertdialog").get_by_role("button", name="Выдать новый пароль").click()
        expect(page.get_by_text(re.compile(f"Пароль для «{name}»: "))).not_to_have_text(first)
    finally:
        context.close()
