"""Seasons and the league's records: the current season, registration dates, the fee, disqualifications, the
regulation's versions.

Revision ID: 0017
Revises: 0015
"""

from typing import Sequence, Union

import sqlalchemy as sa
import sqlmodel
from alembic import op

import services.core.models

revision: str = "0017"
down_revision: Union[str, Sequence[str], None] = "0015"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("season") as batch:
        batch.add_column(sa.Column("is_current", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("registration_opens_on", sa.Date(), nullable=True))
        batch.add_column(sa.Column("registration_closes_on", sa.Date(), nullable=True))
        batch.add_column(sa.Column("finished_at", services.core.models.UtcDateTime(), nullable=True))
    # The newest existing season stays the current one.
    op.execute("UPDATE season SET is_current = true WHERE id = (SELECT max(id) FROM season)")
    with op.batch_alter_table("season") as batch:
        batch.alter_column("is_current", server_default=None)
    op.create_index(
        "uq_season_current",
        "season",
        ["is_current"],
        unique=True,
        sqlite_where=sa.text("is_current"),
        postgresql_where=sa.text("is_current"),
    )
    op.create_table(
        "registration",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("contact", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("fee_paid_on", sa.Date(), nullable=True),
        sa.Column("fee_refunded_on", sa.Date(), nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"]),
        sa.PrimaryKeyConstraint("player_id"),
    )
    op.create_table(
        "disqualification",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("reason", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=True),
        sa.Column("starts_on", sa.Date(), nullable=False),
        sa.Column("ends_on", sa.Date(), nullable=True),
        sa.Column("decided_by_user_id", sa.Integer(), nullable=True),
        sa.Column("decided_at", services.core.models.UtcDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["decided_by_user_id"], ["user.id"]),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"]),
        sa.ForeignKeyConstraint(["user_id"], ["user.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_disqualification_user_id"), "disqualification", ["user_id"], unique=False)
    op.create_table(
        "regulationversion",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("text", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("reason", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("announced_at", services.core.models.UtcDateTime(), nullable=False),
        sa.Column("author_user_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["author_user_id"], ["user.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_regulationversion_announced_at"), "regulationversion", ["announced_at"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_regulationversion_announced_at"), table_name="regulationversion")
    op.drop_table("regulationversion")
    op.drop_index(op.f("ix_disqualification_user_id"), table_name="disqualification")
    op.drop_table("disqualification")
    op.drop_table("registration")
    op.drop_index("uq_season_current", table_name="season")
    with op.batch_alter_table("season") as batch:
        batch.drop_column("finished_at")
        batch.drop_column("registration_closes_on")
        batch.drop_column("registration_opens_on")
        batch.drop_column("is_current")
