"""How the league words a count and a match, said once for the site, the bot and the command line. Pure; imports no
database, reflex or telegram."""

from __future__ import annotations

PLAYOFF = "playoff"  # services.core.models.StageKind.PLAYOFF, as text (this module imports no table)
FINAL = "F"


def plural(n: int, one: str, few: str, many: str) -> str:
    """Russian noun form for a count: 1 игрок, 2 игрока, 5 игроков, 11 игроков, 21 игрок."""
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


def counted(n: int, one: str, few: str, many: str) -> str:
    """«3 ханчана»: the count and its noun."""
    return f"{n} {plural(n, one, few, many)}"


def match_title(stage_kind: str, round_code: str, table: str) -> str:
    """«Тур 2, стол 3», «Плей-офф, раунд 2U, стол U», «Финал»."""
    if str(stage_kind) == PLAYOFF:
        return "Финал" if round_code == FINAL else f"Плей-офф, раунд {round_code}, стол {table}"
    return f"Тур {round_code}, стол {table}"


def place(room: str, tables: int, table_no: int) -> str:
    """Where a booking sits: the room, and its table when the room has several («Клуб, стол 2»)."""
    return f"{room}, стол {table_no}" if tables > 1 else room
