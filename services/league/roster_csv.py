"""Reading a roster CSV exported by the registration site (name, contact, fee paid); pure: no database, no clock.

Each line becomes either an entry or a problem that names its line number, so the organizer sees exactly which lines
are refused and why before anything is imported (Регламент §1: registration and the fee).
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from datetime import date

MAX_NAME = 80
HEADER_WORDS = {"имя", "фио", "name", "участник", "игрок"}
YES = {"да", "yes", "y", "1", "true", "+", "оплачен", "оплачено", "оплатил", "оплатила", "paid"}
NO = {"", "нет", "no", "n", "0", "false", "-", "не оплачен", "не оплачено", "unpaid"}
_ISO = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
_RU = re.compile(r"^(\d{1,2})\.(\d{1,2})\.(\d{4})$")


@dataclass(frozen=True)
class CsvEntry:
    line: int
    name: str
    contact: str
    fee_paid: bool
    paid_on: date | None  # the date when the file gives one


@dataclass(frozen=True)
class CsvProblem:
    line: int
    text: str  # the line as written, for the preview
    error: str


def _fee(value: str) -> tuple[bool, date | None] | None:
    """«да»/«нет» (and the usual spellings) or a payment date; None when it is neither."""
    v = " ".join(value.split()).casefold()
    if v in YES:
        return True, None
    if v in NO:
        return False, None
    for pattern, order in ((_ISO, (0, 1, 2)), (_RU, (2, 1, 0))):
        m = pattern.match(v)
        if m:
            parts = [int(g) for g in m.groups()]
            try:
                return True, date(parts[order[0]], parts[order[1]], parts[order[2]])
            except ValueError:
                return None
    return None


def _dialect(text: str) -> str:
    first = next((line for line in text.splitlines() if line.strip()), "")
    return ";" if first.count(";") > first.count(",") else ","


def parse_roster_csv(text: str) -> list[CsvEntry | CsvProblem]:
    """Every non-empty line of the file in order, numbered as in a text editor (a header line is skipped)."""
    text = text.lstrip("\ufeff")
    reader = csv.reader(io.StringIO(text), delimiter=_dialect(text))
    results: list[CsvEntry | CsvProblem] = []
    seen: dict[str, int] = {}
    first = True
    for cells in reader:
        number = reader.line_num
        cells = [c.strip() for c in cells]
        if not any(cells):
            continue
        raw = "; ".join(cells)
        if first and cells[0].casefold() in HEADER_WORDS:
            first = False
            continue
        first = False
        if len(cells) < 3 or any(cells[3:]):
            results.append(CsvProblem(number, raw, "нужно три поля: имя, контакт, взнос оплачен"))
            continue
        name, contact, fee_text = " ".join(cells[0].split()), cells[1], cells[2]
        fee = _fee(fee_text)
        if not name:
            results.append(CsvProblem(number, raw, "не указано имя"))
        elif len(name) > MAX_NAME:
            results.append(CsvProblem(number, raw, f"имя длиннее {MAX_NAME} символов"))
        elif fee is None:
            results.append(CsvProblem(number, raw, f"взнос «{fee_text}»: ожидается «да», «нет» или дата оплаты"))
        elif name.casefold() in seen:
            results.append(CsvProblem(number, raw, f"«{name}» уже есть в строке {seen[name.casefold()]}"))
        else:
            seen[name.casefold()] = number
            results.append(CsvEntry(number, name, contact, fee[0], fee[1]))
    return results
