"""The real PostgreSQL server the storage tests run against: its databases are separate, and it
runs as an ordinary user even when the tests run as root."""

from __future__ import annotations

import os
from pathlib import Path

import sqlalchemy

from tests.postgres import PostgresServer, postgres_server  # noqa: F401  (pytest fixture)
from thousand.table.confine import NOBODY


def test_new_databases_are_empty_and_separate(
    postgres_server: PostgresServer,  # noqa: F811
) -> None:
    """A table made in one new database is not in another: each test can have a database of its
    own that no other test's tables leak into."""
    first = sqlalchemy.create_engine(postgres_server.new_database("separate_first"))
    second = sqlalchemy.create_engine(postgres_server.new_database("separate_second"))
    try:
        assert sqlalchemy.inspect(first).get_table_names() == []
        assert sqlalchemy.inspect(second).get_table_names() == []
        with first.begin() as connection:
            connection.execute(sqlalchemy.text("CREATE TABLE players (name text PRIMARY KEY)"))
            connection.execute(sqlalchemy.text("INSERT INTO players VALUES ('Ann')"))
        with first.connect() as connection:
            names = connection.execute(sqlalchemy.text("SELECT name FROM players")).scalars()
            assert list(names) == ["Ann"]
        assert sqlalchemy.inspect(first).get_table_names() == ["players"]
        assert sqlalchemy.inspect(second).get_table_names() == []
        with second.connect() as connection:
            database = connection.execute(sqlalchemy.text("SELECT current_database()")).scalar()
        assert database == "separate_second"
    finally:
        first.dispose()
        second.dispose()


def test_the_server_runs_as_an_ordinary_user(
    postgres_server: PostgresServer,  # noqa: F811
) -> None:
    """The server process and its data belong to ``nobody`` when the tests run as root (which
    PostgreSQL refuses), else to the user running the tests."""
    expected = NOBODY if os.geteuid() == 0 else os.geteuid()
    engine = sqlalchemy.create_engine(postgres_server.url)
    try:
        with engine.connect() as connection:
            pid = connection.execute(sqlalchemy.text("SELECT pg_backend_pid()")).scalar_one()
            data_dir = connection.execute(
                sqlalchemy.text("SELECT current_setting('data_directory')")
            ).scalar_one()
            assert Path(f"/proc/{pid}").stat().st_uid == expected
    finally:
        engine.dispose()
    assert Path(data_dir).resolve() == postgres_server.data_dir.resolve()
    assert Path(data_dir).stat().st_uid == expected
    assert expected != 0
