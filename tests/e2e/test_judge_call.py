"""Регламент §6.2: a player at the table calls the judge from the match page; the call appears on the judge's open
desk without a reload, the judge answers and closes it with a ruling, and the protocol keeps all three."""

from __future__ import annotations

from datetime import timedelta

from playwright.sync_api import Browser, expect
from sqlmodel import select

from services.core.db import session_scope
from services.core.models import JudgeCall, User, utc_now
from services.scheduling import organizer as scheduling_admin
from services.scheduling.intervals import Interval, at_kirov, kirov_date
from tests.e2e.conftest import JUDGE, ORGANIZER, App, login
from tests.e2e.test_organizer_desk import DESKTOP, PHONE, _stage_with_tours, fresh_players


def _match_meeting_in(app: App, room: str, starts_in: timedelta) -> tuple[dict[str, str], int, str]:
    """Four fresh players' match in a tour open this week, its three-hanchan meeting booked by the organizer in a
    room of its own: their passwords, the match and its title."""
    passwords = fresh_players(app)
    today = kirov_date(utc_now())
    match_id, title = _stage_with_tours(
        app, tuple(passwords), Interval(at_kirov(today - timedelta(days=1)), at_kirov(today + timedelta(days=6)))
    )
    engine = app.engine()
    with session_scope(engine) as session:
        organizer = session.exec(select(User).where(User.display_name == ORGANIZER)).one()
        room_id = scheduling_admin.add_room(session, name=room, actor_user_id=organizer.id).id
        scheduling_admin.assign_meeting(session, match_id=match_id, start=utc_now() + starts_in, hanchans=3,
                                        room_id=room_id, actor_user_id=organizer.id, now=utc_now())  # fmt: skip
    engine.dispose()
    return passwords, match_id, title


def test_a_players_call_reaches_the_judges_open_desk_live(browser: Browser, app: App) -> None:
    passwords, match_id, title = _match_meeting_in(app, "Зал судейского теста", timedelta(minutes=5))
    table = tuple(passwords)
    engine = app.engine()
    judge_context = browser.new_context(locale="ru-RU", timezone_id="Europe/Kirov", **DESKTOP)
    player_context = browser.new_context(locale="ru-RU", timezone_id="Europe/Kirov", **PHONE)
    judge, player = judge_context.new_page(), player_context.new_page()
    try:
        login(judge, app, JUDGE, path="/desk")
        expect(judge.get_by_role("heading", name="Стол судьи")).to_be_visible()  # the judge's own name for it
        judge.evaluate("window.__stillTheSamePage = true")
        login(player, app, table[1], passwords[table[1]], path=f"/match/{match_id}")
        form = player.locator("form").filter(has=player.get_by_role("button", name="Позвать судью"))
        expect(form.get_by_role("combobox").locator("option")).to_have_text(["выберите ханчан", "1", "2", "3"])
        form.get_by_role("combobox").select_option("2")
        form.get_by_label("Что произошло (коротко)").fill("спор о фуритене после риичи")
        form.get_by_role("button", name="Позвать судью").dblclick()  # a double tap files one call (issue 40)
        expect(player.get_by_role("status")).to_contain_text("Судья вызван")
        # Issue 45 item 7: what was done fades on its own and no longer covers the form on the phone
        expect(player.get_by_role("status")).to_be_hidden(timeout=10_000)
        form.get_by_role("button", name="Позвать судью").click(trial=True)  # nothing lies over it

        call = judge.get_by_role("group", name=f"{title}, ханчан 2", exact=True)
        expect(call).to_contain_text("спор о фуритене после риичи", timeout=3_000)
        expect(call).to_contain_text(table[1])
        assert judge.evaluate("window.__stillTheSamePage") is True
        call.get_by_role("button", name=f"Иду: {title}, ханчан 2").click()
        expect(call).to_contain_text("судья идёт")
        close = call.get_by_role("button", name=f"Записать решение: {title}, ханчан 2")
        close.click()
        expect(call.get_by_role("alert")).to_contain_text("укажите")
        call.get_by_label(f"Последовательность действий: {title}, ханчан 2").fill("дискард после риичи, рон")
        call.get_by_label(f"Суть разногласия: {title}, ханчан 2").fill("был ли фуритен")
        call.get_by_label(f"Решение судьи: {title}, ханчан 2").fill("фуритен, рон отменён, чомбо")
        close.click()
        expect(call).to_have_count(0)
        # Issue 45 item 7: the desk's «Готово» fades, so it does not stand above the next call
        done = judge.get_by_role("status").filter(has_text=f"Готово: {title}, ханчан 2")
        expect(done).to_be_visible()
        expect(done).to_be_hidden(timeout=10_000)

        player.reload()
        protocol = player.get_by_role("row").filter(has_text="вызов судьи")
        expect(protocol.first).to_contain_text("спор о фуритене после риичи")
        expect(player.get_by_role("row").filter(has_text="вызов закрыт решением судьи")).to_have_count(1)
        with session_scope(engine) as session:
            [row] = session.exec(select(JudgeCall).where(JudgeCall.match_id == match_id)).all()
            assert row.answered_at is not None and row.closed_at is not None and row.ruling_id is not None
    finally:
        judge_context.close()
        player_context.close()
        engine.dispose()


def test_a_refused_call_leaves_the_button_tappable_on_a_phone(browser: Browser, app: App) -> None:
    """Issue: on a phone «Позвать судью» did nothing. A refusal stays pinned to the bottom of the screen until closed;
    at the page's end it lay over the button for good, so every next tap landed on it. The page now has room below
    its end while an answer is pinned, and the button scrolls clear of it."""
    passwords, match_id, _title = _match_meeting_in(app, "Зал судейского обхода", timedelta(hours=3))
    table = tuple(passwords)
    engine = app.engine()
    context = browser.new_context(locale="ru-RU", timezone_id="Europe/Kirov", **PHONE)
    player = context.new_page()
    try:
        login(player, app, table[1], passwords[table[1]], path=f"/match/{match_id}")
        form = player.locator("form").filter(has=player.get_by_role("button", name="Позвать судью"))
        button = form.get_by_role("button", name="Позвать судью")
        form.get_by_label("Что произошло (коротко)").fill("спор о фуритене")
        button.tap()  # before the meeting: refused, and the refusal stays pinned at the bottom until closed
        expect(player.get_by_role("alert")).to_contain_text("сейчас встреча не идёт")
        expect(player.get_by_role("alert")).to_have_attribute("title", "Судья не вызван")  # what was not done
        expect(player.get_by_role("heading", name="Итог матча")).to_have_count(0)  # nothing scored: no empty table
        button.tap(trial=True, timeout=5_000)  # the pinned refusal does not lie over the button for good
        with session_scope(engine) as session:
            assert session.exec(select(JudgeCall).where(JudgeCall.match_id == match_id)).all() == []
    finally:
        context.close()
        engine.dispose()
