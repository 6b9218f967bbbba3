"""What pytest leaves out of the package's own modules: the server's migration scripts, which run
only inside alembic (their doctests, if any, would need a database)."""

collect_ignore = ["tournament/server/migrations"]
