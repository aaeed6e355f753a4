"""`discard draw` subcommand: a draft draw of all tours; imports no reflex or telegram (the database only lazily)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from services.league.draw import Draw, DrawError, draw_tours, plural


def register(subparsers: Any) -> None:
    """Add the `draw` subcommand to the `discard` parser's subparsers."""
    parser = subparsers.add_parser(
        "draw",
        help="жеребьёвка всех туров (черновик)",
        description="Жеребьёвка сразу на все туры с минимизацией повторных встреч (Регламент §2).",
    )
    parser.add_argument("--players", type=int, help="без базы: игроки с номерами 1..N")
    parser.add_argument("--tours", type=int, default=4, help="число туров (по умолчанию 4)")
    parser.add_argument("--seed", type=int, help="зерно случайности: то же зерно — та же жеребьёвка")
    parser.add_argument("--json", action="store_true", help="вывести результат в JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.players is None:
        # season-database mode lives elsewhere so this module stays usable without a database
        from services.league.draw_season import run_season_draw

        return int(run_season_draw(args))
    try:
        draw = draw_tours(range(1, args.players + 1), tours=args.tours, seed=args.seed)
    except DrawError as error:
        print(f"Ошибка: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(as_json(draw)))
    else:
        print(as_text(draw))
    return 0


def as_json(draw: Draw) -> dict[str, object]:
    return {
        "tours": [[list(table) for table in tour] for tour in draw.tours],
        "max_meetings": draw.max_meetings,
        "repeat_meetings": draw.repeat_meetings,
    }


def as_text(draw: Draw) -> str:
    lines: list[str] = []
    for number, tour in enumerate(draw.tours, start=1):
        lines.append(f"Тур {number}")
        for table_number, table in enumerate(tour, start=1):
            lines.append(f"  стол {table_number}: " + ", ".join(str(p) for p in table))
    lines.append(f"Наибольшее число встреч пары: {draw.max_meetings}")
    lines.append(f"Повторных встреч всего: {draw.repeat_meetings}")
    for a, b, count in draw.repeats:
        lines.append(f"  {a} и {b}: {count} {plural(count, 'раз', 'раза', 'раз')}")
    lines.append(f"Зерно: {draw.seed}")
    return "\n".join(lines)
