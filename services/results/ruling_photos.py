"""Photos attached to a judge's ruling: checking the files and storing them under random names; imports no reflex.

Регламент §6.2 «Порядок обращения к судье»: «приложите фотографии при необходимости».
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from pathlib import Path

from services.results.hanchans import ResultsError

MAX_PHOTOS = 5
MAX_BYTES = 10 * 1024 * 1024
SUBDIR = "rulings"  # inside the upload directory; the stored path is "rulings/<random>.<ext>"
HEIF_BRANDS = (b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1")


def sniff_image(head: bytes) -> str | None:
    """The image type from the file's first bytes ("jpg", "png", "webp", "heic"), None for anything else.

    The content decides, not the name: a renamed document must not reach the protocol as a "photo"."""
    if head.startswith(b"\xff\xd8\xff"):
        return "jpg"
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "webp"
    # ISO BMFF: a box size, then "ftyp" and the major brand (phones write HEIC this way).
    if head[4:8] == b"ftyp" and head[8:12] in HEIF_BRANDS:
        return "heic"
    return None


def photo_problems(files: Sequence[tuple[str, bytes]]) -> list[str]:
    """What is wrong with the photos as uploaded (name, content), in Russian; empty when all can be stored."""
    if len(files) > MAX_PHOTOS:
        return [f"можно приложить не больше {MAX_PHOTOS} фотографий, выбрано {len(files)}"]
    problems = []
    for name, data in files:
        if len(data) > MAX_BYTES:
            problems.append(f"файл «{name}» больше {MAX_BYTES // (1024 * 1024)} МБ")
        elif sniff_image(data[:16]) is None:
            problems.append(f"файл «{name}» не фотография (принимаются JPEG, PNG, WebP, HEIC)")
    return problems


def photo_paths(files: Sequence[tuple[str, bytes]]) -> list[str]:
    """Random stored paths for checked photos, with the extension of their real type (the sender's name is not
    used: it may be anything, and two judges' "IMG_0001.jpg" must not collide). Raises ResultsError."""
    problems = photo_problems(files)
    if problems:
        raise ResultsError(problems)
    return [f"{SUBDIR}/{secrets.token_hex(16)}.{sniff_image(data[:16])}" for _, data in files]


def store_photos(directory: Path, paths: Sequence[str], files: Sequence[tuple[str, bytes]]) -> None:
    """Write the photos under `directory` at the paths `photo_paths` gave; never overwrites a file."""
    for path, (_, data) in zip(paths, files, strict=True):
        target = directory / path
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "xb") as out:
            out.write(data)
