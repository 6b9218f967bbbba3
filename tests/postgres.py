"""A real PostgreSQL server for the tests, started from the machine's own binaries.

``initdb``, ``pg_ctl`` and ``postgres`` come from the PATH, else from the newest
``/usr/lib/postgresql/*/bin``. PostgreSQL refuses to run as root, so a root test run starts the
server as ``nobody``. Without a server the tests that need one are skipped, unless
``THOUSAND_POSTGRES=required`` (as in ``.ci/run``), which makes them fail.

Use the fixture by importing it into a test module::

    from tests.postgres import PostgresServer, postgres_server  # noqa: F401  (pytest fixture)

    def test_storage(postgres_server: PostgresServer) -> None:  # noqa: F811
        url = postgres_server.new_database("storage")
"""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import shlex
import shutil
import socket
import stat
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn

import psycopg
import pytest
from psycopg import sql

from thousand.table.confine import NOBODY

__all__ = [
    "USER",
    "PostgresServer",
    "PostgresUnavailable",
    "find_postgres",
    "postgres_server",
    "start_postgres",
]

USER = "thousand"
"""The server's superuser, trusted without a password from the local machine."""

PROGRAMS = ("initdb", "pg_ctl", "postgres")
"""The programs a server needs, all from one directory so that their versions match."""

START_ATTEMPTS = 3
"""Starts tried, each on a new free port, before giving up (another process may take a port
between the moment it is found free and the moment the server binds it)."""

TIMEOUT = 120
"""Seconds any one ``initdb`` or ``pg_ctl`` may take."""

LOOPBACK = "-c listen_addresses=127.0.0.1"
"""TCP on the loopback only."""
THROWAWAY = "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
"""Settings for throwaway test data: no waiting on disks."""

ERROR_LINE = re.compile(r"\b(PANIC|FATAL|ERROR|error):")
"""Where the message starts on a line of PostgreSQL's output that reports an error."""

DATABASE_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")
"""The database names :meth:`PostgresServer.new_database` accepts: usable in a URL as they are."""


class PostgresUnavailable(Exception):
    """No PostgreSQL server could be started: ``reason`` says why in one line, ``details`` (maybe
    empty) holds the program output or server log behind it."""

    def __init__(self, reason: str, details: str = "") -> None:
        super().__init__(f"{reason}\n{details}" if details else reason)
        self.reason = reason
        self.details = details


def find_postgres(search_path: str | None = None) -> Path | None:
    """The directory holding ``initdb``, ``pg_ctl`` and ``postgres``, or ``None`` when there is
    none: the PATH (or ``search_path``) first, then ``/usr/lib/postgresql/*/bin``, newest first."""
    path = os.environ.get("PATH", os.defpath) if search_path is None else search_path
    candidates = [Path(entry) for entry in path.split(os.pathsep) if entry]
    installed = Path("/usr/lib/postgresql").glob("*/bin")
    candidates += sorted(installed, key=lambda bin_dir: _version(bin_dir.parent.name), reverse=True)
    for directory in candidates:
        if all(os.access(directory / program, os.X_OK) for program in PROGRAMS):
            return directory
    return None


def _version(name: str) -> tuple[int, ...]:
    """The version number a directory such as ``/usr/lib/postgresql/15`` is named after."""
    return tuple(int(part) for part in re.findall(r"\d+", name))


class PostgresServer:
    """A running PostgreSQL server that listens on ``127.0.0.1:port`` and trusts :data:`USER`;
    :meth:`stop` ends it and removes its files."""

    def __init__(
        self, bin_dir: Path, folder: Path, port: int, watcher: subprocess.Popen[bytes]
    ) -> None:
        self.bin_dir = bin_dir
        self.folder = folder
        self.port = port
        self._watcher = watcher
        self._stopped = False
        atexit.register(self.stop)

    @property
    def data_dir(self) -> Path:
        """The server's data directory."""
        return self.folder / "data"

    @property
    def url(self) -> str:
        """The SQLAlchemy URL of the server's ``postgres`` database, where databases are made."""
        return self.database_url("postgres")

    def database_url(self, name: str) -> str:
        """The SQLAlchemy URL of the database ``name`` on this server."""
        return f"postgresql+psycopg://{USER}@127.0.0.1:{self.port}/{name}"

    def new_database(self, name: str) -> str:
        """Create the empty database ``name`` and return its SQLAlchemy URL; a name already taken
        on this server is an error, so each caller gets a database of its own."""
        if not DATABASE_NAME.fullmatch(name):
            raise ValueError(f"not a database name of lower-case letters, digits and _: {name!r}")
        with psycopg.connect(
            host="127.0.0.1", port=self.port, user=USER, dbname="postgres", autocommit=True
        ) as connection:
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        return self.database_url(name)

    def stop(self) -> None:
        """End the server at once (its data is thrown away) and remove its files; safe to call
        more than once."""
        if self._stopped:
            return
        self._stopped = True
        atexit.unregister(self.stop)
        try:
            _run_as_owner(
                [str(self.bin_dir / "pg_ctl"), "-D", str(self.data_dir), "-m", "immediate", "stop"],
                cwd=self.folder,
            )
        finally:
            _end_watcher(self._watcher)
            shutil.rmtree(self.folder, ignore_errors=True)


def start_postgres(directory: Path, durable: bool = False) -> PostgresServer:
    """Make a new database cluster in a folder of its own under ``directory`` and start a server
    on it, which waits on its disk as a real deployment does when ``durable`` (for measuring),
    not otherwise (for tests); raise :class:`PostgresUnavailable` when that cannot be done."""
    bin_dir = find_postgres()
    if bin_dir is None:
        raise PostgresUnavailable(
            "no PostgreSQL found (initdb, pg_ctl and postgres on the PATH or in "
            "/usr/lib/postgresql/*/bin): install Debian's postgresql (apt-get install postgresql)"
        )
    folder = _server_folder(directory)
    watcher: subprocess.Popen[bytes] | None = None
    try:
        _initdb(bin_dir, folder)
        watcher = _start_watcher(bin_dir, folder)
        port = _start(bin_dir, folder, LOOPBACK if durable else f"{LOOPBACK} {THROWAWAY}")
    except BaseException:
        if watcher is not None:
            _end_watcher(watcher)
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return PostgresServer(bin_dir, folder, port, watcher)


def _server_folder(directory: Path) -> Path:
    """A new folder for one server's files, owned by the user the server runs as.

    Under ``directory`` when that user can reach it and the socket path fits, else in the
    system's temporary directory."""
    directory = directory.resolve()
    reachable = os.geteuid() != 0 or all(
        folder.stat().st_mode & stat.S_IXOTH for folder in (directory, *directory.parents)
    )
    parent = directory if reachable and len(str(directory)) <= 60 else None
    folder = Path(tempfile.mkdtemp(prefix="thousand-postgres-", dir=parent))
    (folder / "socket").mkdir()
    if os.geteuid() == 0:
        for path in (folder, folder / "socket"):
            os.chown(path, NOBODY, NOBODY)
    return folder


def _initdb(bin_dir: Path, folder: Path) -> None:
    """Make the database cluster: UTF-8, C locale, :data:`USER` trusted, nothing synced."""
    command = [
        str(bin_dir / "initdb"),
        "-D",
        str(folder / "data"),
        "-A",
        "trust",
        "-U",
        USER,
        "-E",
        "UTF8",
        "--locale=C",
        "--no-sync",
    ]
    done = _run_as_owner(command, cwd=folder)
    if done.returncode != 0:
        output = done.stdout.strip()
        summary = _summary(output) or f"exit status {done.returncode}"
        raise PostgresUnavailable(f"PostgreSQL's initdb ({bin_dir}) failed: {summary}", output)


def _start(bin_dir: Path, folder: Path, settings: str) -> int:
    """Start the server on a free port with ``settings`` (its ``-c`` options), trying again on
    another port when the start fails; return the port."""
    log = folder / "server.log"
    pg_ctl = [str(bin_dir / "pg_ctl"), "-D", str(folder / "data")]
    tail = ""
    for _attempt in range(START_ATTEMPTS):
        log.unlink(missing_ok=True)
        port = _free_port()
        options = f"-p {port} -k {shlex.quote(str(folder / 'socket'))} {settings}"
        done = _run_as_owner(
            [*pg_ctl, "-l", str(log), "-w", "-t", "60", "-o", options, "start"], cwd=folder
        )
        if done.returncode == 0:
            return port
        _run_as_owner([*pg_ctl, "-m", "immediate", "stop"], cwd=folder)
        logged = log.read_text(errors="replace") if log.exists() else ""
        tail = "\n".join(logged.strip().splitlines()[-20:] + done.stdout.strip().splitlines())
    summary = _summary(tail) or "no output"
    raise PostgresUnavailable(
        f"PostgreSQL ({bin_dir}) did not start in {START_ATTEMPTS} attempts: {summary}", tail
    )


def _summary(output: str) -> str:
    """The line of a program's output that says what went wrong: the last error reported, else
    the last line."""
    lines = [" ".join(line.split()) for line in output.splitlines() if line.strip()]
    for line in reversed(lines):
        error = ERROR_LINE.search(line)
        if error is not None:
            return line[error.start() :]
    return lines[-1] if lines else ""


def _free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on at the moment."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _owner_arguments() -> dict[str, Any]:
    """``subprocess`` arguments that run a program as ``nobody`` when the caller is root (whom
    PostgreSQL refuses), else as the caller."""
    if os.geteuid() == 0:
        return {"user": NOBODY, "group": NOBODY, "extra_groups": []}
    return {}


def _server_environment() -> dict[str, str]:
    """The environment without ``PG*`` variables, which would change what the programs do."""
    return {name: value for name, value in os.environ.items() if not name.startswith("PG")}


def _run_as_owner(command: Sequence[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run a PostgreSQL program as the server's user, its output (both streams) collected."""
    try:
        return subprocess.run(
            command,
            cwd=cwd,
            env=_server_environment(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=TIMEOUT,
            check=False,
            **_owner_arguments(),
        )
    except subprocess.TimeoutExpired as timeout:
        name = Path(command[0]).name
        raise PostgresUnavailable(f"PostgreSQL's {name} took over {TIMEOUT} s") from timeout


def _start_watcher(bin_dir: Path, folder: Path) -> subprocess.Popen[bytes]:
    """A process that stops the server and removes its files once its input closes: when
    :meth:`PostgresServer.stop` closes it, or when the test process dies, even killed."""
    script = 'cat >/dev/null; "$0" -D "$1/data" -m immediate stop; rm -rf "$1"'
    return subprocess.Popen(
        ["sh", "-c", script, str(bin_dir / "pg_ctl"), str(folder)],
        cwd=folder,
        env=_server_environment(),
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        **_owner_arguments(),
    )


def _end_watcher(watcher: subprocess.Popen[bytes]) -> None:
    """Close the watcher's input and wait for it to finish stopping the server."""
    if watcher.stdin is not None:
        with contextlib.suppress(OSError):
            watcher.stdin.close()
    try:
        watcher.wait(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        watcher.kill()
        watcher.wait()


def _try_to_start(directory: Path) -> PostgresServer | PostgresUnavailable:
    """A server started in ``directory``, or why there is none."""
    try:
        return start_postgres(directory)
    except PostgresUnavailable as problem:
        return problem


def _unavailable(problem: PostgresUnavailable) -> NoReturn:
    """Skip, or fail with the details when PostgreSQL is required."""
    if os.environ.get("THOUSAND_POSTGRES") == "required":
        message = f"{problem.reason} (THOUSAND_POSTGRES=required)"
        pytest.fail(f"{message}\n{problem.details}" if problem.details else message, pytrace=False)
    pytest.skip(problem.reason)


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PostgresServer]:
    """A PostgreSQL server shared by the tests of one test process (one per xdist worker),
    stopped when they end."""
    server = _try_to_start(tmp_path_factory.mktemp("postgres"))
    if isinstance(server, PostgresUnavailable):
        _unavailable(server)
    try:
        yield server
    finally:
        server.stop()
