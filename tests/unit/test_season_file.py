"""The discard-season/1 file (parse, validate, dump) and the `discard standings` command on it."""

from __future__ import annotations

import argparse
import copy
import json
from pathlib import Path
from typing import Any

import pytest

from services.commands import standings as standings_command
from services.core.ruleset import DEFAULT
from services.results.season_file import FORMAT, SeasonFileError, dump_season, load_season, parse_season


def results(seats: list[int], points: list[int], chombo: dict[int, int] | None = None) -> list[dict[str, Any]]:
    chombo = chombo or {}
    return [{"player": p, "points": pts, "chombo": chombo.get(p, 0)} for p, pts in zip(seats, points, strict=True)]


def season_doc() -> dict[str, Any]:
    """Eight players; tour 1 table 1 complete (with a substitute), table 2 incomplete with a no-show; one playoff."""
    t1 = [1, 2, 3, 9]  # 9 sits in for player 5, who did not come
    t2 = [4, 6, 7, 8]
    return {
        "format": FORMAT,
        "players": [
            {"id": 1, "name": "Анна", "status": "main"},
            {"id": 2, "name": "Борис", "status": "main"},
            {"id": 3, "name": "Вера", "status": "main"},
            {"id": 4, "name": "Глеб", "status": "main"},
            {"id": 5, "name": "Дина", "status": "main"},
            {"id": 6, "name": "Егор", "status": "main"},
            {"id": 7, "name": "Жанна", "status": "withdrawn"},
            {"id": 8, "name": "Зоя", "status": "main"},
            {"id": 9, "name": "Игорь", "status": "substitute"},
        ],
        "matches": [
            {
                "id": 1,
                "stage": "regular",
                "round": 1,
                "table": 1,
                "hanchans": [
                    {"number": 1, "riichi_left": 0, "results": results(t1, [45000, 32000, 25000, 18000])},
                    {"number": 2, "riichi_left": 2, "results": results(t1, [18000, 43000, 32000, 25000])},
                    {"number": 3, "riichi_left": 0, "results": results(t1, [32000, 25000, 18000, 45000], {3: 1})},
                ],
                "penalties": [{"player": 5, "points": -80000, "reason": "неявка без предупреждения"}],
            },
            {
                "id": 2,
                "stage": "regular",
                "round": 1,
                "table": 2,
                "hanchans": [{"number": 1, "riichi_left": 0, "results": results(t2, [40000, 30000, 30000, 20000])}],
                "penalties": [],
            },
            {
                "id": 3,
                "stage": "playoff",
                "round": "1A",
                "table": 1,
                "hanchans": [{"number": 1, "riichi_left": 0, "results": results(t1, [40000, 30000, 30000, 20000])}],
                "penalties": [],
            },
        ],
    }


def test_dump_gives_back_the_parsed_document() -> None:
    doc = season_doc()
    season = parse_season(doc)
    assert [m.id for m in season.matches] == [1, 2, 3]
    assert season.matches[0].penalties[0].points == -80000
    assert dump_season(season) == doc | {"rules": DEFAULT.as_columns()}  # a file without rules: the regulation's
    assert parse_season(json.loads(json.dumps(dump_season(season)))) == season


def problems_of(doc: Any) -> list[str]:
    with pytest.raises(SeasonFileError) as error:
        parse_season(doc)
    assert str(error.value) == "\n".join(error.value.problems)
    return error.value.problems


def test_validation_lists_every_problem_at_once() -> None:
    doc = season_doc()
    doc["format"] = "discard-season/2"
    doc["players"].append({"id": 1, "name": "Анна-2", "status": "main"})
    doc["players"].append({"id": 10, "name": "", "status": "guest"})
    m1 = doc["matches"][0]
    m1["hanchans"][1]["results"][3]["points"] = 26000  # 119 000 + 2 sticks
    m1["hanchans"][2]["results"][0]["player"] = 77
    m1["penalties"][0]["points"] = 80000
    m1["comment"] = "?"
    m2 = doc["matches"][1]
    m2["round"] = 5
    m2["hanchans"].append(copy.deepcopy(m2["hanchans"][0]))
    m2["hanchans"][0]["results"][0]["chombo"] = True
    doc["matches"][2]["round"] = "1C"
    assert problems_of(doc) == [
        'файл: формат должен быть «discard-season/1», указано "discard-season/2"',
        'игрок 10: поле «name» должно быть непустой строкой не длиннее 60 символов, указано ""',
        'игрок 10: поле «status» должно быть одним из: main, reserve, substitute, withdrawn, указано "guest"',
        "игрок 1: идентификатор повторяется",
        "матч 1: неизвестное поле «comment»",
        "матч 1, ханчан 3, результат 1: неизвестный игрок 77",
        "матч 1, штраф 1: поле «points» должно быть отрицательным целым числом не меньше −1000000, указано 80000",
        "матч 1, ханчан 2: сумма очков 119\u202f000 + 2 палочки = 121\u202f000, должна быть 120\u202f000",
        "матч 2: поле «round» должно быть номером тура от 1 до 4, указано 5",
        "матч 2, ханчан 1, результат 1: поле «chombo» должно быть целым числом от 0 до 10, указано true",
        'матч 3: поле «round» должно быть раундом плей-офф, одним из: 1A, 1B, 2U, 2L, 3, F, указано "1C"',
    ]


def test_match_level_rules() -> None:
    doc = season_doc()
    m1, m2 = doc["matches"][0], doc["matches"][1]
    m1["hanchans"][1]["number"] = 1  # a replay must replace hanchan 1, not sit beside it
    m1["hanchans"][2]["results"][3]["player"] = 5  # someone else in seat 4
    m2["table"] = 1
    m2["hanchans"][0]["results"].pop()
    assert problems_of(doc) == [
        "матч 1, ханчан 1: указан дважды (переигровка заменяет исходный ханчан, а не добавляется к нему)",
        "матч 1, ханчан 3: состав игроков отличается от ханчана 1",
        "матч 2, ханчан 1: нужно 4 результата, указано 3",
        "матч 2, ханчан 1: сумма очков 100\u202f000, должна быть 120\u202f000",
        "матч 2: тур 1, стол 1 уже занят матчем 1",
    ]


def test_final_takes_five_hanchans_other_matches_three() -> None:
    doc = season_doc()
    playoff = doc["matches"][2]
    one = playoff["hanchans"][0]
    playoff["hanchans"] = [dict(copy.deepcopy(one), number=n) for n in range(1, 6)]
    assert problems_of(doc) == [
        "матч 3: ханчанов 5, в этом матче их не больше 3",
        "матч 3, ханчан 4: номер должен быть от 1 до 3",
        "матч 3, ханчан 5: номер должен быть от 1 до 3",
    ]
    playoff["round"] = "F"
    assert parse_season(doc).matches[2].complete


@pytest.mark.parametrize(
    ("doc", "expected"),
    [
        ([], ["файл: ожидается объект, указано []"]),
        ({"format": FORMAT}, ["файл: нет поля «players»", "файл: нет поля «matches»"]),
        (
            {"format": FORMAT, "players": {}, "matches": [7]},
            ["файл: поле «players» должно быть списком, указано {}", "матч №1: ожидается объект, указано 7"],
        ),
    ],
)
def test_broken_structure(doc: Any, expected: list[str]) -> None:
    assert problems_of(doc) == expected


def test_load_season_reports_bad_json(tmp_path: Path) -> None:
    path = tmp_path / "season.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(SeasonFileError, match="не JSON"):
        load_season(path)
    with pytest.raises(SeasonFileError, match="missing.json не найден"):
        load_season(tmp_path / "missing.json")
    with pytest.raises(SeasonFileError, match="не удалось прочитать файл"):
        load_season(tmp_path)


def run_command(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="discard")
    standings_command.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


def write(tmp_path: Path, doc: dict[str, Any]) -> str:
    path = tmp_path / "season.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return str(path)


def test_standings_command_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_command(["standings", "--season", write(tmp_path, season_doc()), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    # Match 1, complete. Player 1: 30 000 − 27 000 + 7 000 = 10 000, 2nd, +5 000. Player 2: 7 000 + (13 000 + 15 000
    # + 2 000 sticks) − 10 000 = 27 000, 1st, +15 000. Player 3: −10 000 + 7 000 + (−27 000 − 40 000 chombo) =
    # −70 000, 4th, −15 000. Substitute 9: −27 000 − 10 000 + 30 000 = −7 000, 3rd, −5 000. Player 5: the no-show.
    assert out["matches"][0]["id"] == 1
    keys = ("player", "hanchans", "penalties", "match_uma", "total", "place")
    assert [tuple(r[k] for k in keys) for r in out["matches"][0]["results"]] == [
        (2, [7000, 30000, -10000], 0, 15000, 42000, 1),
        (1, [30000, -27000, 7000], 0, 5000, 15000, 2),
        (9, [-27000, -10000, 30000], 0, -5000, -12000, 3),
        (3, [-10000, 7000, -67000], 0, -15000, -85000, 4),
        (5, [], -80000, 0, -80000, None),
    ]
    assert all(set(r) == set(keys) for m in out["matches"] for r in m["results"])
    # Substitute 9 and withdrawn 7 are not ranked; no-show 5 is, with the −80 000 and no match played.
    assert out["standings"] == [
        {"place": 1, "player": 2, "name": "Борис", "total": 42000, "matches": 1, "hanchans": 3,
         "average_place": "2", "unresolved_tie": False},
        {"place": 2, "player": 4, "name": "Глеб", "total": 25000, "matches": 1, "hanchans": 1,
         "average_place": "1", "unresolved_tie": False},
        {"place": 3, "player": 1, "name": "Анна", "total": 15000, "matches": 1, "hanchans": 3,
         "average_place": "7/3", "unresolved_tie": False},
        {"place": 4, "player": 6, "name": "Егор", "total": 0, "matches": 1, "hanchans": 1,
         "average_place": "5/2", "unresolved_tie": False},
        {"place": 5, "player": 8, "name": "Зоя", "total": -25000, "matches": 1, "hanchans": 1,
         "average_place": "4", "unresolved_tie": False},
        {"place": 6, "player": 5, "name": "Дина", "total": -80000, "matches": 0, "hanchans": 0,
         "average_place": None, "unresolved_tie": False},
        {"place": 7, "player": 3, "name": "Вера", "total": -85000, "matches": 1, "hanchans": 3,
         "average_place": "3", "unresolved_tie": False},
    ]  # fmt: skip
    # Match 2, one hanchan: no match uma yet; 6 and 7 share 2nd–3rd on equal points.
    assert [(r["player"], r["place"], r["match_uma"]) for r in out["matches"][1]["results"]] == [
        (4, 1, 0),
        (6, 2, 0),
        (7, 2, 0),
        (8, 4, 0),
    ]
    # Playoff 1A after one hanchan: no match uma; 2 and 3 tie on total and average place.
    assert [(r["player"], r["total"], r["place"]) for r in out["matches"][2]["results"]] == [
        (1, 25000, 1),
        (2, 0, 2),
        (3, 0, 2),
        (9, -25000, 4),
    ]


def test_standings_command_readable_table_and_tie_decision(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = season_doc()
    doc["matches"][1]["hanchans"][0]["results"] = results([4, 6, 7, 8], [30000] * 4)  # 4, 6, 8 tie on 0 and 5/2
    path = write(tmp_path, doc)
    assert run_command(["standings", "--season", path]) == 0
    out = capsys.readouterr().out
    assert "Место" in out and "Ср. место" in out
    assert "Дина" in out and "Игорь" not in out and "Жанна" not in out
    assert "    3=  Глеб" in out and "    3=  Егор" in out and "    3=  Зоя" in out
    assert "решает организатор" in out
    assert run_command(["standings", "--season", path, "--json", "--tie-decision", "6, 8,4"]) == 0
    rows = json.loads(capsys.readouterr().out)["standings"]
    assert [(r["player"], r["place"], r["unresolved_tie"]) for r in rows[2:5]] == [
        (6, 3, False),
        (8, 4, False),
        (4, 5, False),
    ]


def test_standings_command_rejects_a_bad_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = season_doc()
    doc["matches"][0]["hanchans"][1]["results"][3]["points"] = 26000
    doc["matches"][1]["penalties"] = [{"player": 4, "points": -1000}]
    assert run_command(["standings", "--season", write(tmp_path, doc), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert (
        "матч 1, ханчан 2: сумма очков 119\u202f000 + 2 палочки = 121\u202f000, должна быть 120\u202f000"
        in captured.err
    )
    assert "матч 2, штраф 1: нет поля «reason»" in captured.err
    assert run_command(["standings", "--season", write(tmp_path, season_doc()), "--tie-decision", "1,42"]) == 2
    assert "неизвестные игроки 42" in capsys.readouterr().err
