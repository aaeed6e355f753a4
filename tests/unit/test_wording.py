"""Issue 28 item 6: words that agree with the person — «Татьяна Морозова ответила», not «ответил» — from the name,
and the neutral «ответил(а)» when the name does not tell; and points and places written one way."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from services.core.wording import agreed, declined, format_average, format_points, format_signed, gender


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Татьяна Морозова", "f"),
        ("Морозова Татьяна Ивановна", "f"),  # surname first, with a patronymic
        ("Анна Клименко", "f"),  # a surname the same for both: the first name tells
        ("Мария-Луиза Жук", "f"),  # a consonant surname women bear too does not outvote the first name
        ("Любовь Орлова", "f"),
        ("Олег Клименко", "m"),
        ("Никита Иванов", "m"),  # a man's name in -а
        ("Дмитрий Водилов", "m"),
        ("Игорь", None),  # -ь: either
        ("Саша Белых", None),  # both the same for either
        ("Женя", None),
        ("Анна Иванов", None),  # the words disagree
        ("Nick", None),
    ],
)
def test_the_name_tells_the_gender_or_says_it_does_not(name: str, expected: str | None) -> None:
    assert gender(name) == expected


def test_a_word_agrees_or_keeps_its_neutral_form() -> None:
    assert agreed("Татьяна Морозова", "ответил", "ответила") == "ответила"
    assert agreed("Олег Клименко", "ответил", "ответила") == "ответил"
    assert agreed("Саша Белых", "ответил", "ответила") == "ответил(а)"
    assert agreed("Nick", "дисквалифицирован", "дисквалифицирована") == "дисквалифицирован(а)"


@pytest.mark.parametrize(("placed", "said"), [(1, "1 матчу"), (3, "3 матчам"), (5, "5 матчам"), (21, "21 матчу")])
def test_the_window_fallback_counts_its_matches_in_words(placed: int, said: str) -> None:
    """Issue 45 item 13: «назначена: 5 матчам», not «5 матч(ей)»."""
    from services.scheduling.organizer import WindowFallback  # noqa: PLC0415

    fallback = WindowFallback(placed=tuple((f"Тур 1, стол {n}", "Клуб") for n in range(placed)), unplaced=())
    assert fallback.summary == f"Запасная дата назначена: {said}."


@pytest.mark.parametrize(
    ("name", "case", "expected"),
    [
        ("Жанна Волкова", "acc", "Жанну Волкову"),  # issue 45 item 13: «заменяет Жанну Волкову»
        ("Жанна Волкова", "gen", "Жанны Волковой"),
        ("Фёдор Запасов", "acc", "Фёдора Запасова"),  # ё kept
        ("Пётр Ёлкин", "gen", "Петра Ёлкина"),  # ё dropped where the name drops it
        ("Олег Клименко", "dat", "Олегу Клименко"),  # a surname that does not decline
        ("Анна Жук", "ins", "Анной Жук"),  # nor does a woman's consonant surname
        ("Никита", "acc", "Никиту"),  # one word, plainly a name
        ("Шарик", "acc", "Шарик"),  # one word, a nickname: as written
        ("Игорь", "acc", "Игорь"),  # the gender unknown: as written
        ("Саша Белых", "gen", "Саша Белых"),
        ("John Smith", "acc", "John Smith"),  # Latin letters
        ("Nick Волков", "acc", "Nick Волков"),
        ("Новичок бв", "acc", "Новичок бв"),  # a word in lower case: not a name
        ("Мария Ивановна Петрова", "acc", "Мария Ивановна Петрова"),  # more than two words
        ("?", "acc", "?"),
    ],
)
def test_a_name_is_declined_in_its_gender_or_left_as_written(name: str, case: str, expected: str) -> None:
    assert declined(name, case) == expected  # type: ignore[arg-type]


def test_points_are_written_one_way_with_a_minus_sign_and_unbreakable_thousands() -> None:
    """Every page, toast, card and command writes a number of points through these: «−25 000», never «-25 000»."""
    assert format_points(119_000) == "119\u202f000"
    assert format_points(-25_000) == "\u221225\u202f000"
    assert format_points(0) == "0"
    assert [format_signed(v) for v in (12_000, -3_400, 0)] == ["+12\u202f000", "\u22123\u202f400", "0"]


@pytest.mark.parametrize(
    ("average", "shown"),
    [(F(11, 5), "2,20"), (F(5, 2), "2,50"), (F(2), "2,00"), (F(7, 3), "2,33"), (F(17, 8), "2,13"), (None, "—")],
)
def test_an_average_place_always_shows_two_decimals_rounded_half_up(average: F | None, shown: str) -> None:
    """The standings and the bracket's tables alike (the walk met «2,20» beside «2,5» in one column)."""
    assert format_average(average) == shown
