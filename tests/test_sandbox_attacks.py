"""Hostile bots against the sandbox, through the real ``thousand`` program: a Python bot, a
program in Python and a program in shell each try to read the tournament's memory, its folder,
the user's home, to carry a deal from one seating to the next, to reach the network, to kill or
write into the other seats, and to leave processes behind. Each attack says on the bot's error
output that it looked; none may find anything.

They need Linux with user, PID, mount, IPC and network namespaces (see tests/test_sandbox.py)."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

from tests.test_cli import installed_command
from tests.test_sandbox import needs_namespaces, processes_running

ATTACKS = Path(__file__).with_name("attacks")

pytestmark = [needs_namespaces, pytest.mark.slow]


@attrs.frozen
class Arena:
    """A folder where a user keeps bots and runs tournaments, a home with a secret, a service
    listening on the machine, and the marker of processes a bot leaves behind."""

    work: Path
    home: Path
    port: int
    marker: str

    def run(self, *arguments: str) -> str:
        """Run ``thousand`` in the work folder; its output, which must say the run ended."""
        ran = subprocess.run(
            [*installed_command(), *arguments],
            cwd=self.work,
            env={**os.environ, "HOME": str(self.home)},
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert ran.returncode == 0, ran.stdout + ran.stderr
        return ran.stdout

    def tournament(self, hostile: str, out: str) -> Path:
        """A tournament of the hostile bot against two honest bots, kept in ``out``."""
        self.run(
            "tournament", hostile, "hostile_bot.py:Steady", "hostile_bot.py:Careful",
            "--deals", "1", "--seed", "11", "--workers", "2", "--out", out, "--no-report",
        )  # fmt: skip
        return self.work / out

    def options(self, out: str) -> tuple[str, str, str, str]:
        return str(self.work / out), str(self.home), str(self.port), self.marker


@pytest.fixture
def arena(tmp_path: Path) -> Iterator[Arena]:
    work, home = tmp_path / "work", tmp_path / "home"
    work.mkdir()
    home.mkdir()
    (home / "secret.txt").write_text("the password")
    for name in ("looking.py", "hostile_bot.py", "hostile_program.py", "hostile_bot.sh"):
        shutil.copy(ATTACKS / name, work / name)
    server = socket.create_server(("127.0.0.1", 0))
    marker = f"{700 + os.getpid() % 100}.{time.time_ns() % 100000}"
    try:
        yield Arena(work, home, server.getsockname()[1], marker)
    finally:
        server.close()
        for pid in processes_running(f"sleep\0{marker}"):
            os.kill(pid, 9)


def attack_lines(out: Path) -> list[str]:
    """What the bots said about their attacks, over all their logs."""
    lines = []
    for log in sorted((out / "logs").glob("*.log")):
        lines += [
            line for line in log.read_text().splitlines() if line.startswith(("looked:", "found:"))
        ]
    return lines


def units(out: Path) -> list[dict[str, object]]:
    """The journal's units, without the time the bots took to think and the journal's own
    check (which covers the configuration, and so the bots' names)."""
    found = []
    for line in (out / "journal.jsonl").read_text().splitlines():
        fields = json.loads(line)
        if "unit" in fields:
            fields.pop("think_time", None)
            fields.pop("check", None)
            found.append(fields)
    return sorted(found, key=lambda fields: str(fields["unit"]))


def assert_looked_and_found_nothing(out: Path, attacks: set[str]) -> None:
    said = attack_lines(out)
    assert {line.removeprefix("looked: ") for line in said if line.startswith("looked:")} >= attacks
    assert [line for line in said if line.startswith("found:")] == []


def assert_nothing_left_behind(arena: Arena) -> None:
    assert processes_running(f"sleep\0{arena.marker}") == []


def test_a_hostile_python_bot_learns_nothing_and_harms_no_one(arena: Arena) -> None:
    """The sandboxed Python bot reads no memory, command line, configuration, journal or home
    file, carries no deal to the next seating, reaches no network, writes nowhere, and kills no
    one: the other seats' units equal those of a run where it only plays; nothing it started is
    left once the tournament ends."""
    out, home, port, marker = arena.options("out")
    hostile = f"hostile_bot.py:Hostile(out={out}, home={home}, port={port}, marker={marker})"
    attacked = arena.tournament(hostile, "out")
    assert_looked_and_found_nothing(
        attacked,
        {"memory", "command lines", "config", "journal", "home", "own folder", "network",
         "carried deal", "sabotage", "leave behind"},
    )  # fmt: skip
    assert not (arena.work / "hostile_bot.py.written").exists()
    assert_nothing_left_behind(arena)
    peaceful = arena.tournament("hostile_bot.py:Plain", "peaceful")
    assert units(attacked) == units(peaceful)
    assert all(not any(counts[1:]) for unit in units(attacked) for counts in unit["faults"])  # type: ignore[attr-defined]


def test_a_hostile_program_in_python_learns_nothing_and_harms_no_one(arena: Arena) -> None:
    program = shlex.join([sys.executable, "hostile_program.py", *arena.options("out")])
    attacked = arena.tournament(f"cmd:{program}", "out")
    assert_looked_and_found_nothing(
        attacked, {"memory", "command lines", "config", "home", "own folder", "network",
                   "sabotage", "leave behind"},
    )  # fmt: skip
    assert not (arena.work / "hostile_program.py.written").exists()
    assert_nothing_left_behind(arena)


def test_a_hostile_program_in_shell_learns_nothing_and_harms_no_one(arena: Arena) -> None:
    program = shlex.join(["sh", "hostile_bot.sh", *arena.options("out")])
    attacked = arena.tournament(f"cmd:{program}", "out")
    assert_looked_and_found_nothing(
        attacked, {"config", "home", "sabotage", "network", "leave behind"}
    )
    assert_nothing_left_behind(arena)
