"""Casual tables under load: many tables of simulated people and bots, in the browser's place.

The server runs in this process (uvicorn in a thread, on a free port, every setting at its
default, the bots' pause included). A child process simulates the people: for each of
``--tables`` tables, two people make a Russian table through its lobby form (cookie and token
as a browser holds them), take two seats over the table's websocket and give the third to the
medium bot; each answers every view that offers it moves with the first of them, after a think
of ``--think`` seconds on average; when the game ends they make a new table. After a warm-up,
``GET /api/metrics`` is read, the people play for ``--seconds``, and it is read again. Printed,
from the difference of the two readings:

* the tables open, games finished and moves made per second;
* the server's own time per move (playing it and making every view of its table), p50 and p99;
* the server process's processor time per move and its share of one core;
* the server process's memory (resident) at the start and at the end of the measure, what each
  table cost it as the load began, and what it grew by per game finished;
* the errors the people were sent, and the server's log lines of level WARNING or above.

    python benchmarks/table_load.py [--tables 100] [--seconds 60] [--think 1.0]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import html
import json
import random
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from server_load import Child, Kept, Server, busy_ticks
from websockets.asyncio.client import connect

from tournament.server.app import Settings

TOKEN = re.compile(r"name=token value=([0-9a-f]+)")
MOVE = re.compile(r"data-action='([^']*)'")
VERSION = re.compile(r"data-version=(\d+)")


def resident_kilobytes() -> int:
    """This process's resident memory, in kilobytes (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Tally:
    def __init__(self) -> None:
        self.errors = 0
        self.lost = 0
        self.games = 0
        self.counting = False


async def person(
    port: int, seat: int, tables: asyncio.Queue[str], think: float, tally: Tally
) -> None:
    """One simulated person, at table after table: seat 0 makes each table (and gives seat 2
    to the bot) and passes its address on to seat 1 through ``tables``."""
    base = f"http://127.0.0.1:{port}"
    async with httpx.AsyncClient(base_url=base) as browser:
        lobby = await browser.get("/play")
        found = TOKEN.search(lobby.text)
        assert found is not None
        cookie = browser.cookies["thousand_person"]
        headers = {"Origin": base, "Cookie": f"thousand_person={cookie}"}
        while True:
            if seat == 0:
                made = await browser.post(
                    "/play", data={"token": found.group(1), "game": "russian"}
                )
                address = made.headers["location"]
                await tables.put(address)
            else:
                address = await tables.get()
            try:
                await play_table(f"ws://127.0.0.1:{port}{address}/ws", headers, seat, think, tally)
            except OSError:
                tally.lost += 1


async def play_table(
    address: str, headers: dict[str, str], seat: int, think: float, tally: Tally
) -> None:
    async with connect(address, additional_headers=headers, max_size=2**22) as socket:
        await socket.send(json.dumps({"type": "sit", "seat": seat, "name": f"person {seat}"}))
        if seat == 0:
            await socket.send(json.dumps({"type": "bot", "seat": 2, "level": "medium"}))
        async for text in socket:
            message = json.loads(text)
            if message["type"] == "error":
                if not message["message"].startswith(("that seat is taken", "the table has")):
                    tally.errors += tally.counting
                continue
            view = message["html"]
            if "data-status=over" in view:
                tally.games += tally.counting and seat == 0
                return
            move, version = MOVE.search(view), VERSION.search(view)
            if move is not None and version is not None:
                await asyncio.sleep(think * random.uniform(0.5, 1.5))
                action = html.unescape(move.group(1))
                answer = {"type": "act", "version": int(version.group(1)), "action": action}
                await socket.send(json.dumps(answer))


async def play_people(port: int, tables: int, think: float) -> None:
    """The people's process: play until told to stop on standard input; report on output."""
    tally = Tally()
    tasks = []
    for _ in range(tables):
        shared: asyncio.Queue[str] = asyncio.Queue()
        for seat in (0, 1):
            tasks.append(asyncio.ensure_future(person(port, seat, shared, think, tally)))
    loop = asyncio.get_running_loop()
    print(json.dumps({"connected": tables * 2, "failed": 0, "messages": []}), flush=True)
    await loop.run_in_executor(None, sys.stdin.readline)  # the first line, empty
    await loop.run_in_executor(None, sys.stdin.readline)  # start
    tally.counting = True
    began = time.process_time()
    await loop.run_in_executor(None, sys.stdin.readline)  # stop
    report = {
        "errors": tally.errors,
        "lost": tally.lost,
        "games": tally.games,
        "processor": time.process_time() - began,
    }
    print(json.dumps(report), flush=True)
    for task in tasks:
        task.cancel()
    with contextlib.suppress(BaseException):
        await asyncio.gather(*tasks, return_exceptions=True)


class People(Child):
    """The people's process."""

    def __init__(self, port: int, tables: int, think: float) -> None:
        flags = ["--_people", str(port), "--tables", str(tables), "--think", str(think)]
        super().__init__([sys.executable, str(Path(__file__).resolve()), *flags], "")


def measure(tables: int, seconds: float, warmup: float, think: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        kept = Kept()
        before = resident_kilobytes()
        server = Server(Settings(database=f"sqlite:///{folder}/server.db"), kept)
        people: People | None = None
        try:
            people = People(server.port, tables, think)
            people.answer()
            time.sleep(warmup)
            people.tell("start")
            ticks = busy_ticks()
            began = time.perf_counter()
            first = server.metrics()
            start_memory = resident_kilobytes()
            time.sleep(seconds)
            last = server.metrics()
            end_memory = resident_kilobytes()
            spent = time.perf_counter() - began
            busy, total = (now - then for now, then in zip(busy_ticks(), ticks, strict=True))
            people.tell("stop")
            seen = people.answer()
        finally:
            if people is not None:
                people.stop()
            server.stop()
    moves = last["tables"]["moves"] - first["tables"]["moves"]
    processor = last["processor_seconds"] - first["processor_seconds"]
    return {
        "seconds": spent,
        "open": last["tables"]["open"],
        "games": last["tables"]["games"] - first["tables"]["games"],
        "moves": moves,
        "own": last["tables"]["own_ms_per_move"],
        "processor": processor,
        "processor_per_move": processor / moves * 1000 if moves else None,
        "machine": busy / total if total else None,
        "memory": (before, start_memory, end_memory),
        "people": seen,
        "log": kept.lines(),
    }


def report(result: dict[str, Any], tables: int) -> None:
    before, start, end = result["memory"]
    rows = [
        ("tables played at once", f"{tables}"),
        ("tables open at the end", f"{result['open']}"),
        ("seconds measured", f"{result['seconds']:.1f}"),
        ("games finished", f"{result['games']}"),
        ("moves/s", f"{result['moves'] / result['seconds']:,.1f}"),
        ("own ms/move p50", f"{result['own']['p50']}"),
        ("own ms/move p99", f"{result['own']['p99']}"),
        ("processor ms/move", f"{result['processor_per_move'] or 0:.2f}"),
        ("server CPU, % of a core", f"{result['processor'] / result['seconds'] * 100:.0f}"),
        ("machine busy, % of all", f"{(result['machine'] or 0) * 100:.0f}"),
        ("server memory MB, start", f"{start / 1024:.0f}"),
        ("server memory MB, end", f"{end / 1024:.0f}"),
        ("memory KB per table (at start)", f"{(start - before) / max(1, tables):.0f}"),
        ("memory KB per game finished", f"{(end - start) / max(1, result['games']):.1f}"),
        ("errors sent to people", f"{result['people']['errors']}"),
        ("connections lost", f"{result['people']['lost']}"),
        ("server log warnings", f"{len(result['log'])}"),
    ]
    width = max(len(label) for label, _ in rows)
    for label, value in rows:
        print(f"{label:<{width}} {value:>10}")
    for line in result["log"][:10]:
        print(line, file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100, help="tables played at once")
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds measured")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds before measuring")
    parser.add_argument("--think", type=float, default=1.0, help="a person's mean think, s")
    parser.add_argument("--_people", type=int, metavar="PORT", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options._people is not None:
        asyncio.run(play_people(options._people, options.tables, options.think))
        return
    print(f"{options.tables} tables, {options.seconds:g} s", file=sys.stderr)
    report(measure(options.tables, options.seconds, options.warmup, options.think), options.tables)


if __name__ == "__main__":
    main()
