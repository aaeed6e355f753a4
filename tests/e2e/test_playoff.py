"""The bracket page after round 1, on a phone-sized screen: who went where, round 2 created, winds drawn.

The shared app shows its latest season to every other test, so this test's league lives in its own season with a
lower id (the page shows it through `?season=`) and its own eight players: nothing the other tests see changes.
"""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import Page, expect
from sqlmodel import col, select

from services.core.db import session_scope
from services.core.models import Match, MatchStatus, Round, Seat, Stage, StageKind, User, utc_now
from services.core.models import Season as SeasonRow
from services.league.roster import add_player
from services.playoff import stage as playoff
from services.playoff.hanchan_entry import enter_hanchan
from services.results.hanchans import Entry
from services.results.scoring import TableResult
from tests.e2e.conftest import ORGANIZER, App, login
from tests.factories import UNBOOKED

IN_ORDER = [45000, 35000, 25000, 15000]


def _league(app: App) -> tuple[int, list[str], dict[str, str]]:
    """A finished regular tour of two tables, the regular stage closed, round 1 played in seat order."""
    tag = uuid.uuid4().hex[:4]
    names = [f"Финалист {tag} {n}" for n in range(1, 9)]
    engine = app.engine()
    passwords: dict[str, str] = {}
    with session_scope(engine) as session:
        organizer = session.exec(select(User).where(User.display_name == ORGANIZER)).one()
        lowest = session.exec(select(SeasonRow.id).order_by(col(SeasonRow.id))).first()
        season = SeasonRow(id=min(1 if lowest is None else lowest, 1) - 1, name=f"Архивный сезон {tag}")
        session.add(season)
        session.flush()
        ids = {}
        for name in names:
            player, passwords[name] = add_player(session, season, name, actor_user_id=organizer.id)
            ids[name] = player.id
        stage = Stage(season_id=season.id, kind=StageKind.REGULAR)
        session.add(stage)
        session.flush()
        tour = Round(stage_id=stage.id, code="1")
        session.add(tour)
        session.flush()
        # Regular places: 1, 5, 2, 6, 7, 3, 8, 4 (by name number) — table 2 scores a little less at the top.
        for table, (seats, points) in enumerate(((names[:4], IN_ORDER), (names[4:], [44000, 34000, 26000, 16000]))):
            match = Match(round_id=tour.id, table=str(table + 1), status=MatchStatus.PLAYING)
            session.add(match)
            session.flush()
            for seed, name in enumerate(seats, start=1):
                session.add(Seat(match_id=match.id, player_id=ids[name], seed=seed))
            for _ in range(3):
                entry = Entry(tuple(TableResult(ids[n], x) for n, x in zip(seats, points, strict=True)), 0)
                enter_hanchan(session, organizer, match.id, entry, now=utc_now(), reason=UNBOOKED)
        playoff.close_regular_stage(session, season, actor=organizer)
        view = playoff.load_bracket(session, season)
        for round_ in ("1A", "1B"):
            seats = session.exec(
                select(Seat.player_id).where(Seat.match_id == view.match_ids[round_]).order_by(col(Seat.seed))
            ).all()
            for _ in range(3):  # seats finish in seat order: the two best seeds go up
                results = tuple(TableResult(p, x) for p, x in zip(seats, IN_ORDER, strict=True))
                enter_hanchan(
                    session, organizer, view.match_ids[round_], Entry(results, 0), now=utc_now(), reason=UNBOOKED
                )
        season_id = season.id
    engine.dispose()
    return season_id, names, passwords


def test_bracket_after_round_one(app: App, page: Page) -> None:
    season_id, names, passwords = _league(app)
    n = {k: names[k - 1] for k in range(1, 9)}
    # Seeds: 1, 5, 2, 6, 7, 3, 8, 4 → table A: 1, 2, 7, 8; table B: 5, 6, 3, 4.
    page.set_viewport_size({"width": 390, "height": 844})
    login(page, app, n[1], passwords[n[1]])
    expect(page.get_by_role("button", name="Выйти")).to_be_visible()
    page.goto(f"{app.url}/playoff?season={season_id}")

    expect(page.get_by_role("heading", name="Плей-офф", level=1)).to_be_visible()
    table_a = page.get_by_role("region", name="1-й раунд, стол А")
    for name, outcome in ((n[1], "верхняя ветка"), (n[2], "верхняя ветка"), (n[7], "нижняя ветка")):
        expect(table_a.get_by_role("row").filter(has_text=name)).to_contain_text(outcome)
    expect(table_a.get_by_role("row").filter(has_text=n[1])).to_contain_text("+90 000")
    table_b = page.get_by_role("region", name="1-й раунд, стол Б")
    expect(table_b.get_by_role("row").filter(has_text=n[3])).to_contain_text("нижняя ветка")

    # Round 2 was created as soon as round 1 was complete: upper 1, 2, 5, 6; lower 7, 8, 3, 4.
    upper = page.get_by_role("region", name="2-й раунд, верхняя ветка")
    for k in (1, 2, 5, 6):
        expect(upper).to_contain_text(n[k])
    lower = page.get_by_role("region", name="2-й раунд, нижняя ветка")
    for k in (7, 8, 3, 4):
        expect(lower).to_contain_text(n[k])
    expect(page.get_by_role("region", name="Финал")).to_contain_text("Состав определится")
    expect(page.get_by_text("2-й раунд, верхняя ветка: сыграно 0 из 3 ханчанов")).to_be_visible()
    # A player sees no organizer actions, and the page fits a phone without sideways scrolling of the page.
    expect(page.get_by_role("button", name="Закрыть регулярный этап")).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")

    # The player's own round-2 table: random winds for hanchan 1, shown to the table.
    upper.get_by_role("button", name="Перемешать ветра").click()
    expect(upper.get_by_text("Ханчан 1: Восток — ")).to_be_visible()
    expect(lower.get_by_role("button", name="Перемешать ветра")).to_have_count(0)

    engine = app.engine()
    with session_scope(engine) as session:
        stage = session.exec(select(Stage).where(Stage.season_id == season_id, Stage.kind == StageKind.PLAYOFF)).one()
        tables = session.exec(
            select(Match.table).join(Round, Round.id == Match.round_id).where(Round.stage_id == stage.id)
        ).all()
    engine.dispose()
    assert sorted(tables) == ["A", "B", "L", "U"]
    # Issue 45 item 5: from a bracket's table to the playoff match's own page, by a link.
    expect(page.get_by_role("region", name="Финал").get_by_role("link", name="Страница матча")).to_have_count(0)
    table_a.get_by_role("link", name="Страница матча").click()
    expect(page).to_have_url(re.compile(r"/match/\d+/?$"))
    expect(page.get_by_role("heading", level=1).filter(has_text="стол А")).to_have_text(
        re.compile(r"Плей-офф: 1-й раунд, стол А$")
    )
