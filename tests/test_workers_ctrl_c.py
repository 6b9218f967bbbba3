"""Ctrl-C with local worker processes: it is the tournament's process's to answer. Workers
ignore it, the tournament's process holds it back while it works the pool and answers it
between two waits, and then kills the workers in the middle of their batches, so that the
program stops at once and never hangs on the pool at exit."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from tournament.runner.backends import ProcessBackend, batches, interrupts_held
from tournament.runner.options import Options, configure
from tournament.runner.units import BotLogs

SLEEPER = """
import pathlib
import time
import thousand


class Sleeper(thousand.SeatedPlayer):
    \"\"\"Plays at random, a fifth of a second a decision; says when it first decides and when
    its match ends.\"\"\"

    def act(self, observation):
        pathlib.Path({started!r}).touch()
        time.sleep(0.2)
        return self.rng.choice(observation.legal_actions)

    def end(self, outcome):
        pathlib.Path({ended!r}).touch()
"""


def test_a_held_ctrl_c_is_answered_only_when_delivered() -> None:
    """Within the block a SIGINT raises nothing until ``deliver()``, which raises it as
    ``KeyboardInterrupt``; the handler is put back after the block."""
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    with interrupts_held() as held:
        signal.raise_signal(signal.SIGINT)
        assert held.arrived
        with pytest.raises(KeyboardInterrupt):
            held.deliver()
        assert not held.arrived
        held.deliver()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_ctrl_c_held_to_the_end_of_the_block_is_answered_there() -> None:
    """A SIGINT the block never delivers is answered as the block ends."""
    with pytest.raises(KeyboardInterrupt), interrupts_held():
        signal.raise_signal(signal.SIGINT)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_nothing_is_held_outside_the_main_thread() -> None:
    """In another thread (where no SIGINT is delivered) the handler is left as it is."""
    seen: list[object] = []

    def look() -> None:
        with interrupts_held() as held:
            seen.extend([signal.getsignal(signal.SIGINT), held.handler])

    thread = threading.Thread(target=look)
    thread.start()
    thread.join()
    assert seen == [signal.default_int_handler, None]


def test_workers_leave_ctrl_c_to_the_tournament(tmp_path: Path) -> None:
    """A SIGINT sent to every worker (as Ctrl-C sends it to the whole process group) leaves
    them playing: the batches handed out after it are all played."""
    config = configure(Options(specs=("greedy", "random", "random"), deals=2, seed=5))
    logs = BotLogs(str(tmp_path))
    backend = ProcessBackend(2)
    backend.check_entrants(config, logs)
    workers = multiprocessing.active_children()
    assert len(workers) == 2
    for worker in workers:
        assert worker.pid is not None
        os.kill(worker.pid, signal.SIGINT)
    time.sleep(0.2)  # room for a worker to die of it, were it not ignored
    units = config.units()
    played = [
        result.result.unit
        for batch in backend.run(config, batches(units, len(units), 2), False, logs)
        for result in batch
    ]
    assert sorted(played) == sorted(unit.name for unit in units)
    assert multiprocessing.active_children() == []


def test_ctrl_c_kills_the_workers_in_the_middle_of_their_batches(tmp_path: Path) -> None:
    """Ctrl-C while workers play raises ``KeyboardInterrupt`` from the backend with every
    worker gone, and no match they were playing was played to its end."""
    started, ended = tmp_path / "started", tmp_path / "ended"
    sleeper = tmp_path / "sleeper.py"
    sleeper.write_text(SLEEPER.format(started=str(started), ended=str(ended)), encoding="utf-8")
    specs = (f"{sleeper}:Sleeper", "random", "random")
    config = configure(Options(specs=specs, deals=4, seed=2, isolate=False))
    units = config.units()

    def press_ctrl_c() -> None:
        while not started.exists():
            time.sleep(0.01)
        os.kill(os.getpid(), signal.SIGINT)

    presser = threading.Thread(target=press_ctrl_c)
    presser.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            for _ in ProcessBackend(2).run(
                config, batches(units, len(units), 2), False, BotLogs(str(tmp_path))
            ):
                pass
    finally:
        presser.join()
    assert multiprocessing.active_children() == []
    assert not ended.exists()
