"""Unit tests of the pure draw (services.league.draw) and its CLI in --players mode; no database."""

from __future__ import annotations

import argparse
import json
from functools import partial
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.commands import draw as draw_command
from services.core.ruleset import DEFAULT
from services.league.draw import (
    Draw,
    DrawError,
    draw_tours,
    lower_bound,
    max_meetings,
    meeting_counts,
    repeat_meetings,
    repeats_report,
    swap_players,
    validate_draw,
)

ALL_N = list(range(8, 201, 4))
# The regulation's draw: four tours, a roster multiple of four (a season passes its own ruleset's numbers).
draw_2026 = partial(draw_tours, tours=DEFAULT.tours, multiple=DEFAULT.roster_multiple)
# Best known (and, by lower_bound, optimal): max meetings of a pair, total repeated meetings.
TARGETS = {8: (2, 24), 12: (2, 18)}

# Hand-made 8-player, 3-tour draw; its repeats were counted by hand.
HAND = (
    ((1, 2, 3, 4), (5, 6, 7, 8)),
    ((1, 2, 5, 6), (3, 4, 7, 8)),
    ((1, 2, 3, 5), (4, 6, 7, 8)),
)
HAND_REPEATS = [
    (1, 2, 3),
    (7, 8, 3),
    (1, 3, 2),
    (1, 5, 2),
    (2, 3, 2),
    (2, 5, 2),
    (3, 4, 2),
    (4, 7, 2),
    (4, 8, 2),
    (5, 6, 2),
    (6, 7, 2),
    (6, 8, 2),
]


def roster(n: int) -> list[int]:
    return list(range(1, n + 1))


def assert_valid(draw: Draw, players: list[int], tours: int = 4) -> None:
    assert len(draw.tours) == tours
    for tour in draw.tours:
        assert all(len(table) == 4 for table in tour)
        seated = [p for table in tour for p in table]
        assert sorted(seated) == sorted(players)


# --- validity and targets --------------------------------------------------------------


@pytest.mark.parametrize("n", ALL_N)
def test_draw_is_valid_and_reaches_target(n: int) -> None:
    players = roster(n)
    for seed in range(3):
        draw = draw_2026(players, seed=seed)
        assert_valid(draw, players)
        validate_draw(draw.tours, players, tours_count=4)
        expected = TARGETS.get(n, (1, 0))  # N >= 16: no pair meets twice
        assert (draw.max_meetings, draw.repeat_meetings) == expected, (n, seed)
        # the properties must agree with an independent count
        counts: dict[frozenset[int], int] = {}
        for tour in draw.tours:
            for table in tour:
                for a, b in combinations(table, 2):
                    counts[frozenset((a, b))] = counts.get(frozenset((a, b)), 0) + 1
        assert max(counts.values()) == expected[0]
        assert sum(c - 1 for c in counts.values()) == expected[1]


def test_lower_bound_matches_targets() -> None:
    assert lower_bound(8, 4) == (2, 24)
    assert lower_bound(12, 4) == (2, 18)
    assert all(lower_bound(n, 4) == (1, 0) for n in range(16, 201, 4))
    assert lower_bound(8, 1) == (1, 0)


def test_keeps_given_player_ids() -> None:
    players = [101, 7, 55, 3000, 42, 9, 18, 77, 5, 61, 13, 8]
    draw = draw_2026(players, seed=11)
    assert_valid(draw, players)
    assert (draw.max_meetings, draw.repeat_meetings) == (2, 18)
    # within a table, players keep the roster (registration) order
    rank = {p: k for k, p in enumerate(players)}
    for tour in draw.tours:
        for table in tour:
            assert list(table) == sorted(table, key=rank.__getitem__)


def test_other_tour_counts() -> None:
    draw = draw_2026(roster(16), tours=5, seed=2)  # the affine plane of order 4 has 5 parallel classes
    assert_valid(draw, roster(16), tours=5)
    assert draw.max_meetings == 1
    one = draw_2026(roster(8), tours=1, seed=2)
    assert_valid(one, roster(8), tours=1)
    assert (one.max_meetings, one.repeat_meetings) == (1, 0)


def test_n200_meets_nobody_twice() -> None:
    # how fast: bench/draw.py (a wall-clock bound here measured the run's load)
    draw = draw_2026(roster(200), seed=123)
    assert draw.repeat_meetings == 0


# --- seeds ------------------------------------------------------------------------------


def test_same_seed_same_draw() -> None:
    for n in (8, 12, 20, 100):
        assert draw_2026(roster(n), seed=42) == draw_2026(roster(n), seed=42)


def test_different_seeds_different_draws() -> None:
    for n in (8, 16, 100):
        draws = {draw_2026(roster(n), seed=s).tours for s in range(5)}
        assert len(draws) == 5


def test_no_seed_picks_and_stores_one() -> None:
    draw = draw_2026(roster(16))
    assert isinstance(draw.seed, int)
    assert draw_2026(roster(16), seed=draw.seed) == draw


# --- bad input --------------------------------------------------------------------------


@pytest.mark.parametrize("n", [0, 1, 4, 6, 10, 13, 198])
def test_bad_roster_size(n: int) -> None:
    with pytest.raises(DrawError, match="кратно четырём|не меньше восьми"):
        draw_2026(roster(n), seed=1)


def test_bad_roster_messages() -> None:
    with pytest.raises(DrawError, match="10 игроков: число должно быть кратно четырём"):
        draw_2026(roster(10))
    with pytest.raises(DrawError, match="4 игрока: для жеребьёвки нужно не меньше восьми"):
        draw_2026(roster(4))
    with pytest.raises(DrawError, match="повторяющиеся"):
        draw_2026([1, 2, 3, 4, 5, 6, 7, 7])
    with pytest.raises(DrawError, match="туров"):
        draw_2026(roster(8), tours=0)
    assert issubclass(DrawError, ValueError)


# --- analysis ---------------------------------------------------------------------------


def test_repeats_report_on_hand_made_draw() -> None:
    assert repeats_report(HAND) == HAND_REPEATS
    assert max_meetings(HAND) == 3
    assert repeat_meetings(HAND) == 2 * 2 + 10 * 1
    counts = meeting_counts(HAND)
    assert counts[(1, 2)] == 3
    assert counts[(4, 6)] == 1
    assert (3, 6) not in counts  # never at one table
    assert len(counts) == 3 * 2 * 6 - 14  # 36 seatings of a pair, 14 of them repeats


def test_no_repeats_report_is_empty() -> None:
    draw = draw_2026(roster(32), seed=5)
    assert draw.repeats == [] == repeats_report(draw.tours)


# --- swaps ------------------------------------------------------------------------------


def test_swap_moves_two_players_and_updates_report() -> None:
    swapped = swap_players(HAND, 2, 5, 8)
    assert swapped[2] == ((1, 2, 3, 8), (4, 6, 7, 5))
    assert swapped[:2] == HAND[:2]
    validate_draw(swapped, roster(8))
    report = repeats_report(swapped)
    assert (7, 8, 2) in report and (1, 5, 2) not in report


def test_swap_keeps_a_generated_draw_valid() -> None:
    draw = draw_2026(roster(16), seed=9)
    a, b = draw.tours[1][0][0], draw.tours[1][1][0]
    swapped = swap_players(draw.tours, 1, a, b)
    validate_draw(swapped, roster(16))
    assert swapped != draw.tours
    assert repeat_meetings(swapped) > 0  # the optimal draw can only get worse


@pytest.mark.parametrize(
    ("tour_index", "a", "b", "message"),
    [
        (0, 1, 2, "за одним столом"),
        (0, 1, 1, "два разных"),
        (0, 1, 9, "не играет"),
        (3, 1, 5, "Тура 4 нет"),
        (-1, 1, 5, "Тура 0 нет"),
    ],
)
def test_swap_errors(tour_index: int, a: int, b: int, message: str) -> None:
    with pytest.raises(DrawError, match=message):
        swap_players(HAND, tour_index, a, b)


def test_swap_refuses_a_tour_with_someone_seated_twice() -> None:
    broken = (((1, 2, 3, 4), (5, 6, 7, 1)),)
    with pytest.raises(DrawError, match="дважды"):
        swap_players(broken, 0, 2, 5)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.lists(st.tuples(st.integers(0, 3), st.integers(1, 20), st.integers(1, 20))))
def test_any_accepted_swap_keeps_draw_valid(seed: int, swaps: list[tuple[int, int, int]]) -> None:
    tours = draw_2026(roster(20), seed=seed).tours
    for t, a, b in swaps:
        try:
            tours = swap_players(tours, t, a, b)
        except DrawError:
            continue
        validate_draw(tours, roster(20), tours_count=4)


# --- validation -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tours", "message"),
    [
        ((((1, 2, 3, 4), (5, 6, 7, 8)), ((1, 2, 3, 4), (5, 6, 7, 1))), "Тур 2: игрок 1 посажен дважды"),
        ((((1, 2, 3, 4), (5, 6, 7, 8)), ((1, 2, 3, 4), (5, 6, 7))), "Тур 2, стол 2: 3 игрока"),
        ((((1, 2, 3, 4), (5, 6, 7, 8)), ((1, 2, 3, 4), (5, 6, 7, 9))), "игрок 9 не входит"),
        ((((1, 2, 3, 4), (5, 6, 7, 8)), ((1, 2, 3, 4),)), "Тур 2: не посажены игроки 5, 6, 7, 8"),
        ((), "нет ни одного тура"),
    ],
)
def test_validate_draw_errors(tours: tuple, message: str) -> None:
    with pytest.raises(DrawError, match=message):
        validate_draw(tours, roster(8))


def test_validate_draw_tour_count() -> None:
    validate_draw(HAND, roster(8), tours_count=3)
    with pytest.raises(DrawError, match="В жеребьёвке 3 тура, а должно быть 4"):
        validate_draw(HAND, roster(8), tours_count=4)


# --- command line -----------------------------------------------------------------------


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="discard")
    draw_command.register(parser.add_subparsers(dest="command", required=True))
    return parser


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    args = make_parser().parse_args(["draw", "--players", "16", "--seed", "1", "--json"])
    assert args.func(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"tours", "max_meetings", "repeat_meetings"}
    assert (out["max_meetings"], out["repeat_meetings"]) == (1, 0)
    assert len(out["tours"]) == 4
    for tour in out["tours"]:
        assert len(tour) == 4 and all(len(table) == 4 for table in tour)
        assert sorted(p for table in tour for p in table) == roster(16)
    assert out["tours"] == [[list(t) for t in tour] for tour in draw_2026(roster(16), seed=1).tours]


def test_cli_text_and_tours(capsys: pytest.CaptureFixture[str]) -> None:
    args = make_parser().parse_args(["draw", "--players", "8", "--tours", "2", "--seed", "3"])
    assert args.func(args) == 0
    out = capsys.readouterr().out
    assert "Тур 2" in out and "Тур 3" not in out and "Зерно: 3" in out


def test_cli_bad_n(capsys: pytest.CaptureFixture[str]) -> None:
    args = make_parser().parse_args(["draw", "--players", "10", "--json"])
    assert args.func(args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "кратно четырём" in captured.err


def test_cli_without_players_uses_season_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[argparse.Namespace] = []
    monkeypatch.setattr("services.commands.draw.run_season_draw", lambda args: seen.append(args) or 0)
    args = make_parser().parse_args(["draw", "--seed", "4"])
    assert args.func(args) == 0
    assert seen == [args]
