"""Where units are played: in this process, or in local worker processes. A backend only has to
play batches of units and hand back their results as batches finish, in any order; the results
themselves never depend on where or in what order units were played.
"""

from __future__ import annotations

import concurrent.futures
import os
from collections.abc import Iterator, Sequence
from typing import Protocol

from thousand.table.external import die_with_parent
from tournament.runner.schedule import Config, Unit
from tournament.runner.units import BotLogs, Played, play_batch

__all__ = ["DEFAULT_BATCH", "Backend", "InlineBackend", "ProcessBackend", "batches"]

DEFAULT_BATCH = 64
"""The most units a batch holds unless the backend says otherwise."""


class Backend(Protocol):
    """Plays batches of units somewhere. A backend may also say how many units a batch may hold
    (``largest_batch``, 64 when it does not): more where handing out a batch costs more."""

    def run(
        self,
        config: Config,
        batches: Sequence[Sequence[Unit]],
        keep_records: bool,
        logs: BotLogs,
    ) -> Iterator[list[Played]]:
        """Yield each batch's results as soon as the batch is finished."""
        ...


class InlineBackend:
    """Plays every batch in the calling process, one after the other."""

    largest_batch = DEFAULT_BATCH

    def run(
        self,
        config: Config,
        batches: Sequence[Sequence[Unit]],
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

    def run(
        self,
        config: Config,
        batches: Sequence[Sequence[Unit]],
        keep_records: bool,
        logs: BotLogs,
    ) -> Iterator[list[Played]]:
        """Yield each batch's results as workers finish them."""
        with concurrent.futures.ProcessPoolExecutor(
            self.workers, initializer=die_with_parent, initargs=(os.getpid(),)
        ) as pool:
            pending = {
                pool.submit(play_batch, config, list(batch), keep_records, logs)
                for batch in batches
            }
            try:
                while pending:
                    done, pending = concurrent.futures.wait(
                        pending, return_when=concurrent.futures.FIRST_COMPLETED
                    )
                    for future in done:
                        yield future.result()
            finally:
                for future in pending:
                    future.cancel()


def batches(units: Sequence[Unit], workers: int, largest: int = DEFAULT_BATCH) -> list[list[Unit]]:
    """Units cut into batches: large enough to make handing them out cheap (up to ``largest``),
    small enough that every worker gets many (for an even finish and frequent progress)."""
    size = max(1, min(largest, len(units) // (workers * 16)))
    return [list(units[start : start + size]) for start in range(0, len(units), size)]
