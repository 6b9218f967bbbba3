"""Schema version 4: the finished games of the casual tables, where people play (never rated)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "4"
down_revision = "3"


def upgrade() -> None:
    op.create_table(
        "casual_games",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.String(16), unique=True, nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("rules", sa.String(32), nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("scores", sa.Text, nullable=False),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("ended", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("casual_games")
