"""Indexes for the match change stamp: outbox events by kind, audit rows by entity (services/core/changes.py).

Revision ID: 0016
Revises: 0017
Create Date: 2026-11-30 17:30:00

"""

from typing import Sequence, Union

from alembic import op

revision: str = "0016"
down_revision: Union[str, Sequence[str], None] = "0017"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_index(op.f("ix_outboxevent_kind"), "outboxevent", ["kind"], unique=False)
    op.create_index("ix_auditrecord_entity_entity_id", "auditrecord", ["entity", "entity_id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_auditrecord_entity_entity_id", table_name="auditrecord")
    op.drop_index(op.f("ix_outboxevent_kind"), table_name="outboxevent")
