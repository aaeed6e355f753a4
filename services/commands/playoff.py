"""`discard playoff`: the playoff bracket of a season file, without any database. Imports no database, reflex or
telegram."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from services.commands.standings import add_season_arguments, fraction_text, load_season_or_report, print_problems
from services.playoff.bracket import (
    CHAMPION,
    FINAL,
    FOURTH,
    LOWER,
    OUT,
    ROUND3,
    ROUND_NAMES,
    SECOND,
    THIRD,
    UPPER,
    Bracket,
    Seating,
    build_bracket,
    seed_players,
)
from services.results.scoring import PLAYOFF, PLAYOFF_ROUNDS, REGULAR, MatchId, PlayerId, score_match
from services.results.season_file import Season
from services.results.standings import MAIN, compute_standings

OUTCOME_TEXT = {
    UPPER: "верхняя ветка",
    LOWER: "нижняя ветка",
    FINAL: "финал",
    ROUND3: "3-й раунд",
    OUT: "выбывает",
    CHAMPION: "чемпион",
    SECOND: "2-е место",
    THIRD: "3-е место",
    FOURTH: "4-е место",
}


def register(subparsers: Any) -> None:
    """Add the `playoff` subcommand to the `discard` parser's subparsers."""
    parser = subparsers.add_parser(
        "playoff",
        help="сетка плей-офф по файлу сезона",
        description="Посев, столы, переходы и финал плей-офф по файлу сезона discard-season/1.",
    )
    add_season_arguments(
        parser,
        json_help="вывести JSON вместо текста",
        tie_help="решение организатора о равенстве в таблице регулярного этапа (лучший первым); можно повторять",
    )
    parser.add_argument(
        "--match-decision",
        action="append",
        default=[],
        metavar="РАУНД:ID,ID,...",
        help="решение организатора о равенстве в матче плей-офф, например 2U:7,3; можно повторять",
    )
    parser.set_defaults(func=run)


def _ids(text: str, season: Season, what: str, problems: list[str]) -> list[PlayerId]:
    by_text = {str(p.id): p.id for p in season.players}
    ids = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [i for i in ids if i not in by_text]
    if len(ids) < 2:
        problems.append(f"{what} «{text}»: нужно не меньше двух игроков через запятую")
    if unknown:
        problems.append(f"{what} «{text}»: неизвестные игроки {', '.join(unknown)}")
    return [by_text[i] for i in ids if i in by_text]


def parse_decisions(
    season: Season, standings: Sequence[str], matches: Sequence[str]
) -> tuple[list[list[PlayerId]], dict[MatchId, list[list[PlayerId]]], list[str]]:
    """Standings decisions, per-match decisions and the problems with either, in Russian."""
    problems: list[str] = []
    regular = [_ids(text, season, "решение о равенстве", problems) for text in standings]
    match_of = {m.round: m.id for m in season.matches if m.stage == PLAYOFF}
    per_match: dict[MatchId, list[list[PlayerId]]] = {}
    for text in matches:
        round_, sep, rest = text.partition(":")
        round_ = round_.strip()
        if not sep or round_ not in PLAYOFF_ROUNDS:
            problems.append(f"решение по матчу «{text}»: нужно РАУНД:ID,ID,… с раундом из {', '.join(PLAYOFF_ROUNDS)}")
            continue
        if round_ not in match_of:
            problems.append(f"решение по матчу «{text}»: в файле нет матча раунда {round_}")
            continue
        per_match.setdefault(match_of[round_], []).append(_ids(rest, season, "решение по матчу", problems))
    return regular, per_match, problems


def compute(
    season: Season,
    tie_decisions: Sequence[Sequence[PlayerId]] = (),
    match_decisions: dict[MatchId, list[list[PlayerId]]] | None = None,
) -> Bracket:
    """The bracket of a season file: seeding waits for a complete regular stage and decided ties (Регламент §2)."""
    regular = [m for m in season.matches if m.stage == REGULAR]
    names = {p.id: p.name for p in season.players}
    unfinished = [str(m.id) for m in regular if not m.complete]
    if not regular or unfinished:
        why = "в файле нет матчей" if not regular else "не доиграны матчи " + ", ".join(unfinished)
        return Bracket((), (), (f"регулярный этап не завершён: {why}",))
    rows = compute_standings(season.players, [score_match(m) for m in regular], tie_decisions)
    seeds, problems = seed_players(rows, season.rules.playoff_size)  # Регламент §1, §2: the file's own ruleset
    if problems:
        return Bracket((), (), tuple(problems))
    seatings = []
    for m in season.matches:
        if m.stage == PLAYOFF:
            seated = list(dict.fromkeys(r.player for h in m.hanchans for r in h.results))
            seatings.append(Seating(str(m.round), tuple(seated), m))
    eligible = [p.id for p in season.players if p.status == MAIN]
    return build_bracket(seeds, seatings, eligible=eligible, names=names, tie_decisions=match_decisions)


def report(bracket: Bracket) -> dict[str, Any]:
    """The `--json` document."""
    return {
        "seeds": list(bracket.seeds),
        "tables": [
            {
                "round": t.round,
                "players": list(t.players),
                "ranking": [
                    {
                        "player": line.player,
                        "total": line.total,
                        "average_place": fraction_text(line.average_place),
                        "place": line.place,
                    }
                    for line in t.ranking
                ],
                "advance": dict(t.advance),
            }
            for t in bracket.tables
        ],
        "pending": list(bracket.pending),
    }


def _text(bracket: Bracket, names: dict[PlayerId, str]) -> str:
    lines = ["Посев: " + ", ".join(f"{i}. {names.get(p, p)}" for i, p in enumerate(bracket.seeds, 1))]
    for t in bracket.tables:
        lines.append("")
        lines.append(ROUND_NAMES[t.round][0].upper() + ROUND_NAMES[t.round][1:])
        for line in t.ranking or ():
            outcome = OUTCOME_TEXT.get(t.advance.get(line.player, ""), "")
            place = "—" if line.place is None else f"{line.place}{'=' if line.unresolved_tie else ''}"
            lines.append(f"  {place:>3}  {names.get(line.player, line.player):<24} {line.total:>8}  {outcome}")
        if not t.ranking:
            lines.append("  " + ", ".join(str(names.get(p, p)) for p in t.players))
    if bracket.pending:
        lines += ["", "Ожидает:"] + [f"- {p}" for p in bracket.pending]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Print the bracket of `args.season`; 2 when the file or a decision is invalid."""
    season = load_season_or_report(args.season)
    if season is None:
        return 2
    regular, per_match, problems = parse_decisions(season, args.tie_decision or [], args.match_decision or [])
    if problems:
        print_problems(problems)
        return 2
    bracket = compute(season, regular, per_match)
    if args.json:
        print(json.dumps(report(bracket), ensure_ascii=False, indent=2))
    else:
        print(_text(bracket, {p.id: p.name for p in season.players}))
    return 0
