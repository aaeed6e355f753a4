"""Regular-stage standings: totals, average place, ties, who is ranked (Регламент §4, §5, §6.1)."""

from __future__ import annotations

from fractions import Fraction as F

from services.core.ruleset import DEFAULT
from services.results.scoring import Hanchan, Match, Penalty, TableResult, rank, score_match
from services.results.standings import Player, compute_standings


def hanchan(number: int, seats: tuple, points: list[int], sticks: int = 0) -> Hanchan:
    return Hanchan(number, sticks, tuple(TableResult(p, pts) for p, pts in zip(seats, points, strict=True)))


def match(mid: int, seats: tuple, *points: list[int], stage: str = "regular", penalties=(), round_=1) -> Match:
    hanchans = tuple(hanchan(i + 1, seats, pts) for i, pts in enumerate(points))
    return Match(mid, stage, round_ if stage == "regular" else "1A", mid, hanchans, tuple(penalties), rules=DEFAULT)


def players(*specs: tuple) -> list[Player]:
    return [Player(pid, name, status) for pid, name, status in specs]


MAIN4 = players((1, "Анна", "main"), (2, "Борис", "main"), (3, "Вера", "main"), (4, "Глеб", "main"))


def standings(roster, matches, decisions=()):
    rows = compute_standings(roster, [score_match(m) for m in matches], decisions)
    return [(r.place, r.player, r.total, r.matches, r.hanchans, r.average_place, r.unresolved_tie) for r in rows]


# Players 1 and 2 both end on 50 000 (match uma split); player 2's places 2, 1, 2 beat player 1's 1, 4, 1.
TIE_BY_AVERAGE = ([50000, 30000, 22000, 18000], [20000, 40000, 35000, 25000], [45000, 35000, 22000, 18000])
# Players 2 and 3 both end on −3 000 with places 2, 3, 2.5 and 3, 2, 2.5: same average 5/2.
TIE_FOR_SECOND = ([45000, 32000, 25000, 18000], [45000, 25000, 32000, 18000], [30000] * 4)


def test_tie_on_total_resolved_by_lower_average_place() -> None:
    assert standings(MAIN4, [match(1, (1, 2, 3, 4), *TIE_BY_AVERAGE)]) == [
        (1, 2, 50000, 1, 3, F(5, 3), False),
        (2, 1, 50000, 1, 3, F(2), False),
        (3, 3, -21000, 1, 3, F(8, 3), False),
        (4, 4, -79000, 1, 3, F(11, 3), False),
    ]


def test_unresolved_tie_is_shown_with_a_shared_place() -> None:
    assert standings(MAIN4, [match(1, (1, 2, 3, 4), *TIE_FOR_SECOND)]) == [
        (1, 1, 75000, 1, 3, F(3, 2), False),
        (2, 2, -3000, 1, 3, F(5, 2), True),
        (2, 3, -3000, 1, 3, F(5, 2), True),
        (4, 4, -69000, 1, 3, F(7, 2), False),
    ]


def test_organizer_decision_orders_exactly_the_tied_group() -> None:
    m = [match(1, (1, 2, 3, 4), *TIE_FOR_SECOND)]
    decided = standings(MAIN4, m, decisions=[[3, 2]])
    assert [(place, pid, tie) for place, pid, *_, tie in decided] == [
        (1, 1, False),
        (2, 3, False),
        (3, 2, False),
        (4, 4, False),
    ]
    # A decision naming another group (or a stale one) settles nothing.
    stale = standings(MAIN4, m, decisions=[[3, 2, 4]])
    assert [(place, pid, tie) for place, pid, *_, tie in stale][1:3] == [(2, 2, True), (2, 3, True)]


def test_totals_add_up_over_matches_and_average_is_exact() -> None:
    roster = MAIN4 + players((5, "Дина", "main"), (6, "Егор", "main"), (7, "Жанна", "main"), (8, "Зоя", "main"))
    tour1 = match(1, (1, 2, 3, 4), *TIE_BY_AVERAGE)
    # Tour 2: player 1 with 5, 6, 7; the first two hanchans only (no match uma yet).
    tour2 = match(2, (1, 5, 6, 7), [45000, 32000, 25000, 18000], [30000, 40000, 30000, 20000], round_=2)
    rows = {pid: (total, n, h, avg) for _, pid, total, n, h, avg, _ in standings(roster, [tour1, tour2])}
    # 50 000 + 30 000 + 0; places 1, 4, 1, 1, 2.5 over five hanchans = 19/10.
    assert rows[1] == (80000, 2, 5, F(19, 10))
    assert rows[8] == (0, 0, 0, None)


def test_substitute_and_withdrawn_are_in_match_results_but_not_in_standings() -> None:
    roster = players((1, "Анна", "main"), (2, "Борис", "substitute"), (3, "Вера", "withdrawn"), (4, "Глеб", "main"))
    roster += players(
        (5, "Дина", "reserve"),
    )
    m = match(1, (1, 2, 3, 4), *TIE_BY_AVERAGE)
    assert [(x.player, x.total, x.place) for x in score_match(m).lines] == [
        (1, 50000, 1),
        (2, 50000, 1),
        (3, -21000, 3),
        (4, -79000, 4),
    ]
    # Регламент §6.1: the substitute and the withdrawn player drop out; the main players rank among themselves.
    assert standings(roster, [m]) == [(1, 1, 50000, 1, 3, F(2), False), (2, 4, -79000, 1, 3, F(11, 3), False)]


def test_no_show_penalty_counts_for_the_absent_player_without_a_match_played() -> None:
    roster = MAIN4 + players((5, "Дина", "main"), (9, "Замена", "substitute"))
    m = match(1, (1, 2, 3, 9), *TIE_BY_AVERAGE, penalties=[Penalty(5, -80000, "неявка без предупреждения")])
    rows = {pid: (place, total, n, h, avg) for place, pid, total, n, h, avg, _ in standings(roster, [m])}
    assert rows[5] == (5, -80000, 0, 0, None)
    assert 9 not in rows
    # Player 4 played nothing: total 0, ahead of the no-show and behind everyone with a positive total.
    assert rows[4] == (3, 0, 0, 0, None)


def test_playoff_matches_do_not_count_in_the_regular_stage() -> None:
    regular = match(1, (1, 2, 3, 4), *TIE_FOR_SECOND)
    playoff = match(2, (1, 2, 3, 4), [20000, 60000, 25000, 15000], stage="playoff")
    assert standings(MAIN4, [regular, playoff]) == standings(MAIN4, [regular])


def test_rank_puts_no_average_after_any_average_at_equal_total() -> None:
    assert rank([(1, 0, None), (2, 0, F(7, 2)), (3, 5, None)]) == [(3, 1, False), (2, 2, False), (1, 3, False)]
    # Nothing played yet: a shared place, but nothing for the organizer to decide.
    assert rank([(1, 0, None), (2, 0, None)]) == [(1, 1, False), (2, 1, False)]


def test_level_on_points_the_exact_average_place_decides_even_when_it_rounds_the_same() -> None:
    """Регламент §4 «Равенство очков»: the exact average place, no rounding. Анна and Борис both end on 30 000;
    Анна's 29 places over 12 hanchans (29/12 = 2.4167) lose to Борис's 12 over 5 (12/5 = 2.4), though both round
    to 2.4. Анна comes first in the roster, so a tie kept in input order would put her ahead too."""
    anna, boris = 1, 2
    second, third = [40000, 35000, 25000, 20000], [40000, 25000, 35000, 20000]  # seat 2 second, then third
    # Анна: four complete tours, places 2, 2, 3 three times and 2, 3, 3 once; 15 000 each tour but the third.
    annas = [
        match(1, (10, anna, 11, 12), second, second, third, round_=1),
        match(2, (10, anna, 11, 12), second, second, third, round_=2),
        match(3, (10, anna, 11, 12), second, third, third, round_=3),
        match(4, (10, anna, 11, 12), second, second, third, round_=4),
    ]
    # Борис: one complete tour (places 2, 2, 3: 15 000) and two hanchans of the next (places 3, 2: 15 000).
    boriss = [
        match(5, (20, boris, 21, 22), second, second, third, round_=1),
        match(6, (20, boris, 21, 22), [40000, 35000, 37000, 8000], [45000, 40000, 20000, 15000], round_=2),
    ]
    roster = players((anna, "Анна", "main"), (boris, "Борис", "main"))
    roster += players(*((pid, f"Игрок {pid}", "main") for pid in (10, 11, 12, 20, 21, 22)))
    rows = {pid: (place, total, h, avg, tie) for place, pid, total, _, h, avg, tie in standings(roster, annas + boriss)}
    assert rows[anna][1:4] == (30000, 12, F(29, 12))
    assert rows[boris][1:4] == (30000, 5, F(12, 5))
    assert (rows[boris][0], rows[anna][0]) == (3, 4)
    assert not rows[anna][4] and not rows[boris][4]
