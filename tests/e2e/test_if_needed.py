"""«Могу, если нужно» painted on a 390×844 touch phone, the one who blocks told on their own page only (the other
three's websocket frames hold no such hint), and the §6.1 fallback date on the home card and the scheduling page."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from sqlmodel import select

from services.core.db import session_scope
from services.core.models import Round, User, utc_now
from services.scheduling.availability import own_availability, own_if_needed, save_availability
from services.scheduling.intervals import Interval, at_kirov, kirov_date
from services.scheduling.rules import fallback_slot, fallback_text
from tests import factories
from tests.e2e.conftest import PLAYERS, App, login
from tests.e2e.test_phone_week import HALF_HOURS, LIVE, PHONE, _card, _checked, _label, _schedule


@pytest.fixture
def phones(browser: Browser) -> Iterator[list[BrowserContext]]:
    contexts = [browser.new_context(**PHONE) for _ in range(4)]
    yield contexts
    for context in contexts:
        context.close()


def _match(app: App, names: list[str], window: Interval) -> tuple[int, str, list[int]]:
    engine = app.engine()
    with session_scope(engine) as session:
        match = factories.match_for_names(session, names, window)
        title = f"Тур {session.get(Round, match.round_id).code}, стол {match.table}"
        users = [session.exec(select(User).where(User.display_name == n)).one().id for n in names]
        match_id = match.id
    engine.dispose()
    return match_id, title, users


def _paint(app: App, match_id: int, user_id: int, *spans: Interval) -> None:
    engine = app.engine()
    with session_scope(engine) as session:
        save_availability(session, match_id=match_id, user_id=user_id, intervals=list(spans), now=utc_now())
    engine.dispose()


def test_on_a_phone_the_chosen_kind_paints_if_needed_and_the_option_says_so(
    phones: list[BrowserContext], app: App
) -> None:
    names = list(PLAYERS[12:16])
    first = kirov_date(utc_now()) + timedelta(days=260)  # an evening no other test books in the club's room
    match_id, title, users = _match(app, names, Interval(at_kirov(first), at_kirov(first + timedelta(days=3))))
    day = first + timedelta(days=1)
    label = _label(day)
    page = phones[0].new_page()
    _schedule(page, app, names[0], title)
    expect(page.get_by_text("жёлтая в полоску — могу, если нужно", exact=False)).to_be_visible()
    # 18:00–21:00 free: two taps; then «Если нужно» chosen, a tap on 19:30 and on 21:00 makes 19:30–21:00 so.
    page.get_by_label(f"{label} 18:00", exact=True).tap()
    page.get_by_label(f"{label} 21:00", exact=True).tap()
    page.get_by_role("button", name="Если нужно", exact=True).tap()
    page.get_by_label(f"{label} 19:30", exact=True).tap()
    expect(page.get_by_text("Начало отмечено")).to_be_visible()
    page.get_by_label(f"{label} 21:00", exact=True).tap()
    assert _checked(page, label, HALF_HOURS) == ["18:00", "18:30", "19:00"]
    assert _checked(page, label, HALF_HOURS, "mixed") == ["19:30", "20:00", "20:30", "21:00"]
    page.get_by_role("button", name="Сохранить доступность").tap()
    expect(page.get_by_role("status")).to_contain_text("Доступность сохранена.")
    engine = app.engine()
    with session_scope(engine) as session:
        maybe = own_if_needed(session, match_id=match_id, user_id=users[0])
        painted = own_availability(session, match_id=match_id, user_id=users[0])
    engine.dispose()
    assert maybe == [Interval(at_kirov(day, 19, 30), at_kirov(day, 21, 30))]
    assert sorted(painted) == [Interval(at_kirov(day, 18), at_kirov(day, 19, 30)), *maybe]
    # the other three are free all evening: the fully free option first, then the one needing «если нужно»
    for user_id in users[1:]:
        _paint(app, match_id, user_id, Interval(at_kirov(day, 17), at_kirov(day, 23)))
    expect(page.get_by_text("для 1 игрока — если нужно")).to_be_visible(timeout=LIVE)
    expect(page.get_by_text("помещается 1 ханчан")).to_be_visible()  # 18:00–19:30
    expect(page.get_by_text("помещается 2 ханчана")).to_be_visible()  # 18:00–21:30 with the «если нужно»
    # the grid comes back from the server with both levels
    page.reload()
    page.wait_for_function("window.discardGrid !== undefined")
    expect(page.get_by_label(f"{label} 20:00", exact=True)).to_have_attribute("aria-checked", "mixed")
    expect(page.get_by_label(f"{label} 18:30", exact=True)).to_have_attribute("aria-checked", "true")
    # «Стереть» chosen: a range of two taps clears
    page.get_by_role("button", name="Стереть", exact=True).tap()
    page.get_by_label(f"{label} 20:30", exact=True).tap()
    page.get_by_label(f"{label} 21:00", exact=True).tap()
    assert _checked(page, label, HALF_HOURS, "mixed") == ["19:30", "20:00"]
    page.evaluate("window.discardGrid.saved()")  # leave without saving, unasked
    # the next tour's grid copies both levels, a week later
    week = first + timedelta(days=7)
    next_id, _, _ = _match(app, names, Interval(at_kirov(week), at_kirov(week + timedelta(days=3))))
    page.goto(f"{app.url}/match/{next_id}/schedule")
    page.wait_for_function("window.discardGrid !== undefined")
    page.get_by_role("button", name="Скопировать моё время из прошлого тура").tap()
    # the answer under the button, on the screen the finger is on (the walk met it 2 000 px below, under the grid)
    expect(page.get_by_role("status").filter(has_text="Отмечено ваше свободное время")).to_be_in_viewport()
    copied = _label(day + timedelta(days=7))
    expect(page.get_by_label(f"{copied} 21:00", exact=True)).to_have_attribute("aria-checked", "mixed")
    assert _checked(page, copied, HALF_HOURS) == ["18:00", "18:30", "19:00"]
    assert _checked(page, copied, HALF_HOURS, "mixed") == ["19:30", "20:00", "20:30", "21:00"]


def _listen(page: Page) -> list[str]:
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda data: frames.append(str(data))))
    return frames


def test_the_one_who_blocks_alone_sees_the_hint_and_every_card_the_fallback(
    phones: list[BrowserContext], app: App
) -> None:
    names = list(PLAYERS[12:16])
    today = kirov_date(utc_now())
    window = Interval(at_kirov(today - timedelta(days=1)), at_kirov(today + timedelta(days=13)))
    match_id, title, users = _match(app, names, window)
    night = today + timedelta(days=4)  # 02:00–05:00: an hour no other test books in the club's room
    for user_id in users[:3]:
        _paint(app, match_id, user_id, Interval(at_kirov(night, 2), at_kirov(night, 5)))
    later = night + timedelta(days=1)
    _paint(app, match_id, users[3], Interval(at_kirov(later, 2), at_kirov(later, 3)))  # shares nothing with them
    fallback = fallback_text(fallback_slot(window))
    hint = f"Если вы сможете в {_label(night)} 02:00–05:00, у матча будет время."
    pages = [context.new_page() for context in phones]
    frames = [_listen(page) for page in pages]
    for page, name in zip(pages, names, strict=True):
        login(page, app, name)
        card = _card(page, title)
        expect(card).to_contain_text(fallback)  # the home card, from the window's opening
        if name == names[3]:
            expect(card).to_contain_text(hint)
        card.get_by_role("link", name="Согласование времени").tap()
        expect(page.get_by_role("heading", name="Моя доступность")).to_be_visible()
        expect(page.get_by_text(fallback)).to_be_visible()  # the scheduling page
        expect(page.get_by_text("матч ждёт доступности", exact=False)).to_be_visible()
    expect(pages[3].get_by_role("note")).to_have_text(hint)
    assert hint in "".join(frames[3])  # the frames are captured: the blocker's own hint arrived in them
    for page, traffic in zip(pages[:3], frames[:3], strict=True):
        expect(page.get_by_text("Если вы сможете", exact=False)).to_have_count(0)
        seen = "".join(traffic)
        assert fallback in seen  # captured too
        assert "Если вы сможете" not in seen and "02:00–05:00" not in seen, "the blocker's hint reached another"
