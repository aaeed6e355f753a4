"""A Pantheon game as the league counts it: table points, sticks left, chombo, winds, end in UTC. Pure; no reflex."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from services.core.errors import LeagueError
from services.core.ruleset import Ruleset
from services.core.wording import format_points
from services.pantheon.games import GameConfig, GameResult
from services.results import scoring

DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
STICK_RESETS = ("ron", "tsumo", "multiron")
STICK_STAYS = ("draw", "abort", "nagashi")


class ReconstructError(LeagueError):
    """A game the league cannot count as it came from Pantheon; the message is Russian."""


@dataclass(frozen=True, slots=True)
class Seat:
    person_id: int  # Pantheon person id
    points: int  # as on the table, the leftover sticks not included
    chombo: int
    place: Fraction  # recomputed from the points: equal points share the place (Регламент §4, RRC)


@dataclass(frozen=True, slots=True)
class TableGame:
    session_hash: str
    ended_at: datetime  # UTC
    seats: tuple[Seat, ...]  # East, South, West, North at the start (Регламент §4: winds shuffled in Pantheon)
    riichi_left: int

    def as_json(self) -> dict[str, object]:
        """What the import stores and compares: the same game read twice gives the same document."""
        return {
            "hash": self.session_hash,
            "ended_at": self.ended_at.isoformat(),
            "riichi_left": self.riichi_left,
            "seats": [{"person": s.person_id, "points": s.points, "chombo": s.chombo} for s in self.seats],
        }


def ended_at_utc(date: str, timezone: str) -> datetime:
    """Pantheon's local end time (no offset) in the event's zone → an aware UTC instant."""
    try:
        zone = ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError):
        raise ReconstructError(f"неизвестный часовой пояс события «{timezone}»") from None
    try:
        local = datetime.strptime(date.strip(), DATE_FORMAT)
    except ValueError:
        raise ReconstructError(f"время окончания «{date}» не в формате ГГГГ-ММ-ДД ЧЧ:ММ:СС") from None
    return local.replace(tzinfo=zone).astimezone(UTC)


def sticks_left(game: GameResult) -> int:
    """Riichi sticks on the table at the end: a draw keeps the bets, any win collects them, a chombo changes nothing."""
    sticks = 0
    for r in game.rounds:
        if r.kind in STICK_STAYS:
            sticks += len(r.riichi_bets)
        elif r.kind in STICK_RESETS:
            sticks = 0
    return sticks


def stick_award(sticks: int, tied_first: int) -> int:
    """What Pantheon added to each of the players tied for first: 100 × floor(sticks × 10 / k)."""
    return 100 * (sticks * 10 // tied_first) if sticks and tied_first else 0


def reconstruct(game: GameResult, config: GameConfig, rules: Ruleset) -> TableGame:
    """The game as on the table. Raises ReconstructError (Russian) when it cannot be counted as it is."""
    where = f"игра {game.session_hash}"
    if len(game.players) != 4 or len(set(game.players)) != 4:
        raise ReconstructError(f"{where}: нужно четыре разных игрока, в Pantheon {len(game.players)}")
    by_player = {r.player_id: r for r in game.final_results}
    if set(by_player) != set(game.players) or len(game.final_results) != 4:
        raise ReconstructError(f"{where}: итоговые результаты не совпадают с игроками за столом")
    chombo = {p: sum(1 for r in game.rounds if r.kind == "chombo" and r.loser_id == p) for p in game.players}
    if config.extra_chombo_payments and any(chombo.values()):
        # The payments moved points between players; the league applies its own chombo only (Регламент §4).
        raise ReconstructError(f"{where}: чомбо с выплатами игрокам (extraChomboPayments) — внесите результат вручную")
    sticks = sticks_left(game)
    scores = {p: by_player[p].score for p in game.players}
    if config.riichi_goes_to_winner and sticks:
        top = max(scores.values())
        tied = [p for p in game.players if scores[p] == top]
        award = stick_award(sticks, len(tied))
        for p in tied:
            scores[p] -= award
    total = sum(scores.values()) + sticks * scoring.RIICHI_STICK
    if total != rules.table_total:
        raise ReconstructError(
            f"{where}: очки на столе {format_points(sum(scores.values()))} + {sticks} палоч. риичи "
            f"≠ {format_points(rules.table_total)} (стартовые очки события "
            f"{format_points(config.start_points)})"
        )
    points = [scores[p] for p in game.players]
    places: dict[int, Fraction] = {}
    for indices, first, last in scoring.tied_groups(points):
        for i in indices:
            places[game.players[i]] = Fraction(first + last + 2, 2)
    seats = tuple(Seat(p, scores[p], chombo[p], places[p]) for p in game.players)
    return TableGame(game.session_hash, ended_at_utc(game.date, config.timezone), seats, sticks)
