"""Exactly once: unique rounds, hanchans and open proposals; the booking guard on instants; outbox claims.

Revision ID: 0012
Revises: 0001
Create Date: 2026-11-30 14:40:00

- match: one non-replayed match per (round, table); stage: one playoff per season;
- hanchan: `revision` (0 entered, n the n-th correction), unique (match, number, revision);
- meetingproposal: one open proposal per need (the match's remaining hanchans, or moving one booking);
- booking: end after start on both databases; SQLite's trigger compares instants (julianday) and refuses any
  time format but the canonical one SQLAlchemy writes, so the app reads back exactly what the guard compared;
- outboxevent: a claim (owner, expiry) and a unique key for once-only events; telegramsend: what was sent;
- pantheonsettings: the running import's owner and expiry (one import at a time, across processes).
"""

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

import services.core.models

revision: str = "0012"
down_revision: Union[str, Sequence[str], None] = "0001"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

_NOT_REPLAY = sa.text("status <> 'replay'")
_PLAYOFF = sa.text("kind = 'playoff'")
_OPEN = sa.text("status = 'open'")
_OPEN_NEW = sa.text("status = 'open' AND replaces_booking_id IS NULL")
# What SQLAlchemy writes for a DateTime on SQLite: 'YYYY-MM-DD HH:MM:SS.ffffff'.
_CANONICAL = "'[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9] [0-2][0-9]:[0-5][0-9]:[0-5][0-9].[0-9][0-9][0-9][0-9][0-9][0-9]'"


def _partial_unique(name: str, table: str, columns: list[str], where: sa.TextClause) -> None:
    op.create_index(name, table, columns, unique=True, sqlite_where=where, postgresql_where=where)


def _refuse_duplicates(sql: str, what: str) -> None:
    rows = op.get_bind().execute(sa.text(sql)).all()
    if rows:
        raise RuntimeError(f"migration 0012: {what} already exist, resolve them first: {rows[:10]}")


def _sqlite_booking_guard() -> None:
    for event in ("insert", "update"):
        op.execute(f"DROP TRIGGER IF EXISTS booking_no_overlap_{event}")
        op.execute(
            f"""
            CREATE TRIGGER booking_guard_{event}
            BEFORE {event.upper()} ON booking
            BEGIN
                SELECT RAISE(ABORT, 'booking_time_format')
                WHERE typeof(NEW.start_at) <> 'text' OR typeof(NEW.end_at) <> 'text'
                   OR NEW.start_at NOT GLOB {_CANONICAL} OR NEW.end_at NOT GLOB {_CANONICAL}
                   OR julianday(NEW.start_at) IS NULL OR julianday(NEW.end_at) IS NULL;
                SELECT RAISE(ABORT, 'booking_end_before_start')
                WHERE julianday(NEW.end_at) <= julianday(NEW.start_at);
                SELECT RAISE(ABORT, 'booking_overlap')
                FROM booking
                WHERE NEW.active AND room_id = NEW.room_id AND active AND id IS NOT NEW.id
                  AND julianday(start_at) < julianday(NEW.end_at) AND julianday(NEW.start_at) < julianday(end_at);
            END
            """
        )


def upgrade() -> None:
    sqlite = op.get_bind().dialect.name == "sqlite"
    _refuse_duplicates(
        'SELECT round_id, "table", count(*) FROM match WHERE status <> \'replay\' '
        'GROUP BY round_id, "table" HAVING count(*) > 1',
        "matches with the same round and table",
    )
    _partial_unique("uq_match_round_table", "match", ["round_id", "table"], _NOT_REPLAY)
    _partial_unique("uq_stage_one_playoff", "stage", ["season_id"], _PLAYOFF)

    with op.batch_alter_table("hanchan") as batch_op:
        batch_op.add_column(sa.Column("revision", sa.Integer(), server_default="0", nullable=False))
    # Existing corrections: the n-th row of a (match, number) by id is its n-th revision.
    bind = op.get_bind()
    rows = bind.execute(sa.text("SELECT id, match_id, number FROM hanchan ORDER BY match_id, number, id")).all()
    seen: dict[tuple[int, int], int] = {}
    for row_id, match_id, number in rows:
        rev = seen.get((match_id, number), -1) + 1
        seen[(match_id, number)] = rev
        if rev:
            bind.execute(sa.text("UPDATE hanchan SET revision = :r WHERE id = :i"), {"r": rev, "i": row_id})
    op.create_index("uq_hanchan_match_number_revision", "hanchan", ["match_id", "number", "revision"], unique=True)

    _refuse_duplicates(
        "SELECT match_id, count(*) FROM meetingproposal WHERE status = 'open' AND replaces_booking_id IS NULL "
        "GROUP BY match_id HAVING count(*) > 1",
        "several open proposals for one match",
    )
    _partial_unique("uq_proposal_open_new", "meetingproposal", ["match_id"], _OPEN_NEW)
    _partial_unique("uq_proposal_open_move", "meetingproposal", ["replaces_booking_id"], _OPEN)

    if sqlite:
        _sqlite_booking_guard()
    else:
        op.execute("ALTER TABLE booking ADD CONSTRAINT booking_end_after_start CHECK (end_at > start_at)")

    with op.batch_alter_table("outboxevent") as batch_op:
        batch_op.add_column(sa.Column("claimed_by", sa.String(), nullable=True))
        batch_op.add_column(sa.Column("claimed_until", services.core.models.UtcDateTime(), nullable=True))
        batch_op.add_column(sa.Column("once_key", sa.String(length=80), nullable=True))
    op.create_index("uq_outboxevent_once_key", "outboxevent", ["once_key"], unique=True)
    op.create_table(
        "telegramsend",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("part", sa.Integer(), nullable=False),
        sa.Column("message_id", sa.Integer(), nullable=False),
        sa.Column("sent_at", services.core.models.UtcDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["outboxevent.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("event_id", "chat_id", "part"),
    )
    op.create_index(op.f("ix_telegramsend_event_id"), "telegramsend", ["event_id"], unique=False)
    with op.batch_alter_table("pantheonsettings") as batch_op:
        batch_op.add_column(sa.Column("sync_owner", sa.String(), nullable=True))
        batch_op.add_column(sa.Column("sync_until", services.core.models.UtcDateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("pantheonsettings") as batch_op:
        batch_op.drop_column("sync_until")
        batch_op.drop_column("sync_owner")
    op.drop_index(op.f("ix_telegramsend_event_id"), table_name="telegramsend")
    op.drop_table("telegramsend")
    op.drop_index("uq_outboxevent_once_key", table_name="outboxevent")
    with op.batch_alter_table("outboxevent") as batch_op:
        batch_op.drop_column("once_key")
        batch_op.drop_column("claimed_until")
        batch_op.drop_column("claimed_by")
    if op.get_bind().dialect.name == "sqlite":
        for event in ("insert", "update"):
            op.execute(f"DROP TRIGGER IF EXISTS booking_guard_{event}")
            op.execute(
                f"""
                CREATE TRIGGER booking_no_overlap_{event}
                BEFORE {event.upper()} ON booking
                WHEN NEW.active
                BEGIN
                    SELECT RAISE(ABORT, 'booking_overlap')
                    FROM booking
                    WHERE room_id = NEW.room_id AND active AND id IS NOT NEW.id
                      AND start_at < NEW.end_at AND NEW.start_at < end_at;
                END
                """
            )
    else:
        op.execute("ALTER TABLE booking DROP CONSTRAINT booking_end_after_start")
    op.drop_index("uq_proposal_open_move", table_name="meetingproposal")
    op.drop_index("uq_proposal_open_new", table_name="meetingproposal")
    op.drop_index("uq_hanchan_match_number_revision", table_name="hanchan")
    with op.batch_alter_table("hanchan") as batch_op:
        batch_op.drop_column("revision")
    op.drop_index("uq_stage_one_playoff", table_name="stage")
    op.drop_index("uq_match_round_table", table_name="match")
