"""The league's numbers for one season (Регламент §1, §2, §3, §4, §5): one frozen dataclass, the 2026 regulation's
values as the default, and the club's two planning numbers (a hanchan's length, a proposal's hold) beside them.
Pure; imports no database, reflex or telegram.

Every rule that counts, seats or plans reads these numbers from the season's row (`of_season`) and from nowhere
else: scoring, standings, the draw and the roster check, scheduling limits and lengths, the holds, the bracket, the
desk and the pages.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Protocol
from zoneinfo import ZoneInfo

SEATS = 4  # Регламент §1: четыре игрока за столом (the discipline itself, not a league setting)
UPPER_LOWER = "upper_lower"  # Регламент §2: верхняя и нижняя ветки, финал из двух верхних и двух нижних
PLAYOFF_FORMATS = {UPPER_LOWER: 8}  # format → the one size its bracket is drawn for
PLAYOFF_FORMAT_NAMES = {UPPER_LOWER: "верхняя и нижняя ветки"}  # format → how the pages say it (never the code)
MAX_RULE = 1_000_000  # no league number goes beyond: anything above is a typo
# The planning numbers' own bounds: a hanchan from half an hour to five hours, a hold from an hour to a week.
BOUNDS = {"hanchan_minutes": (30, 300), "proposal_hold_hours": (1, 168)}
# Регламент §1, §6.1: клуб в Кирове, время Кирова. The club's, not a season's: the one definition of the zone
# (`intervals.KIROV` and `Settings.tz` read it); a season's rules or a season file naming another zone are refused.
CLUB_TIME_ZONE = "Europe/Kirov"
CLUB_ZONE = ZoneInfo(CLUB_TIME_ZONE)
ZONE_FIELD = "time_zone"  # the name old season files and the rules form may still send


@dataclass(frozen=True, slots=True)
class Ruleset:
    start_points: int = 30_000  # Регламент §4: стартовые очки ханчана — 30 000
    hanchan_uma_first: int = 15_000  # Регламент §4: ума ханчана 15/5
    hanchan_uma_second: int = 5_000
    match_uma_first: int = 15_000  # Регламент §4: матчевая ума регулярного этапа — 15/5
    match_uma_second: int = 5_000
    chombo_penalty: int = 40_000  # Регламент §4: чомбо — штраф 40 000 после умы
    no_show_penalty: int = 80_000  # Регламент §5, §6.3: первая неявка — −80 000 за матч
    hanchans_per_match: int = 3  # Регламент §2: обычный матч — три ханчана
    final_hanchans: int = 5  # Регламент §2: финал — пять ханчанов, в один день
    tours: int = 4  # Регламент §2: регулярный этап — четыре тура
    playoff_size: int = 8  # Регламент §1, §2: восемь лучших проходят в плей-офф
    playoff_format: str = UPPER_LOWER  # Регламент §2
    roster_multiple: int = 4  # Регламент §1: основной состав строго кратен четырём
    # The regulation names neither of the two below: they are the club's planning numbers, set with the others.
    hanchan_minutes: int = 90  # how long a meeting plans one hanchan (Регламент §2: a meeting holds its hanchans)
    proposal_hold_hours: int = 48  # Регламент §3: how long a proposal holds its table until the four confirm

    @property
    def table_total(self) -> int:
        return SEATS * self.start_points

    @property
    def hanchan_uma(self) -> tuple[int, int, int, int]:
        return (self.hanchan_uma_first, self.hanchan_uma_second, -self.hanchan_uma_second, -self.hanchan_uma_first)

    @property
    def match_uma(self) -> tuple[int, int, int, int]:
        return (self.match_uma_first, self.match_uma_second, -self.match_uma_second, -self.match_uma_first)

    def hanchans(self, *, final: bool) -> int:
        return self.final_hanchans if final else self.hanchans_per_match

    def problems(self) -> list[str]:
        """What makes this ruleset unusable, in Russian; empty when every rule can be applied."""
        out: list[str] = []
        for name in _POSITIVE:
            value = getattr(self, name)
            low, high = BOUNDS.get(name, (1, MAX_RULE))
            if not isinstance(value, int) or not low <= value <= high:
                out.append(f"{LABELS[name]}: целое число от {low} до {shown(name, high)}")
        for name in ("hanchan_uma_second", "match_uma_second"):
            value = getattr(self, name)
            if not isinstance(value, int) or not 0 <= value <= MAX_RULE:
                out.append(f"{LABELS[name]}: целое число не меньше нуля")
        if self.hanchan_uma_second > self.hanchan_uma_first:
            out.append("Ума ханчана: за первое место не меньше, чем за второе")
        if self.match_uma_second > self.match_uma_first:
            out.append("Ума матча: за первое место не меньше, чем за второе")
        if self.roster_multiple % SEATS:
            out.append(f"{LABELS['roster_multiple']}: число, кратное {SEATS} (за столом {SEATS} игрока)")
        size = PLAYOFF_FORMATS.get(self.playoff_format)
        if size is None:
            out.append(f"{LABELS['playoff_format']}: {UPPER_LOWER}")
        elif self.playoff_size != size:
            out.append(f"{LABELS['playoff_size']}: сетка верхней и нижней веток рассчитана на {size} участников")
        return out

    def changes(self, other: Ruleset) -> list[str]:
        """What `other` changes, one Russian line per number: «Чомбо: 40 000 → 20 000»."""
        return [
            f"{LABELS[f.name]}: {shown(f.name, getattr(self, f.name))} → {shown(f.name, getattr(other, f.name))}"
            for f in fields(self)
            if getattr(self, f.name) != getattr(other, f.name)
        ]

    def as_columns(self) -> dict[str, Any]:
        return asdict(self)


DEFAULT = Ruleset()
_POSITIVE = (
    "start_points",
    "hanchan_uma_first",
    "match_uma_first",
    "chombo_penalty",
    "no_show_penalty",
    "hanchans_per_match",
    "final_hanchans",
    "tours",
    "playoff_size",
    "roster_multiple",
    "hanchan_minutes",
    "proposal_hold_hours",
)
LABELS = {
    "start_points": "Стартовые очки",
    "hanchan_uma_first": "Ума ханчана за 1-е место",
    "hanchan_uma_second": "Ума ханчана за 2-е место",
    "match_uma_first": "Ума матча за 1-е место",
    "match_uma_second": "Ума матча за 2-е место",
    "chombo_penalty": "Чомбо",
    "no_show_penalty": "Штраф за неявку",
    "hanchans_per_match": "Ханчанов в матче",
    "final_hanchans": "Ханчанов в финале",
    "tours": "Туров",
    "playoff_size": "Участников плей-офф",
    "playoff_format": "Формат плей-офф",
    "roster_multiple": "Основной состав кратен",
    "hanchan_minutes": "Длительность ханчана, минут",
    "proposal_hold_hours": "Предложение держит стол, часов",
}
# What a season file written before these two were rules may leave out (the season keeps its own then).
PLANNING = ("hanchan_minutes", "proposal_hold_hours")
FIELDS = tuple(f.name for f in fields(Ruleset))
NUMBERS = tuple(name for name in FIELDS if name != "playoff_format")
ZONE_LABEL = "Часовой пояс клуба"


def zone_problem(value: Any) -> str | None:
    """A season's rules or file naming a zone other than the club's: why it is refused (Регламент §1, §6.1)."""
    if "".join(str(value).split()) == CLUB_TIME_ZONE:
        return None
    return (
        f"{ZONE_LABEL}: время Кирова ({CLUB_TIME_ZONE}) — это часовой пояс клуба, а не сезона, "
        f"его нельзя изменить в правилах сезона («{value}» не принят)"
    )


_DATIVE = {4: "четырём", 8: "восьми", 12: "двенадцати", 16: "шестнадцати"}


def multiple_of(n: int) -> str:
    """«кратен четырём»: the roster multiple in words where Russian has a short one, else in digits."""
    return _DATIVE.get(n, str(n))


def shown(name: str, value: Any) -> str:
    """A rule's value as a reader sees it: «40 000», «верхняя и нижняя ветки» (a format's name, not its code)."""
    if name == "playoff_format":
        return PLAYOFF_FORMAT_NAMES.get(str(value), str(value))
    return f"{value:,}".replace(",", " ") if isinstance(value, int) else str(value)


class SeasonRules(Protocol):
    """What `of_season` reads: the Season row's columns of the same names."""

    start_points: int
    hanchan_uma_first: int
    hanchan_uma_second: int
    match_uma_first: int
    match_uma_second: int
    chombo_penalty: int
    no_show_penalty: int
    hanchans_per_match: int
    final_hanchans: int
    tours: int
    playoff_size: int
    playoff_format: str
    roster_multiple: int
    hanchan_minutes: int
    proposal_hold_hours: int


def of_season(season: SeasonRules | None) -> Ruleset:
    """The season row's ruleset; no season yet: the regulation's defaults."""
    if season is None:
        return DEFAULT
    return Ruleset(**{name: getattr(season, name) for name in FIELDS})


def with_numbers(base: Ruleset, values: dict[str, str]) -> tuple[Ruleset, list[str]]:
    """`base` with the form's numbers (strings, spaces allowed: «20 000»); unreadable numbers are problems.

    The club's time zone is no season's rule: a value for it other than the club's own is a problem, never a change.
    """
    changed: dict[str, Any] = {}
    problems: list[str] = []
    for name, raw in values.items():
        if name == ZONE_FIELD:
            if (problem := zone_problem(raw)) is not None:
                problems.append(problem)
            continue
        if name not in FIELDS:
            continue
        text = "".join(str(raw).split())
        if name in NUMBERS:
            try:
                changed[name] = int(text)
            except ValueError:
                problems.append(f"{LABELS[name]}: «{raw}» — не целое число")
        else:
            changed[name] = text
    rules = replace(base, **changed)
    return rules, problems or rules.problems()
