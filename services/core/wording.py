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


# The playoff's tables in Russian (Регламент §2: tables А and Б of round 1, the upper and lower brackets of round 2);
# the database keeps the Latin letters of the bracket's codes (services/playoff/repo.TABLE_OF).
PLAYOFF_TABLES = {"A": "стол А", "B": "стол Б", "U": "верхняя ветка", "L": "нижняя ветка"}


def match_title(stage_kind: str, round_code: str, table: str) -> str:
    """«Тур 2, стол 3», «Плей-офф, раунд 1, стол Б», «Плей-офф, раунд 2, верхняя ветка», «Плей-офф, раунд 3»,
    «Финал»."""
    if str(stage_kind) == PLAYOFF:
        if round_code == FINAL:
            return "Финал"
        where = PLAYOFF_TABLES.get(table)
        return f"Плей-офф, раунд {round_code}" + (f", {where}" if where else "")
    return f"Тур {round_code}, стол {table}"


def place(room: str, tables: int, table_no: int) -> str:
    """Where a booking sits: the room, and its table when the room has several («Клуб, стол 2»)."""
    return f"{room}, стол {table_no}" if tables > 1 else room
