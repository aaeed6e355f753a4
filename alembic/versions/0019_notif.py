"""The last private unblock hint sent per match and chat (services/notifier/outbox.py).

Revision ID: 0019_notif
Revises: 0018_forms
"""

from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel
from alembic import op

import services.core.models

revision: str = "0019_notif"
down_revision: Union[str, Sequence[str], None] = "0018_forms"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "unblockhint",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("text_hash", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("sent_at", services.core.models.UtcDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"]),
        sa.PrimaryKeyConstraint("match_id", "chat_id"),
    )


def downgrade() -> None:
    op.drop_table("unblockhint")
