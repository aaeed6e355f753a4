"""`discard standings`: the standings and match results of a season file, without any database. Imports no
database, reflex or telegram."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from services.core.wording import format_signed
from services.results.scoring import MatchScore, PlayerId, score_match
from services.results.season_file import Season, SeasonFileError, load_season
from services.results.standings import StandingsRow, compute_standings


def register(subparsers: Any) -> None:
    """Add the `standings` subcommand to the `discard` parser's subparsers."""
    parser = subparsers.add_parser(
        "standings",
        help="таблица регулярного этапа по файлу сезона",
        description="Считает таблицу регулярного этапа и результаты матчей по файлу сезона discard-season/1.",
    )
    add_season_arguments(
        parser,
        json_help="вывести JSON вместо таблицы",
        tie_help="решение организатора о порядке равных участников (через запятую, лучший первым); можно повторять",
    )
    parser.set_defaults(func=run)


def add_season_arguments(parser: argparse.ArgumentParser, *, json_help: str, tie_help: str) -> None:
    """The `--season`, `--json` and repeatable `--tie-decision` options shared by the season-file commands."""
    parser.add_argument("--season", required=True, metavar="FILE", help="файл сезона (discard-season/1)")
    parser.add_argument("--json", action="store_true", help=json_help)
    parser.add_argument("--tie-decision", action="append", default=[], metavar="ID,ID,...", help=tie_help)


def load_season_or_report(path: str) -> Season | None:
    """The season file at `path`, or None after printing why it is not accepted to stderr."""
    try:
        return load_season(path)
    except SeasonFileError as e:
        print(f"Файл сезона {path} не принят:", file=sys.stderr)
        print_problems(e.problems)
        return None


def print_problems(problems: Sequence[str]) -> None:
    """Each problem as a `- ` line on stderr."""
    for problem in problems:
        print(f"- {problem}", file=sys.stderr)


def fraction_text(value: Fraction | None) -> str | None:
    """Exact average place as text: "19/10", or "2" when whole."""
    return None if value is None else str(value)


def _compute(
    season: Season, tie_decisions: Sequence[Sequence[PlayerId]]
) -> tuple[list[MatchScore], list[StandingsRow]]:
    # The decisions settle ties in the standings only; a playoff match's tie is a separate decision.
    scores = [score_match(m) for m in season.matches]
    return scores, compute_standings(season.players, scores, tie_decisions)


def report(season: Season, tie_decisions: Sequence[Sequence[PlayerId]] = ()) -> dict[str, Any]:
    """The `--json` document: standings, then every match's results in file order."""
    scores, rows = _compute(season, tie_decisions)
    return {
        "standings": [
            {
                "place": row.place,
                "player": row.player,
                "name": row.name,
                "total": row.total,
                "matches": row.matches,
                "hanchans": row.hanchans,
                "average_place": fraction_text(row.average_place),
                "unresolved_tie": row.unresolved_tie,
            }
            for row in rows
        ],
        "matches": [
            {
                "id": ms.match.id,
                "results": [
                    {
                        "player": line.player,
                        "hanchans": list(line.hanchans),
                        "penalties": line.penalties,
                        "match_uma": line.match_uma,
                        "total": line.total,
                        "place": line.place,
                    }
                    for line in ms.lines
                ],
            }
            for ms in scores
        ],
    }


def _decisions(raw: Sequence[str], season: Season) -> tuple[list[list[PlayerId]], list[str]]:
    by_text = {str(p.id): p.id for p in season.players}
    decisions: list[list[PlayerId]] = []
    problems: list[str] = []
    for text in raw:
        ids = [part.strip() for part in text.split(",") if part.strip()]
        unknown = [i for i in ids if i not in by_text]
        if unknown:
            problems.append(f"решение о равенстве «{text}»: неизвестные игроки {', '.join(unknown)}")
        decisions.append([by_text[i] for i in ids if i in by_text])
    return decisions, problems


def _table(rows: Sequence[StandingsRow]) -> str:
    header = f"{'Место':>6}  {'Игрок':<24} {'Очки':>10} {'Матчи':>6} {'Ханчаны':>8}  Ср. место"
    lines = [header]
    for row in rows:
        place = f"{row.place}{'=' if row.unresolved_tie else ''}"
        total = format_signed(row.total)
        average = fraction_text(row.average_place) or "—"
        if row.average_place is not None and row.average_place.denominator != 1:
            average += f" ({float(row.average_place):.3f})".replace(".", ",")
        lines.append(f"{place:>6}  {row.name:<24} {total:>10} {row.matches:>6} {row.hanchans:>8}  {average}")
    if any(row.unresolved_tie for row in rows):
        lines.append("")
        lines.append("= равенство очков и среднего места не разрешено: решает организатор (Регламент §4)")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Print the standings of `args.season`; 2 when the file or a tie decision is invalid."""
    season = load_season_or_report(args.season)
    if season is None:
        return 2
    decisions, problems = _decisions(getattr(args, "tie_decision", []) or [], season)
    if problems:
        print_problems(problems)
        return 2
    if args.json:
        print(json.dumps(report(season, decisions), ensure_ascii=False, indent=2))
    else:
        print(_table(_compute(season, decisions)[1]))
    return 0
