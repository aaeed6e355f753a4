"""The Pantheon import on a real database against the fake Pantheon server."""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa
from sqlmodel import Session, col, select

from services.core.models import AuditRecord, Hanchan, HanchanResult, PantheonGame, Role
from services.pantheon import event
from services.pantheon.client import NOT_PANTHEON, PantheonClient
from services.pantheon.placement import CHANGED_REASON
from services.pantheon.sync import SyncError, SyncSummary, run_sync
from services.results import repo as results_repo
from services.results import scoring
from tests import factories
from tests.factories import PLAYED
from tests.pantheon.fake_pantheon import EVENT, FakePantheon, make_game

SEATS = [101, 102, 103, 104]


def h(n: int) -> str:
    return f"{n:040x}"


@pytest.fixture
def league(session: Session) -> factories.League:
    lg = factories.league(session, players=8)
    factories.match(session, lg.rounds[1], lg.players[4:8], table="2")
    session.commit()
    return lg


def setup(session: Session, lg: factories.League, fake: FakePantheon, persons: list[int] = SEATS) -> None:
    event.save_settings(session, lg.organizer, lg.season.id, api_url=fake.url, event_id=str(EVENT), now=PLAYED)
    for person, player in zip(persons, lg.players, strict=False):
        event.map_player(session, lg.organizer, lg.season.id, person, player.id, f"Person {person}")
    session.commit()


def sync(lg: factories.League, engine: sa.Engine, fake: FakePantheon, **kw) -> SyncSummary:  # noqa: ANN003
    with PantheonClient(fake.url) as client:
        return run_sync(lg.season.id, lg.organizer.id, client=client, bind=engine, **kw)


def three_games() -> list[dict]:
    return [
        make_game(h(1), "2026-11-20 18:00:00", SEATS, [40_000, 30_000, 26_000, 24_000]),
        make_game(h(2), "2026-11-20 19:40:00", [103, 101, 104, 102], [35_000, 35_000, 24_000, 23_000], sticks=3),
        make_game(
            h(3),
            "2026-11-20 21:20:00",
            [102, 104, 101, 103],
            [50_000, 30_000, 20_000, 18_000],
            sticks=2,
            chombo={104: 1},
        ),
    ]


def standing(session: Session, match_id: int) -> list[Hanchan]:
    session.expire_all()
    return list(
        session.exec(
            select(Hanchan)
            .where(Hanchan.match_id == match_id, col(Hanchan.superseded_by_id).is_(None))
            .order_by(col(Hanchan.number))
        )
    )


def points(session: Session, hanchan: Hanchan) -> dict[int, tuple[int, int]]:
    rows = session.exec(select(HanchanResult).where(HanchanResult.hanchan_id == hanchan.id)).all()
    return {r.player_id: (r.points, r.chombo) for r in rows}


def counts(engine: sa.Engine) -> tuple[int, int, int]:
    with Session(engine) as s:
        return tuple(s.exec(select(sa.func.count()).select_from(t)).one() for t in (Hanchan, AuditRecord, PantheonGame))


def test_first_import_places_every_game_and_the_second_changes_nothing(
    session: Session, engine: sa.Engine, league: factories.League, pantheon: FakePantheon
) -> None:
    setup(session, league, pantheon)
    pantheon.games = three_games()
    seen: list[int] = []
    summary = sync(league, engine, pantheon, progress=lambda s: seen.append(s.read))
    assert (summary.read, summary.imported, summary.updated, summary.unchanged, summary.pending) == (3, 3, 0, 0, 0)
    assert summary.error is None and seen[:3] == [1, 2, 3]
    p = {person: league.players[i].id for i, person in enumerate(SEATS)}
    hanchans = standing(session, league.match.id)
    assert [x.pantheon_hash for x in hanchans] == [h(1), h(2), h(3)]
    assert [x.number for x in hanchans] == [1, 2, 3]
    assert hanchans[1].winds == ",".join(str(p[x]) for x in [103, 101, 104, 102])
    # The two-way tie for first with 3 sticks left: the table points, Pantheon's award removed.
    assert points(session, hanchans[1]) == {
        p[103]: (35_000, 0),
        p[101]: (35_000, 0),
        p[104]: (24_000, 0),
        p[102]: (23_000, 0),
    }
    assert hanchans[1].riichi_left == 3 and hanchans[2].riichi_left == 2
    assert points(session, hanchans[2])[p[104]] == (30_000, 1)
    for x in hanchans:
        assert sum(pt for pt, _ in points(session, x).values()) + 1000 * x.riichi_left == 4 * 30_000
    # The league's own scoring then splits the sticks and the uma of the shared first place.
    season, scores = results_repo.season_scores(session, league.season.id)
    line = {ln.player: ln for ln in scores[0].lines}
    assert line[p[103]].places[1] == line[p[101]].places[1] == scoring.Fraction(3, 2)
    assert line[p[103]].hanchans[1] == 35_000 - 30_000 + 10_000 + 1_500
    assert line[p[104]].hanchans[2] == 30_000 - 30_000 + 5_000 - 40_000
    assert scores[0].complete

    before = counts(engine)
    again = sync(league, engine, pantheon)
    assert (again.read, again.imported, again.updated, again.unchanged, again.pending) == (3, 0, 0, 3, 0)
    assert counts(engine) == before


def test_reopened_game_replaces_its_version_through_a_correction(
    session: Session, engine: sa.Engine, league: factories.League, pantheon: FakePantheon
) -> None:
    setup(session, league, pantheon)
    pantheon.games = three_games()
    sync(league, engine, pantheon)
    original = standing(session, league.match.id)[1]
    # Reopened and finished again under the same hash, later and with other points.
    pantheon.games[1] = make_game(
        h(2), "2026-11-20 22:30:00", [103, 101, 104, 102], [36_000, 34_000, 24_000, 23_000], sticks=3
    )
    summary = sync(league, engine, pantheon)
    assert (summary.updated, summary.unchanged, summary.imported) == (1, 2, 0)
    hanchans = standing(session, league.match.id)
    assert [x.pantheon_hash for x in hanchans] == [h(1), h(3), h(2)]  # renumbered by the new end time
    session.refresh(original)
    assert original.superseded_by_id == hanchans[2].id
    assert sorted(pt for pt, _ in points(session, hanchans[2]).values()) == [23_000, 24_000, 34_000, 36_000]
    correction = session.exec(select(AuditRecord).where(AuditRecord.action == "hanchan.correct")).one()
    assert correction.reason == CHANGED_REASON
    assert json.loads(correction.before)["hanchan_id"] == original.id
    assert sync(league, engine, pantheon).updated == 0


def test_a_500_on_page_two_keeps_page_one_and_the_rerun_completes(
    session: Session, engine: sa.Engine, league: factories.League, pantheon: FakePantheon
) -> None:
    setup(session, league, pantheon)
    pantheon.games = three_games()
    pantheon.fail_once[("GetLastGames", 2)] = (500, {"code": "internal", "msg": "x", "meta": {"cause": "db is down"}})
    failed = sync(league, engine, pantheon, page_size=2)
    assert failed.error and "Pantheon не ответил как Pantheon" in failed.error and "db is down" not in failed.error
    assert failed.imported == 2
    assert [x.pantheon_hash for x in standing(session, league.match.id)] == [h(2), h(3)]
    rerun = sync(league, engine, pantheon, page_size=2)
    assert rerun.error is None and rerun.imported == 1 and rerun.unchanged == 2
    hanchans = standing(session, league.match.id)
    assert [(x.number, x.pantheon_hash) for x in hanchans] == [(1, h(1)), (2, h(2)), (3, h(3))]
    offsets = [b["offset"] for m, b in pantheon.calls if m == "GetLastGames"]
    assert offsets == [0, 2, 0, 2]


def test_games_that_cannot_be_placed_go_to_the_organizers_list(
    session: Session, engine: sa.Engine, league: factories.League, pantheon: FakePantheon
) -> None:
    setup(session, league, pantheon, persons=[101, 102, 103, 104, 105, 106, 107, 108])
    pts = [40_000, 30_000, 26_000, 24_000]
    pantheon.games = [
        *three_games(),
        make_game(h(4), "2026-11-21 18:00:00", SEATS, pts),  # a fourth hanchan
        make_game(h(5), "2026-11-21 18:00:00", [101, 102, 103, 999], pts),  # unknown player
        make_game(h(6), "2026-11-21 19:00:00", [101, 102, 105, 106], pts),  # no such match
        make_game(h(7), "2026-11-21 20:00:00", [105, 106, 107, 108], pts),  # tour 2 match, played in tour 1's window
    ]
    pantheon.titles = {999: "Незнакомец"}
    summary = sync(league, engine, pantheon)
    assert (summary.read, summary.imported, summary.pending) == (7, 3, 4)
    reasons = {
        g.session_hash: g.reason for g in session.exec(select(PantheonGame).where(PantheonGame.status == "pending"))
    }
    assert "лишний ханчан" in reasons[h(4)]
    assert "Неизвестный игрок Pantheon: «Незнакомец» (id 999)" in reasons[h(5)]
    assert "Нет матча" in reasons[h(6)]
    assert "вне игрового окна" in reasons[h(7)]
    rows = {r.session_hash: r for r in event.decision_rows(session, league.season.id)}
    assert len(rows) == 4

    # The organizer assigns the out-of-window game by hand and ignores the others, with a record.
    second = [m for m in session.exec(select(factories.Match)) if m.table == "2"][0]
    event.assign_game(session, league.organizer, league.season.id, rows[h(7)].id, second.id, now=PLAYED)
    event.ignore_game(session, league.organizer, league.season.id, rows[h(6)].id, "тренировочная игра", now=PLAYED)
    session.commit()
    assert [x.pantheon_hash for x in standing(session, second.id)] == [h(7)]
    with pytest.raises(event.SetupError, match="уже принято"):
        event.ignore_game(session, league.organizer, league.season.id, rows[h(6)].id, now=PLAYED)
    with pytest.raises(event.SetupError, match="Неизвестный игрок"):
        event.assign_game(session, league.organizer, league.season.id, rows[h(5)].id, league.match.id, now=PLAYED)
    session.rollback()
    actions = [a.action for a in session.exec(select(AuditRecord).order_by(col(AuditRecord.id)))]
    assert "pantheon.assign" in actions and "pantheon.ignore" in actions
    player = factories.user(session, role=Role.PLAYER)
    with pytest.raises(event.SetupError, match="только организатор"):
        event.ignore_game(session, player, league.season.id, rows[h(4)].id, now=PLAYED)
    session.rollback()

    again = sync(league, engine, pantheon)
    # The whole season is read again; nothing changed in Pantheon, so nothing changes here.
    assert (again.read, again.imported, again.updated, again.unchanged, again.pending) == (7, 0, 0, 5, 2)
    assert {g.session_hash: g.status for g in session.exec(select(PantheonGame))}[h(6)] == "ignored"


def test_mapping_a_player_later_places_the_waiting_game(
    session: Session, engine: sa.Engine, league: factories.League, pantheon: FakePantheon
) -> None:
    setup(session, league, pantheon, persons=[101, 102, 103])
    pantheon.games = [make_game(h(1), "2026-11-20 18:00:00", SEATS, [40_000, 30_000, 26_000, 24_000])]
    assert sync(league, engine, pantheon).pending == 1
    event.map_player(session, league.organizer, league.season.id, 104, league.players[3].id, "Person 104")
    session.commit()
    summary = sync(league, engine, pantheon)
    assert (summary.imported, summary.pending) == (1, 0)
    assert len(standing(session, league.match.id)) == 1


def test_only_the_organizer_imports_and_settings_are_checked(
    session: Session, engine: sa.Engine, league: factories.League, pantheon: FakePantheon
) -> None:
    with pytest.raises(SyncError, match="адрес API"):
        sync(league, engine, pantheon)
    with pytest.raises(event.SetupError, match="http.*номер события"):
        event.save_settings(session, league.organizer, league.season.id, api_url="ftp://x", event_id="abc", now=PLAYED)
    session.rollback()
    event.save_settings(
        session,
        league.organizer,
        league.season.id,
        api_url=pantheon.url,
        event_id="42",
        admin_token="s3cret",
        now=PLAYED,
    )
    session.commit()
    assert "s3cret" not in (
        session.exec(select(AuditRecord).where(AuditRecord.action == "pantheon.settings")).one().after
    )
    with pytest.raises(SyncError, match="организатор"):
        run_sync(league.season.id, league.users[0].id, bind=engine)
    pantheon.fail_once[("GetGameConfig", None)] = (404, {"code": "not_found", "msg": "no", "meta": {}})
    summary = sync(league, engine, pantheon)
    assert summary.error == NOT_PANTHEON and "404" not in summary.error and summary.read == 0


def test_cli_sync_prints_the_summary(
    session: Session,
    sqlite_url: str,
    league: factories.League,
    pantheon: FakePantheon,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture,
) -> None:
    from services.commands.cli import main

    setup(session, league, pantheon)
    pantheon.games = three_games()
    assert main(["pantheon", "sync", "--season", str(league.season.id)], database_url=sqlite_url) == 0
    assert "импортировано: 3" in capsys.readouterr().out
    pantheon.fail_once[("GetLastGames", None)] = (500, {"code": "internal", "meta": {"cause": "no rights"}})
    assert main(["pantheon", "sync", "--season", str(league.season.id)], database_url=sqlite_url) == 1
    assert "Pantheon не ответил как Pantheon" in capsys.readouterr().out
    assert len(standing(session, league.match.id)) == 3


def test_the_scheduled_import_runs_until_stopped(
    session: Session, engine: sa.Engine, league: factories.League, pantheon: FakePantheon
) -> None:
    import threading
    from datetime import timedelta

    from services.pantheon.schedule import run_sync_periodically

    setup(session, league, pantheon)
    pantheon.games = three_games()[:1]
    summaries: list[SyncSummary] = []
    stop = threading.Event()

    def collect(summary: SyncSummary) -> None:
        summaries.append(summary)
        if len(summaries) == 1:
            pantheon.games = three_games()  # two more games finish between the runs
        if len(summaries) == 2:
            stop.set()

    worker = threading.Thread(
        target=run_sync_periodically,
        args=(league.season.id, league.organizer.id),
        kwargs={"every": timedelta(milliseconds=50), "stop": stop, "bind": engine, "on_summary": collect},
    )
    worker.start()
    worker.join(timeout=30)
    assert not worker.is_alive()
    assert [s.imported for s in summaries] == [1, 2]
    assert len(standing(session, league.match.id)) == 3


def test_mapping_rows_suggest_by_name_and_list_unmapped_first(
    session: Session, league: factories.League, pantheon: FakePantheon
) -> None:
    from services.pantheon.games import PlayerInfo

    players = [(league.players[0].id, "Алиса Иванова"), (league.players[1].id, "Борис Петров")]
    registered = [PlayerInfo(1, "Ivanova Alisa"), PlayerInfo(2, "Boris Petrov"), PlayerInfo(3, "Chen Wei")]
    event.map_player(session, league.organizer, league.season.id, 2, league.players[1].id, "Boris Petrov")
    rows = event.mapping_rows(session, league.season.id, registered, players)
    assert [(r.person_id, r.player_id, r.suggested_player_id) for r in rows] == [
        (3, None, None),
        (1, None, league.players[0].id),
        (2, league.players[1].id, None),
    ]
    with pytest.raises(event.SetupError, match="не участвует"):
        event.map_player(session, league.organizer, league.season.id, 3, 10_000)


def test_a_rescored_game_that_ended_long_before_the_newest_is_followed(
    session: Session, engine: sa.Engine, league: factories.League, pantheon: FakePantheon
) -> None:
    setup(session, league, pantheon)
    later = make_game(h(9), "2026-11-27 18:00:00", [201, 202, 203, 204], [40_000, 30_000, 26_000, 24_000])
    pantheon.games = [*three_games(), later]  # a game days later (unmapped players: it waits on the list)
    sync(league, engine, pantheon, page_size=2)
    # Re-scored in Pantheon, same end time, a week before the newest game.
    pantheon.games[0] = make_game(h(1), "2026-11-20 18:00:00", SEATS, [41_000, 29_000, 26_000, 24_000])
    summary = sync(league, engine, pantheon, page_size=2)
    assert (summary.updated, summary.unchanged) == (1, 2)
    first = standing(session, league.match.id)[0]
    assert first.pantheon_hash == h(1) and sorted(pt for pt, _ in points(session, first).values())[-1] == 41_000


def test_a_second_import_while_one_runs_says_so_and_changes_nothing(
    session: Session, engine: sa.Engine, sqlite_url: str, league: factories.League, pantheon: FakePantheon
) -> None:
    import subprocess
    import sys
    import threading
    from pathlib import Path

    setup(session, league, pantheon)
    pantheon.games = three_games()
    paused, resume, outcomes = threading.Event(), threading.Event(), []

    def pause_after_the_first_game(summary: SyncSummary) -> None:
        if summary.read == 1 and not paused.is_set():
            paused.set()
            resume.wait(60)

    first = threading.Thread(
        target=lambda: outcomes.append(sync(league, engine, pantheon, progress=pause_after_the_first_game))
    )
    first.start()
    try:
        assert paused.wait(30)
        with pytest.raises(SyncError, match="Импорт из Pantheon уже идёт"):  # another thread of the site
            sync(league, engine, pantheon)
        other = subprocess.run(  # another process: the command line while the bot's import runs
            [sys.executable, "-m", "services.commands.cli", "pantheon", "sync", "--season", str(league.season.id)],
            cwd=Path(__file__).resolve().parents[2],
            env={**__import__("os").environ, "DATABASE_URL": sqlite_url},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert other.returncode == 2 and "Импорт из Pantheon уже идёт" in other.stderr, other.stderr
        assert "Traceback" not in other.stderr
    finally:
        resume.set()
        first.join(60)
    (done,) = outcomes
    assert (done.imported, done.error) == (3, None)
    assert sync(league, engine, pantheon).unchanged == 3  # the lease is released: the next import runs
