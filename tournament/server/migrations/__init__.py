"""The migrations of the server's database schema (alembic), one module per version."""
