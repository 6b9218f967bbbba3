"""Schema version 3: when each bot passed its check game (``None`` until it has)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "3"
down_revision = "2"


def upgrade() -> None:
    with op.batch_alter_table("bots") as bots:
        bots.add_column(sa.Column("checked", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("bots") as bots:
        bots.drop_column("checked")
