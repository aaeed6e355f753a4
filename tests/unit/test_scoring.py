"""Hanchan and match scoring with worked numbers (Регламент §4, §5), plus the zero-sum property."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from services.core.ruleset import DEFAULT
from services.results.scoring import (
    Hanchan,
    Match,
    Penalty,
    TableResult,
    hanchan_problems,
    match_problems,
    score_hanchan,
    score_match,
    split_uma,
)


def hanchan(number: int, points: list[int], sticks: int = 0, chombo: dict[int, int] | None = None) -> Hanchan:
    """Players 1..4 in seat order."""
    chombo = chombo or {}
    return Hanchan(number, sticks, tuple(TableResult(i + 1, p, chombo.get(i + 1, 0)) for i, p in enumerate(points)))


def scores(h: Hanchan) -> list[int]:
    return [s.score for s in score_hanchan(h, DEFAULT)]


def places(h: Hanchan) -> list[F]:
    return [s.place for s in score_hanchan(h, DEFAULT)]


# Three hanchans of players 1..4: without ties player 3 wins the match (see test_complete_match_adds_match_uma).
H1 = hanchan(1, [45000, 32000, 25000, 18000])  # 30 000, 7 000, −10 000, −27 000
H2 = hanchan(2, [20000, 40000, 30000, 30000])  # −25 000, 25 000, 0, 0
H3 = hanchan(3, [32000, 18000, 45000, 25000])  # 7 000, −27 000, 30 000, −10 000


def test_hanchan_without_ties() -> None:
    assert scores(H1) == [30000, 7000, -10000, -27000]
    assert places(H1) == [1, 2, 3, 4]


@pytest.mark.parametrize(
    ("points", "expected_scores", "expected_places"),
    [
        # 2nd–3rd: uma (5 000 − 5 000) / 2 = 0 each, place 2.5 each
        ([40000, 30000, 30000, 20000], [25000, 0, 0, -25000], [1, F(5, 2), F(5, 2), 4]),
        # 1st–2nd: uma (15 000 + 5 000) / 2 = 10 000 each
        ([35000, 35000, 30000, 20000], [15000, 15000, -5000, -25000], [F(3, 2), F(3, 2), 3, 4]),
        # 3rd–4th: uma (−5 000 − 15 000) / 2 = −10 000 each
        ([40000, 30000, 25000, 25000], [25000, 5000, -15000, -15000], [1, 2, F(7, 2), F(7, 2)]),
    ],
)
def test_two_way_tie_shares_places_and_uma(points, expected_scores, expected_places) -> None:
    h = hanchan(1, points)
    assert scores(h) == expected_scores
    assert places(h) == expected_places


def test_three_way_ties() -> None:
    # 1st–3rd: (15 000 + 5 000 − 5 000) / 3 = 5 000 each, place 2 each
    h = hanchan(1, [33000, 33000, 33000, 21000])
    assert scores(h) == [8000, 8000, 8000, -24000]
    assert places(h) == [2, 2, 2, 4]
    # 2nd–4th: (5 000 − 5 000 − 15 000) / 3 = −5 000 each, place 3 each
    h = hanchan(1, [45000, 25000, 25000, 25000])
    assert scores(h) == [30000, -10000, -10000, -10000]
    assert places(h) == [1, 3, 3, 3]


def test_four_way_tie_with_sticks() -> None:
    # 4 × 29 500 + 2 sticks: uma 0, each first place gets 2 000 / 4 = 500.
    h = hanchan(1, [29500] * 4, sticks=2)
    assert scores(h) == [0, 0, 0, 0]
    assert places(h) == [F(5, 2)] * 4


def test_riichi_sticks_go_to_first_place() -> None:
    h = hanchan(1, [43000, 32000, 25000, 18000], sticks=2)
    assert [s.riichi for s in score_hanchan(h, DEFAULT)] == [2000, 0, 0, 0]
    assert scores(h) == [30000, 7000, -10000, -27000]


def test_odd_sticks_split_between_two_tied_first() -> None:
    # 3 sticks / 2 = 1 500 each: 5 000 + 10 000 + 1 500.
    h = hanchan(1, [35000, 35000, 27000, 20000], sticks=3)
    assert scores(h) == [16500, 16500, -8000, -25000]
    assert sum(scores(h)) == 0


def test_one_stick_three_way_first_is_floored_to_whole_points() -> None:
    # 1 000 / 3 = 333 each; the one point left over is lost, so this hanchan sums to −1.
    h = hanchan(1, [33000, 33000, 33000, 20000], sticks=1)
    assert [s.riichi for s in score_hanchan(h, DEFAULT)] == [333, 333, 333, 0]
    assert scores(h) == [8333, 8333, 8333, -25000]


def test_chombo_is_40000_after_uma_per_chombo() -> None:
    h = hanchan(1, [45000, 32000, 25000, 18000], chombo={1: 1, 4: 2})
    # The chombo changes nothing about places or uma: 30 000 − 40 000 and −27 000 − 80 000.
    assert scores(h) == [-10000, 7000, -10000, -107000]
    assert places(h) == [1, 2, 3, 4]


@pytest.mark.parametrize(
    ("points", "sticks", "message"),
    [
        (
            [45000, 32000, 25000, 17000],
            2,
            "сумма очков 119\u202f000 + 2 палочки = 121\u202f000, должна быть 120\u202f000",
        ),
        ([45000, 32000, 25000, 17000], 0, "сумма очков 119\u202f000, должна быть 120\u202f000"),
        ([45000, 32000, 25000, 17000], 1, None),
        ([45000, 32000, 25000, 13000], 5, None),
        (
            [45000, 32000, 25000, 16000],
            3,
            "сумма очков 118\u202f000 + 3 палочки = 121\u202f000, должна быть 120\u202f000",
        ),
        (
            [45000, 32000, 25000, 8000],
            11,
            "сумма очков 110\u202f000 + 11 палочек = 121\u202f000, должна быть 120\u202f000",
        ),
        (
            [45000, 32000, 25000, -2000],
            21,
            "сумма очков 100\u202f000 + 21 палочка = 121\u202f000, должна быть 120\u202f000",
        ),
    ],
)
def test_hanchan_sum_message(points, sticks, message) -> None:
    problems = hanchan_problems(hanchan(1, points).results, sticks, DEFAULT)
    assert problems == ([message] if message else [])


def test_hanchan_problems_list_everything() -> None:
    results = (TableResult(1, 50000), TableResult(1, 40000, -1), TableResult(2, 30000))
    assert hanchan_problems(results, -1, DEFAULT) == [
        "нужно 4 результата, указано 3",
        "игрок 1 указан дважды",
        "чомбо игрока 1 не может быть отрицательным: \u22121",
        "палочек риичи на столе не может быть меньше нуля: \u22121",
    ]
    with pytest.raises(ValueError, match="ханчан 1: нужно 4 результата"):
        score_hanchan(Hanchan(1, 0, results), DEFAULT)


def test_the_core_holds_every_way_in_to_real_ranges() -> None:
    """The Pantheon import and the season file reach `hanchan_problems` without the form: the ranges are here."""
    results = (TableResult(1, 20_000_000), TableResult(2, 30000, 11), TableResult(3, 30000), TableResult(4, 40000))
    assert hanchan_problems(results, 101, DEFAULT) == [
        "очки игрока 1 — от −10\u202f000\u202f000 до 10\u202f000\u202f000, указано 20\u202f000\u202f000",
        "чомбо игрока 2 — не больше 10 за ханчан, указано 11",
        "палочек риичи на столе — не больше 100, указано 101",
    ]


def test_every_15_5_split_is_exact() -> None:
    UMA = DEFAULT.hanchan_uma
    for first in range(4):
        for last in range(first, 4):
            assert sum(UMA[first : last + 1]) % (last - first + 1) == 0
            assert split_uma(UMA, first, last) * (last - first + 1) == sum(UMA[first : last + 1])


def regular(*hanchans: Hanchan, penalties: tuple[Penalty, ...] = ()) -> Match:
    return Match(1, "regular", 1, 1, hanchans, penalties, rules=DEFAULT)


def lines(match: Match) -> dict[object, tuple]:
    return {x.player: (x.hanchans, x.penalties, x.match_uma, x.total, x.place) for x in score_match(match).lines}


def test_complete_match_adds_match_uma() -> None:
    ms = score_match(regular(H1, H2, H3))
    assert ms.complete
    assert [x.player for x in ms.lines] == [3, 1, 2, 4]
    assert lines(ms.match) == {
        3: ((-10000, 0, 30000), 0, 15000, 35000, 1),
        1: ((30000, -25000, 7000), 0, 5000, 17000, 2),
        2: ((7000, 25000, -27000), 0, -5000, 0, 3),
        4: ((-27000, 0, -10000), 0, -15000, -52000, 4),
    }
    assert {x.player: x.average_place for x in ms.lines} == {1: F(7, 3), 2: F(7, 3), 3: F(13, 6), 4: F(19, 6)}


def test_incomplete_match_has_no_match_uma() -> None:
    ms = score_match(regular(H2, H1))  # order of entry does not matter: scored by hanchan number
    assert not ms.complete
    assert lines(ms.match) == {
        2: ((7000, 25000), 0, 0, 32000, 1),
        1: ((30000, -25000), 0, 0, 5000, 2),
        3: ((-10000, 0), 0, 0, -10000, 3),
        4: ((-27000, 0), 0, 0, -27000, 4),
    }


def test_equal_match_totals_split_match_uma() -> None:
    # Players 1 and 2 both end on 37 000; they share 1st and split (15 000 + 5 000) / 2.
    m = regular(
        hanchan(1, [45000, 32000, 25000, 18000]), hanchan(2, [32000, 45000, 25000, 18000]), hanchan(3, [30000] * 4)
    )
    assert lines(m) == {
        1: ((30000, 7000, 0), 0, 10000, 47000, 1),
        2: ((7000, 30000, 0), 0, 10000, 47000, 1),
        3: ((-10000, -10000, 0), 0, -5000, -25000, 3),
        4: ((-27000, -27000, 0), 0, -15000, -69000, 4),
    }
    assert sum(DEFAULT.match_uma) == 0


def test_conduct_penalty_counts_before_match_places() -> None:
    # Player 1: 12 000 − 20 000 = −8 000 drops below player 2 (5 000) to 3rd.
    m = regular(H1, H2, H3, penalties=(Penalty(1, -20000, "поведение"),))
    assert lines(m)[1] == ((30000, -25000, 7000), -20000, -5000, -13000, 3)
    assert lines(m)[2] == ((7000, 25000, -27000), 0, 5000, 10000, 2)


def test_no_show_penalty_for_a_player_without_a_seat() -> None:
    # Player 9 did not come (Регламент §5: −80 000 за матч); a substitute took the seat.
    ms = score_match(regular(H1, H2, H3, penalties=(Penalty(9, -80000, "неявка"),)))
    last = ms.lines[-1]
    assert (last.player, last.hanchans, last.penalties, last.match_uma, last.total, last.place) == (
        9,
        (),
        -80000,
        0,
        -80000,
        None,
    )
    assert not last.seated and last.average_place is None
    assert [x.total for x in ms.lines[:4]] == [35000, 17000, 0, -52000]  # the table itself is unchanged


def test_replay_replaces_the_original_hanchan() -> None:
    # Регламент §6.2: the replay stands in place of hanchan 2 (same number); both together are refused.
    replay = hanchan(2, [30000, 30000, 30000, 30000])
    assert lines(regular(H1, replay, H3))[1] == ((30000, 0, 7000), 0, 15000, 52000, 1)
    with pytest.raises(ValueError, match="ханчан 2: указан дважды"):
        score_match(regular(H1, H2, replay, H3))


# Players 1 and 2 both total 40 000: player 2's places 2, 1, 2 (5/3) beat player 1's 1, 4, 1 (2).
TIE_BY_AVERAGE = (
    hanchan(1, [50000, 30000, 22000, 18000]),
    hanchan(2, [20000, 40000, 35000, 25000]),
    hanchan(3, [45000, 35000, 22000, 18000]),
)


def test_playoff_match_has_no_match_uma_and_breaks_ties_by_average_place() -> None:
    ms = score_match(Match(7, "playoff", "1A", 1, TIE_BY_AVERAGE, rules=DEFAULT))
    assert [(x.player, x.total, x.match_uma, x.place, x.unresolved_tie) for x in ms.lines] == [
        (2, 40000, 0, 1, False),
        (1, 40000, 0, 2, False),
        (3, -16000, 0, 3, False),
        (4, -64000, 0, 4, False),
    ]


def test_same_hanchans_in_regular_stage_share_first() -> None:
    assert [(x.player, x.total, x.place) for x in score_match(regular(*TIE_BY_AVERAGE)).lines] == [
        (1, 50000, 1),
        (2, 50000, 1),
        (3, -21000, 3),
        (4, -79000, 4),
    ]


def test_playoff_unresolved_tie_and_decision() -> None:
    same = (hanchan(1, [45000, 32000, 25000, 18000]), hanchan(2, [32000, 45000, 25000, 18000]))
    m = Match(8, "playoff", "F", 1, same, rules=DEFAULT)
    assert m.hanchans_required == 5 and not m.complete
    ms = score_match(m)
    assert [(x.player, x.place, x.unresolved_tie) for x in ms.lines[:2]] == [(1, 1, True), (2, 1, True)]
    ms = score_match(m, tie_decisions=[[2, 1]])
    assert [(x.player, x.place, x.unresolved_tie) for x in ms.lines[:2]] == [(2, 1, False), (1, 2, False)]


def test_match_problems() -> None:
    m = Match(
        5,
        "regular",
        1,
        1,
        (H1, H1, hanchan(4, [45000, 32000, 25000, 17000], 2), Hanchan(3, 0, H1.results[:3] + (TableResult(8, 18000),))),
        (Penalty(1, 5000, "?"),),
        rules=DEFAULT,
    )
    assert match_problems(m) == [
        "ханчанов 4, в этом матче их не больше 3",
        "ханчан 1: указан дважды (переигровка заменяет исходный ханчан, а не добавляется к нему)",
        "ханчан 3: состав игроков отличается от ханчана 1",
        "ханчан 4: номер должен быть от 1 до 3",
        "ханчан 4: сумма очков 119\u202f000 + 2 палочки = 121\u202f000, должна быть 120\u202f000",
        "штраф игроку 1: должен быть отрицательным, указано 5\u202f000",
    ]
    with pytest.raises(ValueError, match="^матч 5: ханчанов 4, .*; матч 5, ханчан 1: указан дважды"):
        score_match(m)


@st.composite
def table_hanchan(draw: st.DrawFn, number: int) -> Hanchan:
    sticks = draw(st.integers(0, 6))
    # Points in hundreds from a small pool as well as a wide range, so that ties come up often.
    value = st.one_of(st.sampled_from([250, 300, 330, 350]), st.integers(-200, 900)).map(lambda v: v * 100)
    first = [draw(value) for _ in range(3)]
    points = [*first, 120000 - sticks * 1000 - sum(first)]
    order = draw(st.permutations(range(4)))
    return Hanchan(number, sticks, tuple(TableResult(i + 1, points[order[i]]) for i in range(4)))


def expected_hanchan_sum(h: Hanchan) -> int:
    """Zero, except the whole points floored away when sticks split among tied first places."""
    top = max(r.points for r in h.results)
    tied = sum(r.points == top for r in h.results)
    return -(h.riichi_left * 1000 % tied)


@given(st.tuples(table_hanchan(1), table_hanchan(2), table_hanchan(3)), st.sampled_from(["regular", "playoff"]))
@example((hanchan(1, [30000] * 4), hanchan(2, [30000] * 4), hanchan(3, [30000] * 4)), "regular")
def test_complete_match_without_penalties_sums_to_zero(hanchans: tuple[Hanchan, ...], stage: str) -> None:
    for h in hanchans:
        assert sum(scores(h)) == expected_hanchan_sum(h)
    ms = score_match(Match(1, stage, 1 if stage == "regular" else "1A", 1, hanchans, rules=DEFAULT))
    assert sum(x.match_uma for x in ms.lines) == 0
    assert sum(x.total for x in ms.lines) == sum(expected_hanchan_sum(h) for h in hanchans)
    if all(expected_hanchan_sum(h) == 0 for h in hanchans):
        assert sum(x.total for x in ms.lines) == 0
