"""The Twirp client against the fake Pantheon: requests as documented, errors in Russian."""

from __future__ import annotations

import socket

import pytest

from services.pantheon.client import PantheonClient, PantheonError
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


def test_500_shows_the_status_not_the_cause(pantheon: FakePantheon) -> None:
    with PantheonClient(pantheon.url) as client, pytest.raises(PantheonError) as error:
        client.get_game_config(999)
    assert str(error.value) == "Pantheon ответил HTTP 500 на GetGameConfig."  # «event not found» is not repeated


def test_404_says_check_the_address(pantheon: FakePantheon) -> None:
    with PantheonClient(pantheon.url) as client, pytest.raises(PantheonError, match="404.*адрес"):
        client.call("NoSuchMethod", {})


def test_partial_answer_is_an_error(pantheon: FakePantheon) -> None:
    pantheon.fail_once[("GetLastGames", 0)] = (200, {"games": [{"players": [1, 2, 3, 4]}]})
    with PantheonClient(pantheon.url) as client, pytest.raises(PantheonError, match="Неполный.*sessionHash"):
        client.get_last_games(EVENT)


def test_not_json_is_an_error(pantheon: FakePantheon) -> None:
    pantheon.fail_once[("GetGameConfig", None)] = (200, b"<html>oops</html>")
    with PantheonClient(pantheon.url) as client, pytest.raises(PantheonError, match="не JSON"):
        client.get_game_config(EVENT)


def test_network_failure_is_a_clear_error() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with PantheonClient(f"http://127.0.0.1:{port}") as client, pytest.raises(PantheonError) as refused:
        client.get_game_config(EVENT)
    # Russian, naming the address; never the library's class name (ConnectError).
    assert str(refused.value) == (
        f"Сервер Pantheon недоступен по адресу http://127.0.0.1:{port}: проверьте адрес API и сеть."
    )
