"""Regular-stage standings and their tie-breaks (regulation §4, §6.1). Pure; imports no database, reflex or telegram."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from services.results.scoring import REGULAR, MatchScore, PlayerId, rank

MAIN = "main"
RESERVE = "reserve"
SUBSTITUTE = "substitute"
WITHDRAWN = "withdrawn"
STATUSES = (MAIN, RESERVE, SUBSTITUTE, WITHDRAWN)


@dataclass(frozen=True, slots=True)
class Player:
    id: PlayerId
    name: str
    status: str  # one of STATUSES


@dataclass(frozen=True, slots=True)
class StandingsRow:
    place: int  # shared (1, 2, 2, 4) while `unresolved_tie`
    player: PlayerId
    name: str
    total: int
    matches: int  # regular matches with a seat (at least one hanchan played)
    hanchans: int
    average_place: Fraction | None  # exact; None before the first hanchan
    unresolved_tie: bool


@dataclass(slots=True)
class _Tally:
    total: int = 0
    matches: int = 0
    hanchans: int = 0
    place_sum: Fraction = Fraction(0)


def compute_standings(
    players: Iterable[Player],
    match_scores: Iterable[MatchScore],
    tie_decisions: Iterable[Sequence[PlayerId]] = (),
) -> list[StandingsRow]:
    """The regular-stage table, best first.

    Регламент §4: the total is the sum of the regular matches (an incomplete match counts without match uma);
    ties go to the lower exact average place over the regular-stage hanchans, then to the organizer
    (`tie_decisions`, see `services.results.scoring.rank`). Регламент §6.1: only main participants are ranked;
    substitutes and withdrawn players (and reserves who never joined) stay in the match results only.
    A penalty with no seat in the match (a replaced no-show) counts in the total but not as a match played.
    """
    tallies: dict[PlayerId, _Tally] = {}
    for ms in match_scores:
        if ms.match.stage != REGULAR:
            continue
        for line in ms.lines:
            tally = tallies.setdefault(line.player, _Tally())
            tally.total += line.total
            if line.seated:
                tally.matches += 1
                tally.hanchans += len(line.places)
                tally.place_sum += sum(line.places, Fraction(0))
    ranked_players = [p for p in players if p.status == MAIN]
    by_id = {p.id: p for p in ranked_players}
    entries = []
    for p in ranked_players:
        t = tallies.get(p.id, _Tally())
        entries.append((p.id, t.total, t.place_sum / t.hanchans if t.hanchans else None))
    rows = []
    for player_id, place, unresolved in rank(entries, tie_decisions):
        t = tallies.get(player_id, _Tally())
        average = t.place_sum / t.hanchans if t.hanchans else None
        rows.append(
            StandingsRow(place, player_id, by_id[player_id].name, t.total, t.matches, t.hanchans, average, unresolved)
        )
    return rows
