"""A few results in tour 1 of the demo league, so the standings and match pages have something to show; imports
no reflex."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session, col, select

from services.core.models import Match, Round, Season, Stage, StageKind, User, saved
from services.playoff.hanchan_entry import enter_hanchan
from services.results.hanchans import Entry
from services.results.repo import seated_player_ids
from services.results.scoring import TableResult

# Final points as on the table, riichi sticks left; each row sums to 120 000 with the sticks.
DEMO_HANCHANS = (
    ((42_300, 31_200, 25_100, 21_400), 0),
    ((18_700, 36_000, 33_300, 31_000), 1),
    ((30_000, 30_000, 22_000, 38_000), 0),
    ((51_200, 24_800, 24_000, 20_000), 0),
    ((27_500, 27_500, 34_000, 30_000), 1),
    ((-4_000, 45_000, 40_000, 39_000), 0),
    ((35_600, 28_400, 31_000, 25_000), 0),
)
PLAN = (3, 3, 1)  # tour 1: two complete matches and one begun
# The demo's tour 1 has no booked meetings: its hanchans are the organizer's entries outside a meeting, which say why
# (Регламент §6.3, hanchans.record_hanchan).
DEMO_REASON = "демо-лига: ханчаны первого тура внесены для примера"


def seed_demo_results(session: Session, season: Season, organizer: User, *, now: datetime) -> None:
    """Enter the demo hanchans through the same service the match page uses."""
    matches = session.exec(
        select(Match)
        .join(Round, col(Round.id) == Match.round_id)
        .join(Stage, col(Stage.id) == Round.stage_id)
        .where(Stage.season_id == season.id, Stage.kind == StageKind.REGULAR, Round.code == "1")
        .order_by(col(Match.id))
    ).all()
    rows = iter(DEMO_HANCHANS)
    for match, count in zip(matches, PLAN, strict=False):
        seats = seated_player_ids(session, saved(match.id))
        for _ in range(count):
            points, sticks = next(rows)
            results = tuple(TableResult(p, x) for p, x in zip(seats, points, strict=True))
            enter_hanchan(session, organizer, saved(match.id), Entry(results, sticks), now=now, reason=DEMO_REASON)
