"""Claims on outbox events (services/notifier/claims.py), on SQLite and PostgreSQL: a claim another process holds
is not free until the instant it runs out, a process's own claim stays its to send, and a match another process is
delivering is left to it whole. Each database is the test's own: every undelivered event in it is claimable."""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa
from sqlmodel import Session, col, select

from services.core.models import OutboxEvent
from services.notifier.claims import LEASE, claim_events
from services.scheduling import availability
from services.scheduling.intervals import Interval
from tests import factories as f
from tests.factories import NOW, kirov

EVENING = Interval(kirov(20, 17), kirov(20, 23))
TICK = timedelta(microseconds=1)


def test_a_live_claim_is_not_free_until_it_runs_out(db: sa.Engine) -> None:
    with Session(db, expire_on_commit=False) as session:
        league = f.league(session, players=12)
        x, y, z = (
            league.match,
            *(f.match(session, league.rounds[0], league.players[k : k + 4], table=str(k)) for k in (4, 8)),
        )
        session.commit()
    seated = {x.id: league.users[0], y.id: league.users[4], z.id: league.users[8]}

    def answer(match_id: int, now=NOW) -> set[int]:  # noqa: ANN001 — the events the answer queued
        with Session(db) as session:
            before = session.exec(select(sa.func.max(OutboxEvent.id))).one() or 0
            availability.save_availability(
                session, match_id=match_id, user_id=seated[match_id].id, intervals=[EVENING], now=now
            )
            session.commit()
            return set(session.exec(select(OutboxEvent.id).where(col(OutboxEvent.id) > before)).all())

    def claim(owner: str, now) -> set[int]:  # noqa: ANN001
        return {event.id for event in claim_events(db, owner, now=now)}

    first = answer(x.id) | answer(y.id)
    assert first and claim("a", NOW) == first
    renewed = NOW + LEASE / 2
    assert claim("a", renewed) == first  # its own claims stay its to send (and last a lease from now)
    assert claim("b", renewed) == set()  # another process's live claims are not free
    later = answer(x.id, renewed) | (elsewhere := answer(z.id, renewed))
    # the match "a" is delivering waits for it, whole; an unclaimed match is free
    assert claim("b", renewed + LEASE - TICK) == elsewhere
    # "a"'s claims run out at this instant: free for "b" ("b"'s own on z too)
    assert claim("b", renewed + LEASE) == first | later
    assert claim("a", renewed + LEASE) == set()
