"""Issue 25 item 4: the organizer deletes a roster line entered by mistake, after a question naming the person;
a player with a seat in a match is offered no deletion (the service refuses it with the reason)."""

from __future__ import annotations

import uuid

from playwright.sync_api import Page, expect
from sqlmodel import select

from discard_app import texts
from services.core.db import session_scope
from services.core.models import MatchStatus, RosterStatus, User
from services.core.wording import declined
from services.league import roster
from tests import factories
from tests.e2e.conftest import LETTERS, ORGANIZER, App, login


def test_a_line_without_matches_is_deleted_after_asking_and_a_seated_one_is_refused(page: Page, app: App) -> None:
    name = f"Ошибочный {uuid.uuid4().hex[:6].translate(LETTERS)}"
    table = [f"Сидящий {uuid.uuid4().hex[:6].translate(LETTERS)}" for _ in range(4)]
    seated = table[0]
    engine = app.engine()
    with session_scope(engine) as session:
        organizer = session.exec(select(User).where(User.display_name == ORGANIZER)).one()
        season = roster.current_season(session)
        added = [
            roster.add_player(session, season, n, actor_user_id=organizer.id, status=RosterStatus.RESERVE)[0]
            for n in [name, *table]
        ]
        # a seat for the four, in a stage of their own that no other test's tour sees
        factories.match_in_own_stage(session, season, added[1:], MatchStatus.SCHEDULING)
    engine.dispose()
    login(page, app, ORGANIZER, path="/roster")
    row = page.get_by_role("rowheader", name=name, exact=True)
    expect(row).to_have_count(1)
    page.get_by_role("button", name=f"{texts.ROSTER_DELETE}: {name}").click()
    dialog = page.get_by_role("alertdialog")
    expect(dialog).to_contain_text(texts.ROSTER_DELETE_CONFIRM_TITLE.format(name=declined(name, "acc")))
    dialog.get_by_role("button", name=texts.ROSTER_DELETE_CANCEL).click()
    expect(dialog).to_have_count(0)
    expect(row).to_have_count(1)  # asked, not done
    page.get_by_role("button", name=f"{texts.ROSTER_DELETE}: {name}").click()
    page.get_by_role("alertdialog").get_by_role("button", name=texts.ROSTER_DELETE_CONFIRM).click()
    expect(page.get_by_role("status")).to_have_text(texts.ROSTER_DELETED.format(name=name))
    expect(row).to_have_count(0)

    # a line with a seat offers no deletion (the service refuses it too: tests/db/test_roster_delete.py)
    expect(page.get_by_role("rowheader", name=seated, exact=True)).to_have_count(1)
    expect(page.get_by_role("button", name=f"{texts.ROSTER_DELETE}: {seated}")).to_have_count(0)
