"""How the league words a count and a match, said once for the site, the bot and the command line. Pure; imports no
database, reflex or telegram."""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pytrovich import Case, Gender, NamePart, PetrovichDeclinationMaker

PLAYOFF = "playoff"  # services.core.models.StageKind.PLAYOFF, as text (this module imports no table)
FINAL = "F"
# services.core.models.Role's values in Russian, for the pages, the bot and the services' messages alike
ROLE_NAMES = {"player": "игрок", "organizer": "организатор", "judge": "судья", "expert": "эксперт"}


def plural(n: int, one: str, few: str, many: str) -> str:
    """Russian noun form for a count: 1 игрок, 2 игрока, 5 игроков, 11 игроков, 21 игрок."""
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


# U+202F, the narrow no-break space: «120 000» never breaks at its thousands on a phone, in a table or a toast.
THOUSANDS = "\u202f"


MINUS = "\u2212"  # U+2212: «−25 000», as typeset Russian writes it and as the entry form also reads it


def format_points(value: int) -> str:
    """119000 → "119 000" with a narrow no-break space (`THOUSANDS`), −25000 → "−25 000" with a minus sign (`MINUS`):
    the way the pages, toasts and messages show points."""
    return (MINUS if value < 0 else "") + f"{abs(value):,}".replace(",", THOUSANDS)


def format_signed(value: int) -> str:
    """A total: "+12 000", "−3 400", "0"."""
    return ("+" if value > 0 else "") + format_points(value)


def format_average(value: Fraction | None) -> str:
    """An average place on screen, always with two decimals so a column reads alike (11/5 → "2,20", 5/2 → "2,50",
    2 → "2,00"), rounded half up from the exact fraction; "—" before the first hanchan."""
    if value is None:
        return "—"
    hundredths = int(value * 200 + 1) // 2  # floor(value × 100 + ½); places are positive
    return f"{hundredths // 100},{hundredths % 100:02d}"


def counted(n: int, one: str, few: str, many: str) -> str:
    """«3 ханчана»: the count and its noun."""
    return f"{n} {plural(n, one, few, many)}"


# The playoff's tables in Russian (Регламент §2: tables А and Б of round 1, the upper and lower brackets of round 2);
# the database keeps the Latin letters of the bracket's codes (services/playoff/repo.TABLE_OF).
PLAYOFF_TABLES = {"A": "стол А", "B": "стол Б", "U": "верхняя ветка", "L": "нижняя ветка"}


# Men's first names that end like women's (and the short forms the club uses); ambiguous ones (Саша, Женя,
# Валя) are in neither list and leave a sentence in its neutral form.
_MEN_ENDING_IN_A = frozenset(
    (
        "никита",
        "илья",
        "кузьма",
        "фома",
        "лука",
        "савва",
        "данила",
        "гаврила",
        "добрыня",
        "миша",
        "гриша",
        "паша",
        "лёша",
        "алёша",
        "дима",
        "вова",
        "коля",
        "толя",
        "петя",
        "ваня",
        "серёжа",
        "костя",
        "федя",
        "гоша",
        "тёма",
        "лёня",
        "вася",
        "стёпа",
        "юра",
        "боря",
        "гена",
        "витя",
        "рома",
        "жора",
    )
)
_AMBIGUOUS = frozenset(("саша", "женя", "валя", "шура", "слава"))
_WOMEN_SURNAME = ("ова", "ева", "ёва", "ина", "ына", "ская", "цкая", "ая")
_MEN_SURNAME = ("ов", "ев", "ёв", "ин", "ын", "ский", "цкий", "ой", "ый")


def _word_gender(word: str) -> tuple[str, bool] | None:
    """One word's vote: ("f" or "m", strong?) or None. Strong: a surname's ending or a first name in -а/-я, -й;
    weak: any other consonant (Олег, but also the surname Жук, which women bear too)."""
    w = word.lower().strip("«»\"'.,")
    if not w.isalpha() or w in _AMBIGUOUS or w.endswith(("ых", "их")):  # Белых, Седых: the same for both
        return None
    if w in _MEN_ENDING_IN_A:
        return "m", True
    if len(w) > 4 and w.endswith(_WOMEN_SURNAME):
        return "f", True
    if len(w) > 3 and w.endswith(_MEN_SURNAME):
        return "m", True
    if w.endswith(("а", "я")):
        return "f", True
    if w.endswith("й"):
        return "m", True
    if w.endswith("ь") or w[-1] in "еёиоуыэю" or not "а" <= w[-1] <= "я":  # Игорь, Любовь; Клименко; Latin
        return None
    return "m", False


def gender(name: str) -> str | None:
    """«f» or «m» when the person's name tells (Татьяна Морозова, Олег Клименко), None when it does not (Саша
    Белых, a Latin nickname, a name whose words disagree): then a sentence about them keeps its neutral form."""
    votes = [v for word in name.replace("-", " ").split() if (v := _word_gender(word)) is not None]
    strong = {g for g, firm in votes if firm}
    found = strong or {g for g, _ in votes}
    return found.pop() if len(found) == 1 else None


def agreed(name: str, masculine: str, feminine: str) -> str:
    """The word that agrees with the person: «ответил» / «ответила», «ответил(а)» when the name does not tell."""
    return {"m": masculine, "f": feminine}.get(gender(name) or "", f"{masculine}({feminine[len(masculine) :]})")


_CASES = {"gen": Case.GENITIVE, "dat": Case.DATIVE, "acc": Case.ACCUSATIVE, "ins": Case.INSTRUMENTAL}
_MAKER = PetrovichDeclinationMaker()


def _russian_name(word: str) -> bool:
    """«Волкова», «Сергеева-Ким»: Russian letters, each part capitalised (a nickname «Новичок бв» is not a name)."""
    return all(p[:1].isupper() and all("а" <= c <= "я" or c == "ё" for c in p.lower()) for p in word.split("-"))


def declined(name: str, case: Literal["gen", "dat", "acc", "ins"]) -> str:
    """A stored «Имя Фамилия» in a case, in the person's gender: «заменяет Жанну Волкову», «вместо Фёдора
    Запасова». Unchanged when it cannot be declined safely: the gender unknown (Саша Белых), a letter that is not
    Russian (a Latin nickname), a word in lower case, more than two words, or one word that is not plainly a name
    («Шарик»)."""
    words = name.split()
    found = gender(name)
    if found is None or not 1 <= len(words) <= 2 or not all(map(_russian_name, words)):
        return name
    if len(words) == 1 and not (_word_gender(words[0]) or ("", False))[1]:
        return name
    sex, to = Gender.FEMALE if found == "f" else Gender.MALE, _CASES[case]
    parts = [_MAKER.make(NamePart.FIRSTNAME, sex, to, words[0])]
    parts += [_MAKER.make(NamePart.LASTNAME, sex, to, w) for w in words[1:]]
    return " ".join(parts)


def round_title(stage_kind: str, round_code: str, *, whole_playoff: bool = False) -> str:
    """«Тур 2», «Плей-офф, раунд 1», «Финал» (the final is named as such, as `match_title` names it); with
    `whole_playoff`, every playoff round is «Плей-офф» (a filter that groups the stage)."""
    if str(stage_kind) != PLAYOFF:
        return f"Тур {round_code}"
    if whole_playoff:
        return "Плей-офф"
    return "Финал" if round_code == FINAL else f"Плей-офф, раунд {round_code}"


def match_title(stage_kind: str, round_code: str, table: str) -> str:
    """«Тур 2, стол 3», «Плей-офф: 1-й раунд, стол Б», «Плей-офф: 2-й раунд, верхняя ветка», «Плей-офф: 3-й раунд»,
    «Плей-офф: финал» — the playoff's rounds named alike, as the bracket names them (issue 45 item 5)."""
    if str(stage_kind) == PLAYOFF:
        if round_code == FINAL:
            return "Плей-офф: финал"
        where = PLAYOFF_TABLES.get(table)
        return f"Плей-офф: {round_code}-й раунд" + (f", {where}" if where else "")
    return f"Тур {round_code}, стол {table}"


def match_heading(match_id: int, stage_kind: str, round_code: str, table: str) -> str:
    """The match page's heading: «Матч 3 — Тур 1, стол 3», «Матч 7 — Плей-офф: 1-й раунд, стол А» (a dash, not a
    second colon beside the playoff's own; issue 45 item 6)."""
    return f"Матч {match_id} — {match_title(stage_kind, round_code, table)}"


def place(room: str, tables: int, *table_nos: int) -> str:
    """Where a booking sits: the room, and its tables when the room has several — the club's tables, named apart
    from the draw's («Тур 2, стол 2», Регламент §2) so a player at the club does not look for table 2 (issue 45
    item 12): «Клуб, стол клуба № 1», an activity's «Клуб, столы клуба № 1, 2»; all of a room's tables: the room."""
    taken = sorted(set(table_nos))
    if tables <= 1 or not taken or len(taken) >= tables:
        return room
    if len(taken) == 1:
        return f"{room}, стол клуба № {taken[0]}"
    return f"{room}, столы клуба № {', '.join(map(str, taken))}"
