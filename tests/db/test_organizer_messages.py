"""An organizer's form with nothing chosen says what to choose, not «Ханчан 0 не найден» (Регламент §6.2, §5)."""

from __future__ import annotations

import pytest
from sqlmodel import Session

from services.results.hanchans import ResultsError, correct_hanchan, resolve_dispute
from services.results.penalties import add_conduct_penalty, add_no_show
from tests import factories as f
from tests.db.test_desk import entry
from tests.factories import PLAYED


def test_nothing_chosen_is_named(session: Session) -> None:
    league = f.league(session)
    organizer, match_id = league.organizer, league.match.id
    with pytest.raises(ResultsError, match=r"^Выберите ханчан\.$"):
        resolve_dispute(session, organizer, 0, "оставить", now=PLAYED)
    with pytest.raises(ResultsError, match=r"^Выберите ханчан\.$"):
        correct_hanchan(
            session, organizer, 0, entry(league, [40000, 30000, 30000, 20000]), reason="a", decision="b", now=PLAYED
        )
    with pytest.raises(ResultsError, match=r"^Выберите игрока\.$"):
        add_no_show(session, organizer, match_id, 0, now=PLAYED)
    with pytest.raises(ResultsError, match=r"^Выберите игрока\.$"):
        add_conduct_penalty(
            session, organizer, match_id, 0, amount=1000, violation="опоздание", basis="RRC", now=PLAYED
        )
