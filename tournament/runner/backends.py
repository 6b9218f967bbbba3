"""Where units are played: in this process, or in local worker processes. A backend only has to
play batches of units and hand back their results as batches finish, in any order; the results
themselves never depend on where or in what order units were played.

Batches are taken from the schedule as they are handed out, a few per worker ahead, so that the
schedule is never listed whole however long it is.

Ctrl-C is the tournament's process's to answer, not its workers': workers ignore SIGINT, and
the tournament's process holds it back while it works the pool (a ``KeyboardInterrupt`` raised
inside the pool's locks could leave them held and the program hung at exit), raises it between
two waits, and then kills the workers rather than wait for the batches they are playing.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import itertools
import multiprocessing.util
import os
import signal
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from types import FrameType
from typing import Protocol, TypeVar

from thousand.table.external import die_with_parent
from thousand.table.isolation import stop_loaders
from tournament.runner.schedule import Config, Unit
from tournament.runner.units import BotLogs, Played, check_entrants, play_batch

__all__ = [
    "AHEAD",
    "DEFAULT_BATCH",
    "Backend",
    "HeldInterrupt",
    "InlineBackend",
    "ProcessBackend",
    "batches",
    "hand_out",
    "interrupts_held",
    "kill_pool",
    "start_worker",
]

DEFAULT_BATCH = 64
"""The most units a batch holds unless the backend says otherwise."""
AHEAD = 4
"""Batches handed out per worker at a time: enough that none waits for the next, few enough
that the batches not yet played cost nothing."""
HELD_FOR = 0.1
"""Seconds at most between two looks at whether Ctrl-C was pressed while it is held back."""

Task = TypeVar("Task")


class Backend(Protocol):
    """Plays batches of units somewhere. A backend may also say how many units a batch may hold
    (``largest_batch``, 64 when it does not): more where handing out a batch costs more."""

    def run(
        self,
        config: Config,
        batches: Iterable[Sequence[Unit]],
        keep_records: bool,
        logs: BotLogs,
    ) -> Iterator[list[Played]]:
        """Yield each batch's results as soon as the batch is finished, taking the batches
        as it is ready for them."""
        ...


class InlineBackend:
    """Plays every batch in the calling process, one after the other."""

    largest_batch = DEFAULT_BATCH

    def run(
        self,
        config: Config,
        batches: Iterable[Sequence[Unit]],
        keep_records: bool,
        logs: BotLogs,
    ) -> Iterator[list[Played]]:
        """Yield each batch's results in turn."""
        for batch in batches:
            yield play_batch(config, batch, keep_records, logs)


class ProcessBackend:
    """Plays batches in a pool of local worker processes, which die with the process that
    started them (on Linux), so that a killed tournament leaves none behind."""

    largest_batch = DEFAULT_BATCH

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None

    def check_entrants(self, config: Config, logs: BotLogs) -> None:
        """Start every entrant once in each worker, all at once (see :func:`~tournament.runner.
        units.check_entrants`): a worker keeps what it started for its matches, such as a
        sandboxed bot's loader, which then need not wait for one."""
        with interrupts_held() as held:
            try:
                pool = self._started()
                checks = [pool.submit(check_entrants, config, logs) for _ in range(self.workers)]
                while not all(check.done() for check in checks):
                    concurrent.futures.wait(checks, timeout=HELD_FOR)
                    held.deliver()
                for check in checks:
                    check.result()
            except KeyboardInterrupt:
                self._kill()
                raise
            except BaseException:
                self._stop()
                raise

    def run(
        self,
        config: Config,
        batches: Iterable[Sequence[Unit]],
        keep_records: bool,
        logs: BotLogs,
    ) -> Iterator[list[Played]]:
        """Yield each batch's results as workers finish them."""
        with interrupts_held() as held:
            try:
                pool = self._started()
                work = iter(batches)
                pending: list[concurrent.futures.Future[list[Played]]] = []

                def submit(batch: Sequence[Unit]) -> concurrent.futures.Future[list[Played]]:
                    return pool.submit(play_batch, config, list(batch), keep_records, logs)

                hand_out(pending, work, self.workers * AHEAD, submit)
                while pending:
                    done, waiting = concurrent.futures.wait(
                        pending, timeout=HELD_FOR, return_when=concurrent.futures.FIRST_COMPLETED
                    )
                    held.deliver()
                    pending = list(waiting)
                    hand_out(pending, work, self.workers * AHEAD, submit)
                    for future in done:
                        yield future.result()
            except KeyboardInterrupt:
                self._kill()
                raise
            finally:
                self._stop()

    def _started(self) -> concurrent.futures.ProcessPoolExecutor:
        """The pool of workers, started when there is none."""
        if self._pool is None:
            self._pool = concurrent.futures.ProcessPoolExecutor(
                self.workers, initializer=start_worker, initargs=(os.getpid(),)
            )
        return self._pool

    def _stop(self) -> None:
        """Shut the pool down once its workers are done with the batches they have begun; the
        others are dropped (the next run starts another pool)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(cancel_futures=True)

    def _kill(self) -> None:
        """Drop the pool at once: its workers are killed in the middle of their batches (and
        their bots' processes die with them)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            kill_pool(pool)


def kill_pool(pool: concurrent.futures.ProcessPoolExecutor) -> None:
    """Kill a pool's workers in the middle of what they do, then shut it down."""
    # Before Python 3.14 a pool cannot kill its workers itself. Shutting it down after they
    # died waits only for its own threads to see them gone, and keeps those threads from
    # racing the program's exit.
    for worker in list((pool._processes or {}).values()):
        worker.kill()
    pool.shutdown(cancel_futures=True)


def start_worker(parent: int) -> None:
    """Set up a worker process: it dies with the tournament's process ``parent``, leaves Ctrl-C
    to it, and when it is shut down it stops the bot processes it kept, so that none is left
    once the tournament ends."""
    die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    multiprocessing.util.Finalize(None, stop_loaders, exitpriority=100)


class HeldInterrupt:
    """A Ctrl-C held back by :func:`interrupts_held`, for :meth:`deliver` to answer."""

    def __init__(self, handler: Callable[[int, FrameType | None], object] | None = None) -> None:
        self.handler = handler
        """The handler of SIGINT that was held back, or ``None`` when none was."""
        self.arrived = False
        """Whether SIGINT arrived and is not yet answered."""

    def deliver(self) -> None:
        """Answer a SIGINT that arrived meanwhile as the held-back handler would have (the
        default one raises ``KeyboardInterrupt``)."""
        if self.arrived and self.handler is not None:
            self.arrived = False
            self.handler(signal.SIGINT, None)


@contextlib.contextmanager
def interrupts_held() -> Iterator[HeldInterrupt]:
    """Until the block ends, hold back SIGINT's Python handler, to run only when the block calls
    :meth:`HeldInterrupt.deliver` (or at its end). Outside the main thread, or where SIGINT has
    no Python handler, nothing is held back."""
    previous = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is not threading.main_thread() or not callable(previous):
        yield HeldInterrupt()
        return
    held = HeldInterrupt(previous)

    def hold(signum: int, frame: FrameType | None) -> None:
        held.arrived = True

    signal.signal(signal.SIGINT, hold)
    try:
        yield held
    finally:
        signal.signal(signal.SIGINT, previous)
        held.deliver()


def hand_out(
    pending: list[Task],
    work: Iterator[Sequence[Unit]],
    most: int,
    start: Callable[[Sequence[Unit]], Task],
) -> None:
    """Start the next batches of ``work`` until ``most`` are pending (or none is left)."""
    pending.extend(start(batch) for batch in itertools.islice(work, max(most - len(pending), 0)))


def batches(
    units: Iterable[Unit], count: int, workers: int, largest: int = DEFAULT_BATCH
) -> Iterator[list[Unit]]:
    """The ``count`` units cut into batches as they are asked for: large enough to make
    handing them out cheap (up to ``largest``), small enough that every worker gets many (for
    an even finish and frequent progress)."""
    size = max(1, min(largest, count // (workers * 16)))
    remaining = iter(units)
    while batch := list(itertools.islice(remaining, size)):
        yield batch
