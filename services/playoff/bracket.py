"""The playoff bracket (Регламент §2, §3, §4, §6.1): seeding, tables, advancement, the final, seat winds. Pure;
imports no database, reflex or telegram."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from services.core.ruleset import Ruleset
from services.core.wording import declined
from services.results.scoring import PLAYOFF, PLAYOFF_ROUNDS, Hanchan, Match, MatchId, Penalty, PlayerId, score_match
from services.results.standings import StandingsRow

UPPER, LOWER, FINAL, ROUND3, OUT = "upper", "lower", "final", "round3", "out"
CHAMPION, SECOND, THIRD, FOURTH = "champion", "second", "third", "fourth"
PRIZES = {1: 5_000, 2: 3_000}  # Регламент §1 «Призовые»: рубли за 1-е и 2-е место финала

# Регламент §2 «Как устроена система из двух этапов»: what each place among the main participants of a table
# leads to (by position; a table with fewer main participants fills from the top).
OUTCOMES: dict[str, tuple[str, ...]] = {
    "1A": (UPPER, UPPER, LOWER, LOWER),
    "1B": (UPPER, UPPER, LOWER, LOWER),
    "2U": (FINAL, FINAL, ROUND3, ROUND3),
    "2L": (ROUND3, ROUND3, OUT, OUT),
    "3": (FINAL, FINAL, OUT, OUT),
    "F": (CHAMPION, SECOND, THIRD, FOURTH),
}
# Who sits at a table: the players of these (table, outcome) pairs, in this order.
SOURCES: dict[str, tuple[tuple[str, str], ...]] = {
    "2U": (("1A", UPPER), ("1B", UPPER)),
    "2L": (("1A", LOWER), ("1B", LOWER)),
    "3": (("2U", ROUND3), ("2L", ROUND3)),
    "F": (("2U", FINAL), ("3", FINAL)),
}
ROUND_NAMES = {
    "1A": "1-й раунд, стол А",
    "1B": "1-й раунд, стол Б",
    "2U": "2-й раунд, верхняя ветка",
    "2L": "2-й раунд, нижняя ветка",
    "3": "3-й раунд",
    "F": "финал",
}
WINDS = ("Восток", "Юг", "Запад", "Север")


@dataclass(frozen=True, slots=True)
class Seating:
    """A playoff match as played: its round (1A…F), the players seated (substitutes included) and the result."""

    round: str
    players: tuple[PlayerId, ...]
    match: Match


@dataclass(frozen=True, slots=True)
class RankingLine:
    player: PlayerId
    total: int
    average_place: Fraction | None
    place: int | None  # shared while unresolved_tie; None: not seated (a penalty only)
    unresolved_tie: bool
    main: bool  # a main participant due at this table; False for a substitute (Регламент §6.1)


@dataclass(frozen=True, slots=True)
class Table:
    round: str
    players: tuple[PlayerId, ...]  # seated players; before the match exists, the main participants due here
    due: tuple[PlayerId, ...]  # main participants the bracket sends here, best first
    match_id: MatchId | None = None
    complete: bool = False
    ranking: tuple[RankingLine, ...] = ()
    advance: Mapping[PlayerId, str] = field(default_factory=dict)

    @property
    def decided(self) -> bool:
        return bool(self.due) and all(p in self.advance for p in self.due)


@dataclass(frozen=True, slots=True)
class Bracket:
    seeds: tuple[PlayerId, ...]  # by regular place, best first; empty until seeding is possible
    tables: tuple[Table, ...]  # every table whose players are known, in round order
    pending: tuple[str, ...]  # what the bracket waits for and why, in Russian

    def table(self, round_: str) -> Table | None:
        return next((t for t in self.tables if t.round == round_), None)

    @property
    def to_create(self) -> tuple[Table, ...]:
        """Tables whose players are all known but that have no match yet: the next round to create."""
        return tuple(t for t in self.tables if t.match_id is None)

    @property
    def final_places(self) -> tuple[PlayerId, ...]:
        final = self.table("F")
        if final is None or not final.decided:
            return ()
        order = (CHAMPION, SECOND, THIRD, FOURTH)
        return tuple(sorted(final.advance, key=lambda p: order.index(final.advance[p])))


def _name(names: Mapping[PlayerId, str], player: PlayerId, case: Literal["gen"] | None = None) -> str:
    """«Игрок 8» as a label; «у Жанны Волковой» in the case a preposition asks, when the name declines."""
    name = names.get(player, str(player))
    taken = declined(name, case) if case else name
    return taken if taken != name else f"«{name}»"


def _places(first: int, last: int) -> str:
    return f"место {first}" if first == last else f"места {first}–{last}"


def seed_players(rows: Sequence[StandingsRow], size: int) -> tuple[tuple[PlayerId, ...], list[str]]:
    """The top `size` (the season's ruleset: eight) of the regular standings, or the problems that stop seeding
    (Регламент §1, §2, §4).

    `rows` are `compute_standings` rows: main participants only, so a substitute never takes a place. An
    unresolved tie that crosses the line (places 8–9) decides who goes on; one inside the top eight decides the
    round-1 tables (1, 3, 5, 7 against 2, 4, 6, 8), so both wait for the organizer.
    """
    if len(rows) < size:
        return (), [f"в плей-офф нужно {size} основных участников, в таблице {len(rows)}"]
    names = {r.player: r.name for r in rows}
    problems: list[str] = []
    groups: dict[int, list[PlayerId]] = {}
    for r in rows:
        if r.unresolved_tie:
            groups.setdefault(r.place, []).append(r.player)
    for place, group in sorted(groups.items()):
        if place > size:
            continue
        last = place + len(group) - 1
        what = "граница прохода в плей-офф" if last > size else "от порядка зависит стол первого раунда"
        who = ", ".join(_name(names, p, "gen") for p in group)
        problems.append(
            f"регулярный этап, {_places(place, last)}: равны очки и среднее место у {who} ({what}) — "
            "нужно решение организатора (Регламент §4)"
        )
    if problems:
        return (), problems
    return tuple(r.player for r in rows[:size]), []


def round_one(seeds: Sequence[PlayerId]) -> dict[str, tuple[PlayerId, ...]]:
    """Регламент §2: стол А — места 1, 3, 5, 7; стол Б — места 2, 4, 6, 8 (tables, not winds)."""
    return {"1A": tuple(seeds[0::2]), "1B": tuple(seeds[1::2])}


def _ranking(
    seating: Seating, due: Sequence[PlayerId], decisions: Iterable[Sequence[PlayerId]]
) -> tuple[RankingLine, ...]:
    score = score_match(seating.match, decisions)
    lines = [
        RankingLine(line.player, line.total, line.average_place, line.place, line.unresolved_tie, line.player in due)
        for line in score.lines
    ]
    # A due main participant without a seat (a no-show replaced by a substitute) ranks after everyone seated.
    known = {line.player for line in lines}
    lines += [RankingLine(p, 0, None, None, False, True) for p in due if p not in known]
    return tuple(lines)


def _advance(
    round_: str, ranking: Sequence[RankingLine], names: Mapping[PlayerId, str]
) -> tuple[dict[PlayerId, str], list[str]]:
    """Places among the main participants turned into outcomes; a tie across an outcome boundary waits."""
    labels = OUTCOMES[round_]
    mains = [line for line in ranking if line.main]
    seated = [line for line in mains if line.place is not None]
    unseated = [line for line in mains if line.place is None]
    # Регламент §6.1: substitutes are skipped, the main participants below them move up.
    groups: list[list[RankingLine]] = []
    for line in seated:
        if groups and line.unresolved_tie and groups[-1][0].unresolved_tie and groups[-1][0].place == line.place:
            groups[-1].append(line)
        else:
            groups.append([line])
    groups += [[line] for line in unseated]
    advance: dict[PlayerId, str] = {}
    problems: list[str] = []
    position = 0
    for group in groups:
        outcomes = {labels[min(position + k, len(labels) - 1)] for k in range(len(group))}
        if len(outcomes) > 1:
            who = ", ".join(_name(names, line.player, "gen") for line in group)
            first = group[0].place or 0
            problems.append(
                f"{ROUND_NAMES[round_]}: равны очки и среднее место в матче у {who} "
                f"({_places(first, first + len(group) - 1)}) — сетка ждёт решения организатора (Регламент §4)"
            )
        else:
            label = outcomes.pop()
            for line in group:
                advance[line.player] = label
        position += len(group)
    return advance, problems


def _due(round_: str, tables: Mapping[str, Table], seeds: Sequence[PlayerId]) -> tuple[PlayerId, ...] | None:
    if round_ in ("1A", "1B"):
        return round_one(seeds)[round_] if seeds else None
    due: list[PlayerId] = []
    for source, outcome in SOURCES[round_]:
        table = tables.get(source)
        if table is None or not table.decided:
            return None
        due += [line.player for line in table.ranking if table.advance.get(line.player) == outcome]
    return tuple(due)


def build_bracket(
    seeds: Sequence[PlayerId],
    seatings: Iterable[Seating],
    *,
    eligible: Iterable[PlayerId] | None = None,
    names: Mapping[PlayerId, str] | None = None,
    tie_decisions: Mapping[MatchId, Sequence[Sequence[PlayerId]]] | None = None,
) -> Bracket:
    """The whole bracket from the seeds and the playoff matches played so far.

    `eligible`: the main participants still in the league (default: every seed); a substitute or a withdrawn
    player takes no advancement place (Регламент §6.1). `tie_decisions`: the organizer's orders per match id.
    A table's players are known once every table feeding it is decided; its match is then due to be created.
    """
    names = names or {}
    decisions = tie_decisions or {}
    allowed = set(seeds) if eligible is None else set(eligible)
    by_round: dict[str, Seating] = {}
    pending: list[str] = []
    for s in seatings:
        if s.round in by_round:
            pending.append(f"{ROUND_NAMES.get(s.round, s.round)}: два матча, учитывается первый")
            continue
        by_round[s.round] = s
    tables: dict[str, Table] = {}
    for round_ in PLAYOFF_ROUNDS:
        due = _due(round_, tables, seeds)
        if due is None:
            continue
        due = tuple(p for p in due if p in allowed)
        seating = by_round.get(round_)
        if seating is None:
            tables[round_] = Table(round_, due, due)
            pending.append(f"{ROUND_NAMES[round_]}: матч ещё не создан — {', '.join(_name(names, p) for p in due)}")
            continue
        stray = [p for p in seating.players if p in allowed and p not in due]
        if stray:
            who = ", ".join(_name(names, p) for p in stray)
            pending.append(f"{ROUND_NAMES[round_]}: за столом {who}, а сетка направляет сюда других — проверьте состав")
            tables[round_] = Table(round_, seating.players, due, seating.match.id)
            continue
        match = seating.match
        if not match.complete:
            pending.append(
                f"{ROUND_NAMES[round_]}: сыграно {len(match.hanchans)} из {match.hanchans_required} ханчанов"
            )
            ranking = _ranking(seating, due, decisions.get(match.id, ())) if match.hanchans else ()
            tables[round_] = Table(round_, seating.players, due, match.id, False, ranking)
            continue
        ranking = _ranking(seating, due, decisions.get(match.id, ()))
        advance, problems = _advance(round_, ranking, names)
        pending += problems
        tables[round_] = Table(round_, seating.players, due, match.id, True, ranking, advance)
    return Bracket(tuple(seeds), tuple(tables.values()), tuple(pending))


def playoff_match(
    match_id: MatchId,
    round_: str,
    hanchans: Sequence[Hanchan] = (),
    penalties: Sequence[Penalty] = (),
    *,
    rules: Ruleset,
) -> Match:
    """A scoring Match for a playoff round (the final's hanchans by its round and the season's ruleset)."""
    return Match(match_id, PLAYOFF, round_, 1, tuple(hanchans), tuple(penalties), rules=rules)
