"""Tables in the club's rooms: a room has `tables`, a booking sits at `table_no`, an open proposal holds a table.

Revision ID: 0018_tables
Revises: 0018_rules

- room.tables (>= 1), booking.table_no (1..room.tables), meetingproposal.table_no and hold_until,
  season.proposal_hold_hours (default 48);
- the overlap guard becomes per (room, table): PostgreSQL's exclusion constraint gains table_no, and a trigger
  refuses a table the room does not have; SQLite's guard trigger does both (Регламент §3, §6.1: several matches sit
  in the club at once, never two at one table).
"""

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

import services.core.models

revision: str = "0018_tables"
down_revision: Union[str, Sequence[str], None] = "0018_rules"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

# What SQLAlchemy writes for a DateTime on SQLite: 'YYYY-MM-DD HH:MM:SS.ffffff' (as in 0012).
_CANONICAL = "'[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9] [0-2][0-9]:[0-5][0-9]:[0-5][0-9].[0-9][0-9][0-9][0-9][0-9][0-9]'"


def _sqlite_booking_guard(per_table: bool) -> None:
    same_place = "room_id = NEW.room_id AND table_no = NEW.table_no" if per_table else "room_id = NEW.room_id"
    table_check = (
        """
            SELECT RAISE(ABORT, 'booking_table')
            WHERE NEW.table_no < 1 OR NEW.table_no > (SELECT tables FROM room WHERE id = NEW.room_id);"""
        if per_table
        else ""
    )
    for event in ("insert", "update"):
        op.execute(f"DROP TRIGGER IF EXISTS booking_guard_{event}")
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
                WHERE julianday(NEW.end_at) <= julianday(NEW.start_at);{table_check}
                SELECT RAISE(ABORT, 'booking_overlap')
                FROM booking
                WHERE NEW.active AND {same_place} AND active AND id IS NOT NEW.id
                  AND julianday(start_at) < julianday(NEW.end_at) AND julianday(NEW.start_at) < julianday(end_at);
            END
            """
        )
    for event in ("insert", "update"):
        op.execute(f"DROP TRIGGER IF EXISTS room_tables_guard_{event}")
        if per_table:
            op.execute(
                f"""
                CREATE TRIGGER room_tables_guard_{event}
                BEFORE {event.upper()} ON room
                BEGIN
                    SELECT RAISE(ABORT, 'room_tables') WHERE NEW.tables < 1;
                END
                """
            )


_PG_TABLE_GUARD = """
CREATE OR REPLACE FUNCTION booking_table_guard() RETURNS trigger AS $$
BEGIN
    IF NEW.table_no > (SELECT tables FROM room WHERE id = NEW.room_id) THEN
        RAISE EXCEPTION 'booking_table' USING ERRCODE = '23514';
    END IF;
    RETURN NEW;
END
$$ LANGUAGE plpgsql
"""


def upgrade() -> None:
    sqlite = op.get_bind().dialect.name == "sqlite"
    with op.batch_alter_table("room") as batch:
        batch.add_column(sa.Column("tables", sa.Integer(), nullable=False, server_default="1"))
    with op.batch_alter_table("booking") as batch:
        batch.add_column(sa.Column("table_no", sa.Integer(), nullable=False, server_default="1"))
    with op.batch_alter_table("meetingproposal") as batch:
        batch.add_column(sa.Column("table_no", sa.Integer(), nullable=False, server_default="1"))
        batch.add_column(sa.Column("hold_until", services.core.models.UtcDateTime(), nullable=True))
    with op.batch_alter_table("season") as batch:
        batch.add_column(sa.Column("proposal_hold_hours", sa.Integer(), nullable=False, server_default="48"))
    if sqlite:
        _sqlite_booking_guard(per_table=True)
        return
    op.execute("ALTER TABLE room ADD CONSTRAINT room_tables_positive CHECK (tables >= 1)")
    op.execute("ALTER TABLE booking ADD CONSTRAINT booking_table_positive CHECK (table_no >= 1)")
    op.execute("ALTER TABLE booking DROP CONSTRAINT booking_no_overlap")
    op.execute(
        "ALTER TABLE booking ADD CONSTRAINT booking_no_overlap EXCLUDE USING gist "
        "(room_id WITH =, table_no WITH =, tstzrange(start_at, end_at, '[)') WITH &&) WHERE (active)"
    )
    op.execute(_PG_TABLE_GUARD)
    op.execute(
        "CREATE TRIGGER booking_table_guard BEFORE INSERT OR UPDATE ON booking "
        "FOR EACH ROW EXECUTE FUNCTION booking_table_guard()"
    )


def downgrade() -> None:
    sqlite = op.get_bind().dialect.name == "sqlite"
    if not sqlite:
        op.execute("DROP TRIGGER booking_table_guard ON booking")
        op.execute("DROP FUNCTION booking_table_guard()")
        op.execute("ALTER TABLE booking DROP CONSTRAINT booking_no_overlap")
        op.execute(
            "ALTER TABLE booking ADD CONSTRAINT booking_no_overlap EXCLUDE USING gist "
            "(room_id WITH =, tstzrange(start_at, end_at, '[)') WITH &&) WHERE (active)"
        )
        op.execute("ALTER TABLE booking DROP CONSTRAINT booking_table_positive")
        op.execute("ALTER TABLE room DROP CONSTRAINT room_tables_positive")
    with op.batch_alter_table("season") as batch:
        batch.drop_column("proposal_hold_hours")
    with op.batch_alter_table("meetingproposal") as batch:
        batch.drop_column("hold_until")
        batch.drop_column("table_no")
    with op.batch_alter_table("booking") as batch:
        batch.drop_column("table_no")
    with op.batch_alter_table("room") as batch:
        batch.drop_column("tables")
    if sqlite:  # after the columns: SQLite's batch mode rebuilt the tables without their triggers
        _sqlite_booking_guard(per_table=False)
