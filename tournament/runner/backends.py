"""Where units are played: in this process, or in local worker processes. A backend only has to
play batches of units and hand back their results as batches finish, in any order; the results
themselves never depend on where or in what order units were played.

Batches are taken from the schedule as they are handed out, a few per worker ahead, so that the
schedule is never listed whole however long it is.
"""

from __future__ import annotations

import concurrent.futures
import itertools
import multiprocessing.util
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Protocol, TypeVar

from thousand.table.external import die_with_parent
from thousand.table.isolation import stop_loaders
from tournament.runner.schedule import Config, Unit
from tournament.runner.units import BotLogs, Played, check_entrants, play_batch

__all__ = [
    "AHEAD",
    "DEFAULT_BATCH",
    "Backend",
    "InlineBackend",
    "ProcessBackend",
    "batches",
    "hand_out",
]

DEFAULT_BATCH = 64
"""The most units a batch holds unless the backend says otherwise."""
AHEAD = 4
"""Batches handed out per worker at a time: enough that none waits for the next, few enough
that the batches not yet played cost nothing."""

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
        pool = self._started()
        try:
            checks = [pool.submit(check_entrants, config, logs) for _ in range(self.workers)]
            for check in checks:
                check.result()
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
        pool = self._started()
        try:
            work = iter(batches)
            pending: list[concurrent.futures.Future[list[Played]]] = []

            def submit(batch: Sequence[Unit]) -> concurrent.futures.Future[list[Played]]:
                return pool.submit(play_batch, config, list(batch), keep_records, logs)

            try:
                hand_out(pending, work, self.workers * AHEAD, submit)
                while pending:
                    done, waiting = concurrent.futures.wait(
                        pending, return_when=concurrent.futures.FIRST_COMPLETED
                    )
                    pending = list(waiting)
                    hand_out(pending, work, self.workers * AHEAD, submit)
                    for future in done:
                        yield future.result()
            finally:
                for future in pending:
                    future.cancel()
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
        """Shut the pool down once its workers are done (the next run starts another)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown()


def start_worker(parent: int) -> None:
    """Set up a worker process: it dies with the tournament's process ``parent``, and when it
    is shut down it stops the bot processes it kept, so that none is left once the tournament
    ends."""
    die_with_parent(parent)
    multiprocessing.util.Finalize(None, stop_loaders, exitpriority=100)


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
