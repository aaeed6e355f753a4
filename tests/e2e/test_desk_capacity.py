"""Issue 45 item 10 on a 390 × 844 phone: right after the draw the desk's «Столов может не хватить» stood as one long
card per tour above everything; several of them are now one line with their count, opened by a tap."""

from __future__ import annotations

import re
from datetime import timedelta

from playwright.sync_api import Browser, expect
from sqlmodel import select

from discard_app import texts
from services.core.db import session_scope
from services.core.models import Player, Round, Stage, utc_now
from services.league.roster import current_season
from services.scheduling.intervals import at_kirov, kirov_date
from tests import factories
from tests.e2e.conftest import ORGANIZER, App, login
from tests.e2e.test_phone_week import PHONE


def _two_crowded_tours(app: App) -> None:
    """Two tours of a day each for the one seeded room: eight matches of three hanchans cannot fit a day's table."""
    engine = app.engine()
    with session_scope(engine) as session:
        season = current_season(session)
        stage = session.exec(select(Stage).where(Stage.season_id == season.id)).first()
        players = session.exec(select(Player).where(Player.season_id == season.id)).all()[:4]
        day = kirov_date(utc_now()) + timedelta(days=30)
        for tour in range(2):
            start = day + timedelta(days=tour)
            round_ = Round(stage_id=stage.id, code=str(901 + tour), window_start=at_kirov(start),
                           window_end=at_kirov(start + timedelta(days=1)))  # fmt: skip
            session.add(round_)
            session.flush()
            for table in range(8):
                factories.match(session, round_, players, table=str(table + 1))
    engine.dispose()


def test_several_capacity_warnings_are_one_line_that_opens(browser: Browser, app: App) -> None:
    _two_crowded_tours(app)
    context = browser.new_context(**PHONE)
    page = context.new_page()
    login(page, app, ORGANIZER, path="/desk")
    folded = page.locator("summary").filter(has_text=re.compile(r"Столов может не хватить · 2"))
    expect(folded).to_be_visible()
    expect(folded).to_contain_text(texts.DESK_FOLDED_OPEN.strip(" —"))
    tours = page.get_by_role("group", name=re.compile(r"^Тур 90[12]$"), include_hidden=True)
    expect(tours).to_have_count(2)
    expect(tours.first).to_be_hidden()  # folded: the long cards are not above everything
    folded.tap()
    expect(tours.first).to_be_visible()
    expect(tours.nth(1)).to_be_visible()
    context.close()
