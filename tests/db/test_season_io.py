"""`discard export` → `discard import` round trip, and a bad file changing nothing."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlmodel import Session, func, select

from services.commands.cli import main
from services.core.models import AuditRecord, Hanchan, Match, Player, Role, Season, Stage, StageKind
from services.core.text_limits import PERSON_NAME_MAX
from services.league.accounts import create_user, normalize_login
from services.league.season_io import export_season, import_season
from services.playoff.hanchan_entry import enter_hanchan
from services.results import repo as results_repo
from services.results.penalties import add_no_show
from services.results.season_file import SeasonFileError
from tests.db.test_results import League, entry
from tests.factories import LETTERS, PLAYED, begun_meeting


@pytest.fixture(autouse=True)
def _cheap_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("services.core.security.hash_password", lambda password: "test-hash")


def _empty_season(session: Session) -> None:
    create_user(session, display_name="Другой Организатор", role=Role.ORGANIZER)
    season = Season(name="Пустой")
    session.add(season)
    session.flush()
    session.add(Stage(season_id=season.id, kind=StageKind.REGULAR))
    session.commit()


def persons_names(session: Session, league: League) -> None:
    """A season file's new people need persons' names (text_limits.person_name_problem): «Игрок 0» → «Игрок а»."""
    for user in league.users.values():
        user.display_name = user.display_name.translate(LETTERS)
        user.login_name = normalize_login(user.display_name)
        session.add(user)
    session.flush()


def _played(session: Session) -> League:
    league = League(session)
    persons_names(session, league)
    p = league.players
    m1 = league.match(1, 1, p[:4])
    m2 = league.match(1, 2, p[4:])
    for _ in range(3):
        enter_hanchan(session, league.organizer, m1, entry(p[:4], [41000, 29000, 30000, 19000], riichi=1), now=PLAYED)
    enter_hanchan(
        session, league.organizer, m2, entry(p[4:], [50000, 10000, 30000, 30000], chombo={p[5]: 1}), now=PLAYED
    )
    begun_meeting(session, m2, PLAYED - timedelta(hours=1))
    add_no_show(session, league.organizer, m2, p[7], now=PLAYED)
    session.commit()
    return league


def _counts(engine: sa.Engine) -> dict[str, int]:
    with Session(engine) as s:
        return {
            model.__name__: s.exec(select(func.count()).select_from(model)).one()
            for model in (Player, Match, Hanchan, AuditRecord)
        }


def test_export_then_import_into_another_database_gives_the_same_season(
    session: Session, engine: sa.Engine, tmp_path: Path, migrated_sqlite_template: Path
) -> None:
    league = _played(session)
    document = export_season(session)
    assert document["format"] == "discard-season/1"
    other_url = f"sqlite:///{tmp_path / 'other.db'}"
    (tmp_path / "other.db").write_bytes(migrated_sqlite_template.read_bytes())
    other = sa.create_engine(other_url)
    with Session(other, expire_on_commit=False) as target:
        _empty_season(target)
        summary = import_season(target, json.loads(json.dumps(document)))
        target.commit()
        assert (summary.players_added, summary.matches_added, summary.hanchans_added, summary.penalties_added) == (
            8,
            2,
            4,
            1,
        )
        again = export_season(target)
        # Another database numbers players and matches its own way: compare by names and contents.
        assert _by_names(again) == _by_names(document)
        target_standings = [
            (r.name, r.total, r.place)
            for r in results_repo.db_standings(target, results_repo.current_season_id(target))
        ]
        # Importing the same file twice changes nothing.
        assert import_season(target, json.loads(json.dumps(document))).hanchans_added == 0
    other.dispose()
    source = [(r.name, r.total, r.place) for r in results_repo.db_standings(session, league.season.id)]
    assert target_standings == source


def _by_names(document: dict) -> list:
    names = {p["id"]: p["name"] for p in document["players"]}
    return sorted(
        (
            m["stage"],
            m["round"],
            m["table"],
            [
                (
                    h["number"],
                    h["riichi_left"],
                    sorted((names[r["player"]], r["points"], r["chombo"]) for r in h["results"]),
                )
                for h in m["hanchans"]
            ],
            sorted((names[p["player"]], p["points"], p["reason"]) for p in m["penalties"]),
        )
        for m in document["matches"]
    )


def test_import_corrects_a_changed_hanchan_and_keeps_the_original(session: Session) -> None:
    _played(session)
    document = export_season(session)
    first = document["matches"][0]["hanchans"][0]["results"]
    first[0]["points"], first[3]["points"] = first[3]["points"], first[0]["points"]
    summary = import_season(session, document)
    assert (summary.hanchans_added, summary.hanchans_corrected) == (0, 1)
    assert session.exec(select(func.count()).select_from(Hanchan).where(Hanchan.superseded_by_id != None)).one() == 1  # noqa: E711
    assert export_season(session)["matches"][0]["hanchans"][0]["results"][0]["points"] == 19000


def test_bad_file_changes_nothing_and_lists_every_problem(session: Session, engine: sa.Engine) -> None:
    _played(session)
    document = export_season(session)
    document["players"].append({"id": 999, "name": document["players"][0]["name"], "status": "main"})
    document["matches"][0]["hanchans"][1]["results"][0]["points"] += 500
    document["matches"][1]["penalties"][0]["points"] = 80000
    before = _counts(engine)
    with pytest.raises(SeasonFileError) as error:
        import_season(session, document)
    problems = error.value.problems
    assert any("ханчан 2" in p and "сумма очков" in p for p in problems)
    assert any("отрицательным целым числом" in p for p in problems), problems
    session.rollback()
    # The file is valid by itself but the database finds the repeated name.
    document = export_season(session)
    document["players"].append({"id": 999, "name": document["players"][0]["name"].upper(), "status": "main"})
    with pytest.raises(SeasonFileError) as error:
        import_season(session, document)
    assert error.value.problems == [
        f"игрок «{document['players'][0]['name']}»: имя повторяется в файле",
        f"игрок «{document['players'][0]['name'].upper()}»: имя повторяется в файле",
    ]
    session.rollback()
    assert _counts(engine) == before


@pytest.mark.parametrize("db", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_absurd_numbers_long_and_taken_names_are_listed_and_change_nothing(db: str, request) -> None:  # noqa: ANN001
    engine = request.getfixturevalue("engine" if db == "sqlite" else "pg_engine")
    with Session(engine, expire_on_commit=False) as session:
        _played(session)
        create_user(session, display_name="Чужой Игрок", role=Role.PLAYER)  # an account outside the roster
        session.commit()
        document = export_season(session)
    before = _counts(engine)
    hanchan = document["matches"][0]["hanchans"][0]
    hanchan["results"][0]["points"] = 10**19
    hanchan["results"][1]["points"] = -(10**9)
    hanchan["results"][2]["chombo"] = 2**31
    hanchan["riichi_left"] = 10**6
    document["matches"][1]["penalties"][0]["points"] = -(10**19)
    document["players"].append({"id": 901, "name": "Я" * (PERSON_NAME_MAX + 1), "status": "main"})
    with pytest.raises(SeasonFileError) as error:
        import_season(Session(engine), document)
    problems = "\n".join(error.value.problems)
    for expected in (
        f"поле «points» должно быть целым числом от −10000000 до 10000000, указано {10**19}",
        f"поле «points» должно быть целым числом от −10000000 до 10000000, указано {-(10**9)}",
        f"поле «chombo» должно быть целым числом от 0 до 10, указано {2**31}",
        f"поле «riichi_left» должно быть целым числом от 0 до 100, указано {10**6}",
        f"поле «points» должно быть отрицательным целым числом не меньше −1000000, указано {-(10**19)}",
        f"поле «name» должно быть непустой строкой не длиннее {PERSON_NAME_MAX} символов",
    ):
        assert expected in problems, problems
    document = export_season(Session(engine))  # a valid file but for a name taken by another account
    document["players"].append({"id": 902, "name": "чужой  игрок", "status": "reserve"})
    with pytest.raises(SeasonFileError) as error:
        import_season(Session(engine), document)
    assert error.value.problems == [
        "игрок «чужой  игрок»: пользователь с таким именем уже есть, но не в составе сезона — добавьте его в состав "
        "или исправьте имя в файле"
    ]
    document = export_season(Session(engine))  # a new person whose name is not a person's name
    document["players"].append({"id": 903, "name": "Игрок №13", "status": "reserve"})
    with pytest.raises(SeasonFileError) as error:
        import_season(Session(engine), document)
    assert error.value.problems == ["игрок «Игрок №13»: в имени допустимы только буквы, пробелы, дефис и апостроф"]
    assert _counts(engine) == before


def test_cli_import_refuses_a_bad_file_and_export_writes_one(
    session: Session, sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    _played(session)
    out = tmp_path / "season.json"
    assert main(["export", "-o", str(out)], database_url=sqlite_url) == 0
    document = json.loads(out.read_text(encoding="utf-8"))
    assert len(document["matches"]) == 2
    document["matches"][0]["table"] = 0
    document["matches"][1]["hanchans"][0]["riichi_left"] = -1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(document), encoding="utf-8")
    assert main(["import", str(bad)], database_url=sqlite_url) == 2
    err = capsys.readouterr().err
    assert "ничего не изменено" in err
    assert "поле «table» должно быть целым числом не меньше 1, указано 0" in err
    assert "матч 2, ханчан 1: поле «riichi_left» должно быть целым числом от 0 до 100, указано -1" in err
    assert len(json.loads(out.read_text(encoding="utf-8"))["matches"]) == 2
    assert main(["import", str(out)], database_url=sqlite_url) == 0
