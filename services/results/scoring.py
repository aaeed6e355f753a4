"""Hanchan and match scoring by the league regulation (§4, §5). Pure; imports no database, reflex or telegram."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TypeAlias

from services.core.ruleset import Ruleset
from services.core.wording import format_points, plural

PlayerId: TypeAlias = int | str
MatchId: TypeAlias = int | str

REGULAR = "regular"
PLAYOFF = "playoff"
STAGES = (REGULAR, PLAYOFF)
PLAYOFF_ROUNDS = ("1A", "1B", "2U", "2L", "3", "F")
FINAL_ROUND = "F"

RIICHI_STICK = 1_000
# Ranges a real season stays far inside: anything beyond is a typo (and would not fit the database's integers).
# Every way a result comes in is held to them: the site's forms, the Pantheon import, the season file.
MAX_POINTS = 10_000_000  # table points, either sign
MAX_CHOMBO = 10
MAX_STICKS = 100
MAX_PENALTY = 1_000_000  # a penalty takes between 1 and 1 000 000 points
# The league's numbers (start points, uma, chombo, hanchans per match…) are the season's ruleset
# (services/core/ruleset.py): a Match carries its season's, the 2026 regulation's by default.


@dataclass(frozen=True, slots=True)
class TableResult:
    """One seat at the end of a hanchan, as on the table: final points (before sticks) and chombo count."""

    player: PlayerId
    points: int
    chombo: int = 0


@dataclass(frozen=True, slots=True)
class Hanchan:
    number: int
    riichi_left: int
    results: tuple[TableResult, ...]


@dataclass(frozen=True, slots=True)
class Penalty:
    """A penalty attached to a match (no-show, conduct); `points` is negative. Chombo is not a Penalty."""

    player: PlayerId
    points: int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Match:
    """A match as scoring sees it.

    `hanchans` holds only the effective hanchans. Регламент §6.1, §6.2: a replay replaces the original in the
    standings and is never added to it, so whoever builds a Match (season file, database) passes the replayed
    hanchan (or match) in place of the original, with the same number, and never both.
    """

    id: MatchId
    stage: str
    round: int | str
    table: int
    hanchans: tuple[Hanchan, ...] = ()
    penalties: tuple[Penalty, ...] = ()
    rules: Ruleset = field(kw_only=True)  # the season's ruleset: required, never the 2026 numbers by default

    @property
    def hanchans_required(self) -> int:
        return self.rules.hanchans(final=self.stage == PLAYOFF and self.round == FINAL_ROUND)

    @property
    def complete(self) -> bool:
        return len(self.hanchans) == self.hanchans_required


@dataclass(frozen=True, slots=True)
class HanchanScore:
    player: PlayerId
    points: int
    place: Fraction  # a shared place counts as the mean of the positions it covers (2nd–3rd → 5/2)
    uma: int
    riichi: int  # this player's share of the sticks left on the table
    chombo_penalty: int  # 0 or a negative multiple of the ruleset's chombo
    score: int  # points − start points + uma + riichi + chombo_penalty


@dataclass(frozen=True, slots=True)
class MatchLine:
    """One player's line in a match. Not seated (`place is None`): a penalty only, e.g. a replaced no-show."""

    player: PlayerId
    hanchans: tuple[int, ...]  # this player's hanchan scores, by hanchan number
    places: tuple[Fraction, ...]  # hanchan places, same order
    penalties: int
    match_uma: int
    total: int
    place: int | None
    unresolved_tie: bool = False

    @property
    def seated(self) -> bool:
        return self.place is not None

    @property
    def average_place(self) -> Fraction | None:
        return sum(self.places, Fraction(0)) / len(self.places) if self.places else None


@dataclass(frozen=True, slots=True)
class MatchScore:
    match: Match
    lines: tuple[MatchLine, ...]  # seated players by match place, then penalty-only players

    @property
    def complete(self) -> bool:
        return self.match.complete


def _sticks_word(n: int) -> str:
    return plural(n, "палочка", "палочки", "палочек")


def hanchan_problems(results: Sequence[TableResult], riichi_left: int, rules: Ruleset) -> list[str]:
    """What is wrong with a hanchan as entered, in Russian; empty when it can be scored."""
    problems: list[str] = []
    if len(results) != 4:
        problems.append(f"нужно 4 результата, указано {len(results)}")
    seen: set[PlayerId] = set()
    for r in results:
        if r.player in seen:
            problems.append(f"игрок {r.player} указан дважды")
        seen.add(r.player)
        if r.chombo < 0:
            problems.append(f"чомбо игрока {r.player} не может быть отрицательным: {format_points(r.chombo)}")
        elif r.chombo > MAX_CHOMBO:
            problems.append(f"чомбо игрока {r.player} — не больше {MAX_CHOMBO} за ханчан, указано {r.chombo}")
        if abs(r.points) > MAX_POINTS:
            problems.append(
                f"очки игрока {r.player} — от −{format_points(MAX_POINTS)} до {format_points(MAX_POINTS)}, "
                f"указано {format_points(r.points)}"
            )
    if riichi_left < 0:
        problems.append(f"палочек риичи на столе не может быть меньше нуля: {format_points(riichi_left)}")
    elif riichi_left > MAX_STICKS:
        problems.append(f"палочек риичи на столе — не больше {MAX_STICKS}, указано {riichi_left}")
    if any(abs(r.points) > MAX_POINTS for r in results):
        return problems  # the sum of absurd numbers says nothing more
    points = sum(r.points for r in results)
    total = points + riichi_left * RIICHI_STICK
    if riichi_left >= 0 and total != rules.table_total:
        sticks = f" + {riichi_left} {_sticks_word(riichi_left)} = {format_points(total)}" if riichi_left else ""
        problems.append(f"сумма очков {format_points(points)}{sticks}, должна быть {format_points(rules.table_total)}")
    return problems


def tied_groups(values: Sequence[int]) -> list[tuple[list[int], int, int]]:
    """Indices of `values` grouped by equal value, best (highest) first, with the 0-based positions each covers."""
    order = sorted(range(len(values)), key=lambda i: -values[i])
    groups: list[tuple[list[int], int, int]] = []
    for pos, i in enumerate(order):
        if groups and values[groups[-1][0][0]] == values[i]:
            groups[-1][0].append(i)
            groups[-1] = (groups[-1][0], groups[-1][1], pos)
        else:
            groups.append(([i], pos, pos))
    return groups


def split_uma(uma: Sequence[int], first: int, last: int) -> int:
    """Each tied player's share of the uma of positions first..last (0-based).

    With the regulation's 15/5 every split is exact (2-way: 10 000, 0, −10 000; 3-way: ±5 000; 4-way: 0); floor
    division keeps the result an integer under another season's uma.
    """
    return sum(uma[first : last + 1]) // (last - first + 1)


def score_hanchan(hanchan: Hanchan, rules: Ruleset) -> tuple[HanchanScore, ...]:
    """Scores in the order of `hanchan.results`. Raises ValueError (Russian) for a hanchan that does not add up."""
    problems = hanchan_problems(hanchan.results, hanchan.riichi_left, rules)
    if problems:
        raise ValueError(f"ханчан {hanchan.number}: " + "; ".join(problems))
    return _score_checked_hanchan(hanchan, rules)


def _score_checked_hanchan(hanchan: Hanchan, rules: Ruleset) -> tuple[HanchanScore, ...]:
    results = hanchan.results
    scores: list[HanchanScore | None] = [None] * len(results)
    for indices, first, last in tied_groups([r.points for r in results]):
        # Регламент §4 → RRC 2.0: равные очки делят места и уму этих мест поровну, без старшинства ветров.
        uma = split_uma(rules.hanchan_uma, first, last)
        place = Fraction(first + last + 2, 2)
        # Leftover riichi sticks go to first place, split on a tie and floored to whole points (1 stick / 3 → 333).
        riichi = hanchan.riichi_left * RIICHI_STICK // len(indices) if first == 0 else 0
        for i in indices:
            r = results[i]
            chombo = -rules.chombo_penalty * r.chombo  # Регламент §4: после умы, за каждое чомбо
            score = r.points - rules.start_points + uma + riichi + chombo
            scores[i] = HanchanScore(r.player, r.points, place, uma, riichi, chombo, score)
    return tuple(s for s in scores if s is not None)


def match_problems(match: Match, where: str = "") -> list[str]:
    """What stops a match from being scored, in Russian, located from `where` on ("матч 5" → "матч 5, ханчан 2: …")."""

    def at(place: str, message: str) -> str:
        location = f"{where}, {place}" if where and place else where or place
        return f"{location}: {message}" if location else message

    problems: list[str] = []
    required = match.hanchans_required
    if len(match.hanchans) > required:
        problems.append(at("", f"ханчанов {len(match.hanchans)}, в этом матче их не больше {required}"))
    numbers: set[int] = set()
    first_seats: tuple[int, frozenset[PlayerId]] | None = None
    for h in sorted(match.hanchans, key=lambda h: h.number):
        place = f"ханчан {h.number}"
        if not 1 <= h.number <= required:
            problems.append(at(place, f"номер должен быть от 1 до {required}"))
        if h.number in numbers:
            # Регламент §6.2: переигровка заменяет исходную игру, а не добавляется к ней.
            problems.append(at(place, "указан дважды (переигровка заменяет исходный ханчан, а не добавляется к нему)"))
        numbers.add(h.number)
        problems += [at(place, p) for p in hanchan_problems(h.results, h.riichi_left, match.rules)]
        seats = frozenset(r.player for r in h.results)
        if first_seats is None:
            first_seats = (h.number, seats)
        elif seats != first_seats[1]:
            problems.append(at(place, f"состав игроков отличается от ханчана {first_seats[0]}"))
    for p in match.penalties:
        if p.points >= 0:
            problems.append(
                at(f"штраф игроку {p.player}", f"должен быть отрицательным, указано {format_points(p.points)}")
            )
    return problems


def rank(
    entries: Iterable[tuple[PlayerId, int, Fraction | None]],
    tie_decisions: Iterable[Sequence[PlayerId]] = (),
) -> list[tuple[PlayerId, int, bool]]:
    """Order (player, total, average place) into (player, place, unresolved_tie).

    Регламент §4 «Равенство очков»: higher total first, then the lower exact average place (no average — nothing
    played — counts as worst). Still equal: the organizer decides. A decision is an ordered list of player ids
    and settles a tied group only when it names exactly that group; otherwise the group keeps a shared place
    (1, 2, 2, 4) and is flagged unresolved. Ties keep the input order among themselves. Players who have
    played nothing share their place without a flag: there is nothing for the organizer to decide yet.
    """
    decisions = {frozenset(d): tuple(d) for d in tie_decisions if len(set(d)) == len(d)}
    ordered = sorted(entries, key=lambda e: (-e[1], e[2] is None, e[2] if e[2] is not None else 0))
    out: list[tuple[PlayerId, int, bool]] = []
    start = 0
    while start < len(ordered):
        end = start + 1
        while end < len(ordered) and ordered[end][1:] == ordered[start][1:]:
            end += 1
        group = [e[0] for e in ordered[start:end]]
        decision = decisions.get(frozenset(group)) if len(group) > 1 else None
        if decision is not None:
            out += [(player, start + 1 + k, False) for k, player in enumerate(decision)]
        else:
            awaits_decision = len(group) > 1 and ordered[start][2] is not None
            out += [(player, start + 1, awaits_decision) for player in group]
        start = end
    return out


def score_match(match: Match, tie_decisions: Iterable[Sequence[PlayerId]] = ()) -> MatchScore:
    """Score a match: hanchans, penalties, match uma (regular, complete only) and match places.

    Regular stage: equal totals share the match place and split its match uma; no further tie-break inside the
    match. Playoff (Регламент §4): no match uma; places by total, then the average place in this match, then
    `tie_decisions` (see `rank`); this is the ranking the bracket uses. Raises ValueError for an invalid match.
    """
    problems = match_problems(match, f"матч {match.id}")
    if problems:
        raise ValueError("; ".join(problems))
    seats: list[PlayerId] = []
    scores: dict[PlayerId, list[int]] = defaultdict(list)
    places: dict[PlayerId, list[Fraction]] = defaultdict(list)
    for hanchan in sorted(match.hanchans, key=lambda h: h.number):
        for s in _score_checked_hanchan(hanchan, match.rules):
            if s.player not in scores:
                seats.append(s.player)
            scores[s.player].append(s.score)
            places[s.player].append(s.place)
    penalties: dict[PlayerId, int] = defaultdict(int)
    for penalty in match.penalties:
        penalties[penalty.player] += penalty.points
    # Регламент §4: «места в матче определяются суммой результатов … с предусмотренными штрафами».
    totals = [sum(scores[p]) + penalties[p] for p in seats]
    place_of: dict[PlayerId, tuple[int, int, bool]] = {}  # player → (place, match uma, unresolved)
    if match.stage == REGULAR:
        for indices, first, last in tied_groups(totals):
            # Регламент §2, §4: матчевая ума — только после всех трёх ханчанов.
            uma = split_uma(match.rules.match_uma, first, last) if match.complete else 0
            for i in indices:
                place_of[seats[i]] = (first + 1, uma, False)
    else:
        entries = [(p, t, sum(places[p], Fraction(0)) / len(places[p])) for p, t in zip(seats, totals, strict=True)]
        for player, place, unresolved in rank(entries, tie_decisions):
            place_of[player] = (place, 0, unresolved)
    lines: list[MatchLine] = []
    for p, total in zip(seats, totals, strict=True):
        place, uma, unresolved = place_of[p]
        lines.append(
            MatchLine(p, tuple(scores[p]), tuple(places[p]), penalties[p], uma, total + uma, place, unresolved)
        )
    lines.sort(key=lambda line: line.place or 0)
    # A penalty for someone with no seat (a no-show replaced by a substitute) still counts for that player.
    lines += [MatchLine(p, (), (), pts, 0, pts, None) for p, pts in penalties.items() if p not in scores]
    return MatchScore(match, tuple(lines))


def shuffle_winds(players: Sequence[PlayerId], rng: random.Random) -> tuple[PlayerId, ...]:
    """Регламент §4 «Выбор начальных ветров»: random starting winds before each hanchan, East, South, West, North.

    Seeding and the table's composition never set the winds; the caller passes the RNG so a draw can be replayed.
    """
    if len(players) != 4 or len(set(players)) != 4:
        raise ValueError(f"за столом должно быть 4 разных игрока, указано {len(players)}")
    order = list(players)
    rng.shuffle(order)
    return tuple(order)
