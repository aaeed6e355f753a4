"""Login limits shared by every web worker (one counter row per key and window) and the site's own keys (the
signed device cookie).

Revision ID: 0018_secb
Revises: 0016
"""

from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel
from alembic import op

import services.core.models

revision: str = "0018_secb"
down_revision: Union[str, Sequence[str], None] = "0016"
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


def downgrade() -> None:
    op.drop_table("sitekey")
    op.drop_index("ix_loginwindow_started_at", table_name="loginwindow")
    op.drop_table("loginwindow")
