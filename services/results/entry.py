"""Reading a hanchan result form into an `Entry` (Регламент §4, §6.2); pure, imports no database or reflex."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from services.core.errors import LeagueError
from services.core.ruleset import Ruleset
from services.core.wording import declined, format_points
from services.results import scoring

POINTS_STEP = 100  # the smallest stick on the table: a score that is not a multiple of it is a typo


class ResultsError(LeagueError):
    """A refused action; `problems` lists what exactly is wrong, in Russian, and nothing has been stored."""

    def __init__(self, problems: str | Sequence[str]) -> None:
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        super().__init__("; ".join(self.problems))


@dataclass(frozen=True)
class Entry:
    """A hanchan as entered: final points as on the table (sticks not included), chombo counts, sticks left."""

    results: tuple[scoring.TableResult, ...]
    riichi_left: int


def _int(text: Any) -> int | None:
    # People type "25 000", "−3 400" (a typographic minus) or leave the field empty.
    raw = (
        str(text if text is not None else "")
        .strip()
        .replace("\u2212", "-")
        .replace("\u00a0", "")
        .replace("\u202f", "")
        .replace(" ", "")
    )
    if raw == "":
        return None
    try:
        return int(raw)
    except ValueError:
        return None


def parse_entry(form: Mapping[str, Any], players: Sequence[tuple[int, str]], rules: Ruleset) -> Entry:
    """Read a result form (`points_<id>`, `chombo_<id>`, `riichi_left`) for the seated `players` (id, name).

    Raises ResultsError naming every field that is not a whole number, then every problem of the sums.
    """
    problems: list[str] = []
    missing = {pid: name for pid, name in players if str(form.get(f"points_{pid}") or "").strip() == ""}
    if missing:  # one line for the empty fields, not one «не целое число» per player
        problems.append(f"укажите очки: {', '.join(missing.values())}")
    results = []
    for pid, name in players:
        points = _int(form.get(f"points_{pid}"))
        if points is None:
            if pid not in missing:
                problems.append(f"{name}: очки должны быть целым числом, указано «{form.get(f'points_{pid}', '')}»")
        elif abs(points) > scoring.MAX_POINTS:
            limit = format_points(scoring.MAX_POINTS)
            problems.append(f"{name}: очки — от −{limit} до {limit}, указано «{form.get(f'points_{pid}')}»")
        elif points % POINTS_STEP:
            problems.append(f"{name}: очки должны быть кратны {POINTS_STEP}, указано «{form.get(f'points_{pid}')}»")
        chombo_text = form.get(f"chombo_{pid}", "")
        chombo = 0 if str(chombo_text).strip() == "" else _int(chombo_text)
        if chombo is None:
            problems.append(f"{name}: чомбо должно быть целым числом, указано «{chombo_text}»")
        elif chombo > scoring.MAX_CHOMBO:  # a negative one is named with the sums (scoring.hanchan_problems)
            problems.append(f"{name}: чомбо — от 0 до {scoring.MAX_CHOMBO} за ханчан, указано «{chombo_text}»")
        results.append(scoring.TableResult(pid, points or 0, chombo or 0))
    riichi_text = form.get("riichi_left", "")
    riichi = 0 if str(riichi_text).strip() == "" else _int(riichi_text)
    if riichi is None:
        problems.append(f"палочки риичи на столе: нужно целое число, указано «{riichi_text}»")
    elif riichi > scoring.MAX_STICKS:
        problems.append(f"палочки риичи на столе: от 0 до {scoring.MAX_STICKS}, указано «{riichi_text}»")
    if problems:
        raise ResultsError(problems)
    names = dict(players)
    sums = scoring.hanchan_problems(results, riichi or 0, rules)
    if sums:
        raise ResultsError([_with_names(p, names) for p in sums])
    return Entry(tuple(results), riichi or 0)


def _with_names(problem: str, names: Mapping[int, str]) -> str:
    """The scoring's «игрока 12» as the person's name, declined: «чомбо игрока Марии Кузнецовой»."""
    for pid, name in names.items():
        problem = problem.replace(f"игрока {pid} ", f"игрока {declined(name, 'gen')} ")
        problem = problem.replace(f"игрок {pid} ", f"игрок {name} ")
    return problem
