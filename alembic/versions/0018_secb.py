"""Login limits shared by every web worker (one counter row per key and window), the site's own keys (the
signed device cookie), and the Telegram message in flight per chat (found after a crash instead of re-sent).

Revision ID: 0018_secb
Revises: 0018_ifneed
"""

from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel
from alembic import op

import services.core.models

revision: str = "0018_secb"
down_revision: Union[str, Sequence[str], None] = "0018_ifneed"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "loginwindow",
        sa.Column("key", sa.String(120), primary_key=True),
        sa.Column("started_at", services.core.models.UtcDateTime(), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
    )
    op.create_index("ix_loginwindow_started_at", "loginwindow", ["started_at"])
    op.create_table(
        "sitekey",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("value", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    )
    op.create_table(
        "telegrampending",
        sa.Column("chat_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("kind", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=True),
        sa.Column("part", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=True),
        sa.Column("text", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("after_message_id", sa.Integer(), nullable=False),
        sa.Column("owner", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("started_at", services.core.models.UtcDateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("telegrampending")
    op.drop_table("sitekey")
    op.drop_index("ix_loginwindow_started_at", table_name="loginwindow")
    op.drop_table("loginwindow")
