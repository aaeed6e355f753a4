"""Every rule is read through the season's ruleset (issue 41 item 2; STYLE.md «One ruleset»): no code of services/ or
discard_app/ reads a rule column off a season row (`season.no_show_penalty`) instead of `ruleset.of_season(season)`,
and no pure function or value type falls back on the 2026 numbers when its caller forgets the season's ruleset."""

from __future__ import annotations

import ast
from pathlib import Path

from services.core.ruleset import FIELDS

ROOT = Path(__file__).resolve().parents[2]
RULESET = "services/core/ruleset.py"  # `of_season` itself: the one reader of the columns
# What a season's ruleset is read through: its name says a season, but it answers a Ruleset.
RULESET_READERS = {"of_season", "season_rules", "match_rules"}


def _files() -> list[Path]:
    return sorted(p for d in ("services", "discard_app") for p in (ROOT / d).rglob("*.py") if p.is_file())


def _last_name(node: ast.expr) -> str:
    """`season`, `info.season`, `Season`, `current_season(...)`: the identifier the expression ends with."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _names_a_season(node: ast.expr) -> bool:
    name = _last_name(node)
    return "season" in name.lower() and name not in RULESET_READERS


def _rule_column_reads(source: str) -> list[str]:
    """`line: expression` for each read of a rule column (`ruleset.FIELDS`) off something named a season: a season
    row, `Season.<column>`, `current_season(…)`, or `getattr(season, "<column>")`. A Ruleset read (`rules.tours`,
    `of_season(season).tours`, `season.rules.tours`) and the other things that have tours (a draw) are not one."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and node.attr in FIELDS:
            receiver = node.value
        elif (
            isinstance(node, ast.Call)
            and _last_name(node.func) == "getattr"
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and node.args[1].value in FIELDS
        ):
            receiver = node.args[0]
        else:
            continue
        if _names_a_season(receiver):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return sorted(found, key=lambda line: int(line.split(":")[0]))


def _silent_defaults(source: str) -> list[str]:
    """`line: default` for each parameter default, and each dataclass field default, that names the ruleset's
    `DEFAULT` (imported under any name, or as `ruleset.DEFAULT`), and for each default of a parameter named as a rule
    (`hanchan_minutes: int = 90`): a forgotten argument would play the 2026 rules, or the club's default planning
    numbers, instead of the season's."""
    tree = ast.parse(source)
    aliases = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "services.core.ruleset"
        for alias in node.names
        if alias.name == "DEFAULT"
    }

    def names_default(value: ast.expr | None) -> bool:
        return value is not None and any(
            (isinstance(n, ast.Name) and n.id in aliases) or (isinstance(n, ast.Attribute) and n.attr == "DEFAULT")
            for n in ast.walk(value)
        )

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            args = node.args
            positional = [*args.posonlyargs, *args.args]
            pairs = [
                *zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True),
                *zip(args.kwonlyargs, args.kw_defaults, strict=True),
            ]
            found += [
                f"{d.lineno}: {a.arg}={ast.unparse(d)}" if a.arg in FIELDS else f"{d.lineno}: {ast.unparse(d)}"
                for a, d in pairs
                if d is not None and (names_default(d) or a.arg in FIELDS)
            ]
        elif isinstance(node, ast.ClassDef) and any("dataclass" in ast.unparse(d) for d in node.decorator_list):
            found += [
                f"{item.lineno}: {ast.unparse(item)}"
                for item in node.body
                if isinstance(item, ast.AnnAssign) and names_default(item.value)
            ]
    return sorted(found, key=lambda line: int(line.split(":")[0]))


def test_no_rule_column_is_read_around_the_ruleset() -> None:
    """Issue 41: eleven reads of `season.tours`, `season.no_show_penalty`, … bypassed `ruleset.of_season`."""
    found = {
        str(path.relative_to(ROOT)): reads
        for path in _files()
        if str(path.relative_to(ROOT)) != RULESET and (reads := _rule_column_reads(path.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_the_rule_read_check_sees_a_planted_read() -> None:
    planted = (
        "def add_no_show(session, match):\n"
        "    season = season_of(session, match)\n"
        "    points = -season.no_show_penalty\n"
        "    rounds = range(info.season.tours)\n"
        "    size = current_season(session).playoff_size\n"
        "    n = getattr(season_row, 'hanchans_per_match')\n"
        "    rows = select(Season.tours)\n"
        "    ok = of_season(season).tours + season.rules.tours + rules.tours + draw.tours + season_rules(s, 1).tours\n"
    )
    assert _rule_column_reads(planted) == [
        "3: season.no_show_penalty",
        "4: info.season.tours",
        "5: current_season(session).playoff_size",
        "6: getattr(season_row, 'hanchans_per_match')",
        "7: Season.tours",
    ]


def test_no_pure_function_plays_the_2026_rules_by_default() -> None:
    """Issue 41: eleven pure functions and value types defaulted to `rules=DEFAULT` (or its numbers), and nine
    scheduling functions to `hanchan_minutes=DEFAULT_HANCHAN_MINUTES` (90) and `hold_until` to 48 hours; the season's
    ruleset, or its number, is a required argument (STYLE.md: «never a silent default»)."""
    found = {
        str(path.relative_to(ROOT)): defaults
        for path in _files()
        if str(path.relative_to(ROOT)) != RULESET and (defaults := _silent_defaults(path.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_the_default_check_sees_a_planted_default() -> None:
    planted = (
        "from dataclasses import dataclass\n"
        "from services.core.ruleset import DEFAULT as RULES, Ruleset\n"
        "from services.core import ruleset\n"
        "def score(hanchan, rules: Ruleset = RULES) -> int: ...\n"
        "def draw(players, *, tours: int = RULES.tours, seed=None): ...\n"
        "def size(rows, n=ruleset.DEFAULT.playoff_size): ...\n"
        "@dataclass(frozen=True)\n"
        "class Match:\n"
        "    id: int\n"
        "    rules: Ruleset = RULES\n"
        "def fine(rules: Ruleset, seed: int | None = None) -> Ruleset:\n"
        "    return rules or RULES\n"
        "def meeting_end(start, hanchans, hanchan_minutes=90): ...\n"
        "def options(window, *, hanchan_minutes: int = MINUTES, min_hanchans: int = 1): ...\n"
        "def hold(now, start, proposal_hold_hours=48, *, hanchan_minutes: int): ...\n"
    )
    assert _silent_defaults(planted) == [
        "4: RULES",
        "5: tours=RULES.tours",
        "6: ruleset.DEFAULT.playoff_size",
        "10: rules: Ruleset = RULES",
        "13: hanchan_minutes=90",
        "14: hanchan_minutes=MINUTES",
        "15: proposal_hold_hours=48",
    ]
