"""Entering a hanchan: the one door for every result (Регламент §2, §4); imports no reflex.

It stands on the playoff's floor because a result can move the bracket: the hanchan is stored by the results
service (`results.hanchans.record_hanchan`, which checks who may enter and what), and when it completes a playoff
match the next round's tables appear in the same transaction, whoever entered it — the match page, the Pantheon
import, the demo (Регламент §2: the next round follows as soon as the previous one is complete). Results stays below
the playoff, and nothing else calls `record_hanchan` (`tests/unit/test_architecture.py`), so there is one way in.
"""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session, col, select

from services.core.models import Hanchan, Match, MatchStatus, Round, Season, Stage, StageKind, User
from services.playoff.stage import advance_playoff
from services.results.hanchans import Entry, record_hanchan


def enter_hanchan(  # noqa: PLR0913
    session: Session,
    user: User,
    match_id: int,
    entry: Entry,
    *,
    now: datetime,
    repeat_ok: bool = True,
    reason: str = "",
    number: int | None = None,
) -> Hanchan:
    """Store the match's next hanchan (`record_hanchan`: who may and when — its meeting begun, or the organizer's
    `reason` —, the checks, the double-submit guard with `repeat_ok=False`) and, when it is a playoff match's last,
    create the next round's tables. `number`: the hanchan a person's form was opened for (`record_hanchan`)."""
    hanchan = record_hanchan(session, user, match_id, entry, now=now, repeat_ok=repeat_ok, reason=reason, number=number)
    match = session.get_one(Match, match_id)
    if match.status == MatchStatus.COMPLETE:
        stage = session.exec(
            select(Stage).join(Round, col(Round.stage_id) == Stage.id).where(Round.id == match.round_id)
        ).one()
        if stage.kind == StageKind.PLAYOFF:
            advance_playoff(session, session.get_one(Season, stage.season_id), actor_user_id=user.id, after_change=True)
    return hanchan
