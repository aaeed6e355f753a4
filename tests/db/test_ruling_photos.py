"""Photos of a judge's ruling (Регламент §6.2): images only by content, at most 5 × 10 MB, random names, judge only."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from PIL import ExifTags, Image
from sqlmodel import Session, select

from discard_app.pages.results import match_admin
from services.core.models import JudgeRuling
from services.results.hanchans import ResultsError
from services.results.ruling_photos import MAX_BYTES, clean_photos, photo_paths, photo_problems, sniff_image
from services.results.view import match_view
from tests.db.test_results import League
from tests.photos import DEVICE, encoded, has_location, phone_jpeg, picture

PNG, WEBP, HEIC = encoded("PNG"), encoded("WEBP"), encoded("HEIF")
JPEG = encoded("JPEG")
FORM = {"hanchan_number": "2", "actions": "пон, затем рон", "disagreement": "приоритет", "decision": "рон"}


def test_images_are_recognised_by_content_not_by_name() -> None:
    assert [sniff_image(x[:16]) for x in (JPEG, PNG, WEBP, HEIC)] == ["jpg", "png", "webp", "heic"]
    assert sniff_image(b"%PDF-1.7\n") is None
    assert sniff_image(b"<svg xmlns=") is None
    assert sniff_image(b"RIFF\x24\x00\x00\x00WAVEfmt ") is None  # RIFF, but audio
    assert photo_problems([("protocol.png", b"just text, renamed"), ("ok.jpg", JPEG)]) == [
        "файл «protocol.png» не фотография (принимаются JPEG, PNG, WebP, HEIC)"
    ]


def test_too_many_or_too_large_files_are_refused() -> None:
    with pytest.raises(ResultsError) as error:
        clean_photos([(f"{n}.png", PNG) for n in range(6)])
    assert error.value.problems == ["можно приложить не больше 5 фотографий, выбрано 6"]
    assert photo_problems([("big.jpg", JPEG + b"\x00" * MAX_BYTES)]) == ["файл «big.jpg» больше 10 МБ"]
    assert photo_problems([(f"{n}.png", PNG) for n in range(5)]) == []


def test_names_are_random_with_the_real_type_as_extension() -> None:
    photos = clean_photos([("IMG_0001.jpg", PNG), ("IMG_0001.jpg", PNG), ("../../etc/x.heic", JPEG), ("a.png", HEIC)])
    paths = photo_paths(photos)
    assert len(set(paths)) == 4
    assert all(re.fullmatch(r"rulings/[0-9a-f]{32}\.(png|jpg)", p) for p in paths), paths
    assert [p.rsplit(".", 1)[1] for p in paths] == ["png", "png", "jpg", "jpg"]  # HEIC is stored as JPEG


def test_judge_stores_photos_with_the_ruling_and_the_protocol_lists_them(
    session: Session, league: League, tmp_path: Path
) -> None:
    uploads = tmp_path / "uploaded_files"  # tmp_path also holds the test's database
    mid = league.match(1, 1, league.players[:4])
    player = league.users[league.players[0]]
    # A player may not record a ruling: refused, nothing written to disk or to the database.
    with pytest.raises(ResultsError):
        match_admin.ruling(mid, FORM, clean_photos([("a.png", PNG)]), uploads)(session, player)
    # A non-image among the photos, or an image header with nothing decodable after it: refused before anything
    # is stored; raw upload bytes cannot be stored at all.
    with pytest.raises(ResultsError):
        clean_photos([("a.png", PNG), ("b.png", b"MZ\x90\x00")])
    with pytest.raises(ResultsError):
        clean_photos([("a.png", PNG[:16] + b"\x00" * 64)])
    with pytest.raises(TypeError):
        match_admin.ruling(mid, FORM, [("a.png", PNG)], uploads)(session, league.judge)
    assert not uploads.exists()
    assert session.exec(select(JudgeRuling)).all() == []

    photos = clean_photos([("стол.png", PNG), ("снимок.heic", HEIC)])
    ruling = match_admin.ruling(mid, FORM, photos, uploads)(session, league.judge)
    session.commit()
    paths = ruling.photos.split("\n")
    assert len(paths) == 2 and paths[0].endswith(".png") and paths[1].endswith(".jpg")
    assert [(uploads / p).read_bytes() for p in paths] == [p.data for p in photos]
    view = match_view(session, player, mid)
    assert view.rulings[0]["photos"] == ruling.photos
    # Without photos a ruling is recorded as before.
    plain = match_admin.ruling(mid, FORM, [], uploads)(session, league.organizer)
    assert plain.photos == ""


def test_a_phone_photo_loses_its_location_time_and_device_but_stays_upright() -> None:
    upload = phone_jpeg(orientation=6)  # «rotate 90° clockwise to view»
    assert has_location(upload) and DEVICE.encode() in upload and b"Exif" in upload  # what a phone sends
    [photo] = clean_photos([("IMG_0001.jpg", upload)])
    stored = photo.data
    assert not has_location(stored)
    assert b"Exif" not in stored and DEVICE.encode() not in stored and b"taken at the club" not in stored
    with Image.open(io.BytesIO(stored)) as image:
        assert image.format == "JPEG"
        assert dict(image.getexif()) == {}
        assert image.size == (48, 64)  # turned upright: the 64×48 landscape now stands
        top, bottom = image.convert("RGB").getpixel((24, 4)), image.convert("RGB").getpixel((24, 60))
    assert top[0] > 150 > top[2] and bottom[2] > 150 > bottom[0]  # the red half, on the left as shot, is on top


@pytest.mark.parametrize("kind", ["PNG", "WEBP", "HEIF"])
def test_other_formats_are_stored_without_metadata(kind: str) -> None:
    exif = Image.Exif()
    exif[ExifTags.Base.Model] = DEVICE
    out = io.BytesIO()
    picture().save(out, format=kind, exif=exif.tobytes())
    assert DEVICE.encode() in out.getvalue()
    [photo] = clean_photos([("x", out.getvalue())])
    assert DEVICE.encode() not in photo.data
    with Image.open(io.BytesIO(photo.data)) as image:
        assert dict(image.getexif()) == {} and image.size == (64, 48)


@pytest.mark.filterwarnings("ignore::PIL.Image.DecompressionBombWarning")
def test_a_decompression_bomb_is_refused_before_it_is_decoded() -> None:
    out = io.BytesIO()
    Image.new("L", (10_000, 10_000)).save(out, format="PNG")  # 100 megapixels in a few hundred kilobytes
    with pytest.raises(ResultsError, match="не читается как фотография"):
        clean_photos([("bomb.png", out.getvalue())])
