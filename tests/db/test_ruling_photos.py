"""Photos of a judge's ruling (Регламент §6.2): images only by content, at most 5 × 10 MB, random names, judge only."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sqlmodel import Session, select

from discard_app.pages.results import match_admin
from services.core.models import JudgeRuling
from services.results.hanchans import ResultsError
from services.results.ruling_photos import MAX_BYTES, photo_paths, photo_problems, sniff_image
from services.results.view import match_view
from tests.db.test_results import League

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64
JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF" + b"\x00" * 64
WEBP = b"RIFF\x24\x00\x00\x00WEBPVP8 " + b"\x00" * 64
HEIC = b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + b"\x00" * 64
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
        photo_paths([(f"{n}.png", PNG) for n in range(6)])
    assert error.value.problems == ["можно приложить не больше 5 фотографий, выбрано 6"]
    assert photo_problems([("big.jpg", JPEG + b"\x00" * MAX_BYTES)]) == ["файл «big.jpg» больше 10 МБ"]
    assert photo_problems([(f"{n}.png", PNG) for n in range(5)]) == []


def test_names_are_random_with_the_real_type_as_extension() -> None:
    paths = photo_paths([("IMG_0001.jpg", PNG), ("IMG_0001.jpg", PNG), ("../../etc/x.heic", JPEG)])
    assert len(set(paths)) == 3
    assert all(re.fullmatch(r"rulings/[0-9a-f]{32}\.(png|jpg)", p) for p in paths), paths
    assert [p.rsplit(".", 1)[1] for p in paths] == ["png", "png", "jpg"]


def test_judge_stores_photos_with_the_ruling_and_the_protocol_lists_them(
    session: Session, league: League, tmp_path: Path
) -> None:
    uploads = tmp_path / "uploaded_files"  # tmp_path also holds the test's database
    mid = league.match(1, 1, league.players[:4])
    player = league.users[league.players[0]]
    # A player may not record a ruling: refused, nothing written to disk or to the database.
    with pytest.raises(ResultsError):
        match_admin.ruling(mid, FORM, [("a.png", PNG)], uploads)(session, player)
    # A non-image among the photos: refused before anything is stored.
    with pytest.raises(ResultsError):
        match_admin.ruling(mid, FORM, [("a.png", PNG), ("b.png", b"MZ\x90\x00")], uploads)(session, league.judge)
    assert not uploads.exists()
    assert session.exec(select(JudgeRuling)).all() == []

    ruling = match_admin.ruling(mid, FORM, [("стол.png", PNG), ("снимок.heic", HEIC)], uploads)(session, league.judge)
    session.commit()
    paths = ruling.photos.split("\n")
    assert len(paths) == 2 and paths[1].endswith(".heic")
    assert [(uploads / p).read_bytes() for p in paths] == [PNG, HEIC]
    view = match_view(session, player, mid)
    assert view.rulings[0]["photos"] == ruling.photos
    # Without photos a ruling is recorded as before.
    plain = match_admin.ruling(mid, FORM, [], uploads)(session, league.organizer)
    assert plain.photos == ""
