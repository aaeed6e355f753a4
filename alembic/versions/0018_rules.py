"""The season's ruleset in full: the playoff format, the roster multiple and the club's time zone beside the
numbers the season row already had (services/core/ruleset.py).

Revision ID: 0018_rules
Revises: 0018_secb
"""

from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0018_rules"
down_revision: Union[str, Sequence[str], None] = "0018_secb"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # Регламент §1, §2: the 2026 regulation's values for every season that exists.
    with op.batch_alter_table("season") as batch:
        batch.add_column(sa.Column("playoff_format", sqlmodel.sql.sqltypes.AutoString(), nullable=False, server_default="upper_lower"))
        batch.add_column(sa.Column("roster_multiple", sa.Integer(), nullable=False, server_default="4"))
        batch.add_column(sa.Column("time_zone", sqlmodel.sql.sqltypes.AutoString(), nullable=False, server_default="Europe/Kirov"))
    with op.batch_alter_table("season") as batch:
        batch.alter_column("playoff_format", server_default=None)
        batch.alter_column("roster_multiple", server_default=None)
        batch.alter_column("time_zone", server_default=None)


def downgrade() -> None:
    with op.batch_alter_table("season") as batch:
        batch.drop_column("time_zone")
        batch.drop_column("roster_multiple")
        batch.drop_column("playoff_format")
