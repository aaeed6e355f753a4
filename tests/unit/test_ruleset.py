"""The season's ruleset: the 2026 regulation's values by default, its checks, and scoring under any ruleset giving
what the regulation's formulas give, computed here independently (Регламент §4)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from services.core.config import Settings
from services.core.ruleset import CLUB_TIME_ZONE, CLUB_ZONE, DEFAULT, Ruleset, with_numbers
from services.results.scoring import Hanchan, Match, Penalty, TableResult, hanchan_problems, score_match
from services.results.standings import Player, compute_standings
from services.scheduling.intervals import KIROV

PLAYERS = (1, 2, 3, 4)


def test_the_default_is_the_2026_regulation() -> None:
    assert (DEFAULT.start_points, DEFAULT.hanchan_uma, DEFAULT.match_uma) == (
        30_000,  # §4
        (15_000, 5_000, -5_000, -15_000),  # §4: 15/5
        (15_000, 5_000, -5_000, -15_000),  # §4: «с теми же начислениями»
    )
    assert (DEFAULT.chombo_penalty, DEFAULT.no_show_penalty) == (40_000, 80_000)  # §4, §5
    assert (DEFAULT.hanchans_per_match, DEFAULT.final_hanchans, DEFAULT.tours) == (3, 5, 4)  # §2
    assert (DEFAULT.playoff_size, DEFAULT.roster_multiple, CLUB_TIME_ZONE) == (8, 4, "Europe/Kirov")  # §1
    assert KIROV is CLUB_ZONE and Settings().tz is CLUB_ZONE  # §6.1: one definition of the club's zone
    assert DEFAULT.problems() == []


def test_unusable_rulesets_are_named() -> None:
    cases = {
        "hanchans_per_match": ("0", "Ханчанов в матче: целое число от 1 до 1 000 000"),
        "roster_multiple": ("6", "Основной состав кратен: число, кратное 4 (за столом 4 игрока)"),
        "playoff_size": ("16", "Участников плей-офф: сетка верхней и нижней веток рассчитана на 8 участников"),
        "chombo_penalty": ("двадцать", "Чомбо: «двадцать» — не целое число"),
        "time_zone": (
            "Europe/Moscow",
            "Часовой пояс клуба: время Кирова (Europe/Kirov) — это часовой пояс клуба, а не сезона, "
            "его нельзя изменить в правилах сезона («Europe/Moscow» не принят)",
        ),
        "hanchan_uma_second": ("20 000", "Ума ханчана: за первое место не меньше, чем за второе"),
    }
    for name, (typed, said) in cases.items():
        rules, problems = with_numbers(DEFAULT, {name: typed})
        assert problems == [said], name
    rules, problems = with_numbers(DEFAULT, {"chombo_penalty": "20 000", "hanchans_per_match": "4"})
    assert problems == []
    assert DEFAULT.changes(rules) == ["Чомбо: 40 000 → 20 000", "Ханчанов в матче: 3 → 4"]


# --- the reference: the regulation's formulas, written out again -------------------------------------------


def _split(values: list[int], uma: tuple[int, int, int, int]) -> tuple[list[int], list[Fraction]]:
    """Each index's uma share and place: equal values share the positions they cover and their uma, floored."""
    order = sorted(range(len(values)), key=lambda i: -values[i])
    shares, places = [0] * len(values), [Fraction(0)] * len(values)
    position = 0
    while position < len(order):
        tied = [i for i in order if values[i] == values[order[position]]]
        covered = range(position, position + len(tied))
        for i in tied:
            shares[i] = sum(uma[p] for p in covered) // len(tied)
            places[i] = Fraction(sum(p + 1 for p in covered), len(tied))
        position += len(tied)
    return shares, places


def _reference(rules: Ruleset, hanchans: list[tuple[list[int], int, list[int]]], penalty: int) -> dict[int, int]:
    """Player → match total: hanchan scores (points − start + uma + sticks to the first, chombo after uma), the
    penalty on player 4, and the match uma only once every hanchan of the match is played."""
    u1, u2 = rules.hanchan_uma_first, rules.hanchan_uma_second
    totals = dict.fromkeys(PLAYERS, 0)
    for points, sticks, chombo in hanchans:
        uma, _ = _split(points, (u1, u2, -u2, -u1))
        top = max(points)
        winners = [i for i in range(4) if points[i] == top]
        for i, player in enumerate(PLAYERS):
            riichi = sticks * 1000 // len(winners) if i in winners else 0
            totals[player] += points[i] - rules.start_points + uma[i] + riichi - rules.chombo_penalty * chombo[i]
    totals[4] -= penalty
    if len(hanchans) == rules.hanchans_per_match:
        m1, m2 = rules.match_uma_first, rules.match_uma_second
        before = [totals[p] for p in PLAYERS]
        uma, _ = _split(before, (m1, m2, -m2, -m1))
        totals = {p: before[i] + uma[i] for i, p in enumerate(PLAYERS)}
    return totals


thousands = st.integers(0, 40).map(lambda k: k * 1000)
rulesets = st.builds(
    lambda start, u, m, chombo, hanchans: replace(
        DEFAULT,
        start_points=start,
        hanchan_uma_first=max(u),
        hanchan_uma_second=min(u),
        match_uma_first=max(m),
        match_uma_second=min(m),
        chombo_penalty=chombo,
        hanchans_per_match=hanchans,
    ),
    st.sampled_from([25_000, 30_000, 35_000]),
    st.tuples(thousands, thousands),
    st.tuples(thousands, thousands),
    st.integers(1, 40).map(lambda k: k * 1000),
    st.integers(1, 5),
)


@st.composite
def played(draw: st.DrawFn, rules: Ruleset) -> list[tuple[list[int], int, list[int]]]:
    count = draw(st.integers(1, rules.hanchans_per_match))
    hanchans = []
    for _ in range(count):
        sticks = draw(st.integers(0, 3))
        first = draw(st.lists(thousands, min_size=3, max_size=3))
        points = [*first, rules.table_total - sticks * 1000 - sum(first)]
        chombo = draw(st.lists(st.integers(0, 2), min_size=4, max_size=4))
        hanchans.append((points, sticks, chombo))
    return hanchans


def _score(rules: Ruleset, hanchans: list[tuple[list[int], int, list[int]]], penalty: int) -> dict[int, int]:
    match = Match(
        1,
        "regular",
        1,
        1,
        tuple(
            Hanchan(n, sticks, tuple(TableResult(p, x, c) for p, x, c in zip(PLAYERS, points, chombo, strict=True)))
            for n, (points, sticks, chombo) in enumerate(hanchans, start=1)
        ),
        (Penalty(4, -penalty, "неявка"),) if penalty else (),
        rules=rules,
    )
    score = score_match(match)
    standings = compute_standings([Player(p, f"Игрок {p}", "main") for p in PLAYERS], [score])
    by_line = {line.player: line.total for line in score.lines}
    assert {r.player: r.total for r in standings} == by_line  # the standings follow the match
    return by_line


@settings(max_examples=150, deadline=None)
@given(st.data(), rulesets, st.sampled_from([0, 80_000]))
def test_scoring_under_any_ruleset_gives_the_regulations_numbers(data: st.DataObject, rules: Ruleset, penalty: int):
    hanchans = data.draw(played(rules))
    assert _score(rules, hanchans, penalty) == _reference(rules, hanchans, penalty)


def test_uma_20_10_chombo_20000_four_hanchans_by_hand() -> None:
    """The issue's example, worked by hand: uma 20/10 both ways, chombo 20 000, four hanchans."""
    rules = replace(
        DEFAULT,
        hanchan_uma_first=20_000,
        hanchan_uma_second=10_000,
        match_uma_first=20_000,
        match_uma_second=10_000,
        chombo_penalty=20_000,
        hanchans_per_match=4,
    )
    one = ([40_000, 30_000, 30_000, 20_000], 0, [0, 0, 0, 1])  # 1st +30 000; 2nd–3rd share 10 000 − 10 000 = 0
    three = [one, one, one]
    # Three of four hanchans: no match uma yet (Регламент §2, §4).
    assert _score(rules, three, 0) == {1: 90_000, 2: 0, 3: 0, 4: -3 * (10_000 + 20_000 + 20_000)}
    # The fourth completes the match: +20 000 / ±0 (2nd–3rd share 10 000 − 10 000) / −20 000.
    assert _score(rules, [*three, one], 0) == {1: 140_000, 2: 0, 3: 0, 4: -220_000}
    # The same hanchan no longer adds up when the start points change: the table total is the ruleset's.
    results = [TableResult(p, x) for p, x in zip(PLAYERS, one[0], strict=True)]
    assert hanchan_problems(results, 0, replace(rules, start_points=25_000)) == [
        "сумма очков 120\u202f000, должна быть 100\u202f000"
    ]
