"""Issue 28 item 4 on a 390 × 844 phone: a reserve player's home says she is in reserve and what that means, where
it used to say «Матчей пока нет… жеребьёвка проводится после закрытия регистрации» whatever the season's stage."""

from __future__ import annotations

import uuid

from playwright.sync_api import Browser, expect
from sqlmodel import select

from discard_app import texts
from services.core.db import session_scope
from services.core.models import RosterStatus, User
from services.league import roster
from tests.e2e.conftest import LETTERS, ORGANIZER, App, login
from tests.e2e.test_phone_week import PHONE


def test_a_reserve_player_reads_on_her_phone_that_she_is_in_reserve(browser: Browser, app: App) -> None:
    name = f"Резервная {uuid.uuid4().hex[:6].translate(LETTERS)}"
    engine = app.engine()
    with session_scope(engine) as session:
        season = roster.current_season(session)
        organizer = session.exec(select(User).where(User.display_name == ORGANIZER)).one()
        _, password = roster.add_player(session, season, name, status=RosterStatus.RESERVE, actor_user_id=organizer.id)
        season_name = season.name
    engine.dispose()
    context = browser.new_context(**PHONE)
    page = context.new_page()
    login(page, app, name, password)
    note = page.get_by_role("status").filter(has_text=f"Вы в резерве сезона «{season_name}»")
    expect(note).to_be_visible()
    expect(page.get_by_text(texts.HOME_EMPTY_TITLE)).to_have_count(0)  # the note says why there are no matches
    box = note.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390  # inside the phone's width
    context.close()
