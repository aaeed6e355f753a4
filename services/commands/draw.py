"""`discard draw` subcommand: a draft draw of all tours, numbered players or the current season's; imports no reflex
or telegram (the database only for the season's draw)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any, Protocol

from services.core.ruleset import DEFAULT, of_season
from services.core.wording import plural
from services.league.draw import DrawError, Tours, draw_tours


class _Shown(Protocol):
    """What the text shows: a pure `Draw` or the season's `DrawView` alike."""

    @property
    def tours(self) -> Tours: ...
    @property
    def seed(self) -> int | None: ...
    @property
    def max_meetings(self) -> int: ...
    @property
    def repeat_meetings(self) -> int: ...
    @property
    def repeats(self) -> Any: ...


def register(subparsers: Any) -> None:
    """Add the `draw` subcommand to the `discard` parser's subparsers."""
    parser = subparsers.add_parser(
        "draw",
        help="жеребьёвка всех туров (черновик)",
        description="Жеребьёвка сразу на все туры с минимизацией повторных встреч (Регламент §2).",
    )
    parser.add_argument("--players", type=int, help="без базы: игроки с номерами 1..N")
    parser.add_argument("--tours", type=int, default=DEFAULT.tours, help=f"число туров (по умолчанию {DEFAULT.tours})")
    parser.add_argument("--seed", type=int, help="зерно случайности: то же зерно — та же жеребьёвка")
    parser.add_argument("--json", action="store_true", help="вывести результат в JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.players is None:
        return run_season_draw(args)
    try:
        # no season: a trial draw by the regulation's numbers, the tours as asked
        players = range(1, args.players + 1)
        draw = draw_tours(players, tours=args.tours, seed=args.seed, multiple=DEFAULT.roster_multiple)
    except DrawError as error:
        print(f"Ошибка: {error}", file=sys.stderr)
        return 2
    print(json.dumps(as_json(draw)) if args.json else as_text(draw))
    return 0


def run_season_draw(args: argparse.Namespace) -> int:
    """Drafts (or redrafts) the real draw of the current season, as the organizer's page does, and prints it."""
    from services.core.db import session_scope
    from services.core.models import utc_now
    from services.league.draw_season import make_draft
    from services.league.roster import current_season

    try:
        with session_scope() as session:
            season = current_season(session)
            if season is None:
                raise DrawError("Сезон ещё не создан: выполните «discard demo» или создайте сезон.")
            tours = of_season(season).tours  # Регламент §2: the season's own number of tours
            if args.tours != tours:
                raise DrawError(f"В сезоне {tours} {plural(tours, 'тур', 'тура', 'туров')}.")
            view = make_draft(session, season, seed=args.seed, actor_user_id=None, now=utc_now())
    except DrawError as error:
        print(f"Ошибка: {error}", file=sys.stderr)
        return 2
    if args.json:
        players = {str(pid): view.names[pid] for tour in view.tours[:1] for table in tour for pid in table}
        print(json.dumps(as_json(view) | {"seed": view.seed, "players": players}, ensure_ascii=False))
    else:
        print(as_text(view, lambda p: view.names.get(p, str(p))))
        print("Это черновик: утвердите его на странице «Жеребьёвка».")
    return 0


def as_json(draw: _Shown) -> dict[str, object]:
    return {
        "tours": [[list(table) for table in tour] for tour in draw.tours],
        "max_meetings": draw.max_meetings,
        "repeat_meetings": draw.repeat_meetings,
    }


def as_text(draw: _Shown, name: Callable[[int], str] = str) -> str:
    lines: list[str] = []
    for number, tour in enumerate(draw.tours, start=1):
        lines.append(f"Тур {number}")
        for table_number, table in enumerate(tour, start=1):
            lines.append(f"  стол {table_number}: " + ", ".join(name(p) for p in table))
    lines.append(f"Наибольшее число встреч пары: {draw.max_meetings}")
    lines.append(f"Повторных встреч всего: {draw.repeat_meetings}")
    for a, b, count in draw.repeats:
        lines.append(f"  {a} и {b}: {count} {plural(count, 'раз', 'раза', 'раз')}")
    lines.append(f"Зерно: {draw.seed}")
    return "\n".join(lines)
