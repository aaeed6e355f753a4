"""The registration fee (Регламент §1) and the disqualification register (Регламент §5) on the database."""

from __future__ import annotations

from datetime import date

import pytest
from sqlmodel import Session, select

from services.core.models import AuditRecord, Disqualification, Player
from services.league.accounts import find_user
from services.league.fees import FeeError, fee_labels, record_fee
from services.league.seasons import SeasonError, add_person, create_season
from services.results.disqualifications import DisqualificationError, record_disqualification, register
from tests.db.test_results import League


def test_fee_paid_refunded_and_the_roster_column(session: Session, league: League) -> None:
    first, second = (session.get(Player, p) for p in league.players[:2])
    assert set(fee_labels(session, league.season.id).values()) == {"не оплачен"}
    with pytest.raises(FeeError, match="возвращать нечего"):
        record_fee(session, first, "refunded", date(2027, 1, 5), actor_user_id=league.organizer.id)
    assert record_fee(session, first, "paid", date(2027, 1, 10), actor_user_id=league.organizer.id) == (
        "оплачен 10.01.2027"
    )
    with pytest.raises(FeeError, match="раньше оплаты"):
        record_fee(session, first, "refunded", date(2027, 1, 9), actor_user_id=league.organizer.id)
    record_fee(session, first, "refunded", date(2027, 2, 1), actor_user_id=league.organizer.id)
    record_fee(session, second, "paid", date(2027, 1, 11), actor_user_id=league.organizer.id)
    session.commit()
    labels = fee_labels(session, league.season.id)
    assert labels[first.id] == "возвращён 01.02.2027"
    assert labels[second.id] == "оплачен 11.01.2027"
    assert sum(v == "не оплачен" for v in labels.values()) == 6
    with pytest.raises(FeeError):
        record_fee(session, second, "maybe", date(2027, 1, 11), actor_user_id=None)
    audit = session.exec(select(AuditRecord).where(AuditRecord.action == "fee.record")).all()
    assert len(audit) == 3


def test_disqualified_person_is_refused_with_the_reason(session: Session, league: League) -> None:
    mid = league.match(1, 1, league.players[:4])
    person = find_user(session, "Игрок 2")
    record_disqualification(
        session, person, term="year", reason="отказ продолжать игру", match_id=mid, starts_on=date(2027, 1, 20),
        actor_user_id=league.organizer.id,
    )  # fmt: skip
    session.commit()
    new = create_season(session, "Лига 2027", actor_user_id=None)
    # Before the disqualification starts the person may still be entered…
    player, password = add_person(session, new, "игрок 2", today=date(2027, 1, 19), actor_user_id=None)
    assert password is None and player.user_id == person.id  # a known person keeps the account
    session.rollback()
    new = create_season(session, "Лига 2028", actor_user_id=None)
    # …during it the entry is refused with the reason, and nothing is written.
    with pytest.raises(SeasonError) as refused:
        add_person(session, new, "Игрок 2", today=date(2027, 1, 20), actor_user_id=None)
    assert str(refused.value) == "«Игрок 2» дисквалифицирован до 20.01.2028: отказ продолжать игру"
    assert session.exec(select(Player).where(Player.season_id == new.id)).all() == []
    assert [(r.name, r.match_id, r.ends_on) for r in register(session)] == [("Игрок 2", mid, date(2028, 1, 20))]


def test_register_checks_its_input(session: Session, league: League) -> None:
    person = find_user(session, "Игрок 1")
    kwargs = {"match_id": None, "starts_on": date(2027, 1, 1), "actor_user_id": None}
    with pytest.raises(DisqualificationError, match="срок"):
        record_disqualification(session, person, term="month", reason="x", **kwargs)
    with pytest.raises(DisqualificationError, match="причину"):
        record_disqualification(session, person, term="year", reason="  ", **kwargs)
    with pytest.raises(DisqualificationError, match="только игрока"):
        record_disqualification(session, league.judge, term="year", reason="x", **kwargs)
    with pytest.raises(DisqualificationError, match="Матча №9999 нет"):
        record_disqualification(session, person, term="permanent", reason="x", **{**kwargs, "match_id": 9999})
    assert session.exec(select(Disqualification)).all() == []
    row = record_disqualification(session, person, term="permanent", reason="сговор", **kwargs)
    assert row.ends_on is None
