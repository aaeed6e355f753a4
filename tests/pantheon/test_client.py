"""The Twirp client against the fake Pantheon: requests as documented, errors in Russian."""

from __future__ import annotations

import socket

import pytest

from services.pantheon.client import NOT_PANTHEON, PantheonClient, PantheonError
from tests.pantheon.fake_pantheon import EVENT, FakePantheon, make_game


def test_last_games_always_send_order_and_read_left_out_defaults(pantheon: FakePantheon) -> None:
    pantheon.games = [make_game("a" * 40, "2026-11-20 20:00:00", [1, 2, 3, 4], [70_000, 30_000, 20_000, 0])]
    with PantheonClient(pantheon.url) as client:
        answer = client.get_last_games(EVENT, limit=10, offset=0)
    method, body = pantheon.calls[-1]
    assert method == "GetLastGames"
    assert body == {"eventIdList": [EVENT], "limit": 10, "offset": 0, "orderBy": "end_date", "order": "desc"}
    assert [r.score for r in answer.games[0].final_results] == [70_000, 30_000, 20_000, 0]
    assert answer.total == 1


def test_game_config_and_registered_players(pantheon: FakePantheon) -> None:
    pantheon.titles = {101: "Alice Ivanova", 102: "Bob Petrov"}
    with PantheonClient(pantheon.url + "/") as client:
        config = client.get_game_config(EVENT)
        players = client.get_registered_players(EVENT)
    assert (config.timezone, config.start_points, config.riichi_goes_to_winner) == ("Europe/Moscow", 30_000, True)
    assert config.extra_chombo_payments is False
    assert [(p.id, p.title) for p in players] == [(101, "Alice Ivanova"), (102, "Bob Petrov")]


def test_500_shows_neither_the_status_nor_the_cause(pantheon: FakePantheon, caplog: pytest.LogCaptureFixture) -> None:
    with PantheonClient(pantheon.url) as client, pytest.raises(PantheonError) as error:
        client.get_game_config(999)
    assert str(error.value) == NOT_PANTHEON  # «event not found» is not repeated, nor the status
    assert "HTTP 500" in error.value.detail and "HTTP 500" in caplog.text  # the operator's log keeps it


def test_404_is_the_same_message(pantheon: FakePantheon) -> None:
    with PantheonClient(pantheon.url) as client, pytest.raises(PantheonError) as error:
        client.call("NoSuchMethod", {})
    assert str(error.value) == NOT_PANTHEON and "HTTP 404" in error.value.detail


def test_partial_answer_is_the_same_message(pantheon: FakePantheon, caplog: pytest.LogCaptureFixture) -> None:
    pantheon.fail_once[("GetLastGames", 0)] = (200, {"games": [{"players": [1, 2, 3, 4]}]})
    with PantheonClient(pantheon.url) as client, pytest.raises(PantheonError) as error:
        client.get_last_games(EVENT)
    assert str(error.value) == NOT_PANTHEON
    assert "sessionHash" in caplog.text  # which field was missing: for the operator


def test_not_json_is_the_same_message(pantheon: FakePantheon) -> None:
    pantheon.fail_once[("GetGameConfig", None)] = (200, b"<html>oops</html>")
    with PantheonClient(pantheon.url) as client, pytest.raises(PantheonError) as error:
        client.get_game_config(EVENT)
    assert str(error.value) == NOT_PANTHEON and "not JSON" in error.value.detail


def test_network_failure_is_the_same_message(caplog: pytest.LogCaptureFixture) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with PantheonClient(f"http://127.0.0.1:{port}") as client, pytest.raises(PantheonError) as refused:
        client.get_game_config(EVENT)
    # Russian; never the library's class name (ConnectError), which only the log shows.
    assert str(refused.value) == NOT_PANTHEON
    assert "ConnectError" in caplog.text and "ConnectError" not in str(refused.value)
