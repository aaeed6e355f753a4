"""Issue 25 item 4: closing the regular stage asks first and names what it will do; «Отмена» changes nothing."""

from __future__ import annotations

from playwright.sync_api import Page, expect
from sqlmodel import select

from discard_app import texts
from services.core.db import session_scope
from services.core.models import Stage, StageKind
from tests.e2e.conftest import ORGANIZER, App, login


def _playoff_stages(app: App) -> int:
    engine = app.engine()
    with session_scope(engine) as session:
        count = len(session.exec(select(Stage).where(Stage.kind == StageKind.PLAYOFF)).all())
    engine.dispose()
    return count


def test_closing_the_regular_stage_asks_first_naming_what_follows(page: Page, app: App) -> None:
    login(page, app, ORGANIZER, path="/playoff")
    button = page.get_by_role("button", name=texts.PLAYOFF_CLOSE)
    expect(button).to_be_visible()
    page.get_by_label(texts.PLAYOFF_WINDOW_START).first.fill("2026-12-20T10:00")
    page.get_by_label(texts.PLAYOFF_WINDOW_END).first.fill("2026-12-27T22:00")
    button.click()
    dialog = page.get_by_role("alertdialog")
    expect(dialog).to_contain_text(texts.PLAYOFF_CLOSE_CONFIRM_TITLE)
    expect(dialog).to_contain_text("Восемь лучших основных участников пройдут в плей-офф")
    expect(dialog).to_contain_text(
        "вс 20.12.2026 10:00 — вс 27.12.2026 22:00"
    )  # the window of round 1, as pages say times
    dialog.get_by_role("button", name=texts.PLAYOFF_CLOSE_CANCEL).click()
    expect(dialog).to_have_count(0)
    assert _playoff_stages(app) == 0  # asked, not done
    expect(page.get_by_label(texts.PLAYOFF_WINDOW_START).first).to_have_value("2026-12-20T10:00")  # kept
    button.click()
    page.get_by_role("alertdialog").get_by_role("button", name=texts.PLAYOFF_CLOSE).click()
    expect(page.get_by_role("alert").or_(page.get_by_role("status")).first).to_be_visible()  # the service answered
