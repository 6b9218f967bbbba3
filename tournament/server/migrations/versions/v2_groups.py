"""Schema version 2: the groups of games played on the server, and their games."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "2"
down_revision = "1"


def upgrade() -> None:
    op.create_table(
        "groups",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("rules", sa.String(length=32), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("bots", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("started", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("groups_by_pool", "groups", ["game", "rules", "status"])
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("group_id", sa.Integer(), sa.ForeignKey("groups.id"), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seats", sa.Text(), nullable=False),
        sa.Column("places", sa.Text(), nullable=False),
        sa.Column("scores", sa.Text(), nullable=False),
        sa.Column("statuses", sa.Text(), nullable=False),
        sa.Column("record", sa.Text(), nullable=False),
        sa.UniqueConstraint("group_id", "number"),
    )


def downgrade() -> None:
    op.drop_table("games")
    op.drop_index("groups_by_pool", "groups")
    op.drop_table("groups")
