"""The production topology: two backend workers on PostgreSQL and Redis behind one port. Browsers on one worker see
what browsers on the other worker change, live, and a booking race from both workers books the room once."""

from __future__ import annotations

import json
import pickle
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
import redis
from playwright.sync_api import Browser, Page, expect
from sqlmodel import col, select

from services.core.db import session_scope
from services.core.models import Booking, MatchStatus, Player, Role, Room, User, utc_now
from services.league.roster import current_season
from services.scheduling import availability, booking
from services.scheduling import organizer as scheduling_admin
from services.scheduling.intervals import Interval, at_kirov, kirov_date
from tests import factories
from tests.conftest import fresh_postgres_database
from tests.e2e.conftest import PLAYERS, App, login, running_app

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]

REDIS_URL = "redis://127.0.0.1:6379/11"  # a database of its own: the test empties it before and after
WORKERS = 2


def _redis() -> redis.Redis:
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.exceptions.ConnectionError:
        message = "!!! Redis на 127.0.0.1:6379 недоступен: тест нескольких процессов сайта пропущен !!!"
        print(f"\n{message}\n")
        pytest.skip(message)
    return client


@pytest.fixture(scope="module")
def store() -> Iterator[redis.Redis]:
    client = _redis()
    client.flushdb()
    yield client
    client.flushdb()
    client.close()


@pytest.fixture(scope="module")
def prod_app(store: redis.Redis, tmp_path_factory: pytest.TempPathFactory, frontend: Path) -> Iterator[App]:
    env = {"REFLEX_REDIS_URL": REDIS_URL, "GRANIAN_WORKERS": str(WORKERS)}
    with (
        fresh_postgres_database() as database_url,
        running_app(
            tmp_path_factory.mktemp("prod"), frontend=frontend, database_url=database_url, extra_env=env
        ) as app,
    ):
        yield app


def _worker(page: Page, store: redis.Redis) -> str:
    """Which backend worker holds this tab's websocket: Reflex records it in Redis under the tab's token."""
    token = page.evaluate("window.sessionStorage.getItem('token')")
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        record = store.get(f"token_manager_socket_record_{token}")
        if record is not None:
            return pickle.loads(record).instance_id
        time.sleep(0.2)
    raise AssertionError(f"no socket record for the tab {token}")


def _on_other_worker(page: Page, store: redis.Redis, other: str) -> str:
    """Reloads the page (a new websocket) until it lands on a worker other than `other`."""
    for _ in range(30):
        worker = _worker(page, store)
        if worker != other:
            return worker
        page.reload()
        page.wait_for_load_state("networkidle")
    raise AssertionError("every connection landed on the same worker: are there two?")


def _tab(browser: Browser, app: App, name: str, path: str) -> Page:
    page = browser.new_context(locale="ru-RU", timezone_id="Europe/Kirov").new_page()
    login(page, app, name, path=path)
    expect(page).to_have_url(re.compile("^" + re.escape(app.url + path) + "/?$"))
    page.wait_for_load_state("networkidle")
    return page


def _players(session, names) -> list[Player]:  # noqa: ANN001
    return [
        session.exec(select(Player).join(User, col(User.id) == Player.user_id).where(User.display_name == n)).one()
        for n in names
    ]


def test_the_health_check_sees_the_database_and_redis(prod_app: App) -> None:
    with urllib.request.urlopen(f"{prod_app.url}/_health", timeout=10) as response:
        assert json.loads(response.read()) == {"status": True, "db": True, "redis": True}
    discard = [str(Path(sys.executable).parent / "discard"), "health", "--url"]
    up = subprocess.run([*discard, prod_app.url], capture_output=True, text=True, timeout=30)
    assert up.returncode == 0 and "ok Redis" in up.stdout and "ok база данных" in up.stdout, up.stdout
    down = subprocess.run([*discard, "http://127.0.0.1:9"], capture_output=True, text=True, timeout=30)
    assert down.returncode == 1 and "!! сайт" in down.stdout


def test_a_result_entered_on_one_worker_reaches_standings_open_on_the_other(
    prod_app: App, store: redis.Redis, browser: Browser
) -> None:
    table = PLAYERS[0:4]
    engine = prod_app.engine()
    with session_scope(engine) as session:
        season = current_season(session)
        match_id = factories.match_in_own_stage(session, season, _players(session, table), MatchStatus.PLAYING).id
    engine.dispose()

    watcher = _tab(browser, prod_app, PLAYERS[8], "/standings")
    watcher_worker = _worker(watcher, store)
    row = watcher.get_by_role("row", name=table[0], exact=True)
    expect(row).to_be_visible()
    watcher.evaluate("window.__stillTheSamePage = true")

    entering = _tab(browser, prod_app, table[0], f"/match/{match_id}")
    entering_worker = _on_other_worker(entering, store, watcher_worker)
    assert entering_worker != watcher_worker
    for name, points in zip(table, ("40000", "30000", "30000", "20000"), strict=True):
        entering.get_by_label(f"Очки: {name}", exact=True).fill(points)
    entering.get_by_role("button", name="Сохранить результат").click()
    expect(entering.get_by_role("heading", name="Ханчан 1")).to_be_visible()

    expect(row).to_contain_text("+25 000", timeout=5_000)  # pushed through Redis to the other worker
    assert watcher.evaluate("window.__stillTheSamePage") is True
    watcher.context.close()
    entering.context.close()


def test_a_confirmation_on_one_worker_reaches_the_scheduling_page_open_on_the_other(
    prod_app: App, store: redis.Redis, browser: Browser
) -> None:
    """The fourth player confirms in a browser on one worker; the proposer's scheduling page, open on the other
    worker, shows the booking without a reload."""
    names = PLAYERS[0:4]
    first = kirov_date(utc_now()) + timedelta(days=1)
    day = first + timedelta(days=3)
    evening = Interval(at_kirov(day, 18), at_kirov(day, 23, 30))
    engine = prod_app.engine()
    with session_scope(engine) as session:
        window = Interval(at_kirov(first), at_kirov(first + timedelta(days=8)))
        match_id = factories.match_for_names(session, list(names), window, table="9").id
        users = [p.user_id for p in _players(session, names)]
        for user_id in users:
            availability.save_availability(
                session, match_id=match_id, user_id=user_id, intervals=[evening], now=utc_now()
            )
        proposal = booking.propose_meeting(
            session, match_id=match_id, user_id=users[0], start=evening.start,
            end=evening.start + timedelta(hours=4, minutes=30), hanchans=3, now=utc_now(),
        )  # fmt: skip
        for user_id in users[1:3]:
            booking.answer_meeting(session, confirmed=True, proposal_id=proposal.id, user_id=user_id, now=utc_now())
    engine.dispose()

    watcher = _tab(browser, prod_app, names[0], f"/match/{match_id}/schedule")
    expect(watcher.get_by_text("Пока не забронировано.")).to_be_visible()
    watcher.evaluate("window.__stillTheSamePage = true")
    confirming = _tab(browser, prod_app, names[3], f"/match/{match_id}/schedule")
    assert _on_other_worker(confirming, store, _worker(watcher, store)) != _worker(watcher, store)
    confirming.get_by_role("button", name="Подтвердить", exact=True).click()
    expect(confirming.get_by_role("status")).to_contain_text("помещение забронировано")
    expect(watcher.get_by_text("Забронировано: ").first).to_be_visible(timeout=5_000)
    expect(watcher.get_by_text("Подтвердили 4 из 4").first).to_be_visible()
    assert watcher.evaluate("window.__stillTheSamePage") is True
    watcher.context.close()
    confirming.context.close()


def test_the_last_confirmations_race_from_both_workers_and_the_room_is_booked_once(
    prod_app: App, store: redis.Redis, browser: Browser
) -> None:
    """Two matches want the club's only room at the same evening; each has three confirmations, and the fourth
    ones are pressed at once in browsers on different workers: one booking, the other player told why."""
    first = kirov_date(utc_now()) + timedelta(days=1)
    window = Interval(at_kirov(first), at_kirov(first + timedelta(days=8)))
    day = first + timedelta(days=1)
    evening = Interval(at_kirov(day, 18), at_kirov(day, 23, 30))
    tables = (PLAYERS[4:8], PLAYERS[12:16])
    engine = prod_app.engine()
    match_ids, proposal_ids = [], []
    with session_scope(engine) as session:
        # The rooms other tests of this app made (a begun meeting's) are taken that evening by another activity, so
        # the club's first room's one table is what the two matches race for.
        organizer = session.exec(select(User).where(User.role == Role.ORGANIZER)).first()
        assert organizer is not None
        for room in session.exec(select(Room).order_by(col(Room.id))).all()[1:]:
            scheduling_admin.book_activity(session, title="Другое занятие", start=evening.start, end=evening.end,
                                           actor_user_id=organizer.id, now=utc_now(), room_id=room.id)  # fmt: skip
        for n, names in enumerate(tables):
            match = factories.match_for_names(session, list(names), window, table=str(n + 1))
            users = [p.user_id for p in _players(session, names)]
            for user_id in users:
                availability.save_availability(
                    session, match_id=match.id, user_id=user_id, intervals=[evening], now=utc_now()
                )
            # The first proposal was made two days ago: the table it held is free again (the hold passed), so the
            # second match may propose the same evening and the two fourth confirmations meet at one table.
            proposed_at = utc_now() - timedelta(hours=49) if n == 0 else utc_now()
            proposal = booking.propose_meeting(
                session, match_id=match.id, user_id=users[0], start=evening.start,
                end=evening.start + timedelta(hours=4, minutes=30), hanchans=3, now=proposed_at,
            )  # fmt: skip
            for user_id in users[:3]:
                if not _confirmed(session, proposal.id, user_id):
                    booking.answer_meeting(
                        session, confirmed=True, proposal_id=proposal.id, user_id=user_id, now=utc_now()
                    )
            match_ids.append(match.id)
            proposal_ids.append(proposal.id)
    engine.dispose()

    pages = [
        _tab(browser, prod_app, names[3], f"/match/{mid}/schedule")
        for names, mid in zip(tables, match_ids, strict=True)
    ]
    first_worker = _worker(pages[0], store)
    _on_other_worker(pages[1], store, first_worker)
    buttons = [page.get_by_role("button", name="Подтвердить") for page in pages]
    for button in buttons:
        expect(button).to_be_enabled()
    for button in buttons:
        button.click(no_wait_after=True)
    statuses = [page.get_by_role("status").or_(page.get_by_role("alert")) for page in pages]
    for status in statuses:
        expect(status.first).to_contain_text(re.compile(r"забронировано|занято|занят|пересекается"))

    engine = prod_app.engine()
    with session_scope(engine) as session:
        bookings = session.exec(
            select(Booking).where(col(Booking.match_id).in_(match_ids), col(Booking.active).is_(True))
        ).all()
    engine.dispose()
    assert len(bookings) == 1, "the room was booked twice for one evening"
    texts = [status.first.inner_text() for status in statuses]
    assert sum("забронировано" in text for text in texts) == 1, texts
    for page in pages:
        page.context.close()


def _confirmed(session, proposal_id: int, user_id: int) -> bool:  # noqa: ANN001
    """The proposer may count as confirmed already (their own proposal)."""
    from services.core.models import ProposalConfirmation

    player = session.exec(select(Player).where(Player.user_id == user_id)).first()
    answer = session.exec(
        select(ProposalConfirmation).where(
            ProposalConfirmation.proposal_id == proposal_id, ProposalConfirmation.player_id == player.id
        )
    ).first()
    return answer is not None and answer.confirmed
