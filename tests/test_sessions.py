"""Sessions: a program that says so plays several matches in one process, kept between matches
by the driver, but never the same cards twice, never two seats at once, never after a fault;
one-match programs are stopped after each match as before; no process outlives the driver."""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import thousand
from tests.test_external import LINUX, ROOT, RUSSIAN, alive, poll, survivors
from tests.test_sandbox import needs_namespaces
from thousand import Status
from thousand.table.sessions import stop_sessions

BOTS = ROOT / "tests" / "bots"
COUNTED = f"{BOTS / 'session_bots.py'}:Counted"
SERVED = "cmd:" + shlex.join([sys.executable, "-m", "thousand.serve", COUNTED])
ONE_MATCH = "cmd:" + shlex.join([sys.executable, str(BOTS / "one_match_bot.py")])
WAYS = [
    pytest.param((SERVED, "none"), id="served"),
    pytest.param((COUNTED, "process"), id="isolated"),
]
SANDBOXED = [*WAYS, pytest.param((COUNTED, "sandbox"), id="sandboxed", marks=needs_namespaces)]
"""The ways, with the sandbox, for the tests that tell processes apart by what they print."""


@pytest.fixture(autouse=True)
def fresh_sessions() -> Any:
    """Each test starts and ends with no kept process."""
    stop_sessions()
    yield
    stop_sessions()


def deal(spec: str, isolate: str | bool, seed: int, logs: Path, **options: Any) -> thousand.Outcome:
    """One Russian deal with ``spec`` in seat 0 (and wherever ``options`` put it)."""
    players = options.pop("players", [spec, "random", "random"])
    return thousand.play(
        players, RUSSIAN, seed=seed, single_deal=True, isolate=isolate, log_dir=str(logs),
        **options,
    )  # fmt: skip


def starts(logs: Path, pattern: str = "*.log") -> list[tuple[int, int, int]]:
    """Each start the counted bot noted in its logs (those ``pattern`` names): its pid, its
    process's count of matches and its player's."""
    text = "".join(path.read_text() for path in sorted(logs.glob(pattern)))
    found = re.findall(r"counted pid (\d+) match (\d+) player (\d+)", text)
    return [(int(pid), int(match), int(player)) for pid, match, player in found]


@pytest.mark.parametrize("way", WAYS)
def test_a_session_plays_match_after_match_with_a_fresh_player(
    tmp_path: Path, way: tuple[str, str]
) -> None:
    """Matches of other cards are played by the same process, each by a fresh player; what the
    process writes after a match goes to that match's log."""
    spec, isolate = way
    for seed in range(3):
        assert deal(spec, isolate, seed, tmp_path).statuses == (Status.OK,) * 3
    (pid, _, _), *_ = started = starts(tmp_path)
    assert started == [(pid, 1, 1), (pid, 2, 1), (pid, 3, 1)]
    stop_sessions()
    assert survivors([pid]) == []
    text = "".join(path.read_text() for path in tmp_path.glob("*.log"))
    assert text.count("counted ended") == 3


@pytest.mark.parametrize("way", SANDBOXED)
def test_the_same_cards_are_never_played_twice_by_a_process(
    tmp_path: Path, way: tuple[str, str]
) -> None:
    """The same seed twice in a row gets two processes; a third match of other cards goes to
    one of them."""
    spec, isolate = way
    for seed in (5, 5, 6):
        deal(spec, isolate, seed, tmp_path)
    first, second, third = starts(tmp_path)
    assert first[0] != second[0]
    assert (first[1], second[1]) == (1, 1)
    assert third[0] in (first[0], second[0])
    assert third[1] == 2


@pytest.mark.parametrize("way", SANDBOXED)
def test_two_seats_of_a_match_have_two_processes(tmp_path: Path, way: tuple[str, str]) -> None:
    """A bot in two seats of a match plays each from a process of its own, and both are kept."""
    spec, isolate = way
    deal(spec, isolate, 1, tmp_path, players=[spec, "random", spec])
    deal(spec, isolate, 2, tmp_path, players=[spec, spec, "random"])
    (seat0, _, _), (again, _, _) = starts(tmp_path, "*seat0.log")
    ((seat1, _, _),) = starts(tmp_path, "*seat1.log")
    ((seat2, _, _),) = starts(tmp_path, "*seat2.log")
    assert seat0 != seat2
    assert again != seat1
    assert {again, seat1} == {seat0, seat2}


@pytest.mark.parametrize("way", WAYS)
def test_a_process_that_timed_out_is_not_kept(tmp_path: Path, way: tuple[str, str]) -> None:
    """A process stopped for a timeout is not given the next match: another process is, and
    kept for the match after."""
    spec, isolate = way
    slow = spec.replace(":Counted", ":Counted(seconds=1)")
    first = deal(slow, isolate, 1, tmp_path, time_limit=0.2, on_fault="substitute")
    assert first.statuses[0] is Status.TIMEOUT
    deal(slow, isolate, 2, tmp_path, time_limit=5)
    deal(slow, isolate, 3, tmp_path, time_limit=5)
    (pid, _, _), (again, match, _), (kept, _, _) = starts(tmp_path)
    assert again != pid
    assert match == 1
    assert kept == again
    assert survivors([pid]) == []


def test_the_end_message_holds_no_seed(tmp_path: Path) -> None:
    """A bot's end is told the outcome without the match's seed: a served Python bot reads seed
    0 and no result."""
    outcome = deal(SERVED, False, 123456789, tmp_path)
    assert outcome.record.seed == 123456789
    stop_sessions()
    text = "".join(path.read_text() for path in tmp_path.glob("*.log"))
    assert "counted ended seed 0 result None" in text
    assert "123456789" not in text


def test_a_one_match_program_plays_one_match_per_process(tmp_path: Path) -> None:
    """A program that does not play sessions (written for version 1) plays match after match,
    a process each, every one stopped at the end of its match."""
    for seed in range(3):
        assert deal(ONE_MATCH, False, seed, tmp_path).statuses == (Status.OK,) * 3
    text = "".join(path.read_text() for path in tmp_path.glob("*.log"))
    pids = [int(pid) for pid in re.findall(r"one-match pid (\d+)", text)]
    assert len(set(pids)) == 3
    assert survivors(pids, within=5) == []


def test_a_forked_driver_does_not_use_its_parents_processes(tmp_path: Path) -> None:
    """A forked copy of the driver (a worker) starts processes of its own, and leaves its
    parent's running."""
    deal(SERVED, False, 1, tmp_path)
    ((parent_pid, _, _),) = starts(tmp_path)
    child = os.fork()
    if child == 0:
        code = 1
        try:
            deal(SERVED, False, 2, tmp_path)
            stop_sessions()
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    (_, (child_pid, match, _)) = starts(tmp_path)
    assert child_pid != parent_pid
    assert match == 1
    assert alive(parent_pid)
    deal(SERVED, False, 3, tmp_path)
    assert starts(tmp_path)[-1][:2] == (parent_pid, 2)


DRIVER = """
import sys, time
import thousand

thousand.play([sys.argv[1], "random", "random"], thousand.Rules.preset("russian"), seed=1,
              single_deal=True, log_dir=sys.argv[2])
print("played", flush=True)
time.sleep(60)
"""


@pytest.mark.skipif(not LINUX, reason="PR_SET_PDEATHSIG is Linux only")
@pytest.mark.parametrize("way", WAYS)
def test_kept_processes_die_with_the_driver(tmp_path: Path, way: tuple[str, str]) -> None:
    """SIGKILL to a driver holding an idle process takes the process down with it."""
    spec, isolate = way
    script = tmp_path / "driver.py"
    script.write_text(DRIVER.replace("single_deal=True", f"single_deal=True, isolate={isolate!r}"))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    driver = subprocess.Popen(
        [sys.executable, str(script), spec, str(tmp_path)], stdout=subprocess.PIPE, env=env
    )
    try:
        assert driver.stdout is not None
        assert driver.stdout.readline() == b"played\n"
        ((pid, _, _),) = starts(tmp_path)
        assert alive(pid)
        driver.send_signal(signal.SIGKILL)
        driver.wait(15)
        poll(lambda: not alive(pid))
    finally:
        driver.kill()
        driver.wait()
