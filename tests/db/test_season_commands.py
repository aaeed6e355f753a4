"""The documented commands as the organizer runs them, in real processes: a clean database for the real league
(no demo), the roster CSV preview, backup and restore; and `make run`'s demo on an empty database."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from sqlmodel import Session, select

from services.core.db import make_engine
from services.core.models import Announcement, RegulationVersion, Season, User

DISCARD = str(Path(sys.executable).parent / "discard")
CHECKOUT = str(Path(__file__).resolve().parents[2])  # the code under test, also when the venv is another checkout's


def _run(url: str, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "DATABASE_URL": url, "REFLEX_UPLOADED_FILES_DIR": str(cwd / "uploads"), "PYTHONPATH": CHECKOUT}
    return subprocess.run([DISCARD, *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=120)


def test_real_league_from_a_clean_database(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'league.db'}"
    assert _run(url, "migrate", cwd=tmp_path).returncode == 0
    made = _run(url, "season", "new", "Лига Дискарда 2027", "--organizer", "Анна Организатор",
                "--opens", "2027-01-10", "--closes", "2027-02-01", cwd=tmp_path)  # fmt: skip
    assert made.returncode == 0, made.stderr
    assert "Сезон «Лига Дискарда 2027» начат и стал текущим." in made.stdout
    assert "Анна Организатор: организатор, пароль " in made.stdout
    # `make run` then finds the database not empty: no demo.
    assert _run(url, "demo", "--if-empty", cwd=tmp_path).returncode == 0
    engine = make_engine(url)
    with Session(engine) as s:
        assert [u.display_name for u in s.exec(select(User))] == ["Анна Организатор"]
        season = s.exec(select(Season)).one()
        assert (season.name, season.is_current, str(season.registration_closes_on)) == (
            "Лига Дискарда 2027",
            True,
            "2027-02-01",
        )
    roster = tmp_path / "roster.csv"
    roster.write_text("Имя,Контакт,Взнос\nИван Петров,@ivan,да\nМария,@m,когда-нибудь\n", encoding="utf-8")
    preview = _run(url, "season", "import-roster", str(roster), "--preview", cwd=tmp_path)
    assert preview.returncode == 1  # a line is refused
    assert "Строка 3 отклонена: взнос «когда-нибудь»" in preview.stdout
    assert "новый игрок" in preview.stdout
    imported = _run(url, "season", "import-roster", str(roster), cwd=tmp_path)
    assert "Иван Петров: пароль " in imported.stdout
    assert _run(url, "season", "list", cwd=tmp_path).stdout.startswith("* ")

    (tmp_path / "uploads" / "rulings").mkdir(parents=True)
    (tmp_path / "uploads" / "rulings" / "a.png").write_bytes(b"\x89PNG")
    saved = _run(url, "backup", "--output", str(tmp_path / "backups"), cwd=tmp_path)
    assert saved.returncode == 0, saved.stderr
    archive = next((tmp_path / "backups").glob("discard-backup-*.tar.gz"))
    refused = _run(url, "restore", str(archive), cwd=tmp_path)
    assert refused.returncode == 2 and "База не пуста" in refused.stderr
    other = f"sqlite:///{tmp_path / 'restored.db'}"
    restored = _run(other, "restore", str(archive), cwd=tmp_path)
    assert restored.returncode == 0, restored.stderr
    with Session(make_engine(other)) as s:
        assert {u.display_name for u in s.exec(select(User))} == {"Анна Организатор", "Иван Петров"}
    engine.dispose()


def test_make_run_still_seeds_the_demo_into_an_empty_database(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'demo.db'}"
    assert _run(url, "migrate", cwd=tmp_path).returncode == 0
    seeded = _run(url, "demo", "--if-empty", "--logins-file", str(tmp_path / "logins.txt"), cwd=tmp_path)
    assert seeded.returncode == 0, seeded.stderr
    engine = make_engine(url)
    with Session(engine) as s:
        season = s.exec(select(Season)).one()
        assert season.is_current and season.draw_approved_at is not None
        assert len(s.exec(select(User)).all()) == 18
        regulation = s.exec(select(RegulationVersion)).one()
        assert regulation.text.startswith("Лига Дискарда 2026") and regulation.reason == "исходная редакция"
        assert s.exec(select(Announcement)).all() == []
    engine.dispose()
