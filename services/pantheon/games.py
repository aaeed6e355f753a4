"""Pantheon's answers as dataclasses, read field by field with Twirp's left-out defaults; pure, imports no reflex."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from services.core.errors import LeagueError

# A round record holds exactly one of these keys (atoms.proto, RoundState oneof).
ROUND_KINDS = ("ron", "tsumo", "multiron", "draw", "abort", "chombo", "nagashi")


class MalformedAnswer(LeagueError):
    """An answer that does not have the documented shape; the message is Russian."""


@dataclass(frozen=True, slots=True)
class FinalResult:
    player_id: int
    score: int
    rating_delta: float
    place: int


@dataclass(frozen=True, slots=True)
class RoundRecord:
    kind: str
    riichi_bets: tuple[int, ...] = ()
    loser_id: int | None = None


@dataclass(frozen=True, slots=True)
class GameResult:
    session_hash: str
    date: str  # the game's end, "YYYY-MM-DD HH:MM:SS", the event's wall time without an offset
    players: tuple[int, ...]  # seat order East, South, West, North at the start
    final_results: tuple[FinalResult, ...]
    rounds: tuple[RoundRecord, ...]


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    id: int
    title: str


@dataclass(frozen=True, slots=True)
class LastGames:
    games: tuple[GameResult, ...]
    players: tuple[PlayerInfo, ...]
    total: int


@dataclass(frozen=True, slots=True)
class GameConfig:
    timezone: str
    start_points: int
    riichi_goes_to_winner: bool
    extra_chombo_payments: bool
    title: str = ""


def _obj(value: Any, where: str) -> Mapping[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise MalformedAnswer(f"{where}: ожидался объект, получено {type(value).__name__}")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise MalformedAnswer(f"{where}: ожидался список, получено {type(value).__name__}")
    return value


def _int(value: Any, where: str, default: int | None = 0) -> int:
    # proto3 JSON prints int64 as a string and floats may print without a decimal point: accept both.
    if value is None:
        if default is None:
            raise MalformedAnswer(f"{where}: нет значения")
        return default
    if isinstance(value, bool):
        raise MalformedAnswer(f"{where}: ожидалось число, получено {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value.strip())
    raise MalformedAnswer(f"{where}: ожидалось целое число, получено {value!r}")


def _float(value: Any, where: str) -> float:
    if value is None:
        return 0.0
    try:
        return float(value)
    except (TypeError, ValueError):
        raise MalformedAnswer(f"{where}: ожидалось число, получено {value!r}") from None


def _str(value: Any, where: str, default: str | None = "") -> str:
    if value is None:
        if default is None:
            raise MalformedAnswer(f"{where}: нет значения")
        return default
    if not isinstance(value, str):
        raise MalformedAnswer(f"{where}: ожидалась строка, получено {value!r}")
    return value


def _bool(value: Any) -> bool:
    return bool(value) if value is not None else False


def parse_round(raw: Any, where: str) -> RoundRecord:
    data = _obj(raw, where)
    kinds = [k for k in ROUND_KINDS if k in data]
    if len(kinds) != 1:
        raise MalformedAnswer(f"{where}: неизвестный вид раздачи ({', '.join(sorted(data)) or 'пусто'})")
    kind = kinds[0]
    body = _obj(data[kind], f"{where}.{kind}")
    bets = tuple(_int(b, f"{where}.riichiBets") for b in _list(body.get("riichiBets"), f"{where}.riichiBets"))
    loser = body.get("loserId")
    return RoundRecord(kind, bets, None if loser is None else _int(loser, f"{where}.loserId"))


def parse_game(raw: Any, where: str = "game") -> GameResult:
    data = _obj(raw, where)
    session_hash = _str(data.get("sessionHash"), f"{where}.sessionHash", default=None)
    if not session_hash:
        raise MalformedAnswer(f"{where}: нет sessionHash")
    where = f"игра {session_hash}"
    players = tuple(_int(p, f"{where}.players", None) for p in _list(data.get("players"), f"{where}.players"))
    results = []
    for i, r in enumerate(_list(data.get("finalResults"), f"{where}.finalResults")):
        item = _obj(r, f"{where}.finalResults[{i}]")
        results.append(
            FinalResult(
                _int(item.get("playerId"), f"{where}.finalResults[{i}].playerId", None),
                _int(item.get("score"), f"{where}.finalResults[{i}].score"),
                _float(item.get("ratingDelta"), f"{where}.finalResults[{i}].ratingDelta"),
                _int(item.get("place"), f"{where}.finalResults[{i}].place"),
            )
        )
    rounds = tuple(
        parse_round(r, f"{where}.rounds[{i}]") for i, r in enumerate(_list(data.get("rounds"), f"{where}.rounds"))
    )
    return GameResult(session_hash, _str(data.get("date"), f"{where}.date"), players, tuple(results), rounds)


def parse_players(raw: Any, where: str) -> tuple[PlayerInfo, ...]:
    out = []
    for i, p in enumerate(_list(raw, where)):
        item = _obj(p, f"{where}[{i}]")
        out.append(PlayerInfo(_int(item.get("id"), f"{where}[{i}].id", None), _str(item.get("title"), f"{where}[{i}]")))
    return tuple(out)


def parse_last_games(raw: Any) -> LastGames:
    data = _obj(raw, "GetLastGames")
    games = tuple(parse_game(g, f"games[{i}]") for i, g in enumerate(_list(data.get("games"), "games")))
    return LastGames(games, parse_players(data.get("players"), "players"), _int(data.get("totalGames"), "totalGames"))


def parse_game_config(raw: Any) -> GameConfig:
    data = _obj(raw, "GetGameConfig")
    rules = _obj(data.get("rulesetConfig"), "rulesetConfig")
    timezone = _str(data.get("timezone"), "timezone")
    if not timezone:
        raise MalformedAnswer("GetGameConfig: не указан часовой пояс события (timezone)")
    return GameConfig(
        timezone=timezone,
        start_points=_int(rules.get("startPoints"), "rulesetConfig.startPoints"),
        riichi_goes_to_winner=_bool(rules.get("riichiGoesToWinner")),
        extra_chombo_payments=_bool(rules.get("extraChomboPayments")),
        title=_str(data.get("eventTitle"), "eventTitle"),
    )


def parse_registered_players(raw: Any) -> tuple[PlayerInfo, ...]:
    data = _obj(raw, "GetAllRegisteredPlayers")
    return parse_players(data.get("players"), "players")
