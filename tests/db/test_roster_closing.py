"""Closing registration both ways the regulation allows (Регламент §1), on a real migrated database."""

from __future__ import annotations

import json

import pytest
from sqlmodel import Session, col, select

from services.core.models import AuditRecord, Player, RosterStatus, Season, User
from services.core.ruleset import DEFAULT
from services.league.closing import (
    ClosingError,
    ClosingMethod,
    Entrant,
    close_registration,
    preview_closing,
    season_closing_preview,
)
from services.league.roster import add_player


def _league(session: Session, main: int, reserve: int = 0) -> Season:
    season = Season(name="Тест")
    session.add(season)
    session.flush()
    for n in range(1, main + 1):
        add_player(session, season, f"Основной {n:02d}", actor_user_id=None)
    for n in range(1, reserve + 1):
        add_player(session, season, f"Резерв {n:02d}", status=RosterStatus.RESERVE, actor_user_id=None)
    session.commit()
    return season


def _names(session: Session, season: Season, status: RosterStatus) -> list[str]:
    return list(
        session.exec(
            select(User.display_name)
            .join(Player, col(Player.user_id) == User.id)
            .where(Player.season_id == season.id, Player.status == status)
            .order_by(col(Player.registration_order))
        ).all()
    )


def test_preview_offers_both_ways_and_changes_nothing(session: Session) -> None:
    season = _league(session, main=10, reserve=3)
    preview = season_closing_preview(session, season)
    take = preview.option(ClosingMethod.FROM_RESERVE)
    cut = preview.option(ClosingMethod.TO_RESERVE)
    assert (preview.main, preview.reserve) == (10, 3)
    assert [e.name for e in take.moves] == ["Резерв 01", "Резерв 02"] and take.main_after == 12 and take.possible
    assert [e.name for e in cut.moves] == ["Основной 09", "Основной 10"] and cut.main_after == 8 and cut.possible
    session.expire_all()
    assert len(_names(session, season, RosterStatus.MAIN)) == 10
    assert not session.get(Season, season.id).registration_closed


def test_closing_from_the_reserve_takes_the_first_registered(session: Session) -> None:
    season = _league(session, main=9, reserve=4)
    option = close_registration(session, season, ClosingMethod.FROM_RESERVE, actor_user_id=None)
    session.commit()
    assert option.main_after == 12
    main = _names(session, season, RosterStatus.MAIN)
    assert len(main) == 12 and main[-3:] == ["Резерв 01", "Резерв 02", "Резерв 03"]
    assert _names(session, season, RosterStatus.RESERVE) == ["Резерв 04"]
    assert session.get(Season, season.id).registration_closed
    audit = session.exec(select(AuditRecord).where(AuditRecord.action == "registration.close")).one()
    after = json.loads(audit.after)
    assert after["method"] == "from_reserve" and [m["name"] for m in after["moved"]] == main[-3:]


def test_closing_by_cutting_moves_the_last_registered_to_the_reserve(session: Session) -> None:
    season = _league(session, main=11, reserve=1)
    close_registration(session, season, ClosingMethod.TO_RESERVE, actor_user_id=None)
    session.commit()
    assert len(_names(session, season, RosterStatus.MAIN)) == 8
    assert _names(session, season, RosterStatus.RESERVE) == ["Основной 09", "Основной 10", "Основной 11", "Резерв 01"]
    assert session.get(Season, season.id).registration_closed


def test_a_multiple_of_four_closes_as_it_is(session: Session) -> None:
    season = _league(session, main=16, reserve=2)
    preview = season_closing_preview(session, season)
    assert [o.method for o in preview.options] == [ClosingMethod.AS_IS]
    with pytest.raises(ClosingError, match="уже кратен четырём"):
        close_registration(session, season, ClosingMethod.TO_RESERVE, actor_user_id=None)
    close_registration(session, season, ClosingMethod.AS_IS, actor_user_id=None)
    session.commit()
    assert len(_names(session, season, RosterStatus.MAIN)) == 16
    with pytest.raises(ClosingError, match="уже закрыта"):
        close_registration(session, season, ClosingMethod.AS_IS, actor_user_id=None)


@pytest.mark.parametrize(
    ("main", "reserve", "method", "message"),
    [
        (10, 1, ClosingMethod.FROM_RESERVE, "В резерве 1 игрок, а нужно 2"),
        (9, 0, ClosingMethod.FROM_RESERVE, "В резерве 0 игроков, а нужно 3"),
        (10, 5, ClosingMethod.AS_IS, "не кратно четырём"),
        (6, 0, ClosingMethod.TO_RESERVE, "будет 4 игрока: для жеребьёвки нужно не меньше восьми"),
        (4, 0, ClosingMethod.AS_IS, "будет 4 игрока"),
    ],
)
def test_refused_closing_changes_nothing(
    session: Session, main: int, reserve: int, method: ClosingMethod, message: str
) -> None:
    season = _league(session, main=main, reserve=reserve)
    with pytest.raises(ClosingError, match=message):
        close_registration(session, season, method, actor_user_id=None)
    session.rollback()
    assert len(_names(session, season, RosterStatus.MAIN)) == main
    assert not session.get(Season, season.id).registration_closed
    assert session.exec(select(AuditRecord).where(AuditRecord.action == "registration.close")).first() is None


def test_preview_is_pure_and_follows_registration_order() -> None:
    main = [Entrant(i, f"m{i}", order) for i, order in ((1, 5), (2, 1), (3, 3), (4, 2), (5, 4))]
    reserve = [Entrant(9, "r9", 9), Entrant(8, "r8", 7)]
    preview = preview_closing(main, reserve, DEFAULT.roster_multiple)
    assert [e.name for e in preview.option(ClosingMethod.TO_RESERVE).moves] == ["m1"]
    assert (
        preview.option(ClosingMethod.FROM_RESERVE).error
        == "В резерве 2 игрока, а нужно 3: добрать основной состав из резерва нельзя."
    )
