"""Photos attached to a judge's ruling: checking the files, stripping what a phone writes into them, storing them
under random names; imports no reflex.

Регламент §6.2 «Порядок обращения к судье»: «приложите фотографии при необходимости». A photo is served to anyone
with its link, so only its pixels are kept: each is decoded and encoded afresh (Pillow), turned upright by its
EXIF orientation first, and written without EXIF (location, time, device), XMP, comments or colour profiles.
"""

from __future__ import annotations

import io
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pillow_heif
from PIL import Image, ImageOps

from services.results.entry import ResultsError

pillow_heif.register_heif_opener()  # phones' HEIC: decoded, then stored as JPEG (most browsers show no HEIC)

MAX_PHOTOS = 5
MAX_BYTES = 10 * 1024 * 1024
SUBDIR = "rulings"  # inside the upload directory; the stored path is "rulings/<random>.<ext>"
HEIF_BRANDS = (b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1")
MAX_PIXELS = 50_000_000  # a 48-megapixel phone photo passes; a decompression bomb (a tiny file, huge canvas) does not
# What each decoded format is stored as, and with which encoder options.
ENCODINGS = {"JPEG": ("JPEG", {"quality": 90}), "PNG": ("PNG", {}), "WEBP": ("WEBP", {"quality": 90})}
HEIF_ENCODING = ("JPEG", {"quality": 90})


@dataclass(frozen=True)
class CleanPhoto:
    """A photo as it will be stored: re-encoded pixels only. Only `clean_photos` makes one."""

    name: str
    data: bytes


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


def strip_metadata(data: bytes) -> bytes:
    """The same picture, upright, with nothing but its pixels: decoded and encoded afresh. Raises ValueError
    when the bytes do not decode as a photo of an accepted type."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            kind = image.format or ""
            if kind not in ENCODINGS and kind != "HEIF":
                raise ValueError(f"not an accepted photo: {kind}")
            if image.width * image.height > MAX_PIXELS:  # read from the header, before a pixel is decoded
                raise ValueError(f"too many pixels: {image.width}×{image.height}")
            image.load()
            upright = ImageOps.exif_transpose(image)  # the orientation a phone recorded, applied to the pixels
    except (OSError, SyntaxError, Image.DecompressionBombError) as error:
        raise ValueError(str(error)) from error
    encoding, options = ENCODINGS.get(kind, HEIF_ENCODING)
    if encoding == "JPEG" and upright.mode not in ("RGB", "L"):
        upright = upright.convert("RGB")
    # No EXIF, XMP, ICC, comments or text chunks reach the encoder from the source; a palette keeps its transparency.
    upright.info = {k: v for k, v in upright.info.items() if k == "transparency"}
    out = io.BytesIO()
    upright.save(out, format=encoding, **options)
    return out.getvalue()


def clean_photos(files: Sequence[tuple[str, bytes]]) -> list[CleanPhoto]:
    """The uploaded photos as they will be stored (see `strip_metadata`), after the count, size and type checks.
    Slow for big photos (a decode and an encode each): the page calls it off the event loop. Raises ResultsError."""
    problems = photo_problems(files)
    if problems:
        raise ResultsError(problems)
    cleaned = []
    for name, data in files:
        try:
            cleaned.append(CleanPhoto(name, strip_metadata(data)))
        except ValueError:
            problems.append(f"файл «{name}» не читается как фотография (принимаются JPEG, PNG, WebP, HEIC)")
    if problems:
        raise ResultsError(problems)
    return cleaned


def photo_paths(photos: Sequence[CleanPhoto]) -> list[str]:
    """Random stored paths for cleaned photos, with the extension of their stored type (the sender's name is not
    used: it may be anything, and two judges' "IMG_0001.jpg" must not collide)."""
    return [f"{SUBDIR}/{secrets.token_hex(16)}.{sniff_image(photo.data[:16])}" for photo in _cleaned(photos)]


def store_photos(directory: Path, paths: Sequence[str], photos: Sequence[CleanPhoto]) -> None:
    """Write the photos under `directory` at the paths `photo_paths` gave; never overwrites a file."""
    for path, photo in zip(paths, _cleaned(photos), strict=True):
        target = directory / path
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "xb") as out:
            out.write(photo.data)


def _cleaned(photos: Sequence[CleanPhoto]) -> Sequence[CleanPhoto]:
    """Raw upload bytes never reach the disk: a caller that skipped `clean_photos` fails loudly."""
    if not all(isinstance(photo, CleanPhoto) for photo in photos):
        raise TypeError("ruling photos must go through clean_photos before they are stored")
    return photos
