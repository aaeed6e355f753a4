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
from datetime import datetime, timedelta

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import select

from discard_app import texts
from discard_app.state.action import KEY_FIELD, new_key
from services.core.db import session_scope
from services.core.models import MatchStatus, Player, RosterStatus, Season, User, utc_now
from services.league import closing, draw_season, seasons, tour_windows
from services.league.roster import add_player, current_season
from services.scheduling.intervals import KIROV
from tests import factories
from tests.e2e.conftest import LETTERS, ORGANIZER, PLAYERS, App, login, running_app
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
            try:
                seasons.finish_season(session, previous, now=now, actor_user_id=organizer.id)
            except seasons.SeasonError:  # a draw a scenario approved has no final to wait for: over by fiat
                previous.finished_at = now
                session.add(previous)
                session.flush()
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


# --- draw, roster and rules on the guarded helper (issue 24 item 2, issue 25 item 4) ---


def _windows_form(season_id: int) -> dict:
    with session_scope(_ENGINES[0]) as session:
        tours = session.get(Season, season_id).tours
    start = datetime(2031, 3, 3, 10, 0)  # far ahead: no window of any other test's
    form = {}
    for n in range(1, tours + 1):
        form[f"start_{n}"] = f"{start + timedelta(days=14 * (n - 1)):%Y-%m-%dT%H:%M}"
        form[f"end_{n}"] = f"{start + timedelta(days=14 * n - 1):%Y-%m-%dT%H:%M}"
    return {"form": form}


def _swap_form(season_id: int) -> dict:
    with session_scope(_ENGINES[0]) as session:
        draft = draw_season.load_draft(session, session.get(Season, season_id))
        first, second = draft.tours[0][0][0], draft.tours[0][1][0]  # two tables of tour 1
    return {"form": {"tour": "1", "first": str(first), "second": str(second)}}


def _with_engine(build: Callable[[App], tuple[str, dict]]) -> Callable[[App], tuple[str, dict]]:
    """The payload helpers read the season through the app's database."""

    def run(app: App) -> tuple[str, dict]:
        _ENGINES[:] = [app.engine()]
        try:
            return build(app)
        finally:
            _ENGINES.pop().dispose()

    return run


_ENGINES: list = []


def _replay_ordered(app: App) -> tuple[str, dict]:
    """A played match of the fresh season whose first player is then withdrawn: a replay may be ordered."""
    season_id = fresh_season(app, "open")
    engine = app.engine()
    with session_scope(engine) as session:
        players = session.exec(select(Player).where(Player.season_id == season_id).order_by(Player.id)).all()[:4]
        match = factories.match_in_own_stage(session, session.get(Season, season_id), players, MatchStatus.COMPLETE)
        players[0].status = RosterStatus.WITHDRAWN
        session.add(players[0])
        replay = f"{players[0].id}:{match.id}"
    engine.dispose()
    form = {"replay": replay, "agreed": "on", "reason": "снятие в первую неделю", KEY_FIELD: new_key()}
    return "/roster", {"form": form}


# handler -> what the organizer sends, on a season made for it. Each helper adds its own (issue 24 item 2).
SEASON_SCENARIOS: dict[str, Scenario] = {
    # --- draw, roster and rules on the guarded helper (issue 24 item 2, issue 25 item 4) ---
    "DrawState.close_registration": Scenario(
        ORGANIZER, _in_fresh_season("open", "/draw", lambda _id: {"method": "as_is", "key": new_key()})
    ),
    "DrawState.make_draft": Scenario(ORGANIZER, _in_fresh_season("closed", "/draw", lambda _id: {"key": new_key()})),
    "DrawState.swap": Scenario(ORGANIZER, _with_engine(_in_fresh_season("draft", "/draw", _swap_form))),
    "DrawState.save_windows": Scenario(ORGANIZER, _with_engine(_in_fresh_season("open", "/draw", _windows_form))),
    "DrawState.approve": Scenario(ORGANIZER, _in_fresh_season("draft", "/draw", lambda _id: {"key": new_key()})),
    "RulesState.apply_rules": Scenario(
        ORGANIZER,
        _in_fresh_season("open", "/regulation", lambda _id: {"form": {"chombo_penalty": "20000", "reason": ""}}),
    ),
    "RosterState.order_replay": Scenario(ORGANIZER, _replay_ordered),
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


def test_closing_registration_asks_first_naming_who_moves_and_the_main_roster(page: Page, season_app: App) -> None:
    """Issue 25 item 4: «Перевести в резерв и закрыть регистрацию» asks first, naming who goes to the reserve and
    the main roster it leaves; «Отмена» changes nothing; the answer closes it (on a season of this app's own)."""
    season_id = fresh_season(season_app, "open")
    late = f"Поздний {uuid.uuid4().hex[:6].translate(LETTERS)}"
    engine = season_app.engine()
    with session_scope(engine) as session:
        organizer = session.exec(select(User).where(User.display_name == ORGANIZER)).one()
        add_player(session, session.get(Season, season_id), late, actor_user_id=organizer.id, password="поздний-1")
    engine.dispose()
    login(page, season_app, ORGANIZER, path="/draw")
    page.get_by_role("button", name=texts.DRAW_TO_RESERVE_BUTTON).click()
    dialog = page.get_by_role("alertdialog")
    expect(dialog).to_contain_text(texts.DRAW_CLOSE_ASK_TITLE)
    expect(dialog).to_contain_text(f"Из основного состава в резерв перейдут: {late}.")
    expect(dialog).to_contain_text(f"Основной состав (8 игроков): {', '.join(ROSTER)}.")
    dialog.get_by_role("button", name=texts.DRAW_CLOSE_CANCEL).click()
    expect(dialog).to_have_count(0)
    engine = season_app.engine()
    with session_scope(engine) as session:
        assert not session.get(Season, season_id).registration_closed  # asked, not done
    engine.dispose()
    page.get_by_role("button", name=texts.DRAW_TO_RESERVE_BUTTON).click()
    page.get_by_role("alertdialog").get_by_role("button", name=texts.DRAW_CLOSE_CONFIRM).click()
    expect(page.get_by_role("status")).to_have_text(texts.DRAW_CLOSED_NOTICE.format(main=8))
    engine = season_app.engine()
    with session_scope(engine) as session:
        assert session.get(Season, season_id).registration_closed
        late_player = session.exec(
            select(Player).join(User, User.id == Player.user_id).where(User.display_name == late)
        ).one()
        assert late_player.status == RosterStatus.RESERVE
    engine.dispose()
