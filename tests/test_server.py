"""The ladder server's database, its bots' tokens and their connections: on SQLite and on a real
PostgreSQL server, through a real server (uvicorn on a free port) and real websocket clients."""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.postgres import postgres_server  # noqa: F401  (pytest fixture)
from tests.test_cli import installed_command
from tournament.cli import app
from tournament.server.app import Settings, web_server
from tournament.server.protocol import (
    CLOSE_BAD_LOGIN,
    CLOSE_LOGIN_TIMEOUT,
    CLOSE_REPLACED,
    CLOSE_TOO_BIG,
    CLOSE_TOO_MANY,
    Limits,
)
from tournament.server.store import DatabaseError, Store, database_url, migrate, shown_url
from tournament.server.tokens import PREFIX, token_hash

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of an empty database: a SQLite file, or a database on a real PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'server.db'}"
    server = request.getfixturevalue("postgres_server")
    return str(server.new_database(f"server_{os.getpid()}_{time.monotonic_ns()}"))


# The database -------------------------------------------------------------------------------


def test_an_empty_database_is_made_by_the_migrations_and_refused_without(database: str) -> None:
    """An empty database is refused unless it may be made, with the command that makes it; made,
    it is at the current schema version, and migrating it again changes nothing."""
    with pytest.raises(DatabaseError, match=r"has no tables.*thousand server migrate --db"):
        Store(database)
    Store(database, make=True).close()
    assert migrate(database) == ("4", "4")
    Store(database).close()


def test_an_older_schema_is_refused_then_migrated_with_what_it_holds(database: str) -> None:
    """A database left at the previous schema version is refused with the command that brings
    it up to date; that command does, and keeps the bots it held."""
    assert migrate(database, to="1") == (None, "1")
    engine = sqlalchemy.create_engine(database_url(database))
    with engine.begin() as connection:
        connection.execute(
            sqlalchemy.text(
                "INSERT INTO bots (name, token_hash, created) VALUES ('old', :hash, :now)"
            ),
            {"hash": token_hash("thb_old"), "now": datetime.datetime(2026, 1, 1)},
        )
    engine.dispose()
    with pytest.raises(DatabaseError, match="is at schema version 1, not the current 4"):
        Store(database)
    assert migrate(database) == ("1", "4")
    store = Store(database)
    try:
        assert store.bot_with_token("thb_old") == "old"
        assert store.finished_groups("thousand", "russian") == []
    finally:
        store.close()


def test_tokens_are_shown_once_kept_hashed_revoked_and_rotated(database: str) -> None:
    """A bot's token is shown once and only its hash is kept; a revoked token no longer logs in,
    and a rotated one replaces the old."""
    store = Store(database, make=True)
    try:
        token = store.add_bot("alpha")
        other = store.add_bot("beta")
        assert token.startswith(PREFIX)
        assert token != other
        assert store.bot_with_token(token) == "alpha"
        assert store.bot_with_token(token + "x") is None
        engine = sqlalchemy.create_engine(database_url(database))
        with engine.connect() as connection:
            kept = connection.execute(sqlalchemy.text("SELECT name, token_hash FROM bots")).all()
        engine.dispose()
        assert sorted(kept) == [("alpha", token_hash(token)), ("beta", token_hash(other))]
        assert token not in repr(kept)
        store.revoke_bot("alpha")
        assert store.bot_with_token(token) is None
        assert [(bot.name, bot.revoked) for bot in store.bots()] == [
            ("alpha", True),
            ("beta", False),
        ]
        new = store.rotate_token("alpha")
        assert store.bot_with_token(new) == "alpha"
        assert store.bot_with_token(token) is None
    finally:
        store.close()


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "a bot's name is 1 to 40 letters"),
        ("<b>x</b>", "a bot's name is 1 to 40 letters"),
        ("x" * 41, "a bot's name is 1 to 40 letters"),
        ("-x", "a bot's name is 1 to 40 letters"),
    ],
)
def test_a_bad_name_is_refused(tmp_path: Path, name: str, message: str) -> None:
    """Names are short and plain, so that they read the same in a URL, a table and a shell."""
    store = Store(f"sqlite:///{tmp_path / 'server.db'}", make=True)
    try:
        with pytest.raises(ValueError, match=message):
            store.add_bot(name)
        store.add_bot("alpha")
        with pytest.raises(ValueError, match="there is already a bot named alpha"):
            store.add_bot("alpha")
        with pytest.raises(ValueError, match="there is no bot named 'gamma'"):
            store.revoke_bot("gamma")
        with pytest.raises(ValueError, match="greedy is the name of a built-in bot"):
            store.add_bot("greedy")
    finally:
        store.close()


def test_database_urls() -> None:
    """PostgreSQL URLs are reached with psycopg; other kinds are refused; passwords never shown."""
    assert database_url(None) == "sqlite:///thousand-server.db"
    assert database_url("postgresql://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    assert database_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    with pytest.raises(DatabaseError, match="not 'mysql://u:\\*\\*\\*@h/db'"):
        database_url("mysql://u:secret@h/db")
    with pytest.raises(DatabaseError, match="--db must be a sqlite:/// or postgresql:// URL"):
        database_url("nonsense")
    assert shown_url("postgresql://u:secret@h/db") == "postgresql://u:***@h/db"


# The command line ---------------------------------------------------------------------------


def test_the_commands_add_list_revoke_and_rotate(tmp_path: Path) -> None:
    """``thousand server add-bot`` prints the token alone; ``bots`` lists the bots; ``revoke-bot``
    and ``rotate-token`` act on the named one; mistakes are one line."""
    db = ["--db", f"sqlite:///{tmp_path / 'server.db'}"]
    added = runner.invoke(app, ["server", "add-bot", "alpha", *db])
    assert added.exit_code == 0, added.output
    token = added.stdout.strip()
    assert token.startswith(PREFIX)
    assert added.stdout == token + "\n"
    listed = runner.invoke(app, ["server", "bots", *db])
    assert listed.stdout.splitlines()[0].split() == ["bot", "added", "token"]
    assert listed.stdout.splitlines()[1].split()[::3] == ["alpha", "valid"]
    revoked = runner.invoke(app, ["server", "revoke-bot", "alpha", *db])
    assert revoked.exit_code == 0
    assert "thousand server rotate-token alpha" in revoked.stdout
    assert "revoked" in runner.invoke(app, ["server", "bots", *db]).stdout
    rotated = runner.invoke(app, ["server", "rotate-token", "alpha", *db])
    assert rotated.stdout.strip() not in ("", token)
    again = runner.invoke(app, ["server", "add-bot", "alpha", *db])
    assert again.exit_code == 2
    assert again.stderr == "error: there is already a bot named alpha\n"
    wrong = runner.invoke(app, ["server", "bots", "--db", "mysql://u:pw@h/x"])
    assert wrong.stderr == (
        "error: --db must be a sqlite:/// or postgresql:// URL, not 'mysql://u:***@h/x'\n"
    )


def test_migrate_says_what_it_did(tmp_path: Path) -> None:
    """``thousand server migrate`` makes an empty database's tables, then says it is current."""
    db = ["--db", f"sqlite:///{tmp_path / 'server.db'}"]
    first = runner.invoke(app, ["server", "migrate", *db])
    assert first.stdout.endswith(": schema version none -> 4\n")
    second = runner.invoke(app, ["server", "migrate", *db])
    assert second.stdout.endswith(" is at the current schema version, 4\n")


# Connections --------------------------------------------------------------------------------


class Running:
    """A server running in a thread on a free port."""

    def __init__(self, settings: Settings) -> None:
        self.listening = socket.socket()
        self.listening.bind(("127.0.0.1", 0))
        self.port = self.listening.getsockname()[1]
        self.server = web_server(settings)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.listening]}, daemon=True
        )
        self.thread.start()
        self.connections = contextlib.ExitStack()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert self.thread.is_alive(), "the server stopped as it started"
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.01)

    def connect(self) -> ClientConnection:
        """A new connection to the bots' websocket, closed when the server stops."""
        return self.connections.enter_context(
            connect(f"ws://127.0.0.1:{self.port}/bot", open_timeout=10)
        )

    def get(self, path: str) -> Any:
        return httpx.get(f"http://127.0.0.1:{self.port}{path}", timeout=10).json()

    def stop(self) -> None:
        self.connections.close()
        self.server.should_exit = True
        self.thread.join(30)
        self.listening.close()


@pytest.fixture
def served(database: str) -> Iterator[tuple[Running, dict[str, str]]]:
    """A running server on ``database`` with the bots alpha and beta (their tokens), and limits
    small enough to reach."""
    store = Store(database, make=True)
    tokens = {name: store.add_bot(name) for name in ("alpha", "beta")}
    store.close()
    # Ten messages at once, then one a minute: a test's burst never waits for a refill.
    limits = Limits(largest_message=1000, per_second=1 / 60, burst=10, warnings=2, login_seconds=2)
    running = Running(Settings(database=database, limits=limits))
    try:
        yield running, tokens
    finally:
        running.stop()


def login(running: Running, token: str) -> ClientConnection:
    """A connection logged in with ``token``."""
    connection = running.connect()
    connection.send(json.dumps({"type": "login", "token": token}))
    welcome = json.loads(connection.recv(timeout=10))
    assert welcome["type"] == "welcome", welcome
    return connection


def closed_with(connection: ClientConnection) -> tuple[list[dict[str, Any]], int | None]:
    """The messages the server sent until it closed the connection, and its close code."""
    messages = []
    try:
        while True:
            messages.append(json.loads(connection.recv(timeout=10)))
    except ConnectionClosed as closed:
        return messages, closed.rcvd.code if closed.rcvd else None


def test_a_bot_logs_in_and_is_listed_as_connected(
    served: tuple[Running, dict[str, str]],
) -> None:
    """A bot logs in with its token, is welcomed by name, answers pings, and shows as connected
    while it is; the other bot shows as not connected."""
    running, tokens = served
    connection = running.connect()
    connection.send(json.dumps({"type": "login", "token": tokens["alpha"]}))
    assert json.loads(connection.recv(timeout=10)) == {
        "type": "welcome",
        "bot": "alpha",
        "protocol": 1,
    }
    connection.send(json.dumps({"type": "ping"}))
    assert json.loads(connection.recv(timeout=10)) == {"type": "pong"}
    assert running.get("/api/bots") == {
        "bots": [
            {"name": "alpha", "revoked": False, "connected": True},
            {"name": "beta", "revoked": False, "connected": False},
        ]
    }
    connection.close()
    deadline = time.monotonic() + 10
    while running.get("/api/bots")["bots"][0]["connected"]:
        assert time.monotonic() < deadline
        time.sleep(0.02)


@pytest.mark.parametrize(
    ("first", "reason"),
    [
        ({"type": "login", "token": "thb_unknown"}, "no bot has this token"),
        ({"type": "hello"}, 'the first message must be {"type": "login", "token": ...}'),
        ({"type": "login", "token": 5}, 'the first message must be {"type": "login"'),
        ("not json", "a message must be one JSON object"),
        ([1, 2], "a message must be one JSON object"),
    ],
)
def test_a_bad_login_is_refused_with_its_reason(
    served: tuple[Running, dict[str, str]], first: Any, reason: str
) -> None:
    """A login with an unknown token, or a first message that is no login, is answered with the
    reason and the connection closed with code 4401."""
    running, _ = served
    connection = running.connect()
    connection.send(first if isinstance(first, str) else json.dumps(first))
    messages, code = closed_with(connection)
    assert code == CLOSE_BAD_LOGIN
    assert len(messages) == 1
    assert messages[0]["type"] == "error"
    assert messages[0]["message"].startswith(reason)


def test_a_revoked_token_no_longer_logs_in(
    served: tuple[Running, dict[str, str]], database: str
) -> None:
    """Revoked while the server runs, a token is refused at its next login."""
    running, tokens = served
    login(running, tokens["alpha"]).close()
    store = Store(database)
    store.revoke_bot("alpha")
    store.close()
    connection = running.connect()
    connection.send(json.dumps({"type": "login", "token": tokens["alpha"]}))
    messages, code = closed_with(connection)
    assert code == CLOSE_BAD_LOGIN
    assert messages == [
        {"type": "error", "message": "no bot has this token (it may have been revoked)"}
    ]


def test_a_second_connection_on_one_token_takes_over(
    served: tuple[Running, dict[str, str]],
) -> None:
    """One connection per bot is live: a new login with the same token takes over, and the older
    connection is told so and closed with code 4409."""
    running, tokens = served
    older = login(running, tokens["alpha"])
    newer = login(running, tokens["alpha"])
    messages, code = closed_with(older)
    assert code == CLOSE_REPLACED
    assert messages == [{"type": "replaced", "message": "the bot connected again"}]
    newer.send(json.dumps({"type": "ping"}))
    assert json.loads(newer.recv(timeout=10)) == {"type": "pong"}
    assert running.get("/api/bots")["bots"][0]["connected"] is True


def test_no_login_in_time_closes_the_connection(served: tuple[Running, dict[str, str]]) -> None:
    """A connection that does not log in within the limit is told why and closed (4408)."""
    running, _ = served
    messages, code = closed_with(running.connect())
    assert code == CLOSE_LOGIN_TIMEOUT
    assert messages == [{"type": "error", "message": "no login within 2 seconds"}]


def test_garbage_is_answered_and_the_connection_goes_on(
    served: tuple[Running, dict[str, str]],
) -> None:
    """Once logged in, a message that is not JSON, not an object, or of no known type is answered
    with an error saying why, and the connection stays."""
    running, tokens = served
    connection = login(running, tokens["alpha"])
    answers = []
    sent_texts = [
        "{oops",
        "[]",
        '{"no": "type"}',
        '{"type": "dance"}',
        '{"type": "action", "action": "pass"}',
        '{"type": "action", "action": "pass", "game_id": "9-9"}',
    ]
    for sent in sent_texts:
        connection.send(sent)
        answers.append(json.loads(connection.recv(timeout=10)))
    assert answers == [
        {"type": "error", "message": "a message must be one JSON object"},
        {"type": "error", "message": "a message must be one JSON object"},
        {"type": "error", "message": 'a message must have a "type" string'},
        {"type": "error", "message": 'no message has the type "dance"'},
        {"type": "error", "message": 'an answer (action) must name its game in "game_id"'},
        {"type": "error", "message": 'no answer is awaited in game "9-9"'},
    ]
    connection.send(json.dumps({"type": "ping"}))
    assert json.loads(connection.recv(timeout=10)) == {"type": "pong"}


@pytest.mark.parametrize("size", [1001, 2000, 5000])
def test_an_oversized_message_closes_the_connection(
    served: tuple[Running, dict[str, str]], size: int
) -> None:
    """A message above the limit closes the connection with code 1009 (message too big): told
    why up to four times the limit, by the websocket layer itself beyond."""
    running, tokens = served
    connection = login(running, tokens["alpha"])
    connection.send(json.dumps({"type": "ping", "pad": "x" * size}))
    messages, code = closed_with(connection)
    assert code == CLOSE_TOO_BIG
    if size < 4000:
        assert messages == [
            {"type": "error", "message": "a message may hold 1000 characters at the most"}
        ]


def test_too_many_messages_are_refused_then_the_connection_closed(
    served: tuple[Running, dict[str, str]],
) -> None:
    """Beyond the rate, each message is refused with an error; after the warnings allowed, the
    connection is closed with code 4429."""
    running, tokens = served
    connection = login(running, tokens["alpha"])
    with contextlib.suppress(ConnectionClosed):
        for _ in range(30):
            connection.send(json.dumps({"type": "ping"}))
    messages, code = closed_with(connection)
    assert code == CLOSE_TOO_MANY
    kinds = [message["type"] for message in messages]
    assert kinds[:10] == ["pong"] * 10
    refused = {"type": "error", "message": "too many messages: at most 0.0166667 a second"}
    assert messages[10:] == [refused] * 3


def started_server(url: str) -> tuple[subprocess.Popen[str], int]:
    """The real ``thousand server`` on the database at ``url`` on a free port, once it answers."""
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    process = subprocess.Popen(
        [*installed_command(), "server", "--port", str(port), "--db", url],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while True:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the server did not start"
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/bots", timeout=5)
        except httpx.HTTPError:
            time.sleep(0.1)
            continue
        return process, port


def test_the_real_program_serves_until_ctrl_c(tmp_path: Path) -> None:
    """``thousand server`` makes its database, says where to play in the browser, accepts a
    bot's login, serves the lobby, and stops on Ctrl-C."""
    database = f"sqlite:///{tmp_path / 'server.db'}"
    token = runner.invoke(app, ["server", "add-bot", "alpha", "--db", database]).stdout.strip()
    process, port = started_server(database)
    try:
        with connect(f"ws://127.0.0.1:{port}/bot", open_timeout=5) as connection:
            connection.send(json.dumps({"type": "login", "token": token}))
            assert json.loads(connection.recv(timeout=10))["bot"] == "alpha"
        lobby = httpx.get(f"http://127.0.0.1:{port}/play", timeout=10)
        assert "Make the table" in lobby.text
        process.send_signal(signal.SIGINT)
        _, errors = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, errors
    assert "Traceback" not in errors
    assert errors.startswith(f"play in the browser at http://127.0.0.1:{port}/play; ")


# The plain install ----------------------------------------------------------------------------


def test_only_the_server_extra_brings_the_server_libraries() -> None:
    """The plain install depends on none of the server's libraries, and neither importing the
    library nor starting the program (its help) loads them."""
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    serving = ("starlette", "uvicorn", "websockets", "sqlalchemy", "alembic", "psycopg")
    assert not [need for need in project["dependencies"] if need.startswith(serving)]
    extra = [re.split("[>\\[]", need)[0] for need in project["optional-dependencies"]["server"]]
    assert sorted(extra) == sorted(serving)
    probe = (
        "import sys, thousand, tournament.cli; thousand.play; "
        "from typer.testing import CliRunner; CliRunner().invoke(tournament.cli.app, ['--help']); "
        "print(*sorted(sys.modules))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.split()
    assert not [name for name in loaded if name.split(".")[0] in (*serving, "anyio")]
    assert "tournament.server" not in loaded


def test_without_the_extra_the_server_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the server's libraries, ``thousand server`` says in one line how to install them."""
    monkeypatch.setitem(sys.modules, "sqlalchemy", None)
    for name in [name for name in sys.modules if name.startswith("tournament.server")]:
        monkeypatch.delitem(sys.modules, name)
    result = runner.invoke(app, ["server", "bots"])
    assert result.exit_code == 2
    assert result.stderr == (
        'error: the server needs its extra: python -m pip install ".[server]" in a checkout of '
        "thousand\n"
    )


def test_a_pool_that_is_no_preset_is_one_error_line(tmp_path: Path) -> None:
    """``--pool`` takes a Thousand preset or bluff; anything else is refused in one line before
    the server starts."""
    database = f"sqlite:///{tmp_path / 'server.db'}"
    result = runner.invoke(app, ["server", "--pool", "nope", "--db", database])
    assert result.exit_code == 2
    assert result.stderr == (
        "error: --pool must be a Thousand preset (russian, polish, polish-2p, russian-4, "
        "polish-4) or bluff, not 'nope'\n"
    )


PER_POOL = "--pool-time must be PRESET=LIMIT or PRESET=LIMIT/BANK in seconds, not "


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ("polish=5", "--pool-time names the pool 'polish', which is not played (russian)"),
        ("russian=x", PER_POOL + "'russian=x'"),
        ("russian=5/0", PER_POOL + "'russian=5/0'"),
        ("russian", PER_POOL + "'russian'"),
    ],
)
def test_a_pool_time_is_checked_in_one_line(tmp_path: Path, given: str, message: str) -> None:
    """``--pool-time`` names a pool the server plays and a limit (and bank) in seconds."""
    database = f"sqlite:///{tmp_path / 'server.db'}"
    result = runner.invoke(app, ["server", "--pool-time", given, "--db", database])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {message}")
    assert len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    ("given", "message"),
    [
        (
            ["--reference", "mybot.py:Bot"],
            "--reference must name a built-in bot, not 'mybot.py:Bot'",
        ),
        (["--reference", "ismcts(stepz=3)"], "ismcts has no option 'stepz'"),
        (["--reference", "greedy"], "greedy is a reference bot already, played in the server"),
        (["--backend", "cloud"], "--backend must be local or ray, not 'cloud'"),
        (["--ray-address", "auto"], "--ray-address goes with --backend ray"),
    ],
)
def test_the_reference_bots_and_their_workers_are_checked_in_one_line(
    tmp_path: Path, given: list[str], message: str
) -> None:
    """``--reference`` takes a built-in bot not already played in the server, its options
    checked, and ``--backend`` names where the workers run, all before the server starts."""
    database = f"sqlite:///{tmp_path / 'server.db'}"
    result = runner.invoke(app, ["server", *given, "--db", database])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ")
    assert message in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_workers_on_ray_without_ray_are_refused_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--backend ray`` without Ray installed says how to install it, before the server starts."""
    monkeypatch.setitem(sys.modules, "ray", None)
    database = f"sqlite:///{tmp_path / 'server.db'}"
    given = ["server", "--reference", "ismcts(steps=5)", "--backend", "ray", "--db", database]
    result = runner.invoke(app, given)
    assert result.exit_code == 2
    assert result.stderr == (
        "error: --backend ray needs Ray: install it with python -m pip install ray\n"
    )
