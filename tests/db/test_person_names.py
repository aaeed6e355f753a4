"""The one rule of a new person's name (text_limits.person_name_problem) on the command line, in real processes."""

from __future__ import annotations

from pathlib import Path

from sqlmodel import Session, select

from services.core.db import make_engine
from services.core.models import User
from tests.db.test_season_commands import _run


def test_discard_user_add_and_season_new_refuse_a_name_that_is_not_a_person_s(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'league.db'}"
    assert _run(url, "migrate", cwd=tmp_path).returncode == 0
    refused = _run(url, "season", "new", "Лига 2027", "--organizer", "Организатор 1", cwd=tmp_path)
    assert refused.returncode == 2
    assert "В имени допустимы только буквы, пробелы, дефис и апостроф." in refused.stderr
    made = _run(url, "season", "new", "Лига 2027", "--organizer", "Анна Организатор", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    for args in (["Игрок 7"], ["--role", "judge", "Судья_Судейская"], ["Я" * 61]):
        refused = _run(url, "user", "add", *args, cwd=tmp_path)
        assert refused.returncode == 2, refused.stdout
        assert "пароль" not in refused.stdout
    assert "Имя длиннее 60 символов." in refused.stderr
    added = _run(url, "user", "add", "  Анна-Мария   д'Арк ", cwd=tmp_path)
    assert added.returncode == 0, added.stderr
    assert added.stdout.startswith("Анна-Мария д'Арк: пароль ")
    engine = make_engine(url)
    with Session(engine) as s:
        assert sorted(u.display_name for u in s.exec(select(User))) == ["Анна Организатор", "Анна-Мария д'Арк"]
    engine.dispose()
