"""/schedule as the organizer on a phone and a desktop: actions on the match's own row open a dialog naming it; a
refused move keeps the dialog and everything typed and moves nothing; a played match offers no move (Регламент §6.1)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from playwright.sync_api import Browser, Locator, expect
from sqlmodel import select

from services.core.db import session_scope
from services.core.models import Booking, Room, User, utc_now
from services.core.text_limits import FIELD_LIMITS
from services.playoff.hanchan_entry import enter_hanchan
from services.results.entry import Entry
from services.results.scoring import TableResult
from services.scheduling import organizer as scheduling_admin
from services.scheduling.intervals import Interval, at_kirov, kirov_date
from services.scheduling.view import kirov_value, match_bookings
from tests.e2e.conftest import ORGANIZER, App, login
from tests.e2e.test_organizer_desk import DESKTOP, PHONE, _players, _stage_with_tours, fresh_players
from tests.factories import UNBOOKED


@pytest.mark.parametrize("device", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_refused_move_keeps_its_dialog_and_moves_nothing(browser: Browser, app: App, device: dict) -> None:
    table = tuple(fresh_players(app))
    base = kirov_date(utc_now()) + timedelta(days=40 if device is PHONE else 70)
    window = Interval(at_kirov(base), at_kirov(base + timedelta(days=14)))
    booked_id, booked = _stage_with_tours(app, table, window)
    played_id, played = _stage_with_tours(app, table, window)
    engine = app.engine()
    with session_scope(engine) as session:
        organizer = session.exec(select(User).where(User.display_name == ORGANIZER)).one()
        room = session.exec(select(Room)).first()
        start = at_kirov(base + timedelta(days=2), 18)
        meeting = scheduling_admin.assign_meeting(session, match_id=booked_id, start=start, hanchans=3,
                                                  room_id=room.id, actor_user_id=organizer.id,
                                                  now=utc_now())  # fmt: skip
        busy = at_kirov(base + timedelta(days=3), 18)
        scheduling_admin.book_activity(session, title="D&D", start=busy, end=busy + timedelta(hours=4), room_id=room.id,
                                       actor_user_id=organizer.id, now=utc_now())  # fmt: skip
        seated = _players(session, table)
        points = zip(seated, [40000, 30000, 30000, 20000], strict=True)
        # by the organizer, with a reason: no meeting of that match has begun, a player could not enter it yet (§6.2)
        enter_hanchan(
            session,
            organizer,
            played_id,
            Entry(tuple(TableResult(p.id, n) for p, n in points), 0),
            now=utc_now(),
            reason=UNBOOKED,
        )
        booking_id, original = meeting.id, (meeting.start_at, meeting.end_at)
    context = browser.new_context(locale="ru-RU", timezone_id="Europe/Kirov", **device)
    page = context.new_page()

    def the_one_booking_is_named(dialog: Locator) -> None:
        """The match's only booking is named in the dialog, chosen: no list to pick from."""
        with session_scope(engine) as session:
            (only,) = match_bookings(session, booked_id)
        assert only["id"] == str(booking_id)
        expect(dialog.get_by_text(only["text"], exact=True)).to_be_visible()
        expect(dialog.get_by_role("combobox", name="Бронь")).to_have_count(0)

    try:
        login(page, app, ORGANIZER, path="/schedule")
        expect(page.get_by_role("heading", name="Согласование матчей")).to_be_visible()
        page.get_by_role("button", name=f"Перенести бронь: {booked}").click()
        dialog = page.get_by_role("dialog")
        expect(dialog.get_by_role("heading")).to_have_text(f"Перенести бронь: {booked}")
        the_one_booking_is_named(dialog)
        dialog.get_by_label("Новое начало").fill(kirov_value(busy))
        dialog.get_by_label("Новое окончание").fill(kirov_value(busy + timedelta(hours=4, minutes=30)))
        reason = dialog.get_by_label("Уважительная причина")
        expect(reason).to_have_attribute("maxlength", str(FIELD_LIMITS["reason"]))  # it stops where the server would
        reason.fill("просьба игроков")
        dialog.get_by_role("button", name="Перенести бронь").click()
        expect(dialog.get_by_role("alert")).to_contain_text("Помещение занято: «D&D»")
        # Still open, still about the same match and booking, with everything typed.
        expect(dialog.get_by_role("heading")).to_have_text(f"Перенести бронь: {booked}")
        the_one_booking_is_named(dialog)
        expect(dialog.get_by_label("Новое начало")).to_have_value(kirov_value(busy))
        expect(dialog.get_by_label("Уважительная причина")).to_have_value("просьба игроков")
        with session_scope(engine) as session:
            row = session.get(Booking, booking_id)
            assert (row.start_at, row.end_at, row.active) == (*original, True)
        # A free time is accepted from the same dialog.
        free = busy + timedelta(days=1)
        dialog.get_by_label("Новое начало").fill(kirov_value(free))
        dialog.get_by_label("Новое окончание").fill(kirov_value(free + timedelta(hours=4, minutes=30)))
        dialog.get_by_role("button", name="Перенести бронь").click()
        expect(page.get_by_role("dialog")).to_have_count(0)
        expect(page.get_by_role("status")).to_contain_text(booked)
        # The match with a hanchan played has no booking to release; its two other hanchans still need a time, so
        # the fallback and the next tour are offered for them (a split match's rest is never orphaned).
        expect(page.get_by_role("button", name=f"Снять бронь: {played}")).to_have_count(0)
        expect(page.get_by_role("button", name=f"{'Перенести матч на следующий тур'}: {played}")).to_have_count(1)
        expect(page.get_by_role("button", name=f"Назначить запасную дату: {played}")).to_have_count(1)
        expect(page.get_by_role("button", name=f"Назначить запасную дату: {booked}")).to_have_count(0)
        # Released by the organizer with a reason: the players agree on a time again.
        page.get_by_role("button", name=f"Снять бронь: {booked}").click()
        dialog = page.get_by_role("dialog")
        the_one_booking_is_named(dialog)
        dialog.get_by_role("button", name="Снять бронь").click()
        expect(dialog.get_by_role("alert")).to_contain_text("Укажите причину")
        dialog.get_by_label("Уважительная причина").fill("зал закрыт на ремонт")
        dialog.get_by_role("button", name="Снять бронь").click()
        expect(page.get_by_role("dialog")).to_have_count(0)
        expect(page.get_by_role("status")).to_contain_text(booked)
        with session_scope(engine) as session:
            assert not session.get(Booking, booking_id).active
        expect(page.get_by_role("button", name=f"Снять бронь: {booked}")).to_have_count(0)
        # Unbooked now, it moves to the next tour with a reason; the message says where it went.
        page.get_by_role("button", name=f"Перенести матч на следующий тур: {booked}").click()
        dialog = page.get_by_role("dialog")
        dialog.get_by_label("Уважительная причина").fill("болезнь игрока")
        dialog.get_by_role("button", name="Перенести матч на следующий тур").click()
        expect(page.get_by_role("status")).to_contain_text(f"{booked}: перенесён в тур ")
    finally:
        context.close()
        engine.dispose()


def test_the_assign_dialog_offers_only_the_match_s_remaining_hanchans(browser: Browser, app: App) -> None:
    """Issue 28: of a regular match's three hanchans (Регламент §2) one is booked: the dialog offers 1 or 2, the
    two by default; never 5."""
    table = tuple(fresh_players(app))
    base = kirov_date(utc_now()) + timedelta(days=100)
    window = Interval(at_kirov(base), at_kirov(base + timedelta(days=14)))
    match_id, title = _stage_with_tours(app, table, window)
    engine = app.engine()
    with session_scope(engine) as session:
        organizer = session.exec(select(User).where(User.display_name == ORGANIZER)).one()
        room = session.exec(select(Room)).first()
        scheduling_admin.assign_meeting(session, match_id=match_id, start=at_kirov(base + timedelta(days=2), 18),
                                        hanchans=1, room_id=room.id, actor_user_id=organizer.id,
                                        now=utc_now())  # fmt: skip
    engine.dispose()
    context = browser.new_context(locale="ru-RU", timezone_id="Europe/Kirov", **PHONE)
    page = context.new_page()
    try:
        login(page, app, ORGANIZER, path="/schedule")
        page.get_by_role("button", name=f"Назначить встречу: {title}").click()
        select_box = page.get_by_role("dialog").get_by_role("combobox", name="Ханчанов")
        expect(select_box).to_have_value("2")
        assert select_box.locator("option").all_inner_texts() == ["1", "2"]
    finally:
        context.close()
