"""Isolated bots: `thousand tournament` runs every bot that is not built in out of its own
process, each match in a fresh one forked from a loader that imported the bot once; its time
limits hold from outside, in ``start`` and ``end`` too; nothing it does reaches the driver or
other games, and nothing it starts is left running."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import thousand
from tests.test_bot_limits import children
from tests.test_cli import run_installed
from tests.test_external import LINUX, RUSSIAN, hostile, marked_processes, poll
from thousand import BotLimits, Status
from thousand.table.isolation import stop_loaders
from thousand.table.sessions import stop_sessions
from thousand.table.tracebacks import RemoteTraceback

CHEATS = Path(__file__).parent / "bots" / "cheating_bots.py"
PYTHON_BOTS = Path(__file__).parent / "bots" / "python_bots.py"


def deal(specs: list[str], **options: Any) -> thousand.Outcome:
    """One Russian deal among ``specs``, seed 3, the bots that are not built in isolated."""
    return thousand.play(specs, RUSSIAN, seed=3, single_deal=True, isolate="process", **options)


def tournament(*arguments: str) -> dict[str, Any]:
    """The JSON summary of a tournament played by the real program, which must succeed."""
    result = run_installed("tournament", *arguments, "--json", "--seed", "5")
    assert result.returncode == 0, result.stderr
    summary: dict[str, Any] = json.loads(result.stdout)
    return summary


def faults_of(summary: dict[str, Any], name: str) -> dict[str, int]:
    (row,) = [row for row in summary["standings"] if row["name"] == name]
    faults: dict[str, int] = row["faults"]
    return faults


# Isolated by default -------------------------------------------------------------------------


@pytest.mark.slow
def test_a_tournament_isolates_bots_that_are_not_built_in(tmp_path: Path) -> None:
    """A bot that looks up the call stack for the game state finds it when it runs in the
    tournament's process (--no-isolate), and finds nothing by default."""
    marker = tmp_path / "peeked"
    spec = f"{CHEATS}:Peeker(marker={marker})"
    summary = tournament(spec, "greedy", "random", "--deals", "1", "--workers", "1")
    assert summary["config"]["isolate"] == "sandbox"
    assert not marker.exists()
    tournament(spec, "greedy", "random", "--deals", "1", "--workers", "1", "--no-isolate")
    assert marker.read_text(encoding="utf-8").startswith("saw [[")


def test_built_in_bots_play_in_the_driver() -> None:
    """Built-in bots are the library's own code: isolating asks nothing of them."""
    assert not isinstance(
        thousand.load_player("greedy", isolate="process")(), thousand.ExternalPlayer
    )
    isolated = thousand.load_player(f"{PYTHON_BOTS}:Cautious", isolate="process")()
    assert isinstance(isolated, thousand.ExternalPlayer)


# Limits that hold from outside ---------------------------------------------------------------


@pytest.mark.slow
def test_a_bot_that_swallows_its_time_limit_is_stopped_at_it(tmp_path: Path) -> None:
    """A bot that catches the alarm and keeps thinking is stopped at its limit by default: it
    never gets to the end of its three seconds."""
    marker = tmp_path / "outlived"
    spec = f"{CHEATS}:Stubborn(marker={marker}, seconds=3)"
    summary = tournament(spec, "greedy", "random", "--deals", "1", "--time-limit", "0.2")
    assert faults_of(summary, spec) == {"error": 0, "illegal": 0, "timeout": 6}
    assert not marker.exists()


@pytest.mark.parametrize("where", ["start", "end"])
def test_start_and_end_are_limited_too(tmp_path: Path, where: str) -> None:
    """``start`` must end within the start-up limit and ``end`` within a second: an isolated
    bot that goes on is stopped, and the match goes on without it."""
    marker = tmp_path / "outlived"
    spec = f"{CHEATS}:Stubborn(marker={marker}, where={where}, seconds=3)"
    outcome = deal([spec, "random", "random"], limits=BotLimits(startup=2.0))
    assert not marker.exists()
    if where == "start":
        (fault,) = outcome.faults
        assert (fault.seat, fault.status) == (0, Status.TIMEOUT)
        assert "did not answer the hello in time" in fault.detail
    else:
        assert outcome.faults == ()


# A fresh process for each match --------------------------------------------------------------

COUNTER = """
import pathlib
from thousand import SeatedPlayer

LOG = pathlib.Path({log!r})
with LOG.open("a") as file:
    file.write("imported\\n")
matches = 0


class Counter(SeatedPlayer):
    def start(self, seat, rules, rng):
        global matches
        matches += 1
        super().start(seat, rules, rng)
        import os, random
        with LOG.open("a") as file:
            file.write(f"match {{matches}} pid {{os.getpid()}} draw {{random.random()}}\\n")

    def act(self, observation):
        return self.rng.choice(observation.legal_actions)
"""


def counter(tmp_path: Path) -> tuple[str, Path]:
    """The spec of a bot that logs its imports, and each match's count, process and a draw
    from Python's shared generator; and its log."""
    log = tmp_path / "counter.log"
    (tmp_path / "counter.py").write_text(COUNTER.format(log=str(log)), encoding="utf-8")
    return f"{tmp_path / 'counter.py'}:Counter", log


def test_the_bot_is_imported_once_and_the_same_cards_start_afresh(tmp_path: Path) -> None:
    """Over several matches of the same cards the bot's module is imported once, yet each match
    runs in a new process that remembers no earlier match, and Python's shared generator
    differs. Once the kept processes are stopped they are gone, reaped (the loader reaps them
    once told)."""
    spec, log = counter(tmp_path)
    for _ in range(4):
        assert deal([spec, "random", "random"]).faults == ()
    stop_sessions()
    for loader in marked_processes(f"thousand.table.isolation\0{spec}"):
        poll(lambda loader=loader: children(loader) == [])
    lines = log.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "imported"
    matches = [line.split() for line in lines[1:]]
    assert len(matches) == 4
    assert {fields[1] for fields in matches} == {"1"}
    assert len({fields[3] for fields in matches}) == 4
    assert len({fields[5] for fields in matches}) == 4
    assert os.getpid() not in {int(fields[3]) for fields in matches}


def test_a_stopped_loader_is_started_again(tmp_path: Path) -> None:
    """When a bot's loader dies (killed, say, by the bot itself), the next match starts another."""
    spec, log = counter(tmp_path)
    deal([spec, "random", "random"])
    loaders = marked_processes(f"thousand.table.isolation\0{spec}") if LINUX else []
    for pid in loaders:
        os.kill(pid, signal.SIGKILL)
    assert deal([spec, "random", "random"]).faults == ()
    assert log.read_text(encoding="utf-8").count("imported") == (2 if loaders else 1)


def test_a_bot_whose_module_does_not_load_is_at_fault(tmp_path: Path) -> None:
    """A file that fails to import makes the seat's error fault, naming the reason."""
    (tmp_path / "broken.py").write_text("def (:\n", encoding="utf-8")
    outcome = deal([f"{tmp_path / 'broken.py'}:Bot", "random", "random"])
    (fault,) = outcome.faults
    assert (fault.seat, fault.status) == (0, Status.ERROR)
    assert "SyntaxError" in fault.detail


def line_of(path: Path, text: str) -> int:
    """The number of the first line of the file that holds ``text``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, 1) if text in line)


@pytest.mark.slow
def test_the_tournament_bot_log_holds_the_traceback_of_an_isolated_bot(tmp_path: Path) -> None:
    """An isolated bot's traceback goes to its log as well: the tournament's bot log names the
    file and line of its raise."""
    logs = tmp_path / "logs"
    spec = f"{PYTHON_BOTS}:Flaky"
    tournament(spec, "random", "random", "--deals", "1", "--workers", "1", "--log-dir", str(logs))
    text = "".join(path.read_text(encoding="utf-8") for path in logs.glob("*.log"))
    raised = line_of(PYTHON_BOTS, "flaky bot tripped")
    assert f'  File "{PYTHON_BOTS}", line {raised}, in act\n' in text
    assert "RuntimeError: flaky bot tripped\n" in text


def test_an_isolated_bot_that_fails_to_start_sends_its_traceback() -> None:
    """A bot whose constructor raises in its own process sends its traceback: the fault keeps
    it, and under raise it is the cause of the BotCrash that causes the PlayerError."""
    with pytest.raises(thousand.PlayerError) as caught:
        deal(["random", f"{CHEATS}:BrokenInit", "random"], on_fault="raise")
    text = caught.value.fault.traceback
    assert f'File "{CHEATS}", line {line_of(CHEATS, "no cards for me")}, in __init__' in text
    assert text.endswith("RuntimeError: no cards for me\n")
    crash = caught.value.__cause__
    assert isinstance(crash, thousand.BotCrash)
    assert isinstance(crash.__cause__, RemoteTraceback)
    assert crash.__cause__.text == text


@pytest.mark.skipif(not LINUX, reason="address space limits are enforced on Linux")
def test_an_isolated_bot_s_memory_is_capped(tmp_path: Path) -> None:
    """The memory cap holds in an isolated Python bot's process: its big allocation fails."""
    hog = tmp_path / "hog.py"
    hog.write_text(
        "from thousand import SeatedPlayer\n"
        "class Hog(SeatedPlayer):\n"
        "    def act(self, observation):\n"
        "        self.ballast = bytearray(1 << 30)\n"
        "        return observation.legal_actions[0]\n",
        encoding="utf-8",
    )
    outcome = deal([f"{hog}:Hog", "random", "random"], limits=BotLimits(memory=512 << 20))
    assert outcome.faults
    assert all(fault.status is Status.ERROR for fault in outcome.faults)
    assert "MemoryError" in outcome.faults[0].detail


@pytest.mark.skipif(not LINUX, reason="finding processes by command line reads /proc")
def test_stopping_the_loaders_leaves_no_process(tmp_path: Path) -> None:
    """Once the loaders are stopped, no process of the bot's is left."""
    spec, _ = counter(tmp_path)
    deal([spec, "random", "random"])
    assert marked_processes(str(tmp_path))
    stop_loaders()
    assert marked_processes(str(tmp_path)) == []


# A mixed tournament --------------------------------------------------------------------------


def journal_results(folder: Path) -> dict[str, Any]:
    """Each unit's result in a tournament folder, by unit name, but for the time the bots took
    and the chained checks."""
    results = {}
    for line in (folder / "journal.jsonl").read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        del entry["check"], entry["think_time"]
        results[entry["unit"]] = entry
    return results


@pytest.mark.slow
@pytest.mark.skipif(not LINUX, reason="finding processes by command line reads /proc")
def test_a_mixed_tournament_leaves_normal_games_as_a_clean_run_does(tmp_path: Path) -> None:
    """Hostile bots (one rewrites greedy wherever it runs, one ignores its time limit, one
    leaves a daemon behind every match) play a tournament with normal bots, at tables of two
    (30 units, where tables of three would make 120). It completes, the games among normal bots
    only are exactly those of a run where the hostile bots behave, and no process is left."""
    daemon = hostile(tmp_path, "daemon", after=1)
    # Copies of the bots' files, so that the processes looked for at the end are this test's.
    cheats, python_bots = (tmp_path / CHEATS.name, tmp_path / PYTHON_BOTS.name)
    shutil.copy(CHEATS, cheats)
    shutil.copy(PYTHON_BOTS, python_bots)
    mixed = [
        f"{cheats}:Saboteur",
        f"{cheats}:Stubborn(marker={tmp_path / 'outlived'}, seconds=3)",
        daemon.spec,
    ]
    behaving = [
        f"{cheats}:Saboteur(active=false)",
        f"{cheats}:Stubborn(marker={tmp_path / 'answered'}, seconds=0)",
        hostile(tmp_path, "ok").spec,
    ]
    normal = ["greedy", "random", f"{python_bots}:Cautious"]
    common = ["--deals", "1", "--players", "2", "--time-limit", "0.2", "--workers", "2"]
    common += ["--isolate=process", "--no-report"]
    tournament(*mixed, *normal, *common, "--out", str(tmp_path / "mixed"))
    tournament(*behaving, *normal, *common, "--out", str(tmp_path / "clean"))
    mixed_units = journal_results(tmp_path / "mixed")
    clean_units = journal_results(tmp_path / "clean")
    assert mixed_units.keys() == clean_units.keys()
    among_normal = [name for name, unit in mixed_units.items() if min(unit["seating"]) >= 3]
    assert len(among_normal) == 6
    for name in among_normal:
        assert mixed_units[name] == clean_units[name]
    timeouts = [unit for unit in mixed_units.values() if "timeout" in unit["statuses"]]
    assert len(timeouts) == sum(1 in unit["seating"] for unit in mixed_units.values())
    assert not (tmp_path / "outlived").exists()
    assert daemon.pid_list("child")
    assert marked_processes(daemon.marker) == []
    assert marked_processes(str(cheats)) == []
    assert marked_processes(str(python_bots)) == []


def test_the_serve_program_still_serves_a_bot_on_its_own() -> None:
    """``python -m thousand.serve SPEC`` is an external program like any other."""
    command = f"cmd:{sys.executable} -m thousand.serve {PYTHON_BOTS}:Cautious"
    assert deal([command, "random", "random"]).faults == ()
    assert subprocess.run([sys.executable, "-m", "thousand.serve"], capture_output=True).returncode
