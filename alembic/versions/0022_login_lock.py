"""The login limits on the `limits` library (issue 42): their counting windows leave the database; a login name's
lock stays in it, with its time and reason, for the organizer's desk.

Revision ID: 0022_login_lock
Revises: 0021_tgbuttons
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel

import services.core.models
from alembic import op

revision: str = "0022_login_lock"
down_revision: str | Sequence[str] | None = "0021_tgbuttons"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.drop_index("ix_loginwindow_started_at", table_name="loginwindow")
    op.drop_table("loginwindow")
    op.create_table(
        "loginlock",
        sa.Column("login_name", sa.String(120), primary_key=True),
        sa.Column("locked_at", services.core.models.UtcDateTime(), nullable=False),
        sa.Column("until", services.core.models.UtcDateTime(), nullable=False),
        sa.Column("reason", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("loginlock")
    op.create_table(
        "loginwindow",
        sa.Column("key", sa.String(120), primary_key=True),
        sa.Column("started_at", services.core.models.UtcDateTime(), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
    )
    op.create_index("ix_loginwindow_started_at", "loginwindow", ["started_at"])
