"""Issue 28 item 6: words that agree with the person — «Татьяна Морозова ответила», not «ответил» — from the name,
and the neutral «ответил(а)» when the name does not tell."""

from __future__ import annotations

import pytest

from services.core.wording import agreed, gender


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
