"""Issue 44: the bot's «Открыть на сайте» link opens the match's scheduling page on the phone already logged in as
its person — once; a second opening logs nobody in. Telegram opens it from outside the site: the test's link sits on
another site's page (t.me), so the tap is a cross-site navigation, as from the app, and the SameSite=Strict session
cookie must still be set and sent."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Route, expect

from services.core.db import session_scope
from services.core.models import utc_now
from services.core.urls import login_link_url
from services.league.login_links import create_login_link
from tests import factories
from tests.e2e.conftest import App

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
CHAT = "https://t.me/discard_league_bot"  # another site: the chat's link, as Telegram's web view shows it


def test_a_login_link_tapped_on_another_site_opens_the_matchs_page_logged_in_once(browser: Browser, app: App) -> None:
    engine = app.engine()
    with session_scope(engine) as session:
        league = factories.league(session)
        person, match_id = league.users[2], league.match.id
        code = create_login_link(session, user_id=person.id, match_id=match_id, now=utc_now()).code
    engine.dispose()
    assert code is not None
    url = f"{app.url}{login_link_url(code)}"

    def chat_page(route: Route) -> None:
        route.fulfill(content_type="text/html; charset=utf-8", body=f'<a href="{url}">Открыть на сайте</a>')

    context = browser.new_context(**PHONE)
    context.route(f"{CHAT}*", chat_page)  # served without any network: the browser takes it for t.me's page
    phone = context.new_page()
    phone.goto(CHAT)
    phone.get_by_role("link", name="Открыть на сайте").tap()
    expect(phone).to_have_url(re.compile(rf"/match/{match_id}/schedule$"))
    expect(phone.get_by_role("heading", name="Согласование времени")).to_be_visible()
    expect(phone.get_by_role("button", name="Выйти")).to_be_visible()  # logged in, as after the login form
    phone.goto(f"{app.url}/")  # the session stays: the home page, not the login form
    expect(phone.get_by_role("heading", name="Мои матчи")).to_be_visible()
    context.close()

    other = browser.new_context(**PHONE).new_page()
    other.goto(url)  # the link again, from another phone (forwarded): used up
    expect(other.get_by_text("уже использована или устарела")).to_be_visible()
    assert code not in other.url  # the code is taken off the address at once
    other.goto(f"{app.url}/match/{match_id}/schedule")
    expect(other).to_have_url(re.compile(r"/login"))
    other.context.close()
