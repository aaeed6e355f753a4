"""The buttons of the private Telegram messages (issue 44): an opaque token per person, kind and subject, the
keyboard of a message in flight, put back after the probe's mark (services/notifier/remote.py, outbox.py), and the
one-time login links «Открыть на сайте» (services/league/login_links.py).

Revision ID: 0021_tgbuttons
Revises: 0020_zone
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel

import services.core.models
from alembic import op

revision: str = "0021_tgbuttons"
down_revision: str | Sequence[str] | None = "0020_zone"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "telegrambutton",
        sa.Column("token", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("kind", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("subject_id", sa.Integer(), nullable=False),
        sa.Column("detail", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("created_at", services.core.models.UtcDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"]),
        sa.ForeignKeyConstraint(["user_id"], ["user.id"]),
        sa.PrimaryKeyConstraint("token"),
        sa.UniqueConstraint("user_id", "kind", "subject_id", "detail"),
    )
    op.create_index(op.f("ix_telegrambutton_match_id"), "telegrambutton", ["match_id"], unique=False)
    op.create_index(op.f("ix_telegrambutton_user_id"), "telegrambutton", ["user_id"], unique=False)
    op.create_table(
        "loginlink",
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("expires_at", services.core.models.UtcDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"]),
        sa.ForeignKeyConstraint(["user_id"], ["user.id"]),
        sa.PrimaryKeyConstraint("code_hash"),
    )
    op.create_index(op.f("ix_loginlink_user_id"), "loginlink", ["user_id"], unique=False)
    with op.batch_alter_table("telegrampending") as batch:
        batch.add_column(sa.Column("buttons", sqlmodel.sql.sqltypes.AutoString(), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("telegrampending") as batch:
        batch.drop_column("buttons")
    op.drop_index(op.f("ix_loginlink_user_id"), table_name="loginlink")
    op.drop_table("loginlink")
    op.drop_index(op.f("ix_telegrambutton_user_id"), table_name="telegrambutton")
    op.drop_index(op.f("ix_telegrambutton_match_id"), table_name="telegrambutton")
    op.drop_table("telegrambutton")
