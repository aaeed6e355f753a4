"""A new person's name: letters of any script, spaces, hyphens and apostrophes, up to 60 characters."""

import pytest

from services.core.text_limits import PERSON_NAME_MAX, person_name_problem


@pytest.mark.parametrize("name", ["Анна-Мария д'Арк", "Пётр Ёлкин", "John O’Neil", "李小龍", "Я" * PERSON_NAME_MAX])
def test_letters_spaces_hyphens_and_apostrophes_are_a_name(name: str) -> None:
    assert person_name_problem(name) is None


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("Я" * 80, "имя длиннее 60 символов"),
        ("Я" * (PERSON_NAME_MAX + 1), "имя длиннее 60 символов"),
        ("Анна 🀄", "в имени допустимы только буквы, пробелы, дефис и апостроф"),
        ("Игрок 2", "в имени допустимы только буквы, пробелы, дефис и апостроф"),
        ("Анна_Котова", "в имени допустимы только буквы, пробелы, дефис и апостроф"),
        ("- '", "в имени нет ни одной буквы"),
        ("", "не указано имя"),
    ],
)
def test_anything_else_is_refused_with_a_reason(name: str, problem: str) -> None:
    assert person_name_problem(name) == problem


def test_the_demo_league_s_people_have_persons_names() -> None:
    from services.commands.demo_league.league import DEMO_JUDGE, DEMO_ORGANIZER, DEMO_PLAYERS

    assert [n for n in (DEMO_ORGANIZER, DEMO_JUDGE, *DEMO_PLAYERS) if person_name_problem(n) is not None] == []


def test_the_withdrawal_question_agrees_with_the_person() -> None:
    """Issue 45 item 13: «Снять участника «Анна …»? Он будет исключён»."""
    from discard_app import texts  # noqa: PLC0415
    from services.core.wording import gender  # noqa: PLC0415

    said = {
        name: texts.ROSTER_WITHDRAW_WHO[gender(name) or ""] for name in ("Татьяна Морозова", "Олег Клименко", "Саша")
    }
    assert said == {
        "Татьяна Морозова": "Она будет исключена",
        "Олег Клименко": "Он будет исключён",
        "Саша": "Участник будет исключён",
    }
