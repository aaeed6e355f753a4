"""The judge attaches a photo to a ruling and it appears in the match protocol (Регламент §6.2)."""

from __future__ import annotations

import re
import struct
import uuid
import zlib
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.e2e.conftest import JUDGE, PLAYERS, App, login
from tests.e2e.test_results import _match_for

TABLE = PLAYERS[4:8]


def _png() -> bytes:
    """A real 1×1 PNG."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00"))
        + chunk(b"IEND", b"")
    )


def test_judge_uploads_a_photo_and_it_appears_in_the_protocol(page: Page, app: App, tmp_path: Path) -> None:
    match_id = _match_for(app, TABLE)
    photo = tmp_path / "стол.png"
    photo.write_bytes(_png())
    decision = f"рон засчитан {uuid.uuid4().hex[:6]}"

    login(page, app, JUDGE, path=f"/match/{match_id}")
    expect(page.get_by_role("heading", name=re.compile(f"Матч {match_id}"))).to_be_visible()
    form = page.locator("form").filter(has=page.get_by_role("button", name="Записать решение судьи"))
    form.get_by_label("Номер ханчана (если есть)").fill("1")
    form.get_by_label("Последовательность действий").fill("пон, затем рон")
    form.get_by_label("Суть разногласия").fill("приоритет рона")
    form.get_by_label("Решение", exact=True).fill(decision)
    form.locator("input[type=file]").set_input_files(photo)
    expect(form.get_by_text("стол.png")).to_be_visible()
    form.get_by_role("button", name="Записать решение судьи").click()
    expect(page.get_by_role("status")).to_have_text("Решение судьи записано.")

    row = page.get_by_role("row").filter(has_text=decision)
    image = row.get_by_role("img", name="Фотография к решению судьи")
    expect(image).to_be_visible()
    src = image.get_attribute("src")
    assert src and re.search(r"/_upload/rulings/[0-9a-f]{32}\.png$", src), src
    assert page.request.get(src).body() == _png()
