"""Change stamps: one cheap read that moves whenever any process changes what a page shows; imports no reflex.

Every change writes an outbox event or an audit row in its own transaction (docs/architecture.md), whichever
process made it — a web worker, the bot, the command line, the Pantheon import. No open page polls: each web
worker's one watcher (`discard_app/live_push.py`) reads `change_stamp` when a change is announced
(`services/core/announce.py`) and every 100–250 ms, and only when it moved reads the stamps its open pages watch
(`watched_stamp`) and pushes a reload to the pages whose stamp moved.

A match's pages watch `match_stamp`: that match's own events, the club's room occupancy (another match's booking
takes a room this one could use) and the rare league-wide changes (windows, rooms, players, seasons). With fifty
pages open, a player's save reloads the four pages of their match, not all fifty — and those three other pages
reload without their grids, which only the club's rooms and the viewer's own answer can change. A home page watches
`player_stamp` (the person's own matches and the club); league-wide pages (standings, announcements) watch
`change_stamp`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import sqlalchemy as sa
from sqlmodel import Session, col, select

from services.core import outbox
from services.core.db import rows
from services.core.models import AuditRecord, AvailabilityAnswer, OutboxEvent, Player, Seat

# Events of one match that change the club's room occupancy, so every match's options and room marks.
ROOM_EVENTS = (outbox.BOOKED, outbox.RELEASED, outbox.MOVED, outbox.MATCH_MOVED)
MATCH_ENTITY = "match"


def _newest(model: type[OutboxEvent | AuditRecord], *where: sa.ColumnElement[bool] | bool) -> sa.ScalarSelect[Any]:
    """The table's newest id (matching `where`) as a scalar subquery: each is its own index read, never a join."""
    return select(sa.func.max(model.id)).where(*where).scalar_subquery()


def change_stamp(session: Session) -> str:
    """The newest outbox event and audit row, as one short string (two primary-key maxima)."""
    events, audit = session.exec(select(_newest(OutboxEvent), _newest(AuditRecord))).one()
    return f"{events or 0}:{audit or 0}"


def _club() -> list[sa.ScalarSelect[Any]]:
    """What every match's pages depend on: events without a match (announcements, the draw), the club's room events
    and audit rows about anything but one match (windows, rooms, players, seasons)."""
    return [
        _newest(OutboxEvent, col(OutboxEvent.match_id).is_(None)),
        _newest(OutboxEvent, col(OutboxEvent.kind).in_(ROOM_EVENTS)),
        _newest(AuditRecord, AuditRecord.entity < MATCH_ENTITY),
        _newest(AuditRecord, AuditRecord.entity > MATCH_ENTITY),
    ]


_CLUB_PARTS = len(_club())


def _joined(parts: Sequence[object]) -> str:
    return ":".join(str(part or 0) for part in parts)


def _match_stamp_statement() -> sa.Select[Any]:
    match_id: sa.BindParameter[int] = sa.bindparam("match_id")
    user_id: sa.BindParameter[int] = sa.bindparam("user_id")
    own_answer = (
        select(sa.func.max(AvailabilityAnswer.answered_at))
        .join(Player, col(Player.id) == AvailabilityAnswer.player_id)
        .where(AvailabilityAnswer.match_id == match_id, Player.user_id == user_id)
        .scalar_subquery()
    )
    return sa.select(
        _newest(OutboxEvent, OutboxEvent.match_id == match_id),
        _newest(AuditRecord, AuditRecord.entity == MATCH_ENTITY, AuditRecord.entity_id == match_id),
        *_club(),
        own_answer,
    )


# Built once: every save and every pushed match page reads it, and building and keying its seven subqueries
# afresh cost more than the read itself (issue 26, the save's cost)
_MATCH_STAMP = _match_stamp_statement()


def match_stamp(session: Session, match_id: int, user_id: int | None = None) -> str:
    """What one match's pages depend on, as "<the match's own changes>|<what can change a viewer's grid>": the
    club's rooms, league-wide changes and (with `user_id`) the viewer's own last answer, saved in any tab. Each
    part is an index read (migration 0016)."""
    (parts,) = rows(session, _MATCH_STAMP, {"match_id": match_id, "user_id": user_id or 0})
    return _joined(parts[:2]) + "|" + _joined(parts[2:])


def player_stamp(session: Session, user_id: int) -> str:
    """What a person's home page depends on: the news of the matches they sit in and what every match depends on.
    Another table's save does not reload it."""
    # A seat a substitute took still counts as the replaced person's (Регламент §6.1): their page follows it too.
    seated = (col(Player.id) == Seat.player_id) | (col(Player.id) == Seat.substitute_for_player_id)
    mine = select(Seat.match_id).join(Player, seated).where(Player.user_id == user_id)
    parts = session.exec(
        select(
            _newest(OutboxEvent, col(OutboxEvent.match_id).in_(mine)),
            _newest(AuditRecord, AuditRecord.entity == MATCH_ENTITY, col(AuditRecord.entity_id).in_(mine)),
            *_club(),
        )
    ).one()
    return _joined(parts)


def grid_moved(before: str, now: str) -> bool:
    """Whether two `match_stamp`s differ in what can change the viewer's grid, not only in the match's own news."""
    return before.partition("|")[2] != now.partition("|")[2]


def club_moved(before: str, now: str) -> bool:
    """Whether two `match_stamp`s differ in what the club's other changes move (another match's booking, rooms,
    league-wide changes), not only in the match's own news or the viewer's own answer: a player's own save moves
    only those two (unless it released a booking)."""
    return shared_part(before).partition("|")[2] != shared_part(now).partition("|")[2]


def shared_part(stamp: str) -> str:
    """A `match_stamp` without the viewer's own answer: what every viewer of the match reads alike."""
    head, _, grid = stamp.partition("|")
    return head + "|" + ":".join(grid.split(":", _CLUB_PARTS)[:_CLUB_PARTS])


# What an open page watches (`discard_app/live_push.py`): the league, one match (with the viewer), or one person.
MatchWatch = tuple[Literal["match"], int, int | None]
PersonWatch = tuple[Literal["person"], int]
Watch = MatchWatch | PersonWatch | tuple[Literal["league"]]
LEAGUE: Watch = ("league",)


def match_watch(match_id: int, user_id: int | None = None) -> Watch:
    return ("match", match_id, user_id)


def person_watch(user_id: int | None) -> Watch:
    return ("person", user_id) if user_id is not None else LEAGUE


def watched_stamp(session: Session, watch: Watch) -> str:
    """The stamp of what a page watches: `match_stamp`, `player_stamp` or `change_stamp`."""
    if watch[0] == "match":
        return match_stamp(session, watch[1], watch[2])
    if watch[0] == "person":
        return player_stamp(session, watch[1])
    return change_stamp(session)


def touched_since(session: Session, since: str) -> tuple[set[int], set[int]] | None:
    """What the changes after the `change_stamp` `since` concern, so a worker reads only the stamps that can have
    moved: (the matches, the people seated in them — a substitute's seat counts for the replaced person too), or
    None when a change concerns the whole club (an event without a match, a room event, an audit row about
    anything but one match: every match's stamp moved, as `_club` says)."""
    events_after, _, audit_after = since.partition(":")
    if not events_after.isdigit() or not audit_after.isdigit():
        return None
    events = session.exec(
        select(OutboxEvent.match_id, OutboxEvent.kind).where(col(OutboxEvent.id) > int(events_after))
    ).all()
    audit = session.exec(
        select(AuditRecord.entity, AuditRecord.entity_id).where(col(AuditRecord.id) > int(audit_after))
    ).all()
    if any(match_id is None or kind in ROOM_EVENTS for match_id, kind in events):
        return None
    if any(entity != MATCH_ENTITY or entity_id is None for entity, entity_id in audit):
        return None
    matches = {match_id for match_id, _ in events if match_id is not None}
    matches |= {entity_id for _, entity_id in audit if entity_id is not None}
    if not matches:
        return set(), set()
    seated = (col(Player.id) == Seat.player_id) | (col(Player.id) == Seat.substitute_for_player_id)
    people = session.exec(select(Player.user_id).join(Seat, seated).where(col(Seat.match_id).in_(matches))).all()
    return matches, {user_id for user_id in people if user_id is not None}
