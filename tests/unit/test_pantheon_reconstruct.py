"""Reconstructing table points from Pantheon's games: sticks, ties, chombo, winds, end time."""

from __future__ import annotations

from datetime import UTC, datetime
from fractions import Fraction

import pytest

from services.core.ruleset import DEFAULT
from services.pantheon.games import GameConfig, MalformedAnswer, parse_game, parse_game_config, parse_last_games
from services.pantheon.reconstruct import ReconstructError, reconstruct, stick_award, sticks_left
from services.results import scoring
from tests.pantheon.fake_pantheon import make_game, sample, strip_defaults

CONFIG = parse_game_config(sample("GetGameConfig"))


def table(game: dict, config: GameConfig = CONFIG):
    return reconstruct(parse_game(strip_defaults(game)), config, DEFAULT)


def test_sample_game_gives_the_table_points_sticks_chombo_and_winds() -> None:
    answer = parse_last_games(sample("GetLastGames"))
    game = reconstruct(answer.games[0], CONFIG, DEFAULT)
    overview = sample("GetSessionOverview")["state"]
    assert [(s.person_id, s.points) for s in game.seats] == [(s["playerId"], s["score"]) for s in overview["scores"]]
    assert game.riichi_left == overview["riichiCount"] == 2
    assert {s.person_id: s.chombo for s in game.seats} == {101: 0, 102: 0, 103: 0, 104: 1}
    assert sum(s.points for s in game.seats) + 1000 * game.riichi_left == 4 * 30_000
    assert [s.place for s in game.seats] == [1, 4, 3, 2]
    # 21:47 in Moscow (UTC+3) is 18:47 UTC.
    assert game.ended_at == datetime(2025, 3, 15, 18, 47, 12, tzinfo=UTC)
    assert answer.total == 57


def test_two_way_tie_for_first_with_sticks_left_shares_the_place() -> None:
    raw = make_game("a" * 40, "2026-11-20 20:00:00", [1, 2, 3, 4], [35_000, 35_000, 24_000, 23_000], sticks=3)
    assert [r["score"] for r in raw["finalResults"]][:2] == [36_500, 36_500]  # Pantheon: 100 × floor(30 / 2)
    assert [r["place"] for r in raw["finalResults"]][:2] == [1, 2]  # and seat order breaks the tie
    game = table(raw)
    assert [s.points for s in game.seats] == [35_000, 35_000, 24_000, 23_000]
    assert game.riichi_left == 3
    assert [s.place for s in game.seats] == [Fraction(3, 2), Fraction(3, 2), 3, 4]
    seats = tuple(scoring.TableResult(s.person_id, s.points) for s in game.seats)
    scores = scoring.score_hanchan(scoring.Hanchan(1, game.riichi_left, seats), DEFAULT)
    assert [s.riichi for s in scores] == [1500, 1500, 0, 0]


def test_three_way_tie_removes_the_floored_award() -> None:
    raw = make_game("b" * 40, "2026-11-20 20:00:00", [1, 2, 3, 4], [33_000, 33_000, 33_000, 20_000], sticks=1)
    assert raw["finalResults"][0]["score"] == 33_300
    game = table(raw)
    assert [s.points for s in game.seats] == [33_000, 33_000, 33_000, 20_000]
    assert game.riichi_left == 1


def test_without_riichi_goes_to_winner_the_score_is_the_table() -> None:
    config = GameConfig("Europe/Kirov", 30_000, False, False)
    raw = make_game(
        "c" * 40, "2026-11-20 20:00:00", [1, 2, 3, 4], [40_000, 30_000, 26_000, 22_000], sticks=2, goes_to_winner=False
    )
    game = table(raw, config)
    assert [s.points for s in game.seats] == [40_000, 30_000, 26_000, 22_000]
    assert game.riichi_left == 2


def test_zero_score_left_out_by_twirp_counts_as_zero() -> None:
    raw = make_game("d" * 40, "2026-11-20 20:00:00", [1, 2, 3, 4], [70_000, 30_000, 20_000, 0])
    stripped = strip_defaults(raw)
    assert "score" not in stripped["finalResults"][3]
    assert table(raw).seats[3].points == 0


@pytest.mark.parametrize(
    ("kinds", "expected"),
    [(["draw", "draw"], 2), (["draw", "ron"], 0), (["draw", "chombo"], 1), (["abort", "nagashi", "tsumo", "draw"], 1)],
)
def test_sticks_walk(kinds: list[str], expected: int) -> None:
    rounds = [{k: {"riichiBets": [1]} if k != "chombo" else {"loserId": 1}} for k in kinds]
    game = parse_game({"sessionHash": "e" * 40, "players": [1, 2, 3, 4], "rounds": rounds})
    assert sticks_left(game) == expected


def test_stick_award_formula() -> None:
    assert stick_award(2, 1) == 2000
    assert stick_award(1, 3) == 300
    assert stick_award(0, 2) == 0


def test_a_game_that_does_not_add_up_is_refused_in_russian() -> None:
    raw = make_game("f" * 40, "2026-11-20 20:00:00", [1, 2, 3, 4], [40_000, 30_000, 26_000, 22_000])
    raw["finalResults"][0]["score"] = 41_000
    with pytest.raises(ReconstructError, match="очки на столе"):
        table(raw)


def test_chombo_with_extra_payments_is_left_to_the_organizer() -> None:
    config = GameConfig("Europe/Moscow", 30_000, True, True)
    raw = make_game("9" * 40, "2026-11-20 20:00:00", [1, 2, 3, 4], [40_000, 30_000, 26_000, 24_000], chombo={2: 1})
    with pytest.raises(ReconstructError, match="вручную"):
        table(raw, config)


@pytest.mark.parametrize(
    "raw",
    [
        {"players": [1, 2, 3, 4]},
        {"sessionHash": "x", "players": "1,2"},
        {"sessionHash": "x", "rounds": [{"mystery": {}}]},
        {"sessionHash": "x", "finalResults": [{"score": 1}]},
    ],
)
def test_malformed_games_are_reported(raw: dict) -> None:
    with pytest.raises(MalformedAnswer):
        parse_game(raw)


def test_bad_date_and_time_zone() -> None:
    raw = make_game("8" * 40, "20.11.2026 20:00", [1, 2, 3, 4], [40_000, 30_000, 26_000, 24_000])
    with pytest.raises(ReconstructError, match="формате"):
        table(raw)
    with pytest.raises(ReconstructError, match="часовой пояс"):
        table({**raw, "date": "2026-11-20 20:00:00"}, GameConfig("Mars/Olympus", 30_000, True, False))


def test_names_match_across_alphabets_and_word_order() -> None:
    from services.pantheon.names import name_key

    assert name_key("Алиса Иванова") == name_key("Ivanova Alisa") == name_key("иванова  алиса")
    assert name_key("Юрий Щукин") == name_key("Yurii Schukin")
    assert name_key("Алиса Иванова") != name_key("Алиса Петрова")
