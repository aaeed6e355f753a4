"""A player's week on a 390×844 touch phone: links from the home page only, a grid that scrolls under a swipe and
paints deliberate ranges, four phones scheduling one match and seeing each other live, a change from another
process reaching an open page (scheduling, announcements, the club calendar, a player's page), and a result that two
taps store once."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from datetime import timedelta

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from sqlmodel import select

from discard_app import texts
from services.core.config import ROOT
from services.core.db import session_scope
from services.core.models import Booking, Hanchan, Match, MatchStatus, MeetingProposal, Player, Round, User, utc_now
from services.league.roster import current_season
from services.scheduling.availability import save_availability
from services.scheduling.booking import answer_meeting, propose_meeting
from services.scheduling.intervals import Interval, at_kirov, kirov_date
from tests import factories
from tests.e2e.conftest import PLAYERS, App, FormAnswers, login
from tests.factories import UNBOOKED

WEEKDAYS = ("пн", "вт", "ср", "чт", "пт", "сб", "вс")
LIVE = 5_000  # ms: the pages poll every second; generous for a loaded 2-core machine
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
    "locale": "ru-RU",
    "timezone_id": "Europe/Kirov",
}


@pytest.fixture
def phones(browser: Browser) -> Iterator[list[BrowserContext]]:
    contexts = [browser.new_context(**PHONE) for _ in range(4)]
    yield contexts
    for context in contexts:
        context.close()


def _label(day) -> str:  # noqa: ANN001
    return f"{WEEKDAYS[day.weekday()]} {day:%d.%m}"


def _scheduling_match(app: App, names: list[str]) -> tuple[int, str, object]:
    # Far ahead: the other browser tests book the club's room in the coming days, from day 40 (the schedule
    # dialogs) and from day 100 (the roster after the draw); a booked evening would leave these four no common
    # option (the tests run in any order on one shared app).
    first = kirov_date(utc_now()) + timedelta(days=200)
    engine = app.engine()
    with session_scope(engine) as session:
        match = factories.match_for_names(session, names, Interval(at_kirov(first), at_kirov(first + timedelta(3))))
        title = f"Тур {session.get(Round, match.round_id).code}, стол {match.table}"
        match_id = match.id
    engine.dispose()
    return match_id, title, first + timedelta(days=1)


def _card(page: Page, title: str):  # noqa: ANN202
    """The match's home card; a later tour's card is folded under «Следующие туры»: unfolded, as a person does."""
    card = page.get_by_role("group", name=title, exact=True)
    expect(page.get_by_role("group", name=title, exact=True, include_hidden=True)).to_be_attached()
    if not card.is_visible():
        page.locator("summary", has_text=texts.HOME_LATER).click()  # a tap on a phone, a click on a desktop
    return card


def _open_from_home(page: Page, app: App, name: str, title: str, link: str) -> None:
    """Log in and reach the match through the home page's card, as a person does: no typed address."""
    login(page, app, name)
    card = _card(page, title)
    expect(card).to_be_visible()
    card.get_by_role("link", name=link).tap()


def _schedule(page: Page, app: App, name: str, title: str) -> None:
    _open_from_home(page, app, name, title, "Согласование времени")
    expect(page.get_by_role("heading", name="Моя доступность")).to_be_visible()
    page.wait_for_function("window.discardGrid !== undefined")


def _swipe(page: Page, x: float, y: float, dx: float, dy: float) -> None:
    """A real finger swipe through Chromium's touch pipeline (CDP), not synthetic DOM events."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, 11):
        point = {"x": x + dx * step / 10, "y": y + dy * step / 10}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def _checked(page: Page, label: str, times: list[str], state: str = "true") -> list[str]:
    """The half hours painted free ("true") or «могу, если нужно» ("mixed")."""
    return [t for t in times if page.get_by_label(f"{label} {t}", exact=True).get_attribute("aria-checked") == state]


HALF_HOURS = [f"{h:02d}:{m:02d}" for h in range(24) for m in (0, 30)]


def test_on_a_phone_a_swipe_scrolls_and_two_taps_paint_a_range(phones: list[BrowserContext], app: App) -> None:
    names = list(PLAYERS[0:4])
    match_id, title, day = _scheduling_match(app, names)
    page = phones[0].new_page()
    _schedule(page, app, names[0], title)
    label = _label(day)
    start = page.get_by_label(f"{label} 10:00", exact=True)
    start.scroll_into_view_if_needed()
    box = start.bounding_box()
    before = page.evaluate("window.scrollY")
    _swipe(page, box["x"] + box["width"] / 2, box["y"] + 300, 0, -250)  # finger up: the page scrolls down
    page.wait_for_function(f"window.scrollY > {before} + 50")
    _swipe(page, box["x"] + box["width"] / 2, 500, -150, 0)  # sideways: scrolls the grid, paints nothing
    assert _checked(page, label, HALF_HOURS) == []
    assert page.evaluate("window.discardGrid.isDirty()") is False
    # A deliberate range: tap 18:00, then 21:00 — every half hour between them, both ends included.
    page.get_by_label(f"{label} 18:00", exact=True).tap()
    expect(page.get_by_text("Начало отмечено")).to_be_visible()
    page.get_by_label(f"{label} 21:00", exact=True).tap()
    assert _checked(page, label, HALF_HOURS) == ["18:00", "18:30", "19:00", "19:30", "20:00", "20:30", "21:00"]
    # Issue 45 item 8: the kind is chosen once, then a range of two taps paints it — «если нужно», then «стереть».
    expect(page.get_by_text("Сначала выберите, что отмечать: «Свободен», «Если нужно» или «Стереть»")).to_be_visible()
    page.get_by_role("button", name="Если нужно", exact=True).tap()
    expect(page.get_by_role("button", name="Если нужно", exact=True)).to_have_attribute("aria-pressed", "true")
    page.get_by_label(f"{label} 19:00", exact=True).tap()
    page.get_by_label(f"{label} 19:30", exact=True).tap()
    assert _checked(page, label, HALF_HOURS) == ["18:00", "18:30", "20:00", "20:30", "21:00"]
    assert _checked(page, label, HALF_HOURS, "mixed") == ["19:00", "19:30"]
    page.get_by_label(f"{label} 18:00", exact=True).tap()  # the same kind again: free cells become «если нужно»
    page.get_by_label(f"{label} 18:30", exact=True).tap()
    assert _checked(page, label, HALF_HOURS, "mixed") == ["18:00", "18:30", "19:00", "19:30"]
    page.get_by_role("button", name="Стереть", exact=True).tap()
    page.get_by_label(f"{label} 18:00", exact=True).tap()
    page.get_by_label(f"{label} 19:30", exact=True).tap()
    assert _checked(page, label, HALF_HOURS, "mixed") == []
    assert _checked(page, label, HALF_HOURS) == ["20:00", "20:30", "21:00"]


def test_a_fast_mouse_drag_paints_every_crossed_cell(page: Page, app: App) -> None:
    names = list(PLAYERS[4:8])
    match_id, title, day = _scheduling_match(app, names)
    login(page, app, names[0])
    _card(page, title).get_by_role("link", name="Согласование времени").click()
    page.wait_for_function("window.discardGrid !== undefined")
    label = _label(day)
    # 18:00 just below the sticky day headers: the evening's twelve 28 px cells all on screen
    page.get_by_label(f"{label} 18:00", exact=True).evaluate(
        "(c) => window.scrollBy(0, c.getBoundingClientRect().top - 120)"
    )
    top = page.get_by_label(f"{label} 18:00", exact=True).bounding_box()
    bottom = page.get_by_label(f"{label} 23:30", exact=True).bounding_box()
    page.mouse.move(top["x"] + 5, top["y"] + 5)
    page.mouse.down()
    page.mouse.move(bottom["x"] + 5, bottom["y"] + 5, steps=2)  # two samples for twelve cells
    page.mouse.up()
    assert _checked(page, label, HALF_HOURS) == HALF_HOURS[36:48]
    # The darker line closes each hour (below 17:30, above the 18:00 label), not each half hour: its colour is
    # less transparent (the lines are translucent grays).
    alpha = """(l) => { const c = getComputedStyle(document.querySelector(`[aria-label='${l}']`)).borderBottomColor;
                         const parts = c.match(/[0-9.]+/g); return parts.length > 3 ? Number(parts[3]) : 1; }"""
    assert page.evaluate(alpha, f"{label} 17:30") > page.evaluate(alpha, f"{label} 18:00")


def test_four_phones_schedule_one_match_and_each_sees_the_others_live(phones: list[BrowserContext], app: App) -> None:
    names = list(PLAYERS[8:12])
    match_id, title, day = _scheduling_match(app, names)
    label = _label(day)
    pages = [context.new_page() for context in phones]
    for page, name in zip(pages, names, strict=True):
        _schedule(page, app, name, title)
    for n, page in enumerate(pages):
        page.get_by_role("button", name=f"Вечер {label}").tap()
        page.get_by_role("button", name="Сохранить доступность").tap()
        expect(page.get_by_role("status")).to_contain_text("Доступность сохранена.")
        for other in pages:  # every open phone sees this answer without reload
            expect(other.get_by_text(f"{names[n]} — ответил", exact=True)).to_be_visible(timeout=LIVE)
    for page in pages:  # the fourth answer made a common option appear everywhere
        expect(page.get_by_text("помещается 4 ханчана")).to_be_visible(timeout=LIVE)
    pages[0].get_by_role("button", name="Предложить встречу").tap()
    expect(pages[0].get_by_role("status")).to_contain_text("ваше подтверждение учтено")
    for page in pages:  # the proposal counts as the proposer's confirmation
        expect(page.get_by_text(f"Подтвердили 1 из 4: {names[0]}")).to_be_visible(timeout=LIVE)
    expect(pages[0].get_by_role("button", name="Подтвердить", exact=True)).to_have_count(0)
    for n in (1, 2):
        pages[n].get_by_role("button", name="Подтвердить", exact=True).tap()
        for page in pages:
            expect(page.get_by_text(f"Подтвердили {n + 1} из 4", exact=False)).to_be_visible(timeout=LIVE)
    pages[3].get_by_role("button", name="Подтвердить", exact=True).tap()
    for page in pages:
        expect(page.get_by_text("Забронировано: ", exact=False).first).to_be_visible(timeout=LIVE)
    # The home card of the proposer says it in words, with the meeting's time and room, and keeps itself current.
    pages[0].get_by_role("link", name="Лига Дискарда").tap()
    card = _card(pages[0], title)
    expect(card.get_by_text("забронировано", exact=True)).to_be_visible()
    expect(card).to_contain_text(f"{day:%d.%m.%Y} 18:00")
    # A booked meeting dropped from one's availability is asked about first; the others see the release live.
    pages[1].get_by_role("button", name=f"Вечер {label}").tap()
    pages[1].get_by_role("button", name="Сохранить доступность").tap()
    dialog = pages[1].get_by_role("alertdialog")
    expect(dialog).to_contain_text("бронь помещения будет снята")
    dialog.get_by_role("button", name="Сохранить и снять бронь").tap()
    for page in pages[2:]:
        expect(page.get_by_text("Пока не забронировано.")).to_be_visible(timeout=LIVE)
    expect(card).to_contain_text(f"ждём подтверждения: {names[1]}", timeout=LIVE)  # the home card, live too


def test_the_proposers_answer_follows_the_proposal_once_the_others_confirm(
    phones: list[BrowserContext], app: App
) -> None:
    """Issue 45 item 7: a proposal for part of the match («ждём остальных») stayed so after all four confirmed; the
    answer now says what the read model says — booked — while the page still offers the rest of the match."""
    names = list(PLAYERS[4:8])
    day = kirov_date(utc_now()) + timedelta(days=320)  # an evening no other test books in the club's room
    evening = Interval(at_kirov(day, 18), at_kirov(day, 23))
    engine = app.engine()
    with session_scope(engine) as session:
        match = factories.match_for_names(session, names, Interval(at_kirov(day), at_kirov(day + timedelta(2))))
        match_id, title = match.id, f"Тур {session.get(Round, match.round_id).code}, стол {match.table}"
        users = [session.exec(select(User).where(User.display_name == n)).one().id for n in names]
    for user_id in users:
        with session_scope(engine) as session:
            save_availability(session, match_id=match_id, user_id=user_id, intervals=[evening], now=utc_now())
    page = phones[0].new_page()
    _schedule(page, app, names[0], title)
    page.get_by_label(texts.SCHED_HANCHANS).select_option("2")  # part of the match: the rest stays to propose
    page.get_by_role("button", name="Предложить встречу").tap()
    expect(page.get_by_role("status")).to_contain_text("ждём остальных")
    with session_scope(engine) as session:
        proposal_id = session.exec(select(MeetingProposal.id).where(MeetingProposal.match_id == match_id)).one()
    for user_id in users[1:]:
        with session_scope(engine) as session:
            answer_meeting(session, proposal_id=proposal_id, user_id=user_id, confirmed=True, now=utc_now())
    engine.dispose()
    expect(page.get_by_role("status")).to_have_text("Ваше предложение: забронировано.", timeout=LIVE)
    expect(page.get_by_role("button", name="Предложить встречу")).to_be_visible()  # one hanchan still to propose


def _playing_match(app: App, names: list[str]) -> int:
    """A match of these four, being played, in a regular stage of its own (no other test's tour sees it)."""
    engine = app.engine()
    with session_scope(engine) as session:
        players = [
            session.exec(select(Player).join(User, User.id == Player.user_id).where(User.display_name == n)).one()
            for n in names
        ]
        match_id = factories.match_in_own_stage(session, current_season(session), players, MatchStatus.PLAYING).id
    engine.dispose()
    return match_id


def _run_elsewhere(app: App, code: str) -> None:
    """Runs `code` in a separate Python process against the app's database, as the bot or the CLI would."""
    env = {**os.environ, "DATABASE_URL": app.database_url}
    # what a shell does at start: it names the database from its settings (services/core/db.use_database)
    shell = "from services.core.config import settings\nfrom services.core.db import use_database\n"
    shell += "use_database(settings.database_url)\n"
    script = shell + textwrap.dedent(code)
    subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, check=True, timeout=120)


def _proposed_match(app: App, names: list[str], day, hanchans: int = 3) -> tuple[int, str, int, list[int]]:  # noqa: ANN001
    """A match of these four whose evening `day` all painted and the first proposed for `hanchans`: (id, title,
    proposal, users). Made through the services, as the pages would."""
    evening = Interval(at_kirov(day, 18), at_kirov(day, 23))
    engine = app.engine()
    with session_scope(engine) as session:
        match = factories.match_for_names(session, names, Interval(at_kirov(day), at_kirov(day + timedelta(2))))
        match_id, title = match.id, f"Тур {session.get(Round, match.round_id).code}, стол {match.table}"
        users = [session.exec(select(User).where(User.display_name == n)).one().id for n in names]
    for user_id in users:
        with session_scope(engine) as session:
            save_availability(session, match_id=match_id, user_id=user_id, intervals=[evening], now=utc_now())
    with session_scope(engine) as session:
        proposal = propose_meeting(session, match_id=match_id, user_id=users[0], start=evening.start,
                                   end=at_kirov(day, 22, 30), hanchans=hanchans, now=utc_now())  # fmt: skip
        proposal_id = proposal.id
    engine.dispose()
    return match_id, title, proposal_id, users


def test_declining_a_proposal_is_asked_first_and_the_others_see_it(phones: list[BrowserContext], app: App) -> None:
    """«Отклонить» ends the proposal for all four: asked first, like «Не смогу»; «Назад» changes nothing."""
    names = list(PLAYERS[8:12])
    day = kirov_date(utc_now()) + timedelta(days=240)
    match_id, title, proposal_id, _ = _proposed_match(app, names, day)
    mine, other = phones[0].new_page(), phones[1].new_page()
    _schedule(mine, app, names[2], title)
    _schedule(other, app, names[3], title)
    decline = mine.get_by_role("button", name="Отклонить", exact=True)
    decline.tap()
    dialog = mine.get_by_role("alertdialog")
    expect(dialog).to_contain_text("перестанет действовать для всех четверых")
    dialog.get_by_role("button", name="Назад").tap()
    expect(mine.get_by_role("alertdialog")).to_have_count(0)
    engine = app.engine()
    with session_scope(engine) as session:
        assert session.get(MeetingProposal, proposal_id).status == "open"  # still collecting confirmations
    decline.tap()
    mine.get_by_role("alertdialog").get_by_role("button", name="Отклонить").tap()
    expect(mine.get_by_role("status")).to_contain_text("Вы отклонили предложение.")
    expect(other.get_by_text(f"Отклонили: {names[2]}")).to_be_visible(timeout=LIVE)  # live, no reload
    with session_scope(engine) as session:
        assert session.get(MeetingProposal, proposal_id).status == "declined"
    engine.dispose()


def test_cannot_come_asks_first_then_releases_the_booking_for_all_four(phones: list[BrowserContext], app: App) -> None:
    """Регламент §3, §6.1: «Не смогу» on a booked meeting is asked about first; agreed, the room is released at
    once and every other open page shows it."""
    names = list(PLAYERS[0:4])
    day = kirov_date(utc_now()) + timedelta(days=230)  # an evening no other test books in the club's room
    match_id, title, proposal_id, users = _proposed_match(app, names, day, hanchans=2)
    engine = app.engine()
    for user_id in users[1:]:
        with session_scope(engine) as session:
            answer_meeting(session, confirmed=True, proposal_id=proposal_id, user_id=user_id, now=utc_now())
    with session_scope(engine) as session:
        (booking,) = session.exec(select(Booking).where(Booking.match_id == match_id, Booking.active)).all()
        booking_id = booking.id
    mine, other = phones[0].new_page(), phones[1].new_page()
    _schedule(mine, app, names[2], title)
    _schedule(other, app, names[3], title)
    expect(other.get_by_text("Забронировано: ", exact=False)).to_be_visible()
    # two of the match's three hanchans: the page says what is left to agree on
    expect(other.get_by_text("Забронировано 2 ханчана из 3: предложите время для оставшихся (1).")).to_be_visible()
    cannot = mine.get_by_role("button", name="Не смогу", exact=True)
    cannot.tap()
    dialog = mine.get_by_role("alertdialog")
    expect(dialog).to_contain_text("Бронь помещения будет снята сразу")
    dialog.get_by_role("button", name="Я приду").tap()  # changed their mind: nothing is released
    expect(mine.get_by_role("alertdialog")).to_have_count(0)
    with session_scope(engine) as session:
        assert session.get(Booking, booking_id).active
    expect(mine.get_by_label(f"{_label(day)} 18:00", exact=True)).to_have_attribute("aria-checked", "true")
    cannot.tap()
    # Issue 28: the same dialog offers to take the meeting's time out of one's own availability, checked by default
    take_out = mine.get_by_role("alertdialog").get_by_role("checkbox", name="Убрать это время из моей доступности")
    expect(take_out).to_be_checked()
    mine.get_by_role("alertdialog").get_by_role("button", name="Снять бронь").tap()
    expect(mine.get_by_role("status")).to_contain_text("Бронь снята: остальные игроки уже видят это.")
    expect(mine.get_by_role("status")).to_contain_text("Это время убрано из вашей доступности")
    expect(mine.get_by_text("Пока не забронировано.")).to_be_visible()
    # the released 18:00–22:30 is no longer painted; the rest of the evening still is
    expect(mine.get_by_label(f"{_label(day)} 18:00", exact=True)).to_have_attribute("aria-checked", "false")
    expect(mine.get_by_label(f"{_label(day)} 22:00", exact=True)).to_have_attribute("aria-checked", "false")
    expect(mine.get_by_label(f"{_label(day)} 22:30", exact=True)).to_have_attribute("aria-checked", "true")
    expect(other.get_by_text("Пока не забронировано.")).to_be_visible(timeout=LIVE)  # live, no reload
    expect(other.get_by_text(re.compile(rf"^Снята бронь на .*: {names[2]} не сможет прийти\.$"))).to_be_visible()
    with session_scope(engine) as session:
        assert not session.get(Booking, booking_id).active
        assert session.get(MeetingProposal, proposal_id).status == "declined"
    engine.dispose()


def test_a_change_made_by_another_process_reaches_an_open_page(phones: list[BrowserContext], app: App) -> None:
    names = list(PLAYERS[12:16])
    match_id, title, day = _scheduling_match(app, names)
    page = phones[0].new_page()
    _schedule(page, app, names[0], title)
    expect(page.get_by_text(f"{names[1]} — ещё не ответил", exact=True)).to_be_visible()
    _run_elsewhere(
        app,
        f"""
        from sqlmodel import select
        from services.core.db import session_scope
        from services.core.models import User, utc_now
        from services.scheduling.availability import save_availability
        from services.scheduling.intervals import Interval, at_kirov
        from datetime import date
        with session_scope() as session:
            user = session.exec(select(User).where(User.display_name == {names[1]!r})).one()
            day = date.fromisoformat({day.isoformat()!r})
            save_availability(session, match_id={match_id}, user_id=user.id,
                              intervals=[Interval(at_kirov(day, 18), at_kirov(day, 23))], now=utc_now())
        """,
    )
    expect(page.get_by_text(f"{names[1]} — ответил", exact=True)).to_be_visible(timeout=LIVE)
    page.get_by_role("button", name="Меню").tap()
    page.get_by_role("menuitem", name="Объявления").tap()
    expect(page.get_by_role("heading", name="Объявления")).to_be_visible()
    _run_elsewhere(
        app,
        """
        from sqlmodel import select
        from services.core.db import session_scope
        from services.core.models import Role, User, utc_now
        from services.league.announcements import publish_announcement
        from services.league.roster import current_season
        with session_scope() as session:
            organizer = session.exec(select(User).where(User.role == Role.ORGANIZER)).first()
            publish_announcement(session, current_season(session), "Тур переносится на час позже",
                                 author_user_id=organizer.id, now=utc_now())
        """,
    )
    expect(page.get_by_text("Тур переносится на час позже")).to_be_visible(timeout=LIVE)


def test_the_calendar_and_a_players_page_follow_changes_made_elsewhere(phones: list[BrowserContext], app: App) -> None:
    names = list(PLAYERS[4:8])
    match_id = _playing_match(app, names)
    page = phones[2].new_page()
    login(page, app, names[0])
    page.get_by_role("button", name="Меню").tap()
    page.get_by_role("menuitem", name="Календарь клуба").tap()
    expect(page.get_by_role("heading", name="Календарь клуба")).to_be_visible()
    title = f"Шахматный вечер {match_id}"
    _run_elsewhere(  # the organizer's command line adds a club activity this morning
        app,
        f"""
        from datetime import date
        from sqlmodel import select
        from services.core.db import session_scope
        from services.core.models import Role, User, utc_now
        from services.scheduling.intervals import at_kirov, kirov_date
        from services.scheduling.organizer import book_activity
        with session_scope() as session:
            organizer = session.exec(select(User).where(User.role == Role.ORGANIZER)).first()
            today = kirov_date(utc_now())
            book_activity(session, title={title!r}, start=at_kirov(today, 5), end=at_kirov(today, 6),
                          actor_user_id=organizer.id, now=utc_now())
        """,
    )
    expect(page.get_by_text(title)).to_be_visible(timeout=LIVE)
    page.get_by_role("button", name="Меню").tap()
    page.get_by_role("menuitem", name="Таблица").tap()
    page.get_by_role("rowheader", name=names[0]).get_by_role("link").tap()
    expect(page.get_by_role("heading", name=names[0])).to_be_visible()
    legend = page.locator(".recharts-legend-item")
    expect(legend.first).to_be_visible()
    assert all(text.strip() for text in legend.all_text_contents())  # no nameless line in the chart's legend
    _run_elsewhere(  # the judge enters the first hanchan of the match from another process (the bot, Pantheon)
        app,
        f"""
        from sqlmodel import select
        from services.core.db import session_scope
        from services.core.models import Role, User, utc_now
        from services.results.entry import Entry
        from services.playoff.hanchan_entry import enter_hanchan
        from services.results.repo import seated_player_ids
        from services.results.scoring import TableResult
        with session_scope() as session:
            organizer = session.exec(select(User).where(User.role == Role.ORGANIZER)).first()
            seats = seated_player_ids(session, {match_id})
            results = tuple(TableResult(p, x, 0) for p, x in zip(seats, [40000, 30000, 30000, 20000]))
            enter_hanchan(session, organizer, {match_id}, Entry(results, 0), now=utc_now(), reason={UNBOOKED!r})
        """,
    )
    row = page.get_by_role("row").filter(has=page.locator(f"a[href='/match/{match_id}']"))
    expect(row.get_by_role("cell").nth(2)).to_have_text("1", timeout=LIVE)  # «Ханчаны»


def test_two_taps_on_save_result_store_one_hanchan(phones: list[BrowserContext], app: App) -> None:
    names = list(PLAYERS[0:4])
    match_id = _playing_match(app, names)
    engine = app.engine()
    page = phones[1].new_page()
    answers = FormAnswers(page)
    login(page, app, names[0])
    link = page.get_by_role("link", name="Страница матча: результаты").and_(
        page.locator(f"a[href='/match/{match_id}']")
    )
    expect(page.get_by_role("group").filter(has=link)).to_contain_text("внесите результат ханчана 1")
    link.tap()
    expect(page.get_by_role("heading", name="Внести ханчан 1")).to_be_visible()
    # nothing scored, nothing in the protocol yet: no empty table, so no «шире экрана» over one
    expect(page.locator("table")).to_have_count(0)
    expect(page.get_by_text(texts.TABLE_SCROLL_HINT)).to_have_count(0)
    for name, points in zip(names, ["40000", "30000", "-1000", "51000"], strict=True):
        page.get_by_label(f"Очки: {name}", exact=True).fill(points)
    assert page.get_by_label(f"Очки: {names[2]}", exact=True).input_value() == "-1000"
    # Two taps in a row, before the page could re-render: both submits reach the server.
    page.evaluate(
        """() => { const b = [...document.querySelectorAll('button')]
             .find((x) => x.textContent.trim() === 'Сохранить результат'); b.click(); b.click(); }"""
    )
    expect(page.get_by_role("heading", name="Внести ханчан 2")).to_be_visible()
    status = page.get_by_role("status").filter(has_text="Результат ханчана сохранён")
    expect(status).to_be_in_viewport()
    expect(page.get_by_label(f"Очки: {names[0]}", exact=True)).to_have_value("")  # cleared for the next hanchan
    # A third tap, on the form the save has just emptied: the save's answer stays, no «укажите очки» (issue 40).
    answers.after(page.get_by_role("button", name="Сохранить результат").tap)
    expect(status).to_be_in_viewport()
    expect(page.get_by_role("alert").filter(has_text="укажите очки")).to_have_count(0)
    with session_scope(engine) as session:
        stored = session.exec(select(Hanchan).where(Hanchan.match_id == match_id)).all()
        assert len(stored) == 1
        assert session.get(Match, match_id).status == MatchStatus.PLAYING
    # A score that is not a multiple of 100 is refused with a message in view.
    for name, points in zip(names, ["40050", "30000", "-1050", "51000"], strict=True):
        page.get_by_label(f"Очки: {name}", exact=True).fill(points)
    page.get_by_role("button", name="Сохранить результат").tap()
    expect(page.get_by_role("alert").filter(has_text="кратны 100")).to_be_in_viewport()
    # The same scores typed again within a minute: the server asks for an explicit yes before a second hanchan.
    for name, points in zip(names, ["40000", "30000", "-1000", "51000"], strict=True):
        page.get_by_label(f"Очки: {name}", exact=True).fill(points)
    page.get_by_role("button", name="Сохранить результат").tap()
    expect(page.get_by_role("alert").filter(has_text="повторное нажатие")).to_be_in_viewport()
    page.get_by_role("checkbox", name="Да, те же очки ещё раз", exact=False).tap()
    page.get_by_role("button", name="Сохранить результат").tap()
    expect(page.get_by_role("heading", name="Внести ханчан 3")).to_be_visible()
    with session_scope(engine) as session:
        assert len(session.exec(select(Hanchan).where(Hanchan.match_id == match_id)).all()) == 2
    engine.dispose()


def _scroll_hints_only_over_rows(page: Page) -> None:
    """Each wide table's «прокрутите вбок» hint is shown on a phone exactly when its table has rows."""
    shown = page.evaluate(
        """() => [...document.querySelectorAll('table')].map((t) => {
             const box = t.closest('[class*="wide-"]').parentElement;
             const hint = [...box.children]
               .some((e) => e.textContent.startsWith('Таблица шире экрана') && e.offsetParent !== null);
             // a table showing only its key columns fits: no hint until «Все столбцы» is ticked
             const all = box.querySelector('.all-columns');
             const wide = !all || all.checked;
             return [t.querySelectorAll('tbody tr').length > 0 && wide, hint];
           })"""
    )
    assert shown and all(rows == hint for rows, hint in shown), shown


def test_the_frame_speaks_russian_on_a_phone(phones: list[BrowserContext], app: App) -> None:
    page = phones[2].new_page()
    login(page, app, PLAYERS[5])
    expect(page.get_by_role("heading", name="Мои матчи")).to_be_visible()
    assert page.title() == "Лига Дискарда"
    labels = page.evaluate(
        "[...document.querySelectorAll('[aria-label]:not(tr)')].map((e) => e.getAttribute('aria-label'))"
    )
    # Every label Russian; only the notifications region names its keyboard shortcut, "alt+T". (Standings rows are
    # labelled with player names, which other tests make up: left out.)
    assert labels and not [x for x in labels if re.search(r"[A-Za-z]{3,}", x.replace("alt+T", ""))], labels
    page.get_by_role("button", name="Меню").tap()
    page.get_by_role("menuitem", name="Таблица").tap()
    expect(page).to_have_title(re.compile(r"^Таблица регулярного этапа · Лига Дискарда$"))
    expect(page.get_by_role("table").locator("tbody tr").first).to_be_visible()
    _scroll_hints_only_over_rows(page)  # the key columns fit: no hint yet
    page.get_by_label(texts.TABLE_ALL_COLUMNS).first.tap()  # every column: wider than the phone, and it says so
    expect(page.get_by_text("Таблица шире экрана: прокрутите её вбок →").first).to_be_visible()
    _scroll_hints_only_over_rows(page)
    labels = page.evaluate(
        "[...document.querySelectorAll('[aria-label]:not(tr)')].map((e) => e.getAttribute('aria-label'))"
    )
    assert not [x for x in labels if re.search(r"[A-Za-z]{3,}", x.replace("alt+T", ""))], labels
    favicon = page.request.get(f"{app.url}/favicon.ico")
    assert favicon.ok and favicon.body()[:4] == b"\x00\x00\x01\x00"  # an ICO file, not the 404 page
    page.goto(f"{app.url}/player/{'9' * 25}")  # a mistyped address: not found, not an error of the database
    expect(page.get_by_text(texts.PLAYER_NOT_FOUND)).to_be_visible()
    page.goto(f"{app.url}/no-such-page")
    expect(page.get_by_role("heading", name="Страница не найдена")).to_be_visible()
    expect(page).to_have_title(re.compile("^Страница не найдена"))
    page.get_by_role("link", name="К моим матчам").tap()
    expect(page.get_by_role("heading", name="Мои матчи")).to_be_visible()
    page.context.set_offline(True)
    try:
        expect(page.get_by_role("alert").filter(has_text="Нет связи с сервером")).to_be_visible(timeout=30_000)
    finally:
        page.context.set_offline(False)
    expect(page.get_by_role("alert").filter(has_text="Нет связи с сервером")).to_be_hidden(timeout=30_000)


def test_a_two_week_window_shows_one_week_at_a_time(phones: list[BrowserContext], app: App) -> None:
    names = list(PLAYERS[12:16])
    first = kirov_date(utc_now()) + timedelta(days=1)
    engine = app.engine()
    with session_scope(engine) as session:
        match = factories.match_for_names(session, names, Interval(at_kirov(first), at_kirov(first + timedelta(10))))
        title = f"Тур {session.get(Round, match.round_id).code}, стол {match.table}"
    engine.dispose()
    page = phones[3].new_page()
    _schedule(page, app, names[2], title)
    early, late = _label(first), _label(first + timedelta(days=8))
    expect(page.get_by_label(f"{early} 18:00", exact=True)).to_be_visible()
    expect(page.get_by_label(f"{late} 18:00", exact=True)).to_be_hidden()
    page.get_by_role("button", name="Вторая неделя").tap()
    expect(page.get_by_label(f"{late} 18:00", exact=True)).to_be_visible()
    expect(page.get_by_label(f"{early} 18:00", exact=True)).to_be_hidden()
    page.get_by_label(f"{late} 18:00", exact=True).tap()
    page.get_by_label(f"{late} 19:00", exact=True).tap()
    page.get_by_role("button", name="Сохранить доступность").tap()
    expect(page.get_by_role("status")).to_contain_text("Доступность сохранена.")
    page.get_by_role("button", name="Первая неделя").tap()
    expect(page.get_by_label(f"{early} 18:00", exact=True)).to_have_attribute("aria-checked", "false")
