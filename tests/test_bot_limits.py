"""External bots cannot exhaust the machine: nothing they start outlives their match, and their
memory, message lines and error logs are capped."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import thousand
from tests.test_external import LINUX, RUSSIAN, hostile, marked_processes
from thousand import BotLimits, Status

KIB = 1 << 10
MIB = 1 << 20
PR_GET_CHILD_SUBREAPER = 37


def deal_against_random(
    tmp_path: Path, spec: str, limits: BotLimits, **options: Any
) -> thousand.Outcome:
    """One Russian deal of the bot ``spec`` in seat 0 against two ``random``, under ``limits``,
    its log kept in ``tmp_path``."""
    return thousand.play(
        [spec, "random", "random"],
        RUSSIAN,
        seed=3,
        single_deal=True,
        log_dir=str(tmp_path),
        limits=limits,
        **options,
    )


def children(pid: int) -> list[tuple[int, str]]:
    """The processes whose parent is ``pid``, with their states (``Z``: waiting to be reaped)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except (OSError, ValueError):
            continue
        if entry.name.isdigit() and int(fields[1]) == pid:
            found.append((int(entry.name), fields[0]))
    return found


def zombie_children() -> list[int]:
    """Children of this process that exited and were never reaped."""
    return [child for child, state in children(os.getpid()) if state == "Z"]


@pytest.mark.skipif(not LINUX, reason="adopting orphaned processes is Linux only")
def test_a_bot_leaves_no_process_behind(tmp_path: Path) -> None:
    """A bot that leaves a process in a session of its own (double fork, setsid) each match:
    once each match is over, no such process is running and none waits to be reaped."""
    bot = hostile(tmp_path, "daemon")
    for seed in (1, 2, 3):
        outcome = thousand.play(
            [bot.spec, "random", "random"],
            RUSSIAN,
            seed=seed,
            single_deal=True,
            log_dir=str(tmp_path),
        )
        assert outcome.faults == ()
        assert len(bot.pid_list("child")) == seed
        assert marked_processes(bot.marker) == []
        assert zombie_children() == []


def is_child_subreaper() -> bool:
    """Whether this process inherits the processes its descendants orphan (Linux)."""
    flag = ctypes.c_int()
    assert ctypes.CDLL(None).prctl(PR_GET_CHILD_SUBREAPER, ctypes.byref(flag)) == 0
    return flag.value != 0


@pytest.mark.skipif(not LINUX, reason="adopting orphaned processes is Linux only")
def test_a_match_leaves_the_calling_process_alone(tmp_path: Path) -> None:
    """Stopping what a bot left behind changes nothing about the program that plays the match:
    it does not become the inheritor of orphaned processes, and a process it starts in a
    session of its own while the match runs (as another of its threads might) survives."""
    own: list[subprocess.Popen[bytes]] = []
    shown: list[Any] = []

    def watch(state: Any) -> None:
        # The first state is shown before the bots start, the second after the first action.
        shown.append(state)
        if len(shown) == 2:
            command = [sys.executable, "-c", "import time; time.sleep(60)"]
            own.append(subprocess.Popen(command, start_new_session=True))

    bot = hostile(tmp_path, "daemon")
    try:
        outcome = thousand.play(
            [bot.spec, "random", "random"],
            RUSSIAN,
            seed=1,
            single_deal=True,
            log_dir=str(tmp_path),
            watch=watch,
        )
        assert outcome.faults == ()
        assert marked_processes(bot.marker) == []
        assert own[0].poll() is None
        assert not is_child_subreaper()
    finally:
        for process in own:
            process.kill()
            process.wait()


def test_an_overlong_line_is_illegal(tmp_path: Path) -> None:
    """An answer longer than the line cap is illegal, even when it holds a legal action; the
    rest of it is skipped and the bot is asked again at its next turn."""
    bot = hostile(tmp_path, "long-line", after=1)
    outcome = deal_against_random(tmp_path, bot.spec, BotLimits(line=MIB), on_fault="substitute")
    (fault,) = outcome.faults
    assert fault.status is Status.ILLEGAL
    assert f"a line of more than {MIB} bytes" in fault.detail
    assert outcome.substitutions[0] == 1


@pytest.mark.skipif(not LINUX, reason="address space limits are enforced on Linux")
def test_memory_is_capped(tmp_path: Path) -> None:
    """A bot that allocates more than its memory cap fails there, with an error."""
    bot = hostile(tmp_path, "memory", after=1)
    outcome = deal_against_random(
        tmp_path, bot.spec, BotLimits(memory=256 * MIB), on_fault="substitute"
    )
    (fault,) = outcome.faults
    assert fault.status is Status.ERROR
    assert "exit code 1" in fault.detail
    (log,) = tmp_path.glob("*.log")
    assert "MemoryError" in log.read_text()


def test_the_error_log_is_capped(tmp_path: Path) -> None:
    """Of a bot's flood of error output the log keeps the first bytes, up to the cap (its
    header counted), and says that the rest was cut; the bot plays on unhindered."""
    bot = hostile(tmp_path, "chatty")
    outcome = deal_against_random(tmp_path, bot.spec, BotLimits(log=64 * KIB), time_limit=30)
    assert outcome.faults == ()
    (log,) = tmp_path.glob("*.log")
    text = log.read_text()
    assert text.partition("\n")[0].endswith("seat 0 of a thousand match")
    kept, _, note = text.rpartition("\n--- cut:")
    assert len(kept) == 64 * KIB
    assert note == f" over {64 * KIB} bytes in this folder's logs of {bot.spec}; {DROPPED}"


DROPPED = "the rest of its output is dropped\n"


def test_a_log_cap_reached_exactly_still_says_the_rest_was_cut(tmp_path: Path) -> None:
    """Output that reaches the log cap exactly and goes on is still followed by the line saying
    it was cut (here the cap is the header's length, so the log keeps it and that line)."""
    bot = hostile(tmp_path, "chatty")
    header = f"--- {bot.spec}: seat 0 of a thousand match\n"
    limits = BotLimits(log=len(header.encode()))
    outcome = deal_against_random(tmp_path, bot.spec, limits, time_limit=30)
    assert outcome.faults == ()
    (log,) = tmp_path.glob("*.log")
    cut = f"\n--- cut: over {limits.log} bytes in this folder's logs of {bot.spec}; {DROPPED}"
    assert log.read_text() == header + cut
