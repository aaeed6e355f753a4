"""The match page's result form opens with the meeting (issue 45 item 2, Регламент §6.2, §6.3), on a 390 × 844
phone: before the booked meeting a player sees when entry opens and no form; the organizer sees the form with a
reason field and why it is asked, is refused without a reason, and the protocol keeps the one given."""

from __future__ import annotations

import re
from datetime import timedelta

from playwright.sync_api import Browser, expect
from sqlmodel import select

from discard_app import texts
from services.core.db import session_scope
from services.core.models import User, utc_now
from services.results.hanchans import OUTSIDE_MEETING
from services.scheduling import organizer as scheduling_admin
from services.scheduling.intervals import Interval, at_kirov, kirov_date
from services.scheduling.rules import format_kirov
from tests import factories
from tests.e2e.conftest import ORGANIZER, PLAYERS, App, login
from tests.e2e.test_phone_week import PHONE

TABLE = PLAYERS[0:4]


def _match_booked_ahead(app: App) -> tuple[int, str]:
    """A match of TABLE whose one meeting, booked by the organizer through the service, is two days ahead."""
    now = utc_now()
    start = at_kirov(kirov_date(now) + timedelta(days=2), 18)
    engine = app.engine()
    with session_scope(engine) as session:
        match = factories.match_for_names(
            session, list(TABLE), Interval(now - timedelta(days=1), now + timedelta(days=7))
        )
        organizer = session.exec(select(User).where(User.display_name == ORGANIZER)).one()
        scheduling_admin.assign_meeting(
            session, match_id=match.id, start=start, hanchans=3, actor_user_id=organizer.id, now=now
        )
        match_id = match.id
    engine.dispose()
    return match_id, format_kirov(start)


def test_the_form_opens_with_the_meeting_and_the_organizer_says_why_before_it(browser: Browser, app: App) -> None:
    match_id, when = _match_booked_ahead(app)
    opens = f"Результаты откроются с началом встречи: {when}."
    player = browser.new_context(**PHONE)
    organizer = browser.new_context(**PHONE)
    try:
        page = player.new_page()
        login(page, app, TABLE[1], path=f"/match/{match_id}")
        expect(page.get_by_role("heading", name=re.compile(f"Матч {match_id}"))).to_be_visible()
        expect(page.get_by_text(opens)).to_be_visible()
        expect(page.get_by_role("button", name=texts.ENTER_SUBMIT)).to_have_count(0)

        desk = organizer.new_page()
        login(desk, app, ORGANIZER, path=f"/match/{match_id}")
        expect(desk.get_by_text(f"{opens} {OUTSIDE_MEETING}")).to_be_visible()
        reason = desk.get_by_label(texts.ENTER_REASON, exact=True)
        expect(reason).to_be_visible()
        for name, points in zip(TABLE, ("40000", "30000", "30000", "20000"), strict=True):
            desk.get_by_label(f"Очки: {name}", exact=True).fill(points)
        desk.get_by_role("button", name=texts.ENTER_SUBMIT).tap()
        expect(desk.get_by_role("alert")).to_contain_text(OUTSIDE_MEETING)
        expect(desk.get_by_text("Ханчаны ещё не внесены.")).to_be_visible()

        why = "сыграли первый ханчан заранее, протокол подписан"
        reason.fill(why)
        desk.get_by_role("button", name=texts.ENTER_SUBMIT).tap()
        expect(desk.get_by_role("status")).to_have_text(texts.ENTER_SAVED)
        expect(desk.get_by_role("heading", name="Ханчан 1")).to_be_visible()
        expect(desk.get_by_text(why).first).to_be_visible()  # in the protocol
        # the player's page follows: hanchan 1 is in, hanchan 2 still opens with the meeting
        expect(page.get_by_role("heading", name="Ханчан 1")).to_be_visible()
        expect(page.get_by_text(opens)).to_be_visible()
        expect(page.get_by_role("button", name=texts.ENTER_SUBMIT)).to_have_count(0)
    finally:
        player.close()
        organizer.close()
