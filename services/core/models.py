"""Every table of the league: plain SQLModel classes; imports no reflex and no telegram.

Instants are stored in UTC (`UtcDateTime` turns them back into aware datetimes on
every database, SQLite included). Points are integers. Enumerations are stored as
short strings so that a migration never has to alter a database enum type.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from enum import StrEnum
from typing import Any

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from services.core.ruleset import DEFAULT as RULES


class UtcDateTime(sa.types.TypeDecorator[datetime]):
    """An aware UTC instant on every backend (SQLite keeps no offset by itself)."""

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: sa.Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime: store aware UTC instants only")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: sa.Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def utc_now() -> datetime:
    return datetime.now(UTC)


def saved(row_id: int | None) -> int:
    """A stored row's id: every table's `id` is None only before the row's first flush."""
    if row_id is None:
        raise ValueError("the row has not been stored yet")
    return row_id


def _instant(*, nullable: bool = False, index: bool = False, now: bool = False) -> Any:
    column: sa.Column[datetime] = sa.Column(UtcDateTime(), nullable=nullable, index=index)
    if now:
        return Field(default_factory=utc_now, sa_column=column)
    return Field(default=None if nullable else ..., sa_column=column)


class Role(StrEnum):
    PLAYER = "player"
    ORGANIZER = "organizer"
    JUDGE = "judge"
    EXPERT = "expert"  # Регламент §1: consulted in disputed cases; no rights beyond a reader's


class RosterStatus(StrEnum):
    MAIN = "main"
    RESERVE = "reserve"
    SUBSTITUTE = "substitute"
    WITHDRAWN = "withdrawn"


class StageKind(StrEnum):
    REGULAR = "regular"
    PLAYOFF = "playoff"


class MatchStatus(StrEnum):
    DRAFT = "draft"
    SCHEDULING = "scheduling"
    PLAYING = "playing"
    COMPLETE = "complete"
    REPLAY = "replay"


class Season(SQLModel, table=True):
    # Exactly one season is current: the database refuses a second (a partial unique index).
    __table_args__ = (
        sa.Index(
            "uq_season_current",
            "is_current",
            unique=True,
            sqlite_where=sa.text("is_current"),
            postgresql_where=sa.text("is_current"),
        ),
    )
    id: int | None = Field(default=None, primary_key=True)
    name: str
    # The season's ruleset (services/core/ruleset.py, read by `ruleset.of_season`): the regulation's by default.
    start_points: int = RULES.start_points
    hanchan_uma_first: int = RULES.hanchan_uma_first
    hanchan_uma_second: int = RULES.hanchan_uma_second
    match_uma_first: int = RULES.match_uma_first
    match_uma_second: int = RULES.match_uma_second
    chombo_penalty: int = RULES.chombo_penalty
    no_show_penalty: int = RULES.no_show_penalty
    hanchans_per_match: int = RULES.hanchans_per_match
    final_hanchans: int = RULES.final_hanchans
    playoff_size: int = RULES.playoff_size
    tours: int = RULES.tours
    playoff_format: str = RULES.playoff_format
    roster_multiple: int = RULES.roster_multiple
    hanchan_minutes: int = RULES.hanchan_minutes
    # How long an open proposal holds its table (services/scheduling/holds.py); never past the option's start.
    proposal_hold_hours: int = RULES.proposal_hold_hours
    registration_closed: bool = False
    draw_seed: int | None = Field(default=None, sa_type=sa.BigInteger)
    draw_approved_at: datetime | None = _instant(nullable=True)
    # The season's lifecycle (services/league/seasons.py).
    is_current: bool = False
    registration_opens_on: date | None = None
    registration_closes_on: date | None = None
    finished_at: datetime | None = _instant(nullable=True)


class User(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    login_name: str = Field(sa_column=sa.Column(sa.String(80), unique=True, nullable=False))
    display_name: str
    password_hash: str
    role: str = Role.PLAYER
    telegram_user_id: int | None = Field(default=None, sa_type=sa.BigInteger)  # Telegram ids exceed 32 bits
    telegram_username: str | None = None
    telegram_private_messages: bool = False
    calendar_token: str | None = None
    created_at: datetime = _instant(now=True)


class Player(SQLModel, table=True):
    """A user's participation in one season: roster status and registration order."""

    __table_args__ = (sa.UniqueConstraint("season_id", "user_id"),)
    id: int | None = Field(default=None, primary_key=True)
    season_id: int = Field(foreign_key="season.id", index=True)
    user_id: int = Field(foreign_key="user.id", index=True)
    status: str = RosterStatus.MAIN
    registration_order: int


class AuthSession(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    token_hash: str = Field(sa_column=sa.Column(sa.String(64), unique=True, nullable=False))
    user_id: int = Field(foreign_key="user.id", index=True)
    created_at: datetime = _instant(now=True)
    expires_at: datetime = _instant()


class LoginAttempt(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    login_name: str = Field(index=True)
    # Who tried: a digest of the browser's device cookie, or "ip:<address>"; the lockout is per name and client.
    client: str = Field(default="", sa_column=sa.Column(sa.String(80), nullable=False, server_default="", index=True))
    at: datetime = _instant(now=True)
    succeeded: bool


class LoginLock(SQLModel, table=True):
    """A login name closed to browsers that never logged in to it, until `until` (services/league/login_guard.py):
    in the database, so every worker refuses it and the organizer sees it on the desk and can lift it."""

    login_name: str = Field(sa_column=sa.Column(sa.String(120), primary_key=True))
    locked_at: datetime = _instant()
    until: datetime = _instant()
    reason: str = ""


class SiteKey(SQLModel, table=True):
    """A secret the site makes for itself on first use (the device cookie's signing key); never shown."""

    name: str = Field(sa_column=sa.Column(sa.String(40), primary_key=True))
    value: str = Field(repr=False)


class Stage(SQLModel, table=True):
    # One playoff per season, whoever closes the regular stage first (migration 0012).
    __table_args__ = (
        sa.Index(
            "uq_stage_one_playoff",
            "season_id",
            unique=True,
            sqlite_where=sa.text("kind = 'playoff'"),
            postgresql_where=sa.text("kind = 'playoff'"),
        ),
    )
    id: int | None = Field(default=None, primary_key=True)
    season_id: int = Field(foreign_key="season.id", index=True)
    kind: str = StageKind.REGULAR


class Round(SQLModel, table=True):
    """A tour of the regular stage or a playoff round, with its game window."""

    id: int | None = Field(default=None, primary_key=True)
    stage_id: int = Field(foreign_key="stage.id", index=True)
    code: str  # "1".."4" for tours; "1", "2", "3", "F" in the playoff
    window_start: datetime | None = _instant(nullable=True)
    window_end: datetime | None = _instant(nullable=True)


class Match(SQLModel, table=True):
    # At most one playing match per round and table (a replayed original steps aside): two concurrent
    # loads of the bracket cannot create a playoff round twice (migration 0012).
    __table_args__ = (
        sa.Index(
            "uq_match_round_table",
            "round_id",
            "table",
            unique=True,
            sqlite_where=sa.text("status <> 'replay'"),
            postgresql_where=sa.text("status <> 'replay'"),
        ),
    )
    id: int | None = Field(default=None, primary_key=True)
    round_id: int = Field(foreign_key="round.id", index=True)
    table: str  # "1".."N" in tours; "A", "B", "U", "L" in the playoff
    planned_hanchans: int = RULES.hanchans_per_match  # the season's ruleset (the final: its own)
    status: str = MatchStatus.SCHEDULING
    replay_of_match_id: int | None = Field(default=None, foreign_key="match.id")
    # Регламент §6.1: a match moved to the next tour's window plays in that round's window.
    window_round_id: int | None = Field(default=None, foreign_key="round.id")


class Seat(SQLModel, table=True):
    __table_args__ = (sa.UniqueConstraint("match_id", "player_id"),)
    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", index=True)
    player_id: int = Field(foreign_key="player.id", index=True)
    seed: int  # position in the draw or playoff seeding, 1..4
    substitute_for_player_id: int | None = Field(default=None, foreign_key="player.id")


class DrawDraft(SQLModel, table=True):
    """The season's draw before approval (Регламент §2): no Match rows exist until the organizer approves."""

    season_id: int = Field(foreign_key="season.id", primary_key=True)
    seed: int
    tours: str  # JSON: tours -> tables -> four Player ids
    created_by_user_id: int | None = Field(default=None, foreign_key="user.id")
    updated_at: datetime = _instant(now=True)


class Hanchan(SQLModel, table=True):
    # A hanchan's number is entered once; each correction or replay of it is the next revision (migration 0012).
    __table_args__ = (sa.Index("uq_hanchan_match_number_revision", "match_id", "number", "revision", unique=True),)
    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", index=True)
    number: int
    revision: int = Field(default=0, sa_column_kwargs={"server_default": "0"})  # 0: entered; n: n-th correction
    riichi_left: int = 0
    winds: str | None = None  # player ids East, South, West, North, comma-separated
    entered_by_user_id: int | None = Field(default=None, foreign_key="user.id")
    entered_at: datetime = _instant(now=True)
    disputed: bool = False
    # Регламент §6.2: a correction keeps the original; a replay replaces it in the totals.
    superseded_by_id: int | None = Field(default=None, foreign_key="hanchan.id")
    pantheon_hash: str | None = Field(default=None, index=True)


class HanchanResult(SQLModel, table=True):
    __table_args__ = (sa.UniqueConstraint("hanchan_id", "player_id"),)
    id: int | None = Field(default=None, primary_key=True)
    hanchan_id: int = Field(foreign_key="hanchan.id", index=True)
    player_id: int = Field(foreign_key="player.id", index=True)
    points: int  # final points as on the table, riichi sticks left not included
    chombo: int = 0


class Penalty(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", index=True)
    player_id: int = Field(foreign_key="player.id", index=True)
    points: int  # negative
    kind: str  # "no_show" | "conduct" | "other"
    warning: bool = False
    reason: str
    decided_by_user_id: int = Field(foreign_key="user.id")
    decided_at: datetime = _instant(now=True)


class JudgeRuling(SQLModel, table=True):
    # Регламент §6.2 «Порядок обращения к судье».
    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", index=True)
    hanchan_number: int | None = None
    actions: str
    disagreement: str
    decision: str
    photos: str = ""  # asset paths, one per line
    judge_user_id: int = Field(foreign_key="user.id")
    at: datetime = _instant(now=True)


class JudgeCall(SQLModel, table=True):
    """Регламент §6.2 «Порядок обращения к судье»: a seated player calls the judge during a meeting; the answer and
    the ruling that closes the call go into the match protocol."""

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", index=True)
    hanchan_number: int | None = None
    description: str
    called_by_user_id: int = Field(foreign_key="user.id")
    judge_user_id: int | None = Field(default=None, foreign_key="user.id")  # the judge it went to first (§6.3)
    called_at: datetime = _instant(now=True)
    answered_at: datetime | None = _instant(nullable=True)
    answered_by_user_id: int | None = Field(default=None, foreign_key="user.id")
    ruling_id: int | None = Field(default=None, foreign_key="judgeruling.id")
    closed_at: datetime | None = _instant(nullable=True)


class JudgeAssignment(SQLModel, table=True):
    """Регламент §6.3: the organizer assigns a judge to a round, a day (Kirov date) or a match."""

    id: int | None = Field(default=None, primary_key=True)
    season_id: int = Field(foreign_key="season.id", index=True)
    judge_user_id: int = Field(foreign_key="user.id")
    round_id: int | None = Field(default=None, foreign_key="round.id")
    day: str | None = None  # "YYYY-MM-DD", Kirov
    match_id: int | None = Field(default=None, foreign_key="match.id")
    assigned_by_user_id: int = Field(foreign_key="user.id")
    assigned_at: datetime = _instant(now=True)


class TieDecision(SQLModel, table=True):
    """The organizer's order for players still tied after average place (Регламент §4)."""

    id: int | None = Field(default=None, primary_key=True)
    season_id: int = Field(foreign_key="season.id", index=True)
    match_id: int | None = Field(default=None, foreign_key="match.id")
    ordered_player_ids: str  # comma-separated, best first
    reason: str
    decided_by_user_id: int = Field(foreign_key="user.id")
    decided_at: datetime = _instant(now=True)


class AvailabilityAnswer(SQLModel, table=True):
    """That a player has answered for a match, even with no free time at all."""

    __table_args__ = (sa.UniqueConstraint("match_id", "player_id"),)
    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", index=True)
    player_id: int = Field(foreign_key="player.id", index=True)
    answered_at: datetime = _instant(now=True)


class AvailabilityLevel(StrEnum):
    """How free a painted span is: «свободен», or «могу, если нужно» (offered after the fully free times)."""

    FREE = "free"
    IF_NEEDED = "if_needed"


class AvailabilityInterval(SQLModel, table=True):
    # Регламент §3, §6.4: personal intervals are never shown to other players.
    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", index=True)
    player_id: int = Field(foreign_key="player.id", index=True)
    start_at: datetime = _instant()
    end_at: datetime = _instant()
    level: str = Field(default=AvailabilityLevel.FREE, sa_column_kwargs={"server_default": AvailabilityLevel.FREE})


class Room(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    name: str
    tables: int = 1  # mahjong tables in the room: one match meeting takes one (migration 0018 guards it)


_OPEN = sa.text("status = 'open'")
_OPEN_NEW = sa.text("status = 'open' AND replaces_booking_id IS NULL")


class MeetingProposal(SQLModel, table=True):
    # One open proposal per need (migration 0012): the match's remaining hanchans, or moving one booking.
    __table_args__ = (
        sa.Index("uq_proposal_open_new", "match_id", unique=True, sqlite_where=_OPEN_NEW, postgresql_where=_OPEN_NEW),
        sa.Index(
            "uq_proposal_open_move", "replaces_booking_id", unique=True, sqlite_where=_OPEN, postgresql_where=_OPEN
        ),
    )
    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", index=True)
    room_id: int = Field(foreign_key="room.id")
    proposed_by_player_id: int | None = Field(default=None, foreign_key="player.id")
    start_at: datetime = _instant()
    end_at: datetime = _instant()
    hanchans: int
    status: str = "open"  # open | booked | declined | failed | withdrawn
    failure_reason: str | None = None
    created_at: datetime = _instant(now=True)
    replaces_booking_id: int | None = None  # the booking a reschedule moves (no FK: booking points here too)
    table_no: int = 1  # the table it holds in room_id while open, until hold_until (services/scheduling/holds.py)
    hold_until: datetime | None = _instant(nullable=True)


class ProposalConfirmation(SQLModel, table=True):
    __table_args__ = (sa.UniqueConstraint("proposal_id", "player_id"),)
    id: int | None = Field(default=None, primary_key=True)
    proposal_id: int = Field(foreign_key="meetingproposal.id", index=True)
    player_id: int = Field(foreign_key="player.id", index=True)
    confirmed: bool  # False: declined
    at: datetime = _instant(now=True)


class Booking(SQLModel, table=True):
    """One club calendar: match meetings and other activities; no overlap at a table of a room (a meeting takes
    one table; an activity taking k tables is k rows).

    The database itself refuses overlapping active bookings at one table, and a table the room does not have (an
    exclusion constraint on PostgreSQL, a trigger on SQLite comparing instants with julianday(): see the
    migrations) and a meeting that does not end after it starts (a CHECK on PostgreSQL, the trigger on
    SQLite, which also refuses any stored time format but the canonical one SQLAlchemy writes).
    """

    __table_args__ = (sa.CheckConstraint("end_at > start_at", name="booking_end_after_start"),)

    id: int | None = Field(default=None, primary_key=True)
    room_id: int = Field(foreign_key="room.id", index=True)
    table_no: int = 1  # 1..room.tables: no instant holds two active bookings at one table (migration 0018)
    kind: str  # "match" | "activity"
    title: str
    match_id: int | None = Field(default=None, foreign_key="match.id", index=True)
    proposal_id: int | None = Field(default=None, foreign_key="meetingproposal.id")
    hanchans: int | None = None
    start_at: datetime = _instant()
    end_at: datetime = _instant()
    active: bool = True
    sequence: int = 0
    created_by_user_id: int | None = Field(default=None, foreign_key="user.id")
    created_at: datetime = _instant(now=True)


class OutboxEvent(SQLModel, table=True):
    """What the notifier must tell; written in the same transaction as the change."""

    __table_args__ = (sa.Index("uq_outboxevent_once_key", "once_key", unique=True),)
    id: int | None = Field(default=None, primary_key=True)
    kind: str = Field(index=True)  # a match's pages read the newest booking event of any match (core/changes.py)
    match_id: int | None = Field(default=None, foreign_key="match.id", index=True)
    payload: str = "{}"  # JSON; never personal intervals
    created_at: datetime = _instant(now=True)
    delivered_at: datetime | None = _instant(nullable=True, index=True)
    attempts: int = 0
    last_error: str | None = None
    # A delivery claims its events (migration 0012): two bot processes never send one event twice.
    claimed_by: str | None = None
    claimed_until: datetime | None = _instant(nullable=True)
    # Events that happen once (the Sunday reminder of a week) carry a unique key.
    once_key: str | None = Field(default=None, sa_column=sa.Column(sa.String(80), nullable=True))


class TelegramSend(SQLModel, table=True):
    """A message Telegram accepted for an outbox event, recorded before the next one is sent, so a retried
    delivery skips it instead of sending it again."""

    __table_args__ = (sa.UniqueConstraint("event_id", "chat_id", "part"),)
    id: int | None = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key="outboxevent.id", index=True)
    chat_id: int = Field(sa_type=sa.BigInteger)
    part: int = 0  # several messages of one event to one chat (the reminder's texts)
    message_id: int
    sent_at: datetime = _instant(now=True)


class TelegramPending(SQLModel, table=True):
    """A message being sent whose answer has not been recorded yet: at most one per chat (the key). After a
    crash or an answer that never came, the next sender first looks for it in the chat (the message ids after
    `after_message_id`, the newest one known before it was sent) and records it instead of sending it again."""

    chat_id: int = Field(sa_column=sa.Column(sa.BigInteger, primary_key=True, autoincrement=False))
    kind: str  # "send" (a TelegramSend of event_id/part), "hint" (a send that is also match_id's UnblockHint),
    # or "card" (the MatchCard of match_id)
    event_id: int | None = None
    part: int = 0
    match_id: int | None = None
    text: str
    after_message_id: int = 0
    owner: str = ""
    started_at: datetime = _instant(now=True)
    buttons: str = ""  # the message's buttons (JSON, services/notifier/remote.py): put back after the probe's mark


class MatchCard(SQLModel, table=True):
    """The Telegram message that shows a match's scheduling state."""

    match_id: int = Field(foreign_key="match.id", primary_key=True)
    chat_id: int = Field(sa_type=sa.BigInteger)  # supergroup ids look like -100XXXXXXXXXX
    message_id: int
    text_hash: str = ""
    updated_at: datetime = _instant(now=True)


class UnblockHint(SQLModel, table=True):
    """The last private hint «если вы сможете …» sent to one chat (a player's Telegram) for a match: a hint is sent
    again only when its text differs. Written in the commit that records the message (services/notifier/outbox.py)."""

    match_id: int = Field(foreign_key="match.id", primary_key=True)
    chat_id: int = Field(sa_column=sa.Column(sa.BigInteger, primary_key=True, autoincrement=False))
    text_hash: str
    sent_at: datetime = _instant(now=True)


class TelegramButton(SQLModel, table=True):
    """A button on one person's private message (issue 44): its callback carries only `token`, an opaque random
    id; what it does — the kind, the proposal or booking, whose it is — stays here on the server
    (services/notifier/remote.py). One per person, kind and subject, so a message sent again has the same buttons."""

    __table_args__ = (sa.UniqueConstraint("user_id", "kind", "subject_id", "detail"),)
    token: str = Field(primary_key=True, max_length=32)
    user_id: int = Field(foreign_key="user.id", index=True)
    match_id: int = Field(foreign_key="match.id", index=True)
    kind: str  # remote.CONFIRM, DECLINE, CANNOT_FREE, CANNOT_KEEP, OPEN, ADD
    subject_id: int  # the proposal (confirm, decline), the booking («Не смогу») or the match (open, add)
    detail: str = ""  # the hinted span «Добавить это время» adds ("start/end", ISO instants)
    created_at: datetime = _instant(now=True)


class LoginLink(SQLModel, table=True):
    """A one-time link from the bot's private chat that opens a match's page logged in (issue 44): only the code's
    digest is kept; used once, within minutes, for the person it was made for (services/league/login_links.py)."""

    code_hash: str = Field(sa_column=sa.Column(sa.String(64), primary_key=True))
    user_id: int = Field(foreign_key="user.id", index=True)
    match_id: int = Field(foreign_key="match.id")
    expires_at: datetime = _instant()


class TelegramLinkCode(SQLModel, table=True):
    code: str = Field(primary_key=True)
    user_id: int = Field(foreign_key="user.id", index=True)
    expires_at: datetime = _instant()


class Announcement(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    season_id: int = Field(foreign_key="season.id", index=True)
    text: str
    author_user_id: int = Field(foreign_key="user.id")
    created_at: datetime = _instant(now=True)


class BotStatus(SQLModel, table=True):
    """One row (id 1) the notifier keeps fresh so the organizer sees whether Telegram works."""

    id: int | None = Field(default=None, primary_key=True)
    connected: bool = False
    bot_username: str | None = None
    heartbeat_at: datetime | None = _instant(nullable=True)
    last_delivery_at: datetime | None = _instant(nullable=True)
    last_error: str | None = None
    last_error_at: datetime | None = _instant(nullable=True)


class PantheonSettings(SQLModel, table=True):
    """A season's Pantheon event (Регламент §6.2). The admin token is a secret: never logged or shown."""

    season_id: int = Field(foreign_key="season.id", primary_key=True)
    api_url: str
    event_id: int
    admin_person_id: int | None = None
    admin_token: str | None = None
    synced_through: datetime | None = _instant(nullable=True)  # newest end time of the last complete import
    last_summary: str | None = None  # JSON of the last import's summary
    # One import at a time, across processes (the bot's schedule, the page, the command line): owner and expiry.
    sync_owner: str | None = None
    sync_until: datetime | None = _instant(nullable=True)
    updated_at: datetime = _instant(now=True)


class PantheonPlayer(SQLModel, table=True):
    """A Pantheon person id mapped to a league player; one player may have several Pantheon accounts."""

    __table_args__ = (sa.UniqueConstraint("season_id", "person_id"),)
    id: int | None = Field(default=None, primary_key=True)
    season_id: int = Field(foreign_key="season.id", index=True)
    person_id: int
    player_id: int = Field(foreign_key="player.id", index=True)
    title: str = ""


class PantheonGame(SQLModel, table=True):
    """A Pantheon game seen by the import: placed (imported/assigned) or on the organizer's list (pending/ignored)."""

    __table_args__ = (sa.UniqueConstraint("season_id", "session_hash"),)
    id: int | None = Field(default=None, primary_key=True)
    season_id: int = Field(foreign_key="season.id", index=True)
    session_hash: str = Field(sa_column=sa.Column(sa.String(64), nullable=False))
    ended_at: datetime | None = _instant(nullable=True)
    data: str = ""  # JSON of the reconstructed game, "" when it could not be reconstructed
    status: str = "pending"  # imported | assigned | pending | ignored
    reason: str = ""
    match_id: int | None = Field(default=None, foreign_key="match.id")
    hanchan_id: int | None = Field(default=None, foreign_key="hanchan.id")
    decided_by_user_id: int | None = Field(default=None, foreign_key="user.id")
    decided_at: datetime | None = _instant(nullable=True)
    updated_at: datetime = _instant(now=True)


class AuditRecord(SQLModel, table=True):
    # A match's pages read the newest row about that match, or about anything but a match (services/core/changes.py).
    __table_args__ = (sa.Index("ix_auditrecord_entity_entity_id", "entity", "entity_id"),)
    id: int | None = Field(default=None, primary_key=True)
    at: datetime = _instant(index=True, now=True)
    actor_user_id: int | None = Field(default=None, foreign_key="user.id")
    action: str
    entity: str
    entity_id: int | None = None
    before: str | None = None  # JSON
    after: str | None = None  # JSON
    reason: str = ""


# --- The league's records across seasons (Регламент §1, §5, §7) ---


class Registration(SQLModel, table=True):
    """What registration recorded for a player's entry: contact and the fee (Регламент §1); organizer only."""

    player_id: int = Field(foreign_key="player.id", primary_key=True)
    contact: str = ""
    fee_paid_on: date | None = None
    fee_refunded_on: date | None = None


class Disqualification(SQLModel, table=True):
    """The register of disqualifications (Регламент §5): one year or permanent, with the protocol it comes from."""

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="user.id", index=True)
    reason: str
    match_id: int | None = Field(default=None, foreign_key="match.id")
    starts_on: date
    ends_on: date | None = None  # None: permanent
    decided_by_user_id: int | None = Field(default=None, foreign_key="user.id")
    decided_at: datetime = _instant(now=True)


class RegulationVersion(SQLModel, table=True):
    """A full text of the regulation; every version after the first is an amendment (Регламент §7)."""

    id: int | None = Field(default=None, primary_key=True)
    text: str
    reason: str = ""
    announced_at: datetime = _instant(index=True)  # §7: an amendment takes effect once announced
    author_user_id: int | None = Field(default=None, foreign_key="user.id")


class ActionKey(SQLModel, table=True):
    """One performed action of a rendered form: its one-time key is unique, so a repeated event (a double click,
    a resent frame) finds the row of the first and changes nothing (services/core/action_keys.py)."""

    key: str = Field(primary_key=True, max_length=64)
    user_id: int = Field(foreign_key="user.id")
    action: str
    result: str = ""  # what the first send answered, shown again to the repeated one
    at: datetime = _instant(now=True)
