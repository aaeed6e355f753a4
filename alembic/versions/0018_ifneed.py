"""«Могу, если нужно»: a painted availability span has a level (free or if-needed); existing spans are free.

Revision ID: 0018_ifneed
Revises: 0016
"""

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0018_ifneed"
down_revision: Union[str, Sequence[str], None] = "0016"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("availabilityinterval") as batch:
        batch.add_column(sa.Column("level", sa.String(), nullable=False, server_default="free"))


def downgrade() -> None:
    with op.batch_alter_table("availabilityinterval") as batch:
        batch.drop_column("level")
