"""The organizer's desk on a phone and a desktop: a dispute, a match without common options and an overdue window are
listed; each item's action settles it and the item disappears live, also when settled by another process.
(Named to run after test_draw.py, which counts each player's matches after the draw.)"""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from playwright.sync_api import Browser, Page, expect
from sqlmodel import col, select

from discard_app import texts
from services.core.db import session_scope
from services.core.models import (
    Booking,
    JudgeAssignment,
    Match,
    MatchStatus,
    Player,
    Round,
    Seat,
    Stage,
    StageKind,
    User,
    utc_now,
)
from services.league.roster import add_player, current_season
from services.playoff.hanchan_entry import enter_hanchan
from services.results.entry import Entry
from services.results.hanchans import dispute_hanchan, resolve_dispute
from services.results.scoring import TableResult
from services.scheduling.availability import save_availability
from services.scheduling.intervals import Interval, at_kirov, kirov_date
from tests.e2e.conftest import JUDGE, ORGANIZER, App, login
from tests.factories import UNBOOKED

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}


def _players(session, names: tuple[str, ...]) -> list[Player]:  # noqa: ANN001
    return [
        session.exec(select(Player).join(User, col(User.id) == Player.user_id).where(User.display_name == name)).one()
        for name in names
    ]


def _stage_with_tours(app: App, names: tuple[str, ...], first_window: Interval) -> tuple[int, str]:
    """A match of these four in tour 1 of a stage of its own, and a tour 2 two weeks later (the next window)."""
    engine = app.engine()
    with session_scope(engine) as session:
        stage = Stage(season_id=current_season(session).id, kind=StageKind.REGULAR)
        session.add(stage)
        session.flush()
        code = str(stage.id * 10 + 1)
        one = Round(stage_id=stage.id, code=code, window_start=first_window.start, window_end=first_window.end)
        session.add(one)
        session.flush()
        session.add(Round(stage_id=stage.id, code=str(stage.id * 10 + 2),
                          window_start=first_window.end, window_end=first_window.end + timedelta(days=14)))  # fmt: skip
        match = Match(round_id=one.id, table="1", status=MatchStatus.SCHEDULING)
        session.add(match)
        session.flush()
        for seed, player in enumerate(_players(session, names), start=1):
            session.add(Seat(match_id=match.id, player_id=player.id, seed=seed))
        match_id, title = match.id, f"Тур {code}, стол 1"
    engine.dispose()
    return match_id, title


def fresh_players(app: App) -> dict[str, str]:
    """Four players of their own (name → password), so no other test's standings or matches change."""
    engine = app.engine()
    tag = uuid.uuid4().hex[:5]
    with session_scope(engine) as session:
        season = current_season(session)
        out = {}
        for n in range(1, 5):
            player, password = add_player(session, season, f"Стол {tag} {n}", actor_user_id=None)
            out[session.get(User, player.user_id).display_name] = password
    engine.dispose()
    return out


def _users(app: App, names: tuple[str, ...]) -> list[int]:
    engine = app.engine()
    with session_scope(engine) as session:
        ids = [session.exec(select(User).where(User.display_name == n)).one().id for n in names]
    engine.dispose()
    return ids


def _item(page: Page, title: str):  # noqa: ANN202 - a Playwright Locator
    return page.get_by_role("group", name=title, exact=True)


@pytest.mark.parametrize("device", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_desk_lists_what_needs_a_decision_and_each_action_settles_it(browser: Browser, app: App, device: dict) -> None:
    table = tuple(fresh_players(app))
    today = kirov_date(utc_now())
    # The two runs' fallback Sundays differ, and lie weeks past any other test's: the §6.1 fallback seats a Sunday's
    # unagreed matches while tables last (other tests' matches share the app's database and its room).
    later = today + timedelta(days=7 * 37 + (7 if device is PHONE else 0))
    future = Interval(at_kirov(later + timedelta(days=1)), at_kirov(later + timedelta(days=22)))
    past = Interval(at_kirov(today - timedelta(days=20)), at_kirov(today - timedelta(days=6)))
    apart_id, apart = _stage_with_tours(app, table, future)
    overdue_id, overdue = _stage_with_tours(app, table, past)
    disputed_id, disputed_match = _stage_with_tours(app, table, future)
    engine = app.engine()
    users = _users(app, table)
    with session_scope(engine) as session:
        for n, user_id in enumerate(users):  # all four answered, never at the same time: no common time
            day = at_kirov(later + timedelta(days=2 + n), 18)
            save_availability(
                session,
                match_id=apart_id,
                user_id=user_id,
                intervals=[Interval(day, day + timedelta(hours=3))],
                now=utc_now(),
            )
        seated = _players(session, table)
        # entered by the organizer: the window has not opened, a player could not yet (Регламент §2)
        organizer = session.get(User, _users(app, (ORGANIZER,))[0])
        points = zip(seated, [40000, 30000, 30000, 20000], strict=True)
        hanchan = enter_hanchan(
            session,
            organizer,
            disputed_id,
            Entry(tuple(TableResult(p.id, n) for p, n in points), 0),
            now=utc_now(),
            reason=UNBOOKED,
        )
        dispute_hanchan(session, session.get(User, users[1]), hanchan.id, "перепутаны очки", now=utc_now())
        hanchan_id = hanchan.id
    context = browser.new_context(locale="ru-RU", timezone_id="Europe/Kirov", **device)
    page = context.new_page()
    try:
        login(page, app, ORGANIZER, path="/desk")
        expect(page.get_by_role("heading", name="Стол организатора")).to_be_visible()
        no_time, late = _item(page, apart), _item(page, overdue)
        dispute = _item(page, f"{disputed_match}, ханчан 1")
        expect(no_time).to_contain_text("общего свободного времени нет")
        expect(late).to_contain_text("Окно закончилось")
        expect(dispute).to_contain_text("перепутаны очки")

        # The fallback date in one tap; the item leaves the desk. A double tap books it once: the second send is
        # the item form's own key, answered as the first (no «already booked» refusal).
        no_time.get_by_role("button", name=f"Назначить запасную дату: {apart}").dblclick()
        expect(page.get_by_role("status")).to_contain_text(apart)
        expect(no_time).to_have_count(0)
        expect(page.get_by_role("alert")).to_have_count(0)
        with session_scope(engine) as session:
            assert len(session.exec(select(Booking).where(Booking.match_id == apart_id, Booking.active)).all()) == 1

        # Moving to the next tour needs a reason: refused without one, the item stays and says why.
        move = late.get_by_role("button", name=f"Перенести на следующий тур: {overdue}")
        move.click()
        expect(late.get_by_role("alert")).to_contain_text("Укажите уважительную причину")
        late.get_by_label(f"Уважительная причина: {overdue}").fill("болезнь игрока")
        move.click()
        expect(late).to_have_count(0)

        # Settled by another process: the organizer's open desk drops it within two seconds, without a reload.
        page.evaluate("window.__stillTheSamePage = true")
        with session_scope(engine) as session:
            resolve_dispute(
                session, session.get(User, _users(app, (ORGANIZER,))[0]), hanchan_id, "проверено", now=utc_now()
            )
        expect(dispute).to_have_count(0, timeout=2_500)
        assert page.evaluate("window.__stillTheSamePage") is True
        with session_scope(engine) as session:
            assert session.get(Match, overdue_id).window_round_id is not None

        # Регламент §6.3: a judge for a match, from the form's lists, which look like the fields beside them.
        judge = page.locator("select[name=judge]")
        style = judge.evaluate("(e) => [getComputedStyle(e).borderTopWidth, getComputedStyle(e).fontSize]")
        assert style[0] != "0px" and float(style[1].removesuffix("px")) >= 16, style  # a phone does not zoom in
        judge.select_option(label=JUDGE)
        page.locator("select[name=match]").select_option(str(apart_id))
        page.get_by_role("button", name=texts.DESK_ASSIGN_SUBMIT).click()
        form = page.locator("form").filter(has=judge)  # the answer stands under the button that was pressed
        expect(form.get_by_role("status")).to_contain_text(texts.DESK_ASSIGNED)
        with session_scope(engine) as session:
            (assigned,) = session.exec(select(JudgeAssignment).where(JudgeAssignment.match_id == apart_id)).all()
            assert assigned.judge_user_id == _users(app, (JUDGE,))[0]
        # A form sent with a value no row can have (a tampered page): whatever fails, the person reads Russian.
        judge.evaluate("(e) => { e.options[1].value = '9'.repeat(25); e.selectedIndex = 1; }")
        page.get_by_role("button", name=texts.DESK_ASSIGN_SUBMIT).click()
        expect(page.get_by_text(texts.UNEXPECTED_ERROR)).to_be_visible()
        expect(page.get_by_text("An error occurred")).to_have_count(0)
    finally:
        context.close()
        engine.dispose()
