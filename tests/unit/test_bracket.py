"""The playoff bracket: seeding, every branch, ties, substitutes, winds (Регламент §1, §2, §4, §6.1)."""

from __future__ import annotations

import random
from fractions import Fraction as F

import pytest

from services.core.ruleset import DEFAULT
from services.playoff.bracket import (
    PRIZES,
    Seating,
    build_bracket,
    playoff_match,
    round_one,
    seed_players,
)
from services.results.scoring import Hanchan, Match, TableResult, score_match, shuffle_winds
from services.results.standings import Player, StandingsRow, compute_standings

TOP = DEFAULT.playoff_size  # the regulation's eight (Регламент §1, §2)
IN_ORDER = [45000, 35000, 25000, 15000]  # the seats finish in seat order
# Seats 2 and 3 (b, c) end level on −1 000; c's average place 7/3 beats b's 8/3: order a, c, b, d.
AVG_TIE = ([21000, 10000, 24000, 65000], [18000, 46000, 50000, 6000], [53000, 38000, 10000, 19000])
# Seats 2 and 3 end level on −3 000 with the same average place 5/2: unresolved, places 2–3.
FULL_TIE = ([45000, 32000, 25000, 18000], [45000, 25000, 32000, 18000], [30000] * 4)
SEEDS = tuple(range(1, 9))
NAMES = {p: f"Игрок {p}" for p in range(1, 30)}


def played(round_: str, seats: tuple, *points: list[int], hanchans: int | None = None) -> Seating:
    if not points:
        points = (IN_ORDER,) * (hanchans if hanchans is not None else (5 if round_ == "F" else 3))
    hs = [
        Hanchan(i + 1, 0, tuple(TableResult(p, x) for p, x in zip(seats, pts, strict=True)))
        for i, pts in enumerate(points)
    ]
    return Seating(round_, tuple(seats), playoff_match(f"m{round_}", round_, hs, rules=DEFAULT))


def bracket(*seatings: Seating, seeds=SEEDS, **kwargs):
    return build_bracket(seeds, seatings, names=NAMES, **kwargs)


# Round 1 by seat order: 1A (1,3,5,7) → 1, 3 upper; 1B (2,4,6,8) → 2, 4 upper.
ROUND_1 = (played("1A", (1, 3, 5, 7)), played("1B", (2, 4, 6, 8)))


def rows_with_places(*places: int) -> list[StandingsRow]:
    """Standings rows for players 1..n with these places; a repeated place is an unresolved tie."""
    counts = {p: places.count(p) for p in places}
    return [
        StandingsRow(place, pid, NAMES[pid], 100 - place, 4, 12, F(2), counts[place] > 1)
        for pid, place in enumerate(places, start=1)
    ]


def test_seeding_takes_the_top_eight_main_participants_and_splits_the_tables() -> None:
    # Регламент §6.1: substitute 3 wins his regular match but is not in the standings, so not seeded.
    roster = [Player(p, NAMES[p], "substitute" if p == 3 else "main") for p in range(1, 13)]
    scores = []
    for first in (1, 5, 9):
        seats = tuple(range(first, first + 4))
        pts = [45000 - first * 100, 35000 + first * 50, 25000 + first * 30, 15000 + first * 20]
        hs = tuple(Hanchan(n, 0, tuple(TableResult(p, x) for p, x in zip(seats, pts, strict=True))) for n in (1, 2, 3))
        scores.append(score_match(Match(first, "regular", 1, first, hs, rules=DEFAULT)))
    seeds, problems = seed_players(compute_standings(roster, scores), TOP)
    assert problems == []
    # Winners best first (1, 5, 9), then seconds (10, 6, 2), then thirds without the substitute (11, 7).
    assert seeds == (1, 5, 9, 10, 6, 2, 11, 7)
    assert round_one(seeds) == {"1A": (1, 9, 6, 11), "1B": (5, 10, 2, 7)}


def test_seeding_waits_for_a_tie_at_the_top_eight_line() -> None:
    assert seed_players(rows_with_places(1, 2, 3, 4, 5, 6, 7, 8, 9, 9), TOP)[1] == []  # below the line: no matter
    seeds, problems = seed_players(rows_with_places(1, 2, 3, 4, 5, 6, 7, 8, 8, 10), TOP)
    assert seeds == ()
    assert problems == [
        "регулярный этап, места 8–9: равны очки и среднее место у «Игрок 8», «Игрок 9» (граница прохода в плей-офф) — "
        "нужно решение организатора (Регламент §4)"
    ]


def test_seeding_waits_for_a_tie_inside_the_eight_because_it_picks_the_table() -> None:
    seeds, problems = seed_players(rows_with_places(1, 2, 3, 3, 5, 6, 7, 8, 9), TOP)
    assert seeds == () and len(problems) == 1
    assert "места 3–4" in problems[0] and "стол первого раунда" in problems[0]
    assert seed_players(rows_with_places(1, 2, 3), TOP)[1] == ["в плей-офф нужно 8 основных участников, в таблице 3"]


def test_round_one_sends_first_two_up_and_last_two_down() -> None:
    b = bracket(*ROUND_1)
    assert b.table("1A").advance == {1: "upper", 3: "upper", 5: "lower", 7: "lower"}
    assert b.table("1B").advance == {2: "upper", 4: "upper", 6: "lower", 8: "lower"}
    # Both round-2 tables are now known and waiting to be created; nothing further yet.
    assert [(t.round, t.players) for t in b.to_create] == [("2U", (1, 3, 2, 4)), ("2L", (5, 7, 6, 8))]
    assert b.table("3") is None and b.table("F") is None


def test_incomplete_round_one_holds_round_two() -> None:
    b = bracket(played("1A", (1, 3, 5, 7)), played("1B", (2, 4, 6, 8), hanchans=2))
    assert b.table("2U") is None and b.table("2L") is None
    assert b.pending == ("1-й раунд, стол Б: сыграно 2 из 3 ханчанов",)
    assert b.table("1B").advance == {} and [line.player for line in b.table("1B").ranking] == [2, 4, 6, 8]


def test_every_branch_through_the_final() -> None:
    # 2U (1,3,2,4) in order 4,1,3,2: 4 and 1 to the final, 3 and 2 to round 3.
    # 2L (5,7,6,8) in order 8,6,7,5: 8 and 6 to round 3, 7 and 5 out.
    # Round 3 (3,2,8,6) in order 6,3,2,8: 6 and 3 to the final, 2 and 8 out.
    # Final (4,1,6,3) in order 6,4,3,1.
    b = bracket(
        *ROUND_1,
        played("2U", (4, 1, 3, 2)),
        played("2L", (8, 6, 7, 5)),
        played("3", (6, 3, 2, 8)),
        played("F", (6, 4, 3, 1)),
    )
    assert b.pending == ()
    assert b.table("2U").due == (1, 3, 2, 4)
    assert b.table("2U").advance == {4: "final", 1: "final", 3: "round3", 2: "round3"}
    assert b.table("2L").advance == {8: "round3", 6: "round3", 7: "out", 5: "out"}
    assert b.table("3").due == (3, 2, 8, 6)  # two from the upper match first, then two from the lower
    assert b.table("3").advance == {6: "final", 3: "final", 2: "out", 8: "out"}
    assert b.table("F").due == (4, 1, 6, 3)
    assert b.table("F").advance == {6: "champion", 4: "second", 3: "third", 1: "fourth"}
    assert b.final_places == (6, 4, 3, 1)
    assert b.table("F").ranking[0].total == 5 * 30000  # five hanchans, hanchan uma only, no match uma
    assert PRIZES == {1: 5000, 2: 3000}


def test_final_is_created_only_after_round_three() -> None:
    b = bracket(*ROUND_1, played("2U", (4, 1, 3, 2)), played("2L", (8, 6, 7, 5)))
    assert [t.round for t in b.to_create] == ["3"]
    b = bracket(*ROUND_1, played("2U", (4, 1, 3, 2)), played("2L", (8, 6, 7, 5)), played("3", (6, 3, 2, 8)))
    assert [(t.round, t.players) for t in b.to_create] == [("F", (4, 1, 6, 3))]
    b = bracket(
        *ROUND_1,
        played("2U", (4, 1, 3, 2)),
        played("2L", (8, 6, 7, 5)),
        played("3", (6, 3, 2, 8)),
        played("F", (6, 4, 3, 1), hanchans=3),
    )
    assert b.pending == ("финал: сыграно 3 из 5 ханчанов",) and b.final_places == ()


def test_equal_totals_go_to_the_lower_average_place() -> None:
    # 2U seats (1,3,2,4) with AVG_TIE: order 1, 2, 3, 4 — seat 3 (player 2) beats seat 2 (player 3) on average.
    b = bracket(*ROUND_1, played("2U", (1, 3, 2, 4), *AVG_TIE))
    ranking = b.table("2U").ranking
    assert [(line.player, line.total, line.average_place, line.place) for line in ranking[1:3]] == [
        (2, -1000, F(7, 3), 2),
        (3, -1000, F(8, 3), 3),
    ]
    assert b.table("2U").advance == {1: "final", 2: "final", 3: "round3", 4: "round3"}


def test_a_tie_across_an_advancement_line_waits_for_the_organizer() -> None:
    seating = played("2U", (1, 3, 2, 4), *FULL_TIE)  # players 3 and 2 tied for places 2–3
    b = bracket(*ROUND_1, seating, played("2L", (5, 7, 6, 8)))
    assert b.table("2U").advance == {1: "final", 4: "round3"}
    assert b.table("3") is None  # the bracket waits
    assert b.pending == (
        "2-й раунд, верхняя ветка: равны очки и среднее место в матче у «Игрок 3», «Игрок 2» (места 2–3) — "
        "сетка ждёт решения организатора (Регламент §4)",
    )
    decided = bracket(*ROUND_1, seating, played("2L", (5, 7, 6, 8)), tie_decisions={"m2U": [[2, 3]]})
    assert decided.pending == ("3-й раунд: матч ещё не создан — «Игрок 3», «Игрок 4», «Игрок 5», «Игрок 7»",)
    assert decided.table("2U").advance == {1: "final", 2: "final", 3: "round3", 4: "round3"}
    assert decided.table("3").due == (3, 4, 5, 7)


def test_a_tie_that_changes_nothing_does_not_wait() -> None:
    both_up = ([45000, 35000, 25000, 15000], [35000, 45000, 25000, 15000], [30000] * 4)  # 1 and 3 level, avg 1.5
    b = bracket(played("1A", (1, 3, 5, 7), *both_up), ROUND_1[1])
    assert [line.unresolved_tie for line in b.table("1A").ranking] == [True, True, False, False]
    assert b.table("1A").advance == {1: "upper", 3: "upper", 5: "lower", 7: "lower"}
    assert b.pending == (
        "2-й раунд, верхняя ветка: матч ещё не создан — «Игрок 1», «Игрок 3», «Игрок 2», «Игрок 4»",
        "2-й раунд, нижняя ветка: матч ещё не создан — «Игрок 5», «Игрок 7», «Игрок 6», «Игрок 8»",
    )


def test_final_tie_waits_even_between_third_and_fourth() -> None:
    tie_34 = (
        [45000, 35000, 25000, 15000],
        [45000, 35000, 15000, 25000],
        [45000, 35000, 30000, 10000],
        [45000, 35000, 10000, 30000],
        [30000] * 4,
    )
    rounds = (*ROUND_1, played("2U", (4, 1, 3, 2)), played("2L", (8, 6, 7, 5)), played("3", (6, 3, 2, 8)))
    b = bracket(*rounds, played("F", (6, 4, 3, 1), *tie_34))
    assert b.table("F").advance == {6: "champion", 4: "second"}
    assert "финал" in b.pending[0] and "«Игрок 3», «Игрок 1»" in b.pending[0]
    assert b.final_places == ()


def test_a_substitute_at_the_table_takes_no_advancement_place() -> None:
    # Регламент §6.1: substitute 20 replaces player 3 and wins 1A; players 1 and 5 (2nd, 3rd) go up, 7 down.
    eligible = [p for p in SEEDS if p != 3]
    b = bracket(played("1A", (20, 1, 5, 7)), ROUND_1[1], eligible=eligible)
    table = b.table("1A")
    assert table.due == (1, 5, 7)
    assert table.advance == {1: "upper", 5: "upper", 7: "lower"}
    assert [(line.player, line.main) for line in table.ranking][:2] == [(20, False), (1, True)]
    assert b.table("2U").players == (1, 5, 2, 4)
    assert b.table("2L").players == (7, 6, 8)  # three main participants: the organizer seats a substitute


def test_a_substitute_in_the_lower_match_lets_the_next_main_participant_through() -> None:
    b = bracket(*ROUND_1, played("2L", (21, 8, 6, 7)), eligible=[p for p in SEEDS if p != 5])
    assert b.table("2L").due == (7, 6, 8)
    assert b.table("2L").advance == {8: "round3", 6: "round3", 7: "out"}


def test_a_main_participant_who_is_not_due_at_the_table_holds_it() -> None:
    b = bracket(played("1A", (1, 2, 5, 7)), ROUND_1[1])
    assert b.table("1A").advance == {}
    assert "1-й раунд, стол А: за столом «Игрок 2»" in b.pending[0]
    assert b.table("2U") is None


def test_winds_are_a_random_permutation_replayable_from_the_seed() -> None:
    seats = (11, 12, 13, 14)
    first = shuffle_winds(seats, random.Random(7))
    assert sorted(first) == list(seats)
    assert shuffle_winds(seats, random.Random(7)) == first
    draws = {shuffle_winds(seats, random.Random(seed)) for seed in range(50)}
    assert len(draws) > 10  # not tied to the seeding or the seat order
    with pytest.raises(ValueError, match="4 разных игрока"):
        shuffle_winds((1, 2, 3), random.Random(1))


def test_a_tie_names_the_players_in_the_genitive_when_their_names_decline() -> None:
    """Issue 45 item 13: «у Жанны Волковой, Фёдора Запасова», a label that does not decline in quotes."""
    rows = rows_with_places(1, 2, 3, 4, 5, 6, 7, 8, 8, 10)
    rows[7] = StandingsRow(8, 8, "Жанна Волкова", 92, 4, 12, F(2), True)
    rows[8] = StandingsRow(8, 9, "Фёдор Запасов", 92, 4, 12, F(2), True)
    assert seed_players(rows, TOP)[1][0].startswith("регулярный этап, места 8–9: равны очки и среднее место у Жанны "
                                                    "Волковой, Фёдора Запасова (граница")  # fmt: skip
    rows[8] = StandingsRow(8, 9, "Nick", 92, 4, 12, F(2), True)
    assert "место у Жанны Волковой, «Nick» (граница" in seed_players(rows, TOP)[1][0]
