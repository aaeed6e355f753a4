"""Which match cards time alone has made stale (issue 43 item 5): a view, it reads and changes nothing.

A card is rendered from the read model as of `now` (`snapshot`), so time changes what it should say with nothing
written: an option whose start has passed, a proposed time that has begun, the §6.1 fallback Sunday gone by, a
neighbour's hold that has ended. The bot's minute job asks `stale_cards` and writes an event for each match it
names, so the delivery pass edits the card (only when its text changed) and the match's open pages reload.
"""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session, col, select

from services.core.models import Match, MatchCard, MatchStatus, MeetingProposal, OutboxEvent
from services.notifier.cards import card_text, text_hash
from services.notifier.snapshot import snapshots
from services.scheduling.intervals import floor_to_grid
from services.scheduling.repo import LIVE_PROPOSAL

# What a card shows changes with time only at a grid point (options, proposals, windows, the fallback start on the
# half-hour grid) or when a hold ends (`hold_until`: the proposal's instant plus whole hours).
_LIVE = (MatchStatus.SCHEDULING, MatchStatus.PLAYING)


def time_moved(session: Session, *, since: datetime | None, now: datetime) -> bool:
    """Whether anything a card shows may have changed by time alone between `since` and `now`: a grid point passed,
    or a live hold ended (one indexed read). Always, when nothing was looked at yet (`since` None)."""
    if since is None or floor_to_grid(now) > since:
        return True
    ended = select(MeetingProposal.id).where(
        MeetingProposal.status == LIVE_PROPOSAL,
        col(MeetingProposal.hold_until) > since,
        col(MeetingProposal.hold_until) <= now,
    )
    return session.exec(ended.limit(1)).first() is not None


def stale_cards(session: Session, *, now: datetime) -> tuple[list[int], bool]:
    """The matches whose posted card no longer shows what the read model says at `now`, leaving out those with an
    event still to deliver (its delivery renders the card as it is then), and whether any was left out so: a
    delivery already under way may have rendered its card before `now`, so such a card is looked at again."""
    waiting = select(OutboxEvent.match_id).where(
        col(OutboxEvent.delivered_at).is_(None), col(OutboxEvent.match_id).is_not(None)
    )
    live = (
        select(MatchCard.match_id, MatchCard.text_hash)
        .join(Match, col(Match.id) == MatchCard.match_id)
        .where(col(Match.status).in_(_LIVE))
    )
    posted = dict(session.exec(live.where(col(MatchCard.match_id).not_in(waiting))).all())
    left_out = session.exec(live.where(col(MatchCard.match_id).in_(waiting)).limit(1)).first() is not None
    fresh = snapshots(session, sorted(posted), now=now)
    return [snap.match_id for snap in fresh if text_hash(card_text(snap)) != posted[snap.match_id]], left_out
