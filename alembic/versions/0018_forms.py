"""One-time action keys of the rendered forms (services/core/action_keys.py).

Revision ID: 0018_forms
Revises: 0018_tables
"""

from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel
from alembic import op

import services.core.models

revision: str = "0018_forms"
down_revision: Union[str, Sequence[str], None] = "0018_tables"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "actionkey",
        sa.Column("key", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("action", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("result", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("at", services.core.models.UtcDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["user.id"]),
        sa.PrimaryKeyConstraint("key"),
    )


def downgrade() -> None:
    op.drop_table("actionkey")
