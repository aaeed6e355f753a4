"""A save's own cost (issue 26 item 3): painting one's time and confirming a meeting issue a fixed number of SQL
statements, as many in a long season with many matches and players as in a short one: the match's board is read
for that one match, once per save."""

from __future__ import annotations

from datetime import date, timedelta

import sqlalchemy as sa
from sqlmodel import Session, select

from services.core.db import session_scope
from services.core.models import Match
from services.scheduling import availability, booking
from services.scheduling.intervals import Interval, at_kirov
from tests import factories as f
from tests.db.statements import statements
from tests.db.test_page_reads import TOURS, tour_day, week_of_matches
from tests.factories import NOW

# What one save and one confirmation cost, counted (the lock, the one match's board, the change, the outbox and
# audit rows, the action's stamps). A new statement here is a deliberate change of these numbers.
# The board is read once per save (it was twice: 35 statements); the fourth save also tells the options found.
# A board reads only the rounds a moved match plays in, not every round and season (20 -> 18 per save); an
# answer reads the board only when it can be the fourth confirmation (20 -> 9 for the others).
SAVE = 18
CONFIRM = 9  # the match and its seats, the own time, the answers: the board only for the fourth
# The fourth confirmation: the room, the table's lock and its bookings and holds read again under it (issue 43: a
# hold is a promise; on PostgreSQL the lock is a statement of its own), the booking; no other match to tell.
BOOK = 27
BOOK_BESIDE_OTHERS = 39  # the same with the window's other matches read (one board) and told (an event each)


def counted(db: sa.Engine, fn, **kwargs) -> tuple[int, object]:  # noqa: ANN001, ANN003
    with statements(db) as seen, session_scope(db) as session:
        answer = fn(session, **kwargs)
    return len(seen), answer


def costs(db: sa.Engine, match_id: int, users: list, day: date) -> dict[str, int]:
    evening = Interval(at_kirov(day, 17), at_kirov(day, 23))
    saves = [
        # as the page saves: asked first if it would release a booking, decided on the board the save reads
        counted(
            db,
            availability.save_availability,
            match_id=match_id,
            user_id=u.id,
            intervals=[evening],
            now=NOW,
            release_ok=False,
        )[0]
        for u in users
    ]
    _, proposal = counted(db, booking.propose_meeting, match_id=match_id, user_id=users[0].id,
                          start=evening.start + timedelta(hours=1), end=evening.start + timedelta(hours=5, minutes=30),
                          hanchans=3, now=NOW)  # fmt: skip
    confirms = [
        counted(db, booking.answer_meeting, confirmed=True, proposal_id=proposal.id, user_id=u.id, now=NOW)[0]
        for u in users[1:]
    ]
    return {"first save": saves[0], "fourth save": saves[3], "confirm": confirms[0], "book": confirms[2]}


def test_a_save_and_a_confirmation_cost_the_same_in_a_longer_season(db: sa.Engine) -> None:
    windows = [Interval(at_kirov(tour_day(t)), at_kirov(tour_day(t) + timedelta(days=14))) for t in range(1, TOURS + 1)]
    with Session(db, expire_on_commit=False) as session:
        league = f.league(session, players=8, windows=windows)
    short = costs(db, league.match.id, league.users[:4], tour_day(1) + timedelta(days=3))
    week_of_matches(db, league, range(1, TOURS + 1))
    with Session(db) as session:
        other = session.exec(select(Match).where(Match.round_id == league.rounds[0].id, Match.table == "2")).one()
    long = costs(db, other.id, league.users[4:8], tour_day(1) + timedelta(days=5))
    notify = db.dialect.name == "postgresql"  # the commit's NOTIFY discard_changes (services/core/announce.py)
    # The fourth save's two outbox rows (answered, options found) are flushed together at the commit: PostgreSQL
    # writes them in one batched INSERT (as many statements as its NOTIFY), SQLite in two.
    place_lock = notify  # PostgreSQL's advisory lock of the table (`repo.lock_place`); SQLite's write lock is held
    assert short == {"first save": SAVE + notify, "fourth save": SAVE + 1, "confirm": CONFIRM + notify,
                     "book": BOOK + notify + place_lock}  # fmt: skip
    assert long == {**short, "book": BOOK_BESIDE_OTHERS + notify + place_lock}
