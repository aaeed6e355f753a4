"""Judge calls (Регламент §6.2) and judge assignments (Регламент §6.3).

Revision ID: 0015
Revises: 0013
"""

from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel
from alembic import op

import services.core.models

revision: str = "0015"
down_revision: Union[str, Sequence[str], None] = "0013"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "judgecall",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("hanchan_number", sa.Integer(), nullable=True),
        sa.Column("description", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("called_by_user_id", sa.Integer(), nullable=False),
        sa.Column("judge_user_id", sa.Integer(), nullable=True),
        sa.Column("called_at", services.core.models.UtcDateTime(), nullable=False),
        sa.Column("answered_at", services.core.models.UtcDateTime(), nullable=True),
        sa.Column("answered_by_user_id", sa.Integer(), nullable=True),
        sa.Column("ruling_id", sa.Integer(), nullable=True),
        sa.Column("closed_at", services.core.models.UtcDateTime(), nullable=True),
        sa.ForeignKeyConstraint(["answered_by_user_id"], ["user.id"]),
        sa.ForeignKeyConstraint(["called_by_user_id"], ["user.id"]),
        sa.ForeignKeyConstraint(["judge_user_id"], ["user.id"]),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"]),
        sa.ForeignKeyConstraint(["ruling_id"], ["judgeruling.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("judgecall", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_judgecall_match_id"), ["match_id"], unique=False)
    op.create_table(
        "judgeassignment",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("judge_user_id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=True),
        sa.Column("day", sqlmodel.sql.sqltypes.AutoString(), nullable=True),
        sa.Column("match_id", sa.Integer(), nullable=True),
        sa.Column("assigned_by_user_id", sa.Integer(), nullable=False),
        sa.Column("assigned_at", services.core.models.UtcDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["assigned_by_user_id"], ["user.id"]),
        sa.ForeignKeyConstraint(["judge_user_id"], ["user.id"]),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"]),
        sa.ForeignKeyConstraint(["round_id"], ["round.id"]),
        sa.ForeignKeyConstraint(["season_id"], ["season.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("judgeassignment", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_judgeassignment_season_id"), ["season_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("judgeassignment", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_judgeassignment_season_id"))
    op.drop_table("judgeassignment")
    with op.batch_alter_table("judgecall", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_judgecall_match_id"))
    op.drop_table("judgecall")
