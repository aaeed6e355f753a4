"""Reading a roster CSV exported by the registration site (name, contact, fee paid); pure: no database, no clock.

Each line becomes either an entry or a problem that names its line number, so the organizer sees exactly which lines
are refused and why before anything is imported (Регламент §1: registration and the fee).
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from dataclasses import dataclass
from datetime import date

from services.core.text_limits import PERSON_NAME_MAX

# A club's registration file has tens of lines, a big league a few hundred; far more is not a roster (and its
# preview would be megabytes sent to the tab and seconds of parsing).
MAX_LINES = 1000
# Unicode categories that print nothing or steer the text (zero-width spaces, RLO, controls, private and
# unassigned code points): the import refuses such a name (accounts.clean_display_name), so the preview does too.
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"})


class TooManyLines(ValueError):
    """The file has more lines than any roster: nothing of it is read."""


def has_invisible(text: str) -> bool:
    return any(unicodedata.category(ch) in INVISIBLE_CATEGORIES for ch in text if ch not in "\t\n\r")


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


def _shown(text: str) -> str:
    """A refused line as the preview shows it: an invisible character as «�», so an RLO cannot turn it round."""
    return "".join("\ufffd" if unicodedata.category(ch) in INVISIBLE_CATEGORIES else ch for ch in text)


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
    """Every non-empty line of the file in order, numbered as in a text editor (a header line is skipped).
    TooManyLines past MAX_LINES lines, before any of them is parsed."""
    text = text.lstrip("\ufeff")
    if text.count("\n") > MAX_LINES:
        raise TooManyLines(f"В файле больше {MAX_LINES} строк: это не состав лиги. Проверьте, тот ли файл выбран.")
    reader = csv.reader(io.StringIO(text), delimiter=_dialect(text))
    results: list[CsvEntry | CsvProblem] = []
    seen: dict[str, int] = {}
    first = True
    for cells in reader:
        number = reader.line_num
        cells = [c.strip() for c in cells]
        if not any(cells):
            continue
        raw = _shown("; ".join(cells))
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
        elif has_invisible(cells[0]):
            results.append(CsvProblem(number, raw, "в имени есть невидимые или управляющие символы"))
        elif len(name) > PERSON_NAME_MAX:  # the rest of the person rule: preview_roster_csv, for new people only
            results.append(CsvProblem(number, raw, f"имя длиннее {PERSON_NAME_MAX} символов"))
        elif fee is None:
            results.append(CsvProblem(number, raw, f"взнос «{fee_text}»: ожидается «да», «нет» или дата оплаты"))
        elif name.casefold() in seen:
            results.append(CsvProblem(number, raw, f"«{name}» уже есть в строке {seen[name.casefold()]}"))
        else:
            seen[name.casefold()] = number
            results.append(CsvEntry(number, name, contact, fee[0], fee[1]))
    return results
