"""Who sees and answers what on a match's scheduling page: its four players and the organizer, nobody else."""

from __future__ import annotations

from dataclasses import asdict

import pytest
import sqlalchemy as sa
from sqlmodel import Session, select

from services.core.db import session_scope
from services.core.models import MeetingProposal, ProposalConfirmation
from services.scheduling import availability, booking
from services.scheduling.intervals import Interval
from services.scheduling.repo import SchedulingError
from services.scheduling.rules import format_kirov
from services.scheduling.view import match_page
from tests import factories as f
from tests.factories import NOW, kirov


def _painted_league(engine: sa.Engine) -> tuple[f.League, MeetingProposal]:
    """Five players, the first four seated; player 1 alone is also free on the morning of 21.11."""
    with Session(engine, expire_on_commit=False) as session:
        league = f.league(session, players=5)
    for n in range(4):
        spans = [Interval(kirov(20, 17), kirov(20, 23))]
        if n == 1:
            spans.append(Interval(kirov(21, 9), kirov(21, 11)))
        with session_scope(engine) as session:
            availability.save_availability(
                session, match_id=league.match.id, user_id=league.users[n].id, intervals=spans, now=NOW
            )
    with session_scope(engine) as session:
        proposal = booking.propose_meeting(
            session,
            match_id=league.match.id,
            user_id=league.users[0].id,
            start=kirov(20, 18),
            end=kirov(20, 22, 30),
            hanchans=3,
            now=NOW,
        )
        session.expunge(proposal)
    return league, proposal


def test_only_the_organizer_sees_another_players_times(engine: sa.Engine) -> None:
    league, _ = _painted_league(engine)
    private = format_kirov(kirov(21, 9))  # player 1's own morning, in no common option
    with Session(engine) as session:
        mine = match_page(session, match_id=league.match.id, user=league.users[0], now=NOW)
        theirs = match_page(session, match_id=league.match.id, user=league.users[1], now=NOW)
        organizer = match_page(session, match_id=league.match.id, user=league.organizer, now=NOW)
        with pytest.raises(SchedulingError, match="только его игрокам и организатору"):
            match_page(session, match_id=league.match.id, user=league.users[4], now=NOW)
    # Регламент §6.4: a seated player gets their own grid and the common options, never a fellow player's times.
    assert mine.everyone == [] and private not in str(asdict(mine))
    assert sum(row.count("1") for row in mine.cells) < sum(row.count("1") for row in theirs.cells)
    assert len(organizer.everyone) == 4 and private in str(organizer.everyone)


def test_a_stranger_can_neither_confirm_nor_decline_a_proposal(engine: sa.Engine) -> None:
    league, proposal = _painted_league(engine)
    stranger = league.users[4].id
    for confirmed in (True, False):
        with pytest.raises(SchedulingError, match="только игроки этого матча"), session_scope(engine) as session:
            booking.answer_meeting(session, proposal_id=proposal.id, user_id=stranger, confirmed=confirmed, now=NOW)
    with Session(engine) as session:
        answers = session.exec(select(ProposalConfirmation).where(ProposalConfirmation.proposal_id == proposal.id))
        assert {a.player_id for a in answers} <= {league.players[0].id}
        assert session.get(MeetingProposal, proposal.id).status == "open"
