"""The judge attaches a phone photo to a ruling and it appears in the match protocol (Регламент §6.2), upright and
without the location, time and device the phone wrote into it."""

from __future__ import annotations

import io
import re
import uuid
from pathlib import Path

from PIL import Image
from playwright.sync_api import Page, expect

from tests.e2e.conftest import JUDGE, PLAYERS, App, login
from tests.e2e.test_results import _match_for
from tests.photos import DEVICE, has_location, phone_jpeg

TABLE = PLAYERS[4:8]


def test_judge_uploads_a_photo_and_it_appears_in_the_protocol(page: Page, app: App, tmp_path: Path) -> None:
    match_id = _match_for(app, TABLE)
    photo = tmp_path / "стол.jpg"
    photo.write_bytes(phone_jpeg(orientation=6))
    assert has_location(photo.read_bytes())
    decision = f"рон засчитан {uuid.uuid4().hex[:6]}"

    login(page, app, JUDGE, path=f"/match/{match_id}")
    expect(page.get_by_role("heading", name=re.compile(f"Матч {match_id}"))).to_be_visible()
    form = page.locator("form").filter(has=page.get_by_role("button", name="Записать решение судьи"))
    form.get_by_label("Номер ханчана (если есть)").fill("1")
    form.get_by_label("Последовательность действий").fill("пон, затем рон")
    form.get_by_label("Суть разногласия").fill("приоритет рона")
    form.get_by_label("Решение", exact=True).fill(decision)
    form.locator("input[type=file]").set_input_files(photo)
    expect(form.get_by_text("стол.jpg")).to_be_visible()
    form.get_by_role("button", name="Записать решение судьи").click()
    expect(page.get_by_role("status")).to_have_text("Решение судьи записано.")

    row = page.get_by_role("row").filter(has_text=decision)
    image = row.get_by_role("img", name="Фотография к решению судьи")
    expect(image).to_be_visible()
    src = image.get_attribute("src")
    assert src and re.search(r"/_upload/rulings/[0-9a-f]{32}\.jpg$", src), src
    served = page.request.get(src).body()
    assert not has_location(served) and DEVICE.encode() not in served and b"Exif" not in served
    with Image.open(io.BytesIO(served)) as image:
        assert image.size == (48, 64)  # turned as the phone said, then the orientation tag dropped with the rest
