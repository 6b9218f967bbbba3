"""The attacks themselves, in the standard library only, shared by the hostile Python bot and the
hostile program. Each writes ``looked: <attack>`` and, when it learnt or did anything,
``found: <attack> ...`` to standard error."""

from __future__ import annotations

import ctypes
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

CLONE_PARENT = 0x8000
CLONE_SYSCALL = {"x86_64": 56, "aarch64": 220}


def say(line: str) -> None:
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def others() -> list[int]:
    """The processes this one can see, but for itself and its own children."""
    own = os.getpid()
    seen = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != own:
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rpartition(")")[2].split()[1]) != own:
                seen.append(int(entry))
    return seen


def read_memory() -> None:
    """Read the memory of every other process it can see (the tournament's worker holds the
    deal's seed)."""
    say("looked: memory")
    for pid in others():
        try:
            maps = Path(f"/proc/{pid}/maps").read_text().splitlines()
            with open(f"/proc/{pid}/mem", "rb") as memory:
                for line in maps:
                    start, end = (int(part, 16) for part in line.split()[0].split("-"))
                    if "r" in line.split()[1]:
                        memory.seek(start)
                        if memory.read(min(end - start, 4096)):
                            say(f"found: memory of process {pid}")
                            break
        except (OSError, ValueError, OverflowError):
            continue


def read_command_lines() -> None:
    """Look for the tournament's folder in the other processes' command lines and folders."""
    say("looked: command lines")
    for pid in others():
        try:
            line = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if "--out" in line or "tournament" in line:
            say(f"found: command line {line[:80]}")
        try:
            folder = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            continue
        if Path(folder, "config.json").exists() or Path(folder, "out", "config.json").exists():
            say(f"found: folder {folder}")


def read_file(name: str, path: str) -> None:
    """Read a file it was not given (the tournament's configuration, a file in the home)."""
    say(f"looked: {name}")
    try:
        text = Path(path).read_text()
    except OSError:
        return
    say(f"found: {name} {text[:40]!r}")


def write_file(name: str, path: str) -> None:
    """Write where it was not given room (its own folder)."""
    say(f"looked: {name}")
    try:
        Path(path).write_text("sabotage")
    except OSError:
        return
    say(f"found: {name} written")


def connect(port: int) -> None:
    """Open a connection to a service of the machine's."""
    say("looked: network")
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    except OSError:
        return
    say("found: network")


def sabotage(work: str) -> None:
    """Kill every other process of the tournament it can see (those whose command line names
    the folder ``work`` the tournament runs in: its workers and the other seats' bots), after
    writing into its input. Processes of anything else are spared, should the test run
    without a sandbox."""
    say("looked: sabotage")
    for pid in others():
        try:
            if work.encode() not in Path(f"/proc/{pid}/cmdline").read_bytes():
                continue
        except OSError:
            continue
        try:
            with open(f"/proc/{pid}/fd/0", "w") as input_:
                input_.write('{"type": "end"}\n')
            say(f"found: wrote into process {pid}")
        except OSError:
            pass
        try:
            os.kill(pid, signal.SIGKILL)
            say(f"found: killed process {pid}")
        except OSError:
            pass


def leave_behind(marker: str) -> None:
    """Start processes meant to outlive the match, each ``sleep MARKER``: a double fork with
    ``setsid``, and a sibling made with ``clone(CLONE_PARENT)``."""
    say("looked: leave behind")
    subprocess.Popen(
        ["sh", "-c", f"(sleep {marker} &) &"],
        start_new_session=True,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
    ).wait()
    number = CLONE_SYSCALL.get(os.uname().machine)
    if number is None:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    child = libc.syscall(number, CLONE_PARENT | signal.SIGCHLD, 0, 0, 0, 0)
    if child == 0:
        os.execvp("sleep", ["sleep", marker])
