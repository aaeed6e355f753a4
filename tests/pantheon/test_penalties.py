"""Pantheon's event penalties (admin-only ListPenalties) imported as league conduct penalties, once."""

from __future__ import annotations

import logging

import pytest
import sqlalchemy as sa
from sqlmodel import Session, col, select

from services.core.models import PantheonGame, Penalty
from services.pantheon import event
from services.pantheon.placement import IGNORED, IMPORTED, PENDING
from services.pantheon.sync import run_sync
from services.results import penalties as league_penalties
from tests import factories
from tests.factories import PLAYED
from tests.pantheon.fake_pantheon import EVENT, FakePantheon
from tests.pantheon.test_sync import SEATS, h, league, three_games  # noqa: F401 (league is a fixture)

PENALTIES = [
    {"id": 7, "who": 102, "amount": 5000, "reason": "Разговоры за столом", "sessionHash": h(2)},
    {"id": 8, "who": 104, "amount": 0, "reason": "Опоздание"},  # no game: amount 0 is left out by Twirp
    {"id": 9, "who": 101, "amount": 2000, "reason": "Подсказка", "sessionHash": h(99)},  # a game not imported
    {"id": 10, "who": 103, "amount": 3000, "reason": "Отменён", "sessionHash": h(1), "isCancelled": True},
]


def setup(session: Session, lg: factories.League, fake: FakePantheon, person: str, token: str) -> None:
    event.save_settings(
        session,
        lg.organizer,
        lg.season.id,
        api_url=fake.url,
        event_id=str(EVENT),
        admin_person_id=person,
        admin_token=token,
        now=PLAYED,
    )
    for p, player in zip(SEATS, lg.players, strict=False):
        event.map_player(session, lg.organizer, lg.season.id, p, player.id, f"Person {p}")
    session.commit()


def conduct(session: Session) -> list[Penalty]:
    session.expire_all()
    return list(session.exec(select(Penalty).where(Penalty.kind == league_penalties.CONDUCT).order_by(col(Penalty.id))))


def listed(session: Session, season_id: int) -> dict[str, PantheonGame]:
    session.expire_all()
    rows = session.exec(select(PantheonGame).where(PantheonGame.season_id == season_id))
    return {r.session_hash: r for r in rows if r.session_hash.startswith("penalty:")}


def test_penalties_are_recorded_once_and_unplaceable_ones_are_listed(
    session: Session,
    engine: sa.Engine,
    league: factories.League,  # noqa: F811
    pantheon: FakePantheon,
    caplog: pytest.LogCaptureFixture,
) -> None:
    pantheon.games, pantheon.penalties = three_games(), PENALTIES
    setup(session, league, pantheon, "1", "admin-secret")
    with caplog.at_level(logging.DEBUG):
        first = run_sync(league.season.id, league.organizer.id, bind=engine)
    assert first.error is None and first.imported == 3 and first.penalties == 1
    assert "Штрафов из Pantheon внесено: 1" in first.text()
    [penalty] = conduct(session)
    assert (penalty.match_id, penalty.player_id, penalty.points) == (league.match.id, league.players[1].id, -5000)
    assert "Разговоры за столом [Pantheon, штраф #7]" in penalty.reason
    assert penalty.decided_by_user_id == league.organizer.id
    rows = listed(session, league.season.id)
    assert rows["penalty:7"].status == IMPORTED and "penalty:10" not in rows
    assert rows["penalty:8"].status == PENDING and "не привязан к игре" in rows["penalty:8"].reason
    assert rows["penalty:9"].status == PENDING and "не внесена в матч" in rows["penalty:9"].reason
    assert first.pending == 2  # the two penalties wait on the organizer's list
    # The token travels only with ListPenalties and is never logged.
    sent = {m: hd for (m, _), hd in zip(pantheon.calls, pantheon.headers, strict=True)}
    assert sent["ListPenalties"]["X-Auth-Token"] == "admin-secret"
    assert sent["ListPenalties"]["X-Current-Person-Id"] == "1"
    assert "X-Auth-Token" not in sent["GetLastGames"]
    assert "admin-secret" not in caplog.text

    # A rerun adds nothing; a penalty the organizer skipped stays skipped.
    event.ignore_game(session, league.organizer, league.season.id, rows["penalty:9"].id, "решено на месте", now=PLAYED)
    session.commit()
    again = run_sync(league.season.id, league.organizer.id, bind=engine)
    assert again.error is None and again.penalties == 0 and again.pending == 1
    assert len(conduct(session)) == 1
    assert listed(session, league.season.id)["penalty:9"].status == IGNORED


def test_a_wrong_token_reports_the_failure_and_the_games_still_import(
    session: Session,
    engine: sa.Engine,
    league: factories.League,  # noqa: F811
    pantheon: FakePantheon,
) -> None:
    pantheon.games, pantheon.penalties = three_games(), PENALTIES
    setup(session, league, pantheon, "1", "wrong-token")
    summary = run_sync(league.season.id, league.organizer.id, bind=engine)
    assert summary.imported == 3 and summary.penalties == 0
    assert summary.error is not None
    assert summary.error.startswith("Штрафы из Pantheon не прочитаны")
    assert "Pantheon не ответил как Pantheon" in summary.error and "wrong-token" not in summary.error
    assert "no rights" not in summary.error  # what the other side wrote is not shown
    assert conduct(session) == [] and listed(session, league.season.id) == {}
