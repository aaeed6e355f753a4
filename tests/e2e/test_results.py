"""A participant enters a hanchan; the standings open in another browser update without reload."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect
from sqlmodel import select

from discard_app import texts
from services.core.db import session_scope
from services.core.models import MatchStatus, Player, User
from services.league.roster import current_season
from tests.e2e.conftest import PLAYERS, App, login
from tests.e2e.test_actions_protocol import settled
from tests.factories import match_in_own_stage

TABLE = PLAYERS[12:16]


def _match_for(app: App, names: tuple[str, ...]) -> int:
    """A released tour-1 match for these four players, in a stage of its own so no draw test sees it."""
    engine = app.engine()
    with session_scope(engine) as session:
        players = [
            session.exec(select(Player).join(User, User.id == Player.user_id).where(User.display_name == name)).one()
            for name in names
        ]
        match_id = match_in_own_stage(session, current_season(session), players, MatchStatus.PLAYING).id
    engine.dispose()
    return match_id


def test_participant_enters_a_hanchan_and_other_browser_standings_update(
    page: Page, browser: Browser, app: App
) -> None:
    match_id = _match_for(app, TABLE)
    watcher_context = browser.new_context(locale="ru-RU", timezone_id="Europe/Kirov")
    watcher = watcher_context.new_page()
    try:
        login(watcher, app, PLAYERS[0], path="/standings")
        expect(watcher).to_have_url(re.compile(r"/standings/?$"))
        row = watcher.get_by_role("row", name=TABLE[0], exact=True)
        expect(row).to_be_visible()
        expect(row).not_to_contain_text("+25 000")
        watcher.evaluate("window.__stillTheSamePage = true")

        login(page, app, TABLE[0], path=f"/match/{match_id}")
        expect(page.get_by_role("heading", name=re.compile(f"Матч {match_id} — Тур 1, стол 1"))).to_be_visible()
        for name, points in zip(TABLE, ("40 000", "30000", "30000", "19000"), strict=True):
            page.get_by_label(f"Очки: {name}", exact=True).fill(points)
        page.get_by_role("button", name="Сохранить результат").click()
        expect(page.get_by_role("alert")).to_contain_text("Сумма очков 119 000, должна быть 120 000")
        expect(page.get_by_text("Ханчаны ещё не внесены.")).to_be_visible()

        page.get_by_label(f"Очки: {TABLE[3]}", exact=True).fill("20000")
        page.get_by_role("button", name="Сохранить результат").click()
        expect(page.get_by_role("status")).to_have_text("Результат ханчана сохранён.")
        expect(page.get_by_role("heading", name="Ханчан 1")).to_be_visible()
        expect(page.get_by_role("heading", name=re.compile("Внести ханчан 2"))).to_be_visible()

        # The other browser was never reloaded: the marker set in its page is still there.
        expect(row).to_contain_text("+25 000", timeout=5_000)
        expect(watcher.get_by_role("row", name=TABLE[3], exact=True)).to_contain_text("−25 000")
        assert watcher.evaluate("window.__stillTheSamePage") is True

        # The player page: the match in the list, the chart beside the leaders.
        row.get_by_role("link", name=TABLE[0]).click()
        expect(watcher.get_by_role("heading", name=TABLE[0])).to_be_visible()
        match_row = watcher.get_by_role("row").filter(has=watcher.get_by_role("link", name="Тур 1"))
        expect(match_row).to_contain_text("+25 000")
        expect(watcher.locator(".recharts-line").first).to_be_attached()
        # The chart's tooltip writes points as the tables do: «25 000» with a narrow space, not «25000»
        dot = watcher.locator(".recharts-line-dots circle").first.bounding_box()
        watcher.mouse.move(dot["x"] + dot["width"] / 2, dot["y"] + dot["height"] / 2)
        expect(watcher.locator(".recharts-tooltip-wrapper")).to_contain_text("25\u202f000")
    finally:
        watcher_context.close()


def test_a_player_not_seated_follows_the_scheduling_link_and_is_refused_calmly(page: Page, app: App) -> None:
    """Found on a phone walk: the match page links everyone to its scheduling page; for a player not seated there
    the refusal came with a server error over it (the refused page still started watching the match it had just
    forgotten). Регламент §6.4: the page shows nothing of the match's times, and no error."""
    match_id = _match_for(app, PLAYERS[8:12])
    log = app.workdir / "reflex.log"
    tracebacks = log.read_text().count("Traceback")
    login(page, app, PLAYERS[0], path=f"/match/{match_id}")
    page.get_by_role("link", name=texts.MATCH_SCHEDULE_LINK).click()
    expect(page).to_have_url(re.compile(rf"/match/{match_id}/schedule"))
    expect(page.get_by_text(texts.FORBIDDEN_TITLE).first).to_be_visible()
    settled(app)  # the page's load and its live watch have run
    expect(page.get_by_text(texts.UNEXPECTED_ERROR[:30])).to_have_count(0)
    assert log.read_text().count("Traceback") == tracebacks, "the server raised while refusing the page"


def test_player_who_is_not_seated_sees_no_entry_form(page: Page, app: App) -> None:
    match_id = _match_for(app, PLAYERS[8:12])
    login(page, app, PLAYERS[0], path=f"/match/{match_id}")
    expect(page.get_by_role("heading", name=re.compile(f"Матч {match_id}"))).to_be_visible()
    expect(page.get_by_role("button", name="Сохранить результат")).to_have_count(0)
    expect(page.get_by_text("Ханчаны ещё не внесены.")).to_be_visible()
