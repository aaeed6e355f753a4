"""`discard playoff --season FILE`: the bracket of a season file, through the real command line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from services.commands.cli import main

IN_ORDER = [45000, 35000, 25000, 15000]


def match(mid: int, stage: str, round_: Any, seats: list[int], *points: list[int], count: int = 3) -> dict[str, Any]:
    points = points or (IN_ORDER,) * count
    return {
        "id": mid,
        "stage": stage,
        "round": round_,
        "table": (seats[0] + 3) // 4 if stage == "regular" else 1,
        "hanchans": [
            {
                "number": n,
                "riichi_left": 0,
                "results": [{"player": p, "points": x, "chombo": 0} for p, x in zip(seats, pts, strict=True)],
            }
            for n, pts in enumerate(points, start=1)
        ],
        "penalties": [],
    }


def season_doc() -> dict[str, Any]:
    """Twelve main players and substitute 99. Regular tour 1, three tables won in seat order with falling margins,
    so the standings are 1, 5, 9, 2, 6, 10, 3, 7 | 11, 12, 8, 4."""
    players = [{"id": p, "name": f"Игрок {p}", "status": "main"} for p in range(1, 13)]
    players.append({"id": 99, "name": "Замена", "status": "substitute"})
    regular = []
    for k, first in enumerate((1, 5, 9)):
        pts = [45000 - 1000 * k, 35000 - 500 * k, 25000 - 500 * k, 15000 + 2000 * k]
        regular.append(match(first, "regular", 1, list(range(first, first + 4)), pts, pts, pts))
    return {"format": "discard-season/1", "players": players, "matches": regular}


def run(tmp_path: Path, doc: dict[str, Any], *extra: str) -> int:
    path = tmp_path / "season.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return main(["playoff", "--season", str(path), *extra])


def test_seeds_and_round_one_tables_with_a_substitute(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = season_doc()
    # 1A (1, 9, 6, 3): substitute 99 sits for seed 6 (a no-show) and wins; 1 and 9 go up, 3 down, and 6, seated
    # nowhere, ranks after everyone seated. 1B (5, 2, 10, 7): unfinished.
    doc["matches"].append(match(20, "playoff", "1A", [99, 1, 9, 3]))
    doc["matches"].append(match(21, "playoff", "1B", [5, 2, 10, 7], count=2))
    assert run(tmp_path, doc, "--json") == 0
    out = json.loads(capsys.readouterr().out)
    assert out["seeds"] == [1, 5, 9, 2, 6, 10, 3, 7]
    assert out["tables"][0] == {
        "round": "1A",
        "players": [99, 1, 9, 3],
        "ranking": [
            {"player": 99, "total": 90000, "average_place": "1", "place": 1},
            {"player": 1, "total": 30000, "average_place": "2", "place": 2},
            {"player": 9, "total": -30000, "average_place": "3", "place": 3},
            {"player": 3, "total": -90000, "average_place": "4", "place": 4},
            {"player": 6, "total": 0, "average_place": None, "place": None},
        ],
        "advance": {"1": "upper", "9": "upper", "3": "lower", "6": "lower"},
    }
    assert out["tables"][1]["round"] == "1B" and out["tables"][1]["advance"] == {}
    assert out["pending"] == ["1-й раунд, стол Б: сыграно 2 из 3 ханчанов"]


def test_whole_playoff_to_the_champion(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = season_doc()
    doc["matches"] += [
        match(20, "playoff", "1A", [1, 9, 6, 3]),  # 1, 9 up; 6, 3 down
        match(21, "playoff", "1B", [5, 2, 10, 7]),  # 5, 2 up; 10, 7 down
        match(22, "playoff", "2U", [2, 9, 5, 1]),  # 2, 9 to the final; 5, 1 to round 3
        match(23, "playoff", "2L", [3, 6, 7, 10]),  # 3, 6 to round 3; 7, 10 out
        match(24, "playoff", "3", [6, 1, 5, 3]),  # 6, 1 to the final; 5, 3 out
        match(25, "playoff", "F", [1, 2, 9, 6], count=5),
    ]
    assert run(tmp_path, doc, "--json") == 0
    out = json.loads(capsys.readouterr().out)
    advance = {t["round"]: t["advance"] for t in out["tables"]}
    assert advance["2L"] == {"3": "round3", "6": "round3", "7": "out", "10": "out"}
    assert advance["3"] == {"6": "final", "1": "final", "5": "out", "3": "out"}
    assert advance["F"] == {"1": "champion", "2": "second", "9": "third", "6": "fourth"}
    assert out["tables"][-1]["ranking"][0] == {"player": 1, "total": 150000, "average_place": "1", "place": 1}
    assert out["pending"] == []
    assert run(tmp_path, doc) == 0
    text = capsys.readouterr().out
    assert "Финал" in text and "Игрок 1" in text and "чемпион" in text


def test_a_playoff_tie_waits_until_the_organizer_decides(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = season_doc()
    tie = ([45000, 32000, 25000, 18000], [45000, 25000, 32000, 18000], [30000] * 4)  # 9 and 6 level, 5/2 each
    doc["matches"].append(match(20, "playoff", "1A", [1, 9, 6, 3], *tie))
    assert run(tmp_path, doc, "--json") == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["place"] for r in out["tables"][0]["ranking"]] == [1, 2, 2, 4]
    assert out["pending"][0].startswith("1-й раунд, стол А: равны очки и среднее место в матче у «Игрок 9», «Игрок 6»")
    assert run(tmp_path, doc, "--json", "--match-decision", "1A:6,9") == 0
    out = json.loads(capsys.readouterr().out)
    assert out["tables"][0]["advance"] == {"1": "upper", "6": "upper", "9": "lower", "3": "lower"}


def test_seeding_waits_for_the_regular_stage_and_its_ties(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = season_doc()
    doc["matches"][2] = match(9, "regular", 1, [9, 10, 11, 12], count=2)
    assert run(tmp_path, doc, "--json") == 0
    assert json.loads(capsys.readouterr().out) == {
        "seeds": [],
        "tables": [],
        "pending": ["регулярный этап не завершён: не доиграны матчи 9"],
    }
    doc = season_doc()
    doc["matches"][1] = match(5, "regular", 1, [5, 6, 7, 8], [30000] * 4, [30000] * 4, [30000] * 4)
    assert run(tmp_path, doc, "--json") == 0
    pending = json.loads(capsys.readouterr().out)["pending"]
    assert len(pending) == 1 and "места 5–8" in pending[0]


def test_bad_decisions_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(tmp_path, season_doc(), "--match-decision", "2U:1,9") == 2
    assert "в файле нет матча раунда 2U" in capsys.readouterr().err
    assert run(tmp_path, season_doc(), "--match-decision", "X:1,9", "--tie-decision", "1,77") == 2
    err = capsys.readouterr().err
    assert "РАУНД:ID" in err and "неизвестные игроки 77" in err
