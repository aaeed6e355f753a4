"""Issue 28 item 5 on a 390×844 touch phone: the key columns of the standings, the match's «Итог матча» and the
playoff tables inside the screen with no sideways scroll and no number broken over two lines; the availability grid's
day headers stay in view over the evening rows, the week shown is named, cells are a finger's size and a half hour
that has begun cannot be painted."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect
from sqlmodel import select

from discard_app import texts
from services.core.db import session_scope
from services.core.models import Player, Round, User, utc_now
from services.playoff.hanchan_entry import enter_hanchan
from services.results.hanchans import Entry
from services.results.scoring import TableResult
from services.scheduling.intervals import Interval, at_kirov, kirov_date
from tests import factories
from tests.e2e.conftest import ORGANIZER, PLAYERS, App, login
from tests.e2e.test_phone_week import PHONE, _label, _playing_match
from tests.e2e.test_playoff import _league

WIDTH = PHONE["viewport"]["width"]


@pytest.fixture
def phone(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context(**PHONE)
    yield context
    context.close()


def _no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def _column(table: Locator, header: str) -> int:
    """The 0-based index of the header cell named `header` in `table`."""
    names = [t.strip() for t in table.locator("thead th").all_inner_texts()]
    return names.index(header)


def _inside_and_one_line(table: Locator, headers: list[str], names: str = "") -> None:
    """Each of these columns: its header and every cell wholly inside the 390 px screen and its table's box (none cut
    off at the box's edge, none cut short inside itself: «верхняя ве…»); each cell on one line but those of the column
    `names` (a long name may wrap between its words, a number never)."""
    # the key columns fit: no box around the table that clips has anything to scroll sideways (its edge would cut
    # a column off)
    clipping = table.evaluate(
        """(t) => { const cut = [];
             for (let e = t; e; e = e.parentElement)
               if (getComputedStyle(e).overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1)
                 cut.push(e.className);
             return cut; }"""
    )
    assert not clipping, clipping
    for header in headers:
        n = _column(table, header)
        cells = [table.locator("thead tr").locator("th").nth(n)]
        rows = table.locator("tbody tr")
        cells += [rows.nth(r).locator("th, td").nth(n) for r in range(rows.count())]
        assert len(cells) > 1, header
        for cell in cells:
            expect(cell).to_be_visible()
            box = cell.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= WIDTH + 0.5, (header, box)
            # the lines the cell's text takes: the tops of its text's boxes, a few pixels apart at most on one line
            lines = cell.evaluate(
                """(c) => { const tops = []; const walk = document.createTreeWalker(c, NodeFilter.SHOW_TEXT);
                     for (let n = walk.nextNode(); n; n = walk.nextNode()) {
                       if (!n.textContent.trim()) continue;
                       const r = document.createRange(); r.selectNodeContents(n);
                       for (const x of r.getClientRects()) if (x.width > 0) tops.push(x.top);
                     }
                     tops.sort((a, b) => a - b);
                     return tops.filter((t, i) => i === 0 || t - tops[i - 1] > 4).length; }"""
            )
            # nothing in it cut short («верхняя ве…»): no element of the cell narrower than its own text
            clipped = cell.evaluate(
                """(c) => [c, ...c.querySelectorAll('*')].filter((e) => e.scrollWidth > e.clientWidth + 1)
                     .map((e) => e.textContent)"""
            )
            assert not clipped, (header, clipped)
            # a header is words and may wrap; a number never
            assert header == names or cell.evaluate("(c) => c.tagName") == "TH" and cell is cells[0] or lines <= 1, (
                header,
                cell.inner_text(),
            )


def test_the_match_total_keeps_player_points_and_place_in_view(phone: BrowserContext, app: App) -> None:
    names = list(PLAYERS[8:12])
    match_id = _playing_match(app, names)
    engine = app.engine()
    with session_scope(engine) as session:
        organizer = session.exec(select(User).where(User.display_name == ORGANIZER)).one()
        ids = [
            session.exec(select(Player.id).join(User, User.id == Player.user_id).where(User.display_name == n)).one()
            for n in names
        ]
        for points in ([76500, 30000, 13500, 0], [46500, 30000, 23500, 20000]):  # +46 500 and thousands apart
            entry = Entry(tuple(TableResult(p, x) for p, x in zip(ids, points, strict=True)), 0)
            enter_hanchan(session, organizer, match_id, entry, now=utc_now(), reason=factories.UNBOOKED)
    engine.dispose()
    page = phone.new_page()
    login(page, app, names[0])
    expect(page.get_by_role("button", name="Выйти")).to_be_visible()  # logged in before the address
    page.goto(f"{app.url}/match/{match_id}")
    heading = page.get_by_role("heading", name=texts.MATCH_TOTALS)
    expect(heading).to_be_visible()
    _hanchan_in_view(page)  # with the playoff's longer names
    table = page.locator("h2", has_text=texts.MATCH_TOTALS).locator("xpath=following::table[1]")
    expect(table.locator("tbody tr")).to_have_count(4)
    table.scroll_into_view_if_needed()
    _no_sideways_scroll(page)
    _inside_and_one_line(table, [texts.COL_PLAYER, texts.COL_TOTAL, texts.COL_PLACE], texts.COL_PLAYER)
    # the thousands are held together by a narrow no-break space
    assert "\u202f" in table.locator("tbody tr").first.inner_text()
    _hanchan_in_view(page)


def _hanchan_in_view(page: Page) -> None:
    """Issue 45 item 6: the first hanchan's table keeps its «Результат» in view beside points and place."""
    hanchan = page.locator("h3", has_text=texts.MATCH_HANCHAN_PREFIX).first.locator("xpath=following::table[1]")
    hanchan.scroll_into_view_if_needed()
    _inside_and_one_line(
        hanchan, [texts.COL_PLAYER, texts.COL_TOTAL, texts.COL_PLACE, texts.MATCH_COL_SCORE], texts.COL_PLAYER
    )


def test_standings_keep_name_total_place_and_average_place_in_view(phone: BrowserContext, app: App) -> None:
    # Runs after the match test above: its hanchans (a regular stage of the shared season) give the table its rows.
    page = phone.new_page()
    login(page, app, PLAYERS[1])
    expect(page.get_by_role("button", name="Выйти")).to_be_visible()  # logged in before the address
    page.goto(f"{app.url}/standings")
    table = page.get_by_role("table").first
    expect(table.locator("tbody tr").first).to_be_visible()
    _no_sideways_scroll(page)
    _inside_and_one_line(
        table, [texts.COL_PLACE, texts.COL_PLAYER, texts.COL_TOTAL, texts.COL_AVERAGE], texts.COL_PLAYER
    )
    # The rest is behind a tap: «Все столбцы» brings matches and hanchans back.
    matches = table.locator("thead th").filter(has_text=texts.COL_MATCHES)
    expect(matches).to_be_hidden()
    page.get_by_label(texts.TABLE_ALL_COLUMNS).tap()
    expect(matches).to_be_visible()


def test_the_roster_says_it_is_wider_than_the_phone_and_keeps_the_name_in_view(phone: BrowserContext, app: App) -> None:
    """The walk: the roster's columns ran past a phone's edge with nothing said; now the table says so, and the name
    stays at the left edge while the other columns scroll under it."""
    page = phone.new_page()
    login(page, app, ORGANIZER)
    expect(page.get_by_role("button", name="Выйти")).to_be_visible()  # logged in before the address
    page.goto(f"{app.url}/roster")
    table = page.get_by_role("table").first
    expect(table.locator("tbody tr").first).to_be_visible()
    expect(page.get_by_text(texts.TABLE_SCROLL_HINT)).to_be_visible()
    _no_sideways_scroll(page)
    scroller = table.locator("xpath=ancestor::div[contains(@class, 'wide-table')]")
    scroller.evaluate("box => { box.scrollLeft = box.scrollWidth }")
    assert scroller.evaluate("box => box.scrollLeft") > 0  # the table does scroll sideways
    name = table.locator("tbody th").first.bounding_box()
    assert name is not None and name["x"] >= 0 and name["x"] + name["width"] <= WIDTH


def test_the_player_page_keeps_each_matchs_points_and_place_in_view(phone: BrowserContext, app: App) -> None:
    # Issue 45 item 6. Runs after the match test above: its hanchans give the player's page a match with a total.
    page = phone.new_page()
    login(page, app, PLAYERS[1])
    expect(page.get_by_role("button", name="Выйти")).to_be_visible()  # logged in before the address
    page.goto(f"{app.url}/standings")
    page.get_by_role("link", name=PLAYERS[8]).first.click()
    expect(page.get_by_role("heading", name=PLAYERS[8], level=1)).to_be_visible()
    table = page.locator("h2", has_text=texts.PLAYER_MATCHES).locator("xpath=following::table[1]")
    expect(table.locator("tbody tr")).to_have_count(1)
    _no_sideways_scroll(page)
    tour, _opponents, _hanchans, points, place = texts.PLAYER_COLUMNS
    _inside_and_one_line(table, [tour, points, place])
    opponents = table.locator("thead th").filter(has_text=_opponents)
    expect(opponents).to_be_hidden()  # behind a tap
    page.get_by_label(texts.TABLE_ALL_COLUMNS).tap()
    expect(opponents).to_be_visible()


def test_the_playoff_keeps_where_each_goes_in_view(phone: BrowserContext, app: App) -> None:
    season_id, names, passwords = _league(app)
    page = phone.new_page()
    login(page, app, names[0], passwords[names[0]])
    expect(page.get_by_role("button", name="Выйти")).to_be_visible()  # logged in before the address
    page.goto(f"{app.url}/playoff?season={season_id}")
    region = page.get_by_role("region", name="1-й раунд, стол А")
    table = region.get_by_role("table")
    expect(table.locator("tbody tr")).to_have_count(4)
    _no_sideways_scroll(page)
    _inside_and_one_line(
        table,
        [texts.PLAYOFF_PLACE, texts.PLAYOFF_PLAYER, texts.PLAYOFF_TOTAL, texts.PLAYOFF_OUTCOME],
        texts.PLAYOFF_PLAYER,
    )
    average = table.locator("thead th").filter(has_text=texts.PLAYOFF_AVERAGE)
    expect(average).to_be_hidden()  # behind a tap
    region.get_by_label(texts.TABLE_ALL_COLUMNS).tap()
    expect(average).to_be_visible()
    # Issue 45 item 6: the playoff match's page is headed with one colon, the playoff's own
    region.get_by_role("link", name=texts.PLAYOFF_MATCH_PAGE).click()
    heading = page.get_by_role("heading", name=re.compile(r"^Матч \d+ — Плей-офф: 1-й раунд, стол А$"), level=1)
    expect(heading).to_be_visible()


def test_the_grid_keeps_its_days_in_view_names_its_week_and_greys_the_past(phone: BrowserContext, app: App) -> None:
    names = list(PLAYERS[12:16])
    today = kirov_date(utc_now())
    yesterday = today - timedelta(days=1)
    engine = app.engine()
    with session_scope(engine) as session:  # a window that opened yesterday: yesterday has passed
        match = factories.match_for_names(
            session, names, Interval(at_kirov(yesterday), at_kirov(yesterday + timedelta(days=9)))
        )
        match_id = match.id
        assert session.get(Round, match.round_id) is not None
    engine.dispose()
    page = phone.new_page()
    login(page, app, names[1])
    expect(page.get_by_role("button", name="Выйти")).to_be_visible()  # logged in before the address
    page.goto(f"{app.url}/match/{match_id}/schedule")
    expect(page.get_by_role("heading", name="Моя доступность")).to_be_visible()
    page.wait_for_function("window.discardGrid !== undefined")
    # The week on screen is named with its days, and the switch says which is on.
    first = f"Показана первая неделя: {_label(yesterday)} — {_label(yesterday + timedelta(days=6))}"
    expect(page.get_by_text(first, exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Первая неделя")).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="Вторая неделя").tap()
    expect(page.get_by_text(first, exact=True)).to_be_hidden()
    expect(
        page.get_by_text(f"Показана вторая неделя: {_label(yesterday + timedelta(days=7))}", exact=False)
    ).to_be_visible()
    expect(page.get_by_role("button", name="Вторая неделя")).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="Первая неделя").tap()
    _no_sideways_scroll(page)
    # Cells a finger can hit: at least 40 × 28 px.
    tomorrow = _label(today + timedelta(days=1))
    box = page.get_by_label(f"{tomorrow} 12:00", exact=True).bounding_box()
    assert box and box["width"] >= 40 and box["height"] >= 28, box
    # The day's fill buttons too (the walk: 11 px links a finger missed): at least 24 × 24 px.
    for name in (texts.GRID_FILL_DAY_OF + tomorrow, texts.GRID_FILL_EVENING_OF + tomorrow):
        fill = page.get_by_role("button", name=name, exact=True).bounding_box()
        assert fill and fill["width"] >= 24 and fill["height"] >= 24, (name, fill)
    # Scrolled down to the evening rows, the day headers are still on screen, above the 18:00 cells.
    evening = page.get_by_label(f"{tomorrow} 20:00", exact=True)
    evening.scroll_into_view_if_needed()
    page.evaluate("window.scrollBy(0, 200)")
    cell = evening.bounding_box()
    assert cell and 0 < cell["y"] < PHONE["viewport"]["height"], cell
    header = page.locator(".grid-head").filter(has_text=tomorrow)
    head = header.bounding_box()
    assert head and head["y"] >= 0 and head["y"] + head["height"] <= cell["y"] + 1, (head, cell)
    assert abs(head["x"] - cell["x"]) < 2  # over its own column
    # A half hour already past is greyed and a tap does not paint it; a future one is painted.
    past = page.get_by_label(f"{_label(yesterday)} 18:00", exact=True)
    expect(past).to_have_attribute("data-past", "1")
    expect(past).to_have_attribute("aria-disabled", "true")
    past.scroll_into_view_if_needed()
    past.tap(force=True)  # greyed and aria-disabled: a person can still put a finger on it
    past.tap(force=True)
    expect(past).to_have_attribute("aria-checked", "false")
    assert page.evaluate("window.discardGrid.isDirty()") is False
    assert past.evaluate("(c) => getComputedStyle(c).backgroundColor") != evening.evaluate(
        "(c) => getComputedStyle(c).backgroundColor"
    )
    future = page.get_by_label(f"{tomorrow} 18:00", exact=True)
    future.tap()
    future.tap()
    expect(future).to_have_attribute("aria-checked", "true")
