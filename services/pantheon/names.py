"""Names compared across alphabets, to suggest which league player a Pantheon account is; pure, no reflex."""

from __future__ import annotations

import re

_LATIN = "a b v g d e e zh z i i k l m n o p r s t u f h ts ch sh sch - y - e yu ya".split()  # noqa: SIM905
_CYRILLIC = dict(zip("абвгдеёжзийклмнопрстуфхцчшщъыьэюя", _LATIN, strict=True))


def transliterate(text: str) -> str:
    return "".join(_CYRILLIC.get(ch, ch) for ch in text.casefold()).replace("-", "")


def name_key(name: str) -> str:
    """Same key for «Алиса Иванова», «Иванова Алиса» and «alisa ivanova»: words transliterated and sorted."""
    words = re.findall(r"[a-z0-9]+", transliterate(name).replace("kh", "h").replace("j", "i").replace("y", "i"))
    return " ".join(sorted(words))
