"""Login attempts remember the client (the lockout is per name and client); login names ignore ё/е.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-30 14:50:00

"""

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: Union[str, Sequence[str], None] = "0012"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("loginattempt", schema=None) as batch_op:
        batch_op.add_column(sa.Column("client", sa.String(length=80), server_default="", nullable=False))
        batch_op.create_index(batch_op.f("ix_loginattempt_client"), ["client"], unique=False)
    # Login names are compared with ё written as е; a name that would then clash with another keeps its form.
    connection = op.get_bind()
    users = sa.table("user", sa.column("id", sa.Integer), sa.column("login_name", sa.String))
    rows = connection.execute(sa.select(users.c.id, users.c.login_name)).all()
    taken = {name for _, name in rows}
    for user_id, name in rows:
        new = name.replace("ё", "е")
        if new != name and new not in taken:
            connection.execute(users.update().where(users.c.id == user_id).values(login_name=new))
            taken.add(new)
    attempts = sa.table("loginattempt", sa.column("login_name", sa.String))
    connection.execute(attempts.update().values(login_name=sa.func.replace(attempts.c.login_name, "ё", "е")))


def downgrade() -> None:
    with op.batch_alter_table("loginattempt", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_loginattempt_client"))
        batch_op.drop_column("client")
