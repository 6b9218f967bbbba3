"""Run the migrations on the connection :func:`tournament.server.store.migrate` passes in."""

from __future__ import annotations

from alembic import context

from tournament.server.store import Base

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=connection.dialect.name == "sqlite",
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
