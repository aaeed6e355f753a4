"""Регламент §6.2: a correction names its hanchan explicitly, keeps it chosen, starts from its current scores, and a
double click writes it once; the protocol says which hanchan, from what to what."""

from __future__ import annotations

from datetime import timedelta

from playwright.sync_api import Page, expect
from sqlmodel import col, select

from services.core.db import session_scope
from services.core.models import AuditRecord, Hanchan, HanchanResult, Seat, User, utc_now
from services.playoff.hanchan_entry import enter_hanchan
from services.results import hanchans as results
from services.results.entry import Entry
from services.results.scoring import TableResult
from services.scheduling.intervals import Interval
from tests import factories
from tests.e2e.conftest import ORGANIZER, PLAYERS, App, login

TABLE = list(PLAYERS[0:4])
FIRST = (45_000, 35_000, 25_000, 15_000)
SECOND = (40_000, 32_000, 28_000, 20_000)


def _played_match(app: App) -> tuple[int, list[int]]:
    now = utc_now()
    engine = app.engine()
    with session_scope(engine) as session:
        match = factories.match_for_names(session, TABLE, Interval(now - timedelta(days=2), now + timedelta(days=6)))
        ids = [s.player_id for s in session.exec(select(Seat).where(Seat.match_id == match.id)).all()]
        organizer = session.exec(select(User).where(User.display_name == ORGANIZER)).one()
        for points in (FIRST, SECOND):
            entry = Entry(tuple(TableResult(pid, p) for pid, p in zip(ids, points, strict=True)), 0)
            enter_hanchan(session, organizer, match.id, entry, now=now, reason=factories.UNBOOKED)
        match_id = match.id
    engine.dispose()
    return match_id, ids


def _points(app: App, match_id: int, number: int) -> list[int]:
    engine = app.engine()
    with session_scope(engine) as session:
        hanchan = results.current_hanchan(session, match_id, number)
        rows = session.exec(
            select(HanchanResult).where(HanchanResult.hanchan_id == hanchan.id).order_by(col(HanchanResult.id))
        ).all()
        corrections = session.exec(
            select(AuditRecord).where(AuditRecord.entity_id == match_id, AuditRecord.action == "hanchan.correct")
        ).all()
        count = len(corrections)
        versions = len(session.exec(select(Hanchan).where(Hanchan.match_id == match_id)).all())
    engine.dispose()
    return [r.points for r in rows] + [count, versions]


def test_a_correction_stays_on_its_hanchan_starts_from_its_scores_and_a_double_click_writes_it_once(
    page: Page, app: App
) -> None:
    match_id, _ = _played_match(app)
    login(page, app, ORGANIZER, path=f"/match/{match_id}")
    form = page.locator("form").filter(has=page.get_by_role("button", name="Записать исправление"))
    expect(form).to_be_visible()
    expect(form.get_by_text("его нынешние очки появятся здесь")).to_be_visible()  # nothing chosen silently
    form.get_by_role("combobox", name="Исправляемый ханчан").click()
    page.get_by_role("option", name="Ханчан 2", exact=True).click()
    first, second = TABLE[0], TABLE[1]
    expect(form.get_by_label(f"Исправленные очки: {first}")).to_have_value("40000")  # hanchan 2's scores
    expect(form.get_by_label(f"Исправленные очки: {second}")).to_have_value("32000")
    form.get_by_label(f"Исправленные очки: {first}").fill("42000")
    form.get_by_label(f"Исправленные очки: {second}").fill("30000")
    form.get_by_label("Причина", exact=True).fill("перепутали очки")
    form.get_by_label("Решение", exact=True).fill("исправить по бланку")
    form.get_by_role("button", name="Записать исправление").dblclick()
    expect(page.get_by_role("status")).to_contain_text("Исправление записано")
    expect(page.get_by_role("alert")).to_have_count(0)
    expect(form.get_by_role("combobox", name="Исправляемый ханчан")).to_have_text("Ханчан 2")  # still chosen
    expect(form.get_by_label(f"Исправленные очки: {first}")).to_have_value("42000")  # what it holds now
    protocol = page.get_by_role("row").filter(has_text="исправление результата")
    expect(protocol).to_have_count(1)
    expect(protocol).to_contain_text("ханчан 2")
    expect(protocol).to_contain_text(f"{first}: 40 000 → 42 000")
    expect(protocol).to_contain_text(f"{second}: 32 000 → 30 000")
    assert _points(app, match_id, 1) == [*FIRST, 1, 3]  # hanchan 1 untouched; one correction; one new row
    assert _points(app, match_id, 2)[:4] == [42_000, 30_000, 28_000, 20_000]
