"""The `discard-season/1` JSON file: dataclasses, parse and validate (every problem at once), dump. Pure apart from
`load_season` reading a file; imports no database, reflex or telegram."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from services.core.errors import LeagueError
from services.core.ruleset import DEFAULT, FIELDS, NUMBERS, PLANNING, ZONE_FIELD, Ruleset, zone_problem
from services.core.text_limits import PERSON_NAME_MAX
from services.results.scoring import (
    MAX_CHOMBO,
    MAX_PENALTY,
    MAX_POINTS,
    MAX_STICKS,
    PLAYOFF,
    PLAYOFF_ROUNDS,
    REGULAR,
    STAGES,
    Hanchan,
    Match,
    Penalty,
    TableResult,
    hanchan_problems,
    match_problems,
)
from services.results.standings import STATUSES, Player

FORMAT = "discard-season/1"
_TOP_KEYS = ("format", "players", "matches")
_OPTIONAL_TOP_KEYS = ("rules",)  # a file without them is scored by the 2026 regulation
_PLAYER_KEYS = ("id", "name", "status")
_MATCH_KEYS = ("id", "stage", "round", "table", "hanchans", "penalties")
_HANCHAN_KEYS = ("number", "riichi_left", "results")
_RESULT_KEYS = ("player", "points", "chombo")
_PENALTY_KEYS = ("player", "points", "reason")
# The ranges a real season stays far inside (services/results/scoring.py): the same for every way in.


def _within(low: int, high: int) -> Callable[[Any], bool]:
    return lambda v: _is_int(v) and low <= v <= high


@dataclass(frozen=True, slots=True)
class Season:
    """A whole season. Matches carry only effective hanchans: a replay stands in place of the original."""

    players: tuple[Player, ...]
    matches: tuple[Match, ...]
    rules: Ruleset  # every match carries the same


class SeasonFileError(LeagueError):
    """The file cannot be used; `problems` lists every problem found, in Russian, each with its location."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_id(value: Any) -> bool:
    return _is_int(value) or (isinstance(value, str) and value.strip() != "")


class _Reader:
    """Collects problems while reading; each getter returns None when the value is unusable."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def add(self, where: str, message: str) -> None:
        self.problems.append(f"{where}: {message}" if where else message)

    def obj(self, value: Any, keys: Sequence[str], where: str, optional: Sequence[str] = ()) -> dict[str, Any] | None:
        if not isinstance(value, dict):
            self.add(where, f"ожидается объект, указано {_show(value)}")
            return None
        for key in keys:
            if key not in value:
                self.add(where, f"нет поля «{key}»")
        for key in value:
            if key not in keys and key not in optional:
                self.add(where, f"неизвестное поле «{key}»")
        return value

    def field(self, data: dict[str, Any], key: str, where: str, ok: Callable[[Any], bool], need: str) -> Any:
        if key not in data:
            return None  # already reported by obj()
        value = data[key]
        if not ok(value):
            self.add(where, f"поле «{key}» должно быть {need}, указано {_show(value)}")
            return None
        return value

    def items(self, data: dict[str, Any], key: str, where: str) -> list[Any]:
        value = self.field(data, key, where, lambda v: isinstance(v, list), "списком")
        return value if value is not None else []


def _where(kind: str, raw: Any, key: str, index: int, ok: Callable[[Any], bool] = _is_id) -> str:
    """Name a list item by its own id or number when it has a usable one, else by its position."""
    value = raw.get(key) if isinstance(raw, dict) else None
    return f"{kind} {value}" if ok(value) else f"{kind} №{index + 1}"


def _player(r: _Reader, raw: Any, index: int) -> Player | None:
    where = _where("игрок", raw, "id", index)
    data = r.obj(raw, _PLAYER_KEYS, where)
    if data is None:
        return None
    pid = r.field(data, "id", where, _is_id, "целым числом или непустой строкой")
    name = r.field(
        data,
        "name",
        where,
        lambda v: isinstance(v, str) and v.strip() != "" and len(" ".join(v.split())) <= PERSON_NAME_MAX,
        f"непустой строкой не длиннее {PERSON_NAME_MAX} символов",
    )
    status = r.field(data, "status", where, lambda v: v in STATUSES, "одним из: " + ", ".join(STATUSES))
    if pid is None or name is None or status is None:
        return None
    return Player(pid, name, status)


def _result(r: _Reader, raw: Any, where: str, known: set[Any]) -> TableResult | None:
    data = r.obj(raw, _RESULT_KEYS, where)
    if data is None:
        return None
    player = r.field(data, "player", where, _is_id, "идентификатором игрока")
    points = r.field(
        data, "points", where, _within(-MAX_POINTS, MAX_POINTS), f"целым числом от −{MAX_POINTS} до {MAX_POINTS}"
    )
    chombo = r.field(data, "chombo", where, _within(0, MAX_CHOMBO), f"целым числом от 0 до {MAX_CHOMBO}")
    if player is not None and player not in known:
        r.add(where, f"неизвестный игрок {_show(player)}")
        player = None
    if player is None or points is None or chombo is None:
        return None
    return TableResult(player, points, chombo)


def _hanchan(r: _Reader, raw: Any, match_where: str, index: int, known: set[Any]) -> Hanchan | None:
    where = f"{match_where}, " + _where("ханчан", raw, "number", index, _is_int)
    data = r.obj(raw, _HANCHAN_KEYS, where)
    if data is None:
        return None
    number = r.field(data, "number", where, _is_int, "целым числом")
    riichi = r.field(data, "riichi_left", where, _within(0, MAX_STICKS), f"целым числом от 0 до {MAX_STICKS}")
    raw_results = r.items(data, "results", where)
    results = [_result(r, x, f"{where}, результат {i + 1}", known) for i, x in enumerate(raw_results)]
    if number is None or riichi is None or not isinstance(data.get("results"), list) or None in results:
        return None
    return Hanchan(number, riichi, tuple(x for x in results if x is not None))


def _penalty(r: _Reader, raw: Any, where: str, known: set[Any]) -> Penalty | None:
    data = r.obj(raw, _PENALTY_KEYS, where)
    if data is None:
        return None
    player = r.field(data, "player", where, _is_id, "идентификатором игрока")
    # Регламент §5, §6.3: штраф — отрицательное целое число очков; неявка — штраф сезона (ruleset.no_show_penalty).
    points = r.field(
        data, "points", where, _within(-MAX_PENALTY, -1), f"отрицательным целым числом не меньше −{MAX_PENALTY}"
    )
    reason = r.field(data, "reason", where, lambda v: isinstance(v, str) and v.strip() != "", "непустой строкой")
    if player is not None and player not in known:
        r.add(where, f"неизвестный игрок {_show(player)}")
        player = None
    if player is None or points is None or reason is None:
        return None
    return Penalty(player, points, reason)


def _round_ok(stage: Any, value: Any, tours: int) -> bool:
    if stage == REGULAR:
        return _is_int(value) and 1 <= value <= tours
    return isinstance(value, str) and value in PLAYOFF_ROUNDS


def _rules(r: _Reader, raw: Any) -> Ruleset:
    """The file's `rules` object (every field of services/core/ruleset.py); missing: the regulation's. The planning
    numbers (`ruleset.PLANNING`) may be left out by files written before they were rules: the import keeps the
    season's own then (`season_io.import_season`)."""
    if raw is None:
        return DEFAULT
    required = [name for name in FIELDS if name not in PLANNING]
    data = r.obj(raw, required, "правила", optional=(ZONE_FIELD, *PLANNING))
    if data is None:
        return DEFAULT
    # Регламент §1, §6.1: files written before the zone became the club's name it; only the club's own is accepted.
    if ZONE_FIELD in data and (problem := zone_problem(data[ZONE_FIELD])) is not None:
        r.add("правила", problem)
    values: dict[str, Any] = {}
    for name in FIELDS:
        ok: Callable[[Any], bool] = _is_int if name in NUMBERS else (lambda v: isinstance(v, str))
        value = r.field(data, name, "правила", ok, "целым числом" if name in NUMBERS else "строкой")
        if value is not None:
            values[name] = value
    rules = replace(DEFAULT, **values)
    for problem in rules.problems():
        r.add("правила", problem)
    return rules


def _match(r: _Reader, raw: Any, index: int, known: set[Any], rules: Ruleset) -> Match | None:
    where = _where("матч", raw, "id", index)
    data = r.obj(raw, _MATCH_KEYS, where)
    if data is None:
        return None
    mid = r.field(data, "id", where, _is_id, "целым числом или непустой строкой")
    stage = r.field(data, "stage", where, lambda v: v in STAGES, "одним из: " + ", ".join(STAGES))
    need_round = {
        REGULAR: f"номером тура от 1 до {rules.tours}",
        PLAYOFF: "раундом плей-офф, одним из: " + ", ".join(PLAYOFF_ROUNDS),
    }.get(stage, "туром или раундом")
    round_ = r.field(data, "round", where, lambda v: stage is None or _round_ok(stage, v, rules.tours), need_round)
    table = r.field(data, "table", where, lambda v: _is_int(v) and v >= 1, "целым числом не меньше 1")
    raw_hanchans = r.items(data, "hanchans", where)
    hanchans = [_hanchan(r, x, where, i, known) for i, x in enumerate(raw_hanchans)]
    raw_penalties = r.items(data, "penalties", where)
    penalties = [_penalty(r, x, f"{where}, штраф {i + 1}", known) for i, x in enumerate(raw_penalties)]
    usable = [h for h in hanchans if h is not None]
    if None in (mid, stage, round_, table) or None in hanchans or None in penalties:
        # Still check the sums of the hanchans that could be read, so one pass lists every problem.
        for h in usable:
            for p in hanchan_problems(h.results, h.riichi_left, rules):
                r.add(f"{where}, ханчан {h.number}", p)
        return None
    match = Match(mid, stage, round_, table, tuple(usable), tuple(p for p in penalties if p is not None), rules=rules)
    r.problems += match_problems(match, where)
    return match


def parse_season(data: Any) -> Season:
    """Validate a decoded `discard-season/1` document; raises SeasonFileError listing every problem."""
    r = _Reader()
    top = r.obj(data, _TOP_KEYS, "файл", _OPTIONAL_TOP_KEYS)
    if top is None:
        raise SeasonFileError(r.problems)
    rules = _rules(r, top.get("rules"))
    if "format" in top and top["format"] != FORMAT:
        r.add("файл", f"формат должен быть «{FORMAT}», указано {_show(top['format'])}")
    raw_players = r.items(top, "players", "файл")
    players = [_player(r, x, i) for i, x in enumerate(raw_players)]
    seen: set[Any] = set()
    for x in raw_players:
        pid = x.get("id") if isinstance(x, dict) else None
        if _is_id(pid) and pid in seen:
            r.add(f"игрок {pid}", "идентификатор повторяется")
        if _is_id(pid):
            seen.add(pid)
    # A player with another problem (say, a bad status) is still known, so matches don't report him twice.
    matches = [_match(r, x, i, seen, rules) for i, x in enumerate(r.items(top, "matches", "файл"))]
    seen_matches: set[Any] = set()
    slots: dict[tuple[Any, ...], Any] = {}
    for m in matches:
        if m is None:
            continue
        if m.id in seen_matches:
            r.add(f"матч {m.id}", "идентификатор повторяется")
        seen_matches.add(m.id)
        # One match per table in a tour, one match per playoff round (a replayed match replaces the original).
        slot = (REGULAR, m.round, m.table) if m.stage == REGULAR else (PLAYOFF, m.round)
        if slot in slots:
            what = f"тур {m.round}, стол {m.table}" if m.stage == REGULAR else f"раунд {m.round}"
            r.add(f"матч {m.id}", f"{what} уже занят матчем {slots[slot]}")
        slots.setdefault(slot, m.id)
    if r.problems:
        raise SeasonFileError(r.problems)
    return Season(tuple(p for p in players if p is not None), tuple(m for m in matches if m is not None), rules)


def load_season(path: str | os.PathLike[str]) -> Season:
    """Read and validate a season file; unreadable files and bad JSON are SeasonFileError too."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except FileNotFoundError as e:
        raise SeasonFileError([f"файл {os.fspath(path)} не найден"]) from e
    except OSError as e:
        raise SeasonFileError([f"не удалось прочитать файл {os.fspath(path)} ({type(e).__name__})"]) from e
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise SeasonFileError([f"файл {os.fspath(path)} — не JSON: {e}"]) from e
    return parse_season(data)


def dump_season(season: Season) -> dict[str, Any]:
    """The `discard-season/1` document for `season`, ready for json.dump."""
    return {
        "format": FORMAT,
        "rules": season.rules.as_columns(),
        "players": [{"id": p.id, "name": p.name, "status": p.status} for p in season.players],
        "matches": [
            {
                "id": m.id,
                "stage": m.stage,
                "round": m.round,
                "table": m.table,
                "hanchans": [
                    {
                        "number": h.number,
                        "riichi_left": h.riichi_left,
                        "results": [{"player": x.player, "points": x.points, "chombo": x.chombo} for x in h.results],
                    }
                    for h in m.hanchans
                ],
                "penalties": [{"player": p.player, "points": p.points, "reason": p.reason} for p in m.penalties],
            }
            for m in season.matches
        ],
    }
