"""The club's time zone is the club's, not a season's: the season row's column goes (services/core/ruleset.py,
`CLUB_TIME_ZONE`, Регламент §1, §6.1).

Revision ID: 0020_zone
Revises: 0019_notif
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel

from alembic import op

revision: str = "0020_zone"
down_revision: str | Sequence[str] | None = "0019_notif"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("season") as batch:
        batch.drop_column("time_zone")


def downgrade() -> None:
    with op.batch_alter_table("season") as batch:
        batch.add_column(
            sa.Column("time_zone", sqlmodel.sql.sqltypes.AutoString(), nullable=False, server_default="Europe/Kirov")
        )
    with op.batch_alter_table("season") as batch:
        batch.alter_column("time_zone", server_default=None)
