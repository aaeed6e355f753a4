"""The handlers that move a whole season on (closing registration, the draw, closing the stage, a new season,
finishing), sent over the real websocket protocol as tests/e2e/test_actions_protocol.py sends every other one:
refused to the wrong role and to a logged-out tab, performed for the right role, performed once when the same event
is sent twice at once.

They run on an app of their own (the conftest starts it before the shared one): each scenario's build makes a fresh
current season in the stage its handler needs, so the shared app's season never moves.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator
from datetime import timedelta

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import col, select

from discard_app import texts
from discard_app.state.action import KEY_FIELD, new_key
from services.core.db import session_scope
from services.core.models import Player, Round, Season, Stage, TieDecision, User, utc_now
from services.league import closing, draw_season, seasons, tour_windows
from services.league.roster import current_season
from services.results import hanchans as results
from services.results.entry import Entry
from services.results.scoring import TableResult
from services.scheduling.intervals import KIROV
from tests import factories
from tests.e2e.conftest import ORGANIZER, PLAYERS, App, login, running_app
from tests.e2e.test_actions_protocol import (
    Scenario,
    _added,
    _event_name,
    _guarded,
    _send,
    _snapshot,
    _wrong_callers,
)

ROSTER = list(PLAYERS[:8])  # two tables of four (Регламент §1: a multiple of four)
STAGES = ("open", "closed", "draft")  # how far `fresh_season` takes the new season


@pytest.fixture(scope="module")
def season_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    with running_app(tmp_path_factory.mktemp("season-actions")) as running:
        yield running


def fresh_season(app: App, stage: str = "open") -> int:
    """A new current season of the eight players (the current one finished first if its draw was approved):
    «open» registration, registration «closed», or a «draft» of the draw with every tour's window set."""
    assert stage in STAGES, stage
    engine = app.engine()
    with session_scope(engine) as session:
        organizer = session.exec(select(User).where(User.display_name == ORGANIZER)).one()
        now = utc_now()
        previous = current_season(session)
        if previous is not None and previous.draw_approved_at is not None and previous.finished_at is None:
            seasons.finish_season(session, previous, now=now, actor_user_id=organizer.id)
        season = seasons.create_season(session, f"Сезон {uuid.uuid4().hex[:8]}", actor_user_id=organizer.id)
        for name in ROSTER:
            user = session.exec(select(User).where(User.display_name == name)).one()
            seasons.enroll_user(session, season, user, today=now.date(), actor_user_id=organizer.id)
        if stage in ("closed", "draft"):
            closing.close_registration(session, season, "as_is", actor_user_id=organizer.id)
        if stage == "draft":
            start = now.astimezone(KIROV).replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=1)
            windows = [
                (start + timedelta(days=14 * k), start + timedelta(days=14 * (k + 1))) for k in range(season.tours)
            ]
            tour_windows.set_windows(session, season, windows, actor_user_id=organizer.id)
            draw_season.make_draft(session, season, seed=1, actor_user_id=organizer.id)
        season_id = season.id
    engine.dispose()
    return season_id


def _in_fresh_season(stage: str, path: str, payload: Callable[[int], dict]) -> Callable[[App], tuple[str, dict]]:
    """A build for `Scenario`: a fresh season in `stage`, then the handler's payload (its form gets a new key)."""

    def build(app: App) -> tuple[str, dict]:
        season_id = fresh_season(app, stage)
        sent = payload(season_id)
        if "form" in sent:
            sent = {**sent, "form": {**sent["form"], KEY_FIELD: new_key()}}
        return path, sent

    return build


# --- desk and ties on the guarded action (issue 24 item 2, issue 25 items 1–2) ---------------------------------
# Регламент §4: a tie the organizer decides needs players equal in total and average place; the shared season's
# totals move with every other test, so each build makes a season of its own with two tables played alike.

TIE_POINTS = (45_000, 35_000, 25_000, 15_000)
TIE_GROUP = texts.TIE_PLACE.format(place=1)  # the two leaders of `_tied_season`


def _tied_season(app: App) -> tuple[str, dict]:
    """Two tables of the fresh season, one hanchan each with the same scores: seat k of one table ties seat k of
    the other; the organizer orders the leaders' group."""
    season_id = fresh_season(app, "open")
    engine = app.engine()
    with session_scope(engine) as session:
        organizer = session.exec(select(User).where(User.display_name == ORGANIZER)).one()
        players = {
            u.display_name: p
            for p, u in session.exec(
                select(Player, User).join(User, col(User.id) == Player.user_id).where(Player.season_id == season_id)
            )
        }
        stage = session.exec(select(Stage).where(Stage.season_id == season_id)).one()
        now = utc_now()
        round_ = Round(
            stage_id=stage.id, code="1", window_start=now - timedelta(days=2), window_end=now + timedelta(days=6)
        )
        session.add(round_)
        session.flush()
        for table, names in enumerate((ROSTER[:4], ROSTER[4:8]), start=1):
            match = factories.match(session, round_, [players[n] for n in names], table=str(table))
            lines = tuple(TableResult(players[n].id, pts) for n, pts in zip(names, TIE_POINTS, strict=True))
            results.enter_hanchan(session, organizer, match.id, Entry(lines, 0), now=now)
        ordered = [players[ROSTER[4]].id, players[ROSTER[0]].id]
    engine.dispose()
    form = {"pos_1": str(ordered[0]), "pos_2": str(ordered[1]), "reason": "Жребий при свидетелях", KEY_FIELD: new_key()}
    return "/standings", {"form": form}


# handler -> what the organizer sends, on a season made for it. Each helper adds its own (issue 24 item 2).
SEASON_SCENARIOS: dict[str, Scenario] = {
    # --- desk and ties on the guarded action (issue 24 item 2, issue 25 items 1–2) ---
    "TieState.decide": Scenario(ORGANIZER, _tied_season),
}


def test_the_fresh_season_is_current_and_in_its_stage(season_app: App) -> None:
    """The builder the scenarios stand on: each stage leaves the new season current, as far as it says."""
    for stage in STAGES:
        season_id = fresh_season(season_app, stage)
        engine = season_app.engine()
        with session_scope(engine) as session:
            season = current_season(session)
            assert season is not None and season.id == season_id
            assert season.registration_closed == (stage != "open")
            assert (draw_season.load_draft(session, season) is not None) == (stage == "draft")
            assert session.get(Season, season_id).draw_approved_at is None
        engine.dispose()


@pytest.mark.parametrize("handler", sorted(SEASON_SCENARIOS))
def test_the_wrong_role_changes_nothing_and_the_organizer_moves_the_season(season_app: App, handler: str) -> None:
    roles, scenario = _guarded()[handler], SEASON_SCENARIOS[handler]
    path, payload = scenario.build(season_app)
    for caller in _wrong_callers(roles):
        before = _snapshot(season_app)
        _send(season_app, caller, _event_name(handler), payload, path)
        assert _added(before, _snapshot(season_app)) == {}, f"{handler} as {caller or 'logged out'} changed the data"
    before = _snapshot(season_app)
    _send(season_app, scenario.actor, _event_name(handler), payload, path)
    assert _added(before, _snapshot(season_app)), (
        f"{handler} as {scenario.actor} changed nothing: the scenario is wrong"
    )


@pytest.mark.parametrize("handler", sorted(SEASON_SCENARIOS))
def test_the_same_season_event_sent_twice_at_once_acts_once(season_app: App, handler: str) -> None:
    scenario = SEASON_SCENARIOS[handler]
    path, payload = scenario.build(season_app)
    before = _snapshot(season_app)
    _send(season_app, scenario.actor, _event_name(handler), payload, path)
    once = _added(before, _snapshot(season_app))
    path, payload = scenario.build(season_app)  # the same action on a season of its own
    before = _snapshot(season_app)
    _send(season_app, scenario.actor, _event_name(handler), payload, path, times=2)
    twice = _added(before, _snapshot(season_app))
    assert once and twice == once, f"{handler}: one send changed {json.dumps(once)}, two sends {json.dumps(twice)}"


def test_the_organizer_orders_a_tie_in_the_browser_once(season_app: App, page: Page) -> None:
    """Регламент §4 on /standings: the tie form (the one form component) takes the order and the reason; a double
    click records one decision with no refusal shown, and the settled group leaves the page."""
    _tied_season(season_app)
    login(page, season_app, ORGANIZER, path="/standings")
    group = page.locator("form").filter(has=page.get_by_role("heading", name=TIE_GROUP, exact=True))
    expect(group).to_have_count(1)
    for place, name in ((1, ROSTER[4]), (2, ROSTER[0])):
        group.get_by_role("combobox", name=f"Место {place}: {TIE_GROUP}").click()
        page.get_by_role("option", name=name, exact=True).click()
    group.get_by_label(texts.TIE_REASON).fill("Жребий при свидетелях")
    group.get_by_role("button", name=texts.TIE_SUBMIT).dblclick()
    expect(page.get_by_role("status").filter(has_text=texts.TIE_SAVED)).to_be_visible()
    expect(page.get_by_role("heading", name=TIE_GROUP, exact=True)).to_have_count(0)
    expect(page.get_by_role("heading", name=texts.TIE_PLACE.format(place=3), exact=True)).to_be_visible()
    # the second click's send is the same form's key: answered as the first, not refused as a settled group
    expect(page.get_by_role("alert")).to_have_count(0)
    engine = season_app.engine()
    with session_scope(engine) as session:
        season = current_season(session)
        decisions = session.exec(select(TieDecision).where(TieDecision.season_id == season.id)).all()
    engine.dispose()
    assert len(decisions) == 1, decisions
