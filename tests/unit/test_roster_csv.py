"""The registration site's CSV, line by line (pure): entries, and refused lines with their numbers."""

from __future__ import annotations

from datetime import date

import pytest

from services.league.roster_csv import CsvEntry, CsvProblem, parse_roster_csv


@pytest.mark.parametrize(
    ("fee", "paid", "on"),
    [
        ("да", True, None),
        ("Да", True, None),
        ("оплачен", True, None),
        ("1", True, None),
        ("нет", False, None),
        ("", False, None),
        ("-", False, None),
        ("2027-01-15", True, date(2027, 1, 15)),
        ("15.01.2027", True, date(2027, 1, 15)),
        ("5.1.2027", True, date(2027, 1, 5)),
    ],
)
def test_fee_spellings(fee: str, paid: bool, on: date | None) -> None:
    assert parse_roster_csv(f"Анна Котова,@anna,{fee}\n") == [CsvEntry(1, "Анна Котова", "@anna", paid, on)]


def test_header_semicolons_bom_and_blank_lines_keep_editor_line_numbers() -> None:
    text = '\ufeffИмя;Контакт;Взнос\n\nАнна  Котова ; @anna ;да\n"Пётр; младший";+7 900;нет\n'
    assert parse_roster_csv(text) == [
        CsvEntry(3, "Анна Котова", "@anna", True, None),
        CsvEntry(4, "Пётр; младший", "+7 900", False, None),
    ]


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ("Анна,@a", "нужно три поля: имя, контакт, взнос оплачен"),
        ("Анна,@a,да,лишнее", "нужно три поля: имя, контакт, взнос оплачен"),
        (",@a,да", "не указано имя"),
        ("Анна,@a,может", "взнос «может»: ожидается «да», «нет» или дата оплаты"),
        ("Анна,@a,31.02.2027", "взнос «31.02.2027»: ожидается «да», «нет» или дата оплаты"),
        ("А" * 61 + ",@a,да", "имя длиннее 60 символов"),  # text_limits.PERSON_NAME_MAX, as everywhere
    ],
)
def test_bad_lines_are_named_by_number(line: str, error: str) -> None:
    result = parse_roster_csv(f"Борис,@b,да\n{line}\n")
    assert isinstance(result[0], CsvEntry)
    assert result[1] == CsvProblem(2, "; ".join(c.strip() for c in line.split(",")), error)


def test_the_same_person_twice_is_refused_on_the_second_line() -> None:
    result = parse_roster_csv("Анна,@a,да\nБорис,@b,нет\nанна,@a2,да\n")
    assert result[2] == CsvProblem(3, "анна; @a2; да", "«анна» уже есть в строке 1")
