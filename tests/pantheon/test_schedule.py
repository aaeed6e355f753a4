"""`discard pantheon sync --every N`: the scheduled import without the bot, on the site's database."""

from __future__ import annotations

import pytest
from sqlmodel import Session

from services.commands.cli import main
from tests import factories
from tests.pantheon.fake_pantheon import FakePantheon
from tests.pantheon.test_sync import setup, standing, three_games


def test_cli_every_repeats_the_import_on_the_configured_database(
    session: Session,
    sqlite_url: str,
    pantheon: FakePantheon,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture,
) -> None:
    league = factories.league(session, players=4)
    setup(session, league, pantheon)
    pantheon.games = three_games()
    assert main(["pantheon", "sync", "--every", "0.001", "--runs", "2"], database_url=sqlite_url) == 0
    first, second = capsys.readouterr().out.strip().splitlines()
    assert "импортировано: 3" in first and "без изменений: 3" in second
    assert len(standing(session, league.match.id)) == 3


def test_cli_every_refuses_a_non_positive_period(
    session: Session, sqlite_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    factories.league(session, players=4)
    assert main(["pantheon", "sync", "--every", "0"], database_url=sqlite_url) == 2
    assert "положительное" in capsys.readouterr().err
