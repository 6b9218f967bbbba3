"""Ladder server under load: many simulated bots over real websockets.

For each database (a SQLite file, and a PostgreSQL server of its own when one can be started,
waiting on its disk as a deployment's does):
``--bots`` bots are added to a new database as already checked, the server runs in this process
(uvicorn in a thread, on a free port, matchmaking every 0.2 s, other settings as by default),
and the bots connect from a child process: one asyncio program, one websocket each, answering
every ``hello`` with ``ready`` and every ``act`` with a random legal action. Once all are
connected and a warm-up has passed, ``GET /api/metrics`` is read, the bots play for
``--seconds``, and it is read again. Printed per database, from the difference of the two
readings unless said otherwise:

* games, groups and decisions per unit of time;
* the server's own time per decision, p50 and p99 (its last 20,000 decisions, at the end);
* the server process's processor time per game and its share of one core (this process: the
  server, SQLite when used, and little else);
* the bots' process's share of one core, and the machine's busy share of all its cores;
* the wait a bot sees from sending an action to the next question of the same game (the other
  seats' turns included), p50 and p99;
* the database's growth per finished group, errors the bots were sent, and the server's log
  lines of level WARNING or above.

    python benchmarks/server_load.py [--bots 200] [--seconds 60] [--db sqlite|postgresql]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import queue
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:] = [str(ROOT), *(entry for entry in sys.path if Path(entry or ".").resolve() != HERE)]

import httpx  # noqa: E402
import sqlalchemy  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from tests.postgres import PostgresServer, PostgresUnavailable, start_postgres  # noqa: E402
from tournament.server.app import Settings, web_server  # noqa: E402
from tournament.server.store import Store  # noqa: E402

DATABASES = ("sqlite", "postgresql")
PAIRING = 0.2
CHILD_SECONDS = 120.0
"""Seconds the bots' process may take to connect, or to stop and report."""


class Kept(logging.Handler):
    """The log records of level WARNING or above, kept to be reported."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def lines(self) -> list[str]:
        shown = []
        for record in self.records:
            line = f"{record.levelname} {record.name}: {record.getMessage()}"
            if record.exc_info and record.exc_info[1] is not None:
                error = record.exc_info[1]
                line += f" ({type(error).__name__}: {error})"
            shown.append(line)
        return shown


class Server:
    """The server in a thread of this process, on a free port of 127.0.0.1."""

    def __init__(self, settings: Settings, kept: Kept) -> None:
        self.listening = socket.socket()
        self.listening.bind(("127.0.0.1", 0))
        self.port: int = self.listening.getsockname()[1]
        self.server = web_server(settings)
        logging.getLogger("uvicorn.error").setLevel(logging.WARNING)
        logging.getLogger("uvicorn.access").setLevel(logging.WARNING)
        for name in ("uvicorn", ""):
            logging.getLogger(name).addHandler(kept)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.listening]}, daemon=True
        )
        self.thread.start()
        deadline = time.monotonic() + 60
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.01)

    def metrics(self) -> dict[str, Any]:
        reply = httpx.get(f"http://127.0.0.1:{self.port}/api/metrics", timeout=30)
        return dict(reply.json())

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(60)
        self.listening.close()


class Child:
    """A child process of simulated clients, told what to do on its standard input (first
    ``first``), answering on its output."""

    def __init__(self, command: list[str], first: str) -> None:
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=HERE
        )
        self.lines: queue.Queue[str] = queue.Queue()
        assert self.process.stdout is not None
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True).start()
        self.tell(first)

    def _read(self, stream: TextIO) -> None:
        for line in stream:
            self.lines.put(line)
        self.lines.put("")

    def tell(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def answer(self) -> dict[str, Any]:
        line = self.lines.get(timeout=CHILD_SECONDS)
        if not line:
            raise RuntimeError(f"the bots' process ended (exit status {self.process.wait()})")
        return dict(json.loads(line))

    def stop(self) -> None:
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        try:
            self.process.wait(CHILD_SECONDS)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class Bots(Child):
    """The bots' process: one websocket per token."""

    def __init__(self, port: int, tokens: list[str]) -> None:
        command = [sys.executable, str(Path(__file__).resolve()), "--_bots", str(port)]
        super().__init__(command, json.dumps(tokens))


def busy_ticks() -> tuple[int, int]:
    """The machine's processor ticks so far: busy, and in all."""
    fields = [int(field) for field in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


def database_bytes(url: str) -> int:
    if url.startswith("sqlite"):
        return Path(url.removeprefix("sqlite:///")).stat().st_size
    engine = sqlalchemy.create_engine(url)
    try:
        with engine.connect() as connection:
            query = sqlalchemy.text("SELECT pg_database_size(current_database())")
            return int(connection.execute(query).scalar_one())
    finally:
        engine.dispose()


def finished_groups(url: str) -> int:
    engine = sqlalchemy.create_engine(url)
    try:
        with engine.connect() as connection:
            query = sqlalchemy.text("SELECT count(*) FROM groups WHERE status = 'finished'")
            return int(connection.execute(query).scalar_one())
    finally:
        engine.dispose()


def measure(url: str, bots: int, seconds: float, warmup: float) -> dict[str, Any]:
    """Load the server on the database at ``url``: the figures."""
    store = Store(url, make=True)
    try:
        tokens = []
        for number in range(bots):
            name = f"load{number}"
            tokens.append(store.add_bot(name))
            store.mark_checked(name)
    finally:
        store.close()
    size = database_bytes(url)
    kept = Kept()
    server = Server(Settings(database=url, pairing=PAIRING), kept)
    players: Bots | None = None
    try:
        players = Bots(server.port, tokens)
        connected = players.answer()
        time.sleep(warmup)
        players.tell("start")
        ticks = busy_ticks()
        began = time.perf_counter()
        first = server.metrics()
        time.sleep(seconds)
        last = server.metrics()
        spent = time.perf_counter() - began
        busy, total = (now - then for now, then in zip(busy_ticks(), ticks, strict=True))
        players.tell("stop")
        seen = players.answer()
    finally:
        if players is not None:
            players.stop()
        server.stop()
        for name in ("uvicorn", ""):
            logging.getLogger(name).removeHandler(kept)
    games = last["games"] - first["games"]
    processor = last["processor_seconds"] - first["processor_seconds"]
    groups = finished_groups(url)
    return {
        "connected": connected,
        "seconds": spent,
        "games": games,
        "groups": last["groups"] - first["groups"],
        "decisions": last["decisions"] - first["decisions"],
        "own": last["own_ms_per_decision"],
        "processor": processor,
        "processor_per_game": processor / games * 1000 if games else None,
        "machine": busy / total if total else None,
        "bots": seen,
        "bytes_per_group": (database_bytes(url) - size) / groups if groups else None,
        "log": kept.lines(),
    }


def report(results: dict[str, dict[str, Any]], bots: int) -> None:
    def figure(value: float | None, form: str) -> str:
        return "-" if value is None else format(value, form)

    rows: list[tuple[str, list[str]]] = []

    def row(label: str, pick: Any) -> None:
        rows.append((label, [pick(result) for result in results.values()]))

    row("bots connected", lambda r: f"{r['connected']['connected']}/{bots}")
    row("seconds measured", lambda r: f"{r['seconds']:.1f}")
    row("games/min", lambda r: f"{r['games'] / r['seconds'] * 60:,.0f}")
    row("groups/min", lambda r: f"{r['groups'] / r['seconds'] * 60:,.0f}")
    row("decisions/s", lambda r: f"{r['decisions'] / r['seconds']:,.0f}")
    row("own ms/decision p50", lambda r: figure(r["own"]["p50"], ".3f"))
    row("own ms/decision p99", lambda r: figure(r["own"]["p99"], ".3f"))
    row("processor ms/game", lambda r: figure(r["processor_per_game"], ".1f"))
    row("server CPU, % of a core", lambda r: f"{r['processor'] / r['seconds'] * 100:.0f}")
    row("bots CPU, % of a core", lambda r: f"{r['bots']['processor'] / r['seconds'] * 100:.0f}")
    row("machine busy, % of all", lambda r: figure(r["machine"] and r["machine"] * 100, ".0f"))
    row("bot wait ms p50", lambda r: figure(r["bots"]["wait_ms"]["p50"], ".1f"))
    row("bot wait ms p99", lambda r: figure(r["bots"]["wait_ms"]["p99"], ".1f"))
    row(
        "database KB/group",
        lambda r: figure(r["bytes_per_group"] and r["bytes_per_group"] / 1e3, ".1f"),
    )
    row("errors sent to bots", lambda r: str(r["bots"]["errors"]))
    row("connections lost", lambda r: str(r["bots"]["lost"] + r["connected"]["failed"]))
    row("server log warnings", lambda r: str(len(r["log"])))
    width = max(len(label) for label, _ in rows)
    print(f"{'':<{width}}" + "".join(f" {name:>12}" for name in results))
    for label, values in rows:
        print(f"{label:<{width}}" + "".join(f" {value:>12}" for value in values))
    for name, result in results.items():
        messages = result["bots"]["messages"] + result["connected"]["messages"]
        for line in [*result["log"], *messages][:10]:
            print(f"{name}: {line}", file=sys.stderr)


@contextlib.contextmanager
def database(kind: str, folder: Path) -> Iterator[str | None]:
    """The URL of a new database of ``kind``, ``None`` when there can be none."""
    if kind == "sqlite":
        yield f"sqlite:///{folder / 'server.db'}"
        return
    postgres: PostgresServer | None = None
    try:
        postgres = start_postgres(folder, durable=True)
    except PostgresUnavailable as problem:
        print(f"postgresql skipped: {problem.reason}")
        yield None
        return
    try:
        yield postgres.new_database("load")
    finally:
        postgres.stop()


def percentiles(values: list[float]) -> dict[str, float | None]:
    ordered = sorted(values)
    if not ordered:
        return {"p50": None, "p99": None}
    return {
        name: round(ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] * 1000, 2)
        for name, fraction in (("p50", 0.5), ("p99", 0.99))
    }


class Tally:
    """What the simulated bots saw."""

    def __init__(self) -> None:
        self.waits: list[float] = []
        self.measuring = False
        self.errors = 0
        self.lost = 0
        self.messages: list[str] = []

    def note(self, message: str) -> None:
        if len(self.messages) < 10:
            self.messages.append(message)


async def bot(url: str, token: str, tally: Tally, logged_in: asyncio.Future[bool]) -> None:
    """One bot: log in, then answer until cancelled."""
    rng = random.Random()
    clock = time.perf_counter
    async with connect(url, open_timeout=60, max_size=2**24) as connection:
        await connection.send(json.dumps({"type": "login", "token": token}))
        welcome = json.loads(await connection.recv())
        if welcome.get("type") != "welcome":
            raise RuntimeError(f"refused: {welcome}")
        logged_in.set_result(True)
        sent = 0.0
        async for text in connection:
            message = json.loads(text)
            kind = message.get("type")
            if kind == "act":
                if sent and tally.measuring:
                    tally.waits.append(clock() - sent)
                action = rng.choice(message["observation"]["legal_actions"])
                answer = {"type": "action", "game_id": message["game_id"], "action": action}
                await connection.send(json.dumps(answer))
                sent = clock()
            elif kind == "hello":
                await connection.send(json.dumps({"type": "ready", "game_id": message["game_id"]}))
                sent = 0.0
            elif kind == "end":
                sent = 0.0
            elif kind == "error":
                tally.errors += 1
                tally.note(f"error sent to a bot: {message.get('message')}")


async def playing(url: str, token: str, tally: Tally, logged_in: asyncio.Future[bool]) -> None:
    try:
        await bot(url, token, tally, logged_in)
    except asyncio.CancelledError:
        raise
    except Exception as error:
        if not logged_in.done():
            logged_in.set_exception(error)
            return
        tally.lost += 1
        tally.note(f"a bot's connection ended: {type(error).__name__}: {error}")
    else:
        tally.lost += 1
        tally.note("a bot's connection was closed by the server")


async def play_bots(port: int) -> None:
    """The bots' process: tokens on the first line of input, then ``start`` and ``stop``."""
    loop = asyncio.get_running_loop()

    async def line() -> str:
        return str(await loop.run_in_executor(None, sys.stdin.readline)).strip()

    def say(figures: dict[str, Any]) -> None:
        print(json.dumps(figures), flush=True)

    tokens = json.loads(await line())
    tally = Tally()
    url = f"ws://127.0.0.1:{port}/bot"
    logins = [loop.create_future() for _ in tokens]
    tasks = [
        asyncio.create_task(playing(url, token, tally, logged_in))
        for token, logged_in in zip(tokens, logins, strict=True)
    ]
    done = await asyncio.gather(*logins, return_exceptions=True)
    failures = [result for result in done if isinstance(result, BaseException)]
    messages = [f"a bot could not log in: {type(error).__name__}: {error}" for error in failures]
    say({"connected": len(done) - len(failures), "failed": len(failures), "messages": messages[:5]})
    await line()
    tally.measuring = True
    began = time.process_time()
    await line()
    tally.measuring = False
    processor = time.process_time() - began
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    say(
        {
            "processor": processor,
            "wait_ms": percentiles(tally.waits),
            "errors": tally.errors,
            "lost": tally.lost,
            "messages": tally.messages,
        }
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=200, help="bots connected at once")
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds measured")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    parser.add_argument("--db", choices=DATABASES, action="append", help="databases to load")
    parser.add_argument("--_bots", type=int, metavar="PORT", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options._bots is not None:
        asyncio.run(play_bots(options._bots))
        return
    results: dict[str, dict[str, Any]] = {}
    for kind in options.db or DATABASES:
        with tempfile.TemporaryDirectory() as folder, database(kind, Path(folder)) as url:
            if url is not None:
                print(f"{kind}: {options.bots} bots, {options.seconds:g} s", file=sys.stderr)
                results[kind] = measure(url, options.bots, options.seconds, options.warmup)
    if results:
        report(results, options.bots)


if __name__ == "__main__":
    main()
