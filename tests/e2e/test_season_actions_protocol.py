"""The handlers that move a whole season on (closing registration, the draw, closing the stage, the playoff's
rounds, a new season, finishing), sent over the real websocket protocol as tests/e2e/test_actions_protocol.py sends
every other one: refused to the wrong role and to a logged-out tab, performed for the right role, performed once
when the same event is sent twice at once.

They run on an app of their own (the conftest starts it before the shared one): each scenario's build makes a fresh
current season in the stage its handler needs, so the shared app's season never moves.
"""

from __future__ import annotations

import http.client
import json
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session, col, select

from discard_app import texts
from discard_app.state.action import KEY_FIELD, new_key
from services.core.db import session_scope
from services.core.models import (
    Match,
    MatchStatus,
    Player,
    Role,
    RosterStatus,
    Round,
    Season,
    Seat,
    Stage,
    StageKind,
    TieDecision,
    User,
    utc_now,
)
from services.core.ruleset import LABELS
from services.league import closing, draw_season, roster, seasons
from services.league.roster import add_player, current_season
from services.playoff import stage as playoff
from services.playoff.hanchan_entry import enter_hanchan
from services.results import hanchans as results
from services.results.entry import Entry
from services.results.scoring import TableResult
from services.scheduling import tour_windows
from services.scheduling.intervals import KIROV
from tests import factories
from tests.e2e.conftest import JUDGE, LETTERS, ORGANIZER, PLAYERS, App, login
from tests.e2e.test_actions_protocol import (
    RawTab,
    Scenario,
    _added,
    _cookie_for,
    _event_name,
    _guarded,
    _send,
    _snapshot,
    _wrong_callers,
    answer_keeps_through_the_load,
)

ROSTER = list(PLAYERS[:8])  # two tables of four (Регламент §1: a multiple of four)
# How far `fresh_season` takes the new season: registration «open» or «closed», a «draft» of the draw, the
# regular stage «played» (one tour, both tables), the «playoff» begun (round 1: table 1A played to a tie between
# its 2nd and 3rd, 1B not begun), or the «final» played (every playoff table; the draw marked approved, as a
# season that ran is, so /seasons/manage offers finishing it).
STAGES = ("open", "closed", "draft", "played", "playoff", "final")
IN_ORDER = (45_000, 35_000, 25_000, 15_000)
# Seats 2 and 3 end level on total and average place: the table waits for the organizer's decision (Регламент §4).
TIED = ((45_000, 32_000, 25_000, 18_000), (45_000, 25_000, 32_000, 18_000), (30_000,) * 4)


@pytest.fixture(scope="module")
def season_app(app: App) -> App:
    """The file's own app (conftest's `app`), named for the seasons it moves."""
    return app


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
        if stage != "open":
            closing.close_registration(session, season, "as_is", actor_user_id=organizer.id)
        if stage in ("played", "playoff", "final"):
            _play_regular(session, season, organizer)
        if stage in ("playoff", "final"):
            playoff.close_regular_stage(session, season, actor=organizer)
            playoff.advance_playoff(session, season)  # what the page's load would settle, settled here
        if stage == "playoff":
            view = playoff.load_bracket(session, season)
            _play(session, organizer, view.match_ids["1A"], TIED)
        if stage == "final":
            _play_playoff(session, season, organizer)
            season.draw_approved_at = now
            session.add(season)
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


def _play(session: Session, organizer: User, match_id: int, hanchans: tuple[tuple[int, ...], ...]) -> None:
    """Hanchans entered through the results service as the organizer would, points in seat order."""
    seated = session.exec(select(Seat.player_id).where(Seat.match_id == match_id).order_by(col(Seat.seed))).all()
    for points in hanchans:
        entry = Entry(tuple(TableResult(p, x) for p, x in zip(seated, points, strict=True)), 0)
        enter_hanchan(session, organizer, match_id, entry, now=utc_now(), reason=factories.UNBOOKED)


def _play_regular(session: Session, season: Season, organizer: User) -> None:
    """One tour of the regular stage, both tables played in seat order (table 2 a little lower at the top)."""
    stage = session.exec(select(Stage).where(Stage.season_id == season.id, Stage.kind == StageKind.REGULAR)).one()
    tour = Round(stage_id=stage.id, code="1")
    session.add(tour)
    session.flush()
    players = session.exec(
        select(Player).where(Player.season_id == season.id).order_by(col(Player.registration_order))
    ).all()
    for table, points in enumerate((IN_ORDER, (44_000, 34_000, 26_000, 16_000))):
        match = Match(round_id=tour.id, table=str(table + 1), status=MatchStatus.PLAYING)
        session.add(match)
        session.flush()
        for seed, player in enumerate(players[4 * table : 4 * table + 4], start=1):
            session.add(Seat(match_id=match.id, player_id=player.id, seed=seed))
        session.flush()
        _play(session, organizer, match.id, (points,) * match.planned_hanchans)


def _play_playoff(session: Session, season: Season, organizer: User) -> None:
    """Every playoff table in seat order, round after round, until the final has its places."""
    for _ in range(6):
        view = playoff.load_bracket(session, season)
        if view.bracket.final_places:
            return
        for table in view.bracket.tables:
            if table.match_id is not None and not table.complete:
                match = session.get(Match, table.match_id)
                left = match.planned_hanchans - len(results.effective(session, match.id))
                _play(session, organizer, match.id, (IN_ORDER,) * left)
        playoff.advance_playoff(session, season)
    raise AssertionError("the playoff did not reach its final places")


def _bracket(app: App, season_id: int) -> tuple[dict[str, int], dict[int, str]]:
    """The playoff's matches by round (1A…F) and the players' names by player id."""
    engine = app.engine()
    with session_scope(engine) as session:
        view = playoff.load_bracket(session, session.get(Season, season_id))
        match_ids, names = dict(view.match_ids), {int(p): n for p, n in view.names.items()}
    engine.dispose()
    return match_ids, names


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
            enter_hanchan(session, organizer, match.id, Entry(lines, 0), now=now, reason=factories.UNBOOKED)
        ordered = [players[ROSTER[4]].id, players[ROSTER[0]].id]
    engine.dispose()
    form = {"pos_1": str(ordered[0]), "pos_2": str(ordered[1]), "reason": "Жребий при свидетелях", KEY_FIELD: new_key()}
    return "/standings", {"form": form}


# --- full-season: /seasons/manage and /playoff (issue 24 item 2) ------------------------------------------------


def _season_with_a_predecessor(app: App) -> tuple[str, dict]:
    """An empty current season after one of eight players: «Перенести состав» has someone to copy."""
    fresh_season(app, "open")
    engine = app.engine()
    with session_scope(engine) as session:
        organizer = session.exec(select(User).where(User.display_name == ORGANIZER)).one()
        seasons.create_season(session, f"Сезон {uuid.uuid4().hex[:8]}", actor_user_id=organizer.id)
    engine.dispose()
    return "/seasons/manage", {"form": {KEY_FIELD: new_key()}}


def _new_players_only(app: App, count: int) -> None:
    """A new current season of `count` new players whose issued passwords were never used (the eight of
    `fresh_season` keep theirs: a test may still log in with them)."""
    fresh_season(app, "open")
    engine = app.engine()
    with session_scope(engine) as session:
        organizer = session.exec(select(User).where(User.display_name == ORGANIZER)).one()
        season = seasons.create_season(session, f"Сезон {uuid.uuid4().hex[:8]}", actor_user_id=organizer.id)
        for _ in range(count):
            name = f"Новичок {uuid.uuid4().hex[:6].translate(LETTERS)}"
            roster.add_player(session, season, name, actor_user_id=organizer.id)
    engine.dispose()


def _season_with_an_unused_password(app: App) -> tuple[str, dict]:
    """«Выдать заново» has one password to replace."""
    _new_players_only(app, 1)
    return "/seasons/manage", {"form": {KEY_FIELD: new_key()}}


def _tie_order(app: App) -> tuple[str, dict]:
    season_id = fresh_season(app, "playoff")
    match_ids, names = _bracket(app, season_id)
    engine = app.engine()
    with session_scope(engine) as session:
        seated = session.exec(
            select(Seat.player_id).where(Seat.match_id == match_ids["1A"]).order_by(col(Seat.seed))
        ).all()
    engine.dispose()
    order = f"{names[seated[2]]}, {names[seated[1]]}"  # the tied 2nd and 3rd, the organizer's order
    return "/playoff", {"form": {"round": "1A", "order": order, "reason": "жребий", KEY_FIELD: new_key()}}


def _winds_of_round_one_b(app: App) -> tuple[str, dict]:
    match_ids, _ = _bracket(app, fresh_season(app, "playoff"))
    return "/playoff", {"match_id": str(match_ids["1B"]), "key": new_key()}


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
    # --- desk and ties on the guarded action (issue 24 item 2, issue 25 items 1–2) ---
    "TieState.decide": Scenario(ORGANIZER, _tied_season),
    # --- full-season ---
    "SeasonAdminState.create": Scenario(
        ORGANIZER,
        _in_fresh_season(
            "open",
            "/seasons/manage",
            lambda _id: {"form": {"name": f"Сезон {uuid.uuid4().hex[:8]}", "opens": "", "closes": ""}},
        ),
    ),
    "SeasonAdminState.set_dates": Scenario(
        ORGANIZER,
        _in_fresh_season(
            "open", "/seasons/manage", lambda _id: {"form": {"opens": "2031-01-10", "closes": "2031-02-01"}}
        ),
    ),
    "SeasonAdminState.copy_roster": Scenario(ORGANIZER, _season_with_a_predecessor),
    "SeasonAdminState.reissue_unused": Scenario(ORGANIZER, _season_with_an_unused_password),
    "SeasonAdminState.finish": Scenario(
        ORGANIZER, _in_fresh_season("final", "/seasons/manage", lambda _id: {"form": {}})
    ),
    "PlayoffState.confirm_close": Scenario(
        ORGANIZER,
        _in_fresh_season(
            "played", "/playoff", lambda _id: {"form": {"start": "2031-03-01T10:00", "end": "2031-03-08T22:00"}}
        ),
    ),
    "PlayoffState.save_window": Scenario(
        ORGANIZER,
        _in_fresh_season(
            "playoff",
            "/playoff",
            lambda _id: {"form": {"code": "2", "start": "2031-04-01T10:00", "end": "2031-04-08T22:00"}},
        ),
    ),
    "PlayoffState.decide_tie": Scenario(ORGANIZER, _tie_order),
    "PlayoffState.shuffle_winds": Scenario(ORGANIZER, _winds_of_round_one_b),
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
            assert (season.draw_approved_at is not None) == (stage == "final")
            view = playoff.load_bracket(session, season)
            assert view.started == (stage in ("playoff", "final"))
            assert not view.bracket.pending if stage == "played" else True  # the stage can be closed
            assert bool(view.bracket.final_places) == (stage == "final")
            if stage == "playoff":
                assert not view.bracket.table("1A").decided and "1B" in view.match_ids
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
def test_a_season_actions_answer_keeps_through_the_load_queued_behind_it(season_app: App, handler: str) -> None:
    answer_keeps_through_the_load(season_app, handler, SEASON_SCENARIOS[handler])


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


# --- full-season: the CSV import is an upload (POST /_upload), not a websocket event ------------------------------


def _post_csv(
    app: App, cookie: str, tab: str, handler: str, text: str, form: dict[str, str], answers: list[str] | None = None
) -> int:
    """The browser's upload of the selected file to the tab's handler, with the form's fields; the status (and
    the handler's answer, its deltas, appended to `answers`)."""
    address = urlsplit(app.url)
    boundary = f"discard{uuid.uuid4().hex}"
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="__reflex_event_args"\r\n\r\n'
        f"{json.dumps({'form': form} if form else {})}\r\n"
        f'--{boundary}\r\nContent-Disposition: form-data; name="files"; filename="roster.csv"\r\n'
        f"Content-Type: text/csv\r\n\r\n{text}\r\n--{boundary}--\r\n"
    ).encode()
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=60)
    headers = {
        "Content-Type": f"multipart/form-data; boundary={boundary}",
        "Content-Length": str(len(body)),
        "Reflex-Client-Token": tab,
        "Reflex-Event-Handler": handler,
        "Origin": app.url,
        **({"Cookie": cookie} if cookie else {}),
    }
    try:
        connection.request("POST", "/_upload", body=body, headers=headers)
        response = connection.getresponse()
        answer = response.read()  # the handler's deltas, streamed until it ends
        if answers is not None:
            answers.append(answer.decode(errors="replace"))
        return response.status
    finally:
        connection.close()


def _upload_as(app: App, name: str | None, text: str, key: str) -> list[int]:
    """As `name` (None: logged out), on /seasons/manage: «Проверить файл», then «Импортировать»; the statuses."""
    cookie, tab = _cookie_for(app, name), str(uuid.uuid4())
    raw = RawTab(app, tab, cookie)
    state = _event_name("SeasonAdminState.load").rsplit(".", 1)[0]
    raw.emit(f"{state}.load", {}, "/seasons/manage")
    raw.read(until=lambda frame: frame.startswith("42/_event"), seconds=15)
    statuses = [
        _post_csv(app, cookie, tab, f"{state}.check_csv", text, {}),
        _post_csv(app, cookie, tab, f"{state}.import_csv", text, {KEY_FIELD: key}),
    ]
    raw.close()
    return statuses


def test_only_the_organizer_imports_the_roster_file(season_app: App) -> None:
    """`import_csv` receives the file through the upload endpoint, so the websocket scenarios cannot send it:
    posted here as each role. A logged-out client and a player are turned away before the body is read (403,
    discard_app/http_guard.py); the judge may upload (a ruling's photos) but `guarded` refuses the import; the
    organizer's import adds the file's players, and the same form sent again adds no one."""
    fresh_season(season_app, "open")
    name = f"Импорт {uuid.uuid4().hex[:6].translate(LETTERS)}"
    text = f"{name};@contact;да\n"
    for caller in (None, PLAYERS[12], JUDGE):
        before = _snapshot(season_app)
        statuses = _upload_as(season_app, caller, text, new_key())
        assert _added(before, _snapshot(season_app)) == {}, f"the import as {caller or 'logged out'} changed data"
        assert statuses == ([403, 403] if caller != JUDGE else [200, 200]), statuses
    key = new_key()
    before = _snapshot(season_app)
    assert _upload_as(season_app, ORGANIZER, text, key) == [200, 200]
    once = _added(before, _snapshot(season_app))
    assert once.get("player") == 1, once
    before = _snapshot(season_app)
    _upload_as(season_app, ORGANIZER, text, key)  # another tab, the same form's key: performed once
    assert _added(before, _snapshot(season_app)) == {}


# --- full-season: finishing the season and issuing passwords again ask first (issue 25) ---------------------------


def test_finishing_the_season_asks_first_naming_what_follows(page: Page, season_app: App) -> None:
    """Issue 25 item 4: «Завершить сезон» names the season, its champion, that its results freeze and what comes
    next; «Отмена» changes nothing; confirmed, the season is finished."""
    season_id = fresh_season(season_app, "final")
    _, names = _bracket(season_app, season_id)
    engine = season_app.engine()
    with session_scope(engine) as session:
        champion = names[int(playoff.load_bracket(session, session.get(Season, season_id)).bracket.final_places[0])]
    engine.dispose()
    login(page, season_app, ORGANIZER, path="/seasons/manage")
    button = page.get_by_role("button", name=texts.SEASON_FINISH)
    button.click()
    dialog = page.get_by_role("alertdialog")
    expect(dialog).to_contain_text(texts.SEASON_FINISH_CONFIRM_TITLE)
    expect(dialog).to_contain_text(f"чемпион — {champion}")
    expect(dialog).to_contain_text("будут заморожены")
    expect(dialog).to_contain_text("«Начать сезон»")  # what comes next
    dialog.get_by_role("button", name=texts.SEASON_FINISH_CANCEL).click()
    expect(dialog).to_have_count(0)
    assert _finished_at(season_app, season_id) is None  # asked, not done
    button.click()
    page.get_by_role("alertdialog").get_by_role("button", name=texts.SEASON_FINISH).click()
    expect(page.get_by_role("status").filter(has_text="завершён")).to_be_visible()
    assert _finished_at(season_app, season_id) is not None
    expect(page.get_by_role("button", name=texts.SEASON_FINISH)).to_have_count(0)


def _finished_at(app: App, season_id: int) -> object:
    engine = app.engine()
    with session_scope(engine) as session:
        finished = session.get(Season, season_id).finished_at
    engine.dispose()
    return finished


def test_issuing_passwords_again_asks_first_naming_how_many(page: Page, season_app: App) -> None:
    """Issue 25: «Выдать заново» names how many passwords it replaces; «Отмена» keeps the old ones."""
    _new_players_only(season_app, 3)
    login(page, season_app, ORGANIZER, path="/seasons/manage")
    before = _snapshot(season_app)
    page.get_by_role("button", name=texts.SEASON_REISSUE_BUTTON).click()
    dialog = page.get_by_role("alertdialog")
    expect(dialog).to_contain_text("Выдать заново 3 пароля?")
    expect(dialog).to_contain_text("У 3 игроков сезона")
    dialog.get_by_role("button", name=texts.SEASON_REISSUE_CANCEL).click()
    expect(dialog).to_have_count(0)
    assert _added(before, _snapshot(season_app)) == {}  # asked, not done
    page.get_by_role("button", name=texts.SEASON_REISSUE_BUTTON).click()
    with page.expect_download():
        page.get_by_role("alertdialog").get_by_role("button", name=texts.SEASON_REISSUE_CONFIRM, exact=True).click()
    expect(page.get_by_role("status").first).to_contain_text("Выданы новые пароли: 3.")


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


# --- h-proto: the playoff page's load reads only (issue 24 item 3) ------------------------------------------------


def test_opening_the_playoff_page_writes_nothing(season_app: App) -> None:
    """The bracket's page and its live tick read only: a hanchan of round 1B entered after its winds were drawn
    (Регламент §4) carries them from its entry, so the page has nothing left to copy; the next round's tables come
    with the result that completes the round (services/playoff/stage.advance_playoff), not with a page load."""
    import random

    from services.results import winds

    match_ids, _ = _bracket(season_app, fresh_season(season_app, "playoff"))
    engine = season_app.engine()
    with session_scope(engine) as session:
        organizer = session.exec(select(User).where(User.display_name == ORGANIZER)).one()
        winds.draw_winds(session, match_ids["1B"], 1, actor=organizer, rng=random.Random(7))
        _play(session, organizer, match_ids["1B"], (IN_ORDER,))
    engine.dispose()
    for caller in (ORGANIZER, JUDGE, PLAYERS[0]):
        before = _snapshot(season_app)
        tab = RawTab(season_app, str(uuid.uuid4()), _cookie_for(season_app, caller))
        tab.emit(_event_name("PlayoffState.load"), {}, "/playoff")
        tab.settle()  # the load and what it chains after (the live watch)
        tab.close()
        assert _added(before, _snapshot(season_app)) == {}, f"the playoff page's load as {caller} wrote"


# --- h-proto: the roster file's preview on the guarded helper (issue 24 item 4) -----------------------------------


def _preview_as(app: App, name: str, text: str) -> str:
    """As `name`, on /seasons/manage: «Проверить файл» only; the handler's answer."""
    cookie, tab = _cookie_for(app, name), str(uuid.uuid4())
    raw = RawTab(app, tab, cookie)
    state = _event_name("SeasonAdminState.load").rsplit(".", 1)[0]
    raw.emit(f"{state}.load", {}, "/seasons/manage")
    raw.read(until=lambda frame: frame.startswith("42/_event"), seconds=15)
    answers: list[str] = []
    assert _post_csv(app, cookie, tab, f"{state}.check_csv", text, {}, answers) == 200
    raw.close()
    return answers[0]


def _mentions(answer: str, name: str) -> bool:
    """The name in the handler's deltas, as typed or escaped once or twice by their JSON."""
    once = json.dumps(name)[1:-1]
    return any(form in answer for form in (name, once, json.dumps(once)[1:-1]))


def test_only_the_organizer_previews_the_roster_file(season_app: App) -> None:
    """`check_csv` reads only, on the guarded helper: the judge (who may upload, a ruling's photos) is refused
    before the file is read and sees none of it; the organizer sees the file's line; neither changes the data. (A
    logged-out client and a player are turned away at the upload: test_only_the_organizer_imports_the_roster_file.)"""
    assert _guarded()["SeasonAdminState.check_csv"] == (Role.ORGANIZER,)
    fresh_season(season_app, "open")
    name = f"Просмотр {uuid.uuid4().hex[:6].translate(LETTERS)}"
    text = f"{name};@contact;да\n"
    before = _snapshot(season_app)
    assert not _mentions(_preview_as(season_app, JUDGE, text), name)
    assert _mentions(_preview_as(season_app, ORGANIZER, text), name)
    assert _added(before, _snapshot(season_app)) == {}


# --- h-proto: a ruleset amendment is previewed before it is recorded (issue 24 item 2) ----------------------------


def _chombo(app: App, season_id: int) -> int:
    engine = app.engine()
    with session_scope(engine) as session:
        value = session.get(Season, season_id).chombo_penalty
    engine.dispose()
    return value


def test_an_amendment_shows_the_standings_before_and_after_and_records_only_when_applied(
    page: Page, season_app: App
) -> None:
    """Регламент §6.3, §7: after the season's first result a change of the rules is an amendment. «Показать, что
    изменится» (`preview_rules`, reading only) names the change and the standings now and after it, and records
    nothing; «Отменить» drops it; «Записать изменение» (the guarded `apply_rules`, the preview's key) records it."""
    season_id = fresh_season(season_app, "played")  # results entered: an amendment
    chombo = _chombo(season_app, season_id)
    login(page, season_app, ORGANIZER, path="/regulation")
    expect(page.get_by_text(texts.RULES_EDIT_AMENDMENT.split(":")[0]).first).to_be_visible()
    # Регламент §1, §6.1: the club's time zone is shown, never a field of the season's rules.
    expect(page.get_by_text(texts.RULES_CLUB_ZONE_VALUE.format(zone="Europe/Kirov"))).to_be_visible()
    expect(page.get_by_role("textbox", name=texts.RULES_CLUB_ZONE)).to_have_count(0)

    def preview() -> None:
        page.get_by_label(LABELS["chombo_penalty"], exact=True).fill(str(chombo + 10_000))
        before = _snapshot(season_app)
        page.get_by_role("button", name=texts.RULES_SHOW_CHANGE).click()
        expect(page.get_by_role("listitem").filter(has_text=f"{LABELS['chombo_penalty']}:")).to_be_visible()
        shift = page.get_by_role("region", name=texts.RULES_SHIFT)
        expect(shift).to_contain_text(ROSTER[0])  # the standings, player by player: now and after
        expect(shift).to_contain_text(texts.RULES_AFTER)
        assert _added(before, _snapshot(season_app)) == {}  # shown, not recorded
        assert _chombo(season_app, season_id) == chombo

    preview()
    page.get_by_role("button", name=texts.RULES_CANCEL).click()
    expect(page.get_by_role("region", name=texts.RULES_SHIFT)).to_have_count(0)
    assert _chombo(season_app, season_id) == chombo
    preview()
    page.get_by_label(texts.RULES_REASON).fill("Поправка: чомбо строже")
    page.get_by_role("button", name=texts.RULES_APPLY).click()
    expect(page.get_by_role("status").filter(has_text=texts.RULES_AMENDMENT_SAVED)).to_be_visible()
    assert _chombo(season_app, season_id) == chombo + 10_000


# --- h-once: the club's time zone is no season's rule (issue 24 item 4, Регламент §1, §6.1) ----------------------


def test_the_rules_event_refuses_a_changed_time_zone_and_changes_nothing(season_app: App) -> None:
    """The organizer's `apply_rules` naming another zone (with a number beside it) records nothing, the number
    included; the same form without the zone does change the season."""
    season_id = fresh_season(season_app, "open")
    chombo = _chombo(season_app, season_id) + 10_000
    form = {"chombo_penalty": str(chombo), "reason": ""}
    before = _snapshot(season_app)
    refused = {"form": {**form, "time_zone": "Europe/Moscow", KEY_FIELD: new_key()}}
    _send(season_app, ORGANIZER, _event_name("RulesState.apply_rules"), refused, "/regulation")
    assert _added(before, _snapshot(season_app)) == {}
    assert _chombo(season_app, season_id) == chombo - 10_000
    _send(
        season_app,
        ORGANIZER,
        _event_name("RulesState.apply_rules"),
        {"form": {**form, KEY_FIELD: new_key()}},
        "/regulation",
    )
    assert _chombo(season_app, season_id) == chombo


def test_the_closing_question_says_the_window_as_every_page_says_a_time(season_app: App) -> None:
    """Issue 45 item 5: the dialog before closing the regular stage showed «2027-02-01 00:00», the field's ISO."""
    path, payload = SEASON_SCENARIOS["PlayoffState.confirm_close"].build(season_app)
    tab = RawTab(season_app, str(uuid.uuid4()), _cookie_for(season_app, ORGANIZER))
    close = _event_name("PlayoffState.close_stage")
    tab.emit(close.rsplit(".", 1)[0] + ".load", {}, path)
    tab.read(until=lambda frame: frame.startswith("42/_event"), seconds=15)
    tab.emit(close, payload, path)
    frames = "".join(tab.read(until=lambda frame: "close_question" in frame, seconds=15))
    tab.close()
    assert "сб 01.03.2031 10:00 — сб 08.03.2031 22:00" in frames and "2031-03-01 10:00" not in frames
