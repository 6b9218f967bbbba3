"""Playing a tournament on a Ray cluster (``--backend ray``), for users who outgrow one machine.

Batches of units become Ray tasks; results come back into the same journal as with local
workers, so a tournament started on one backend can be resumed on the other, and the results
are the same either way. Ray is an optional extra: ``python -m pip install ray``.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from tournament.runner.backends import AHEAD, hand_out
from tournament.runner.schedule import Config, Unit
from tournament.runner.units import BotLogs, Played, play_batch

__all__ = ["RETRIES", "RayBackend", "RayBatchLost", "RayMissingError", "import_ray", "start_ray"]

RETRIES = 3
"""How many times a batch lost with its worker (a crashed process, a lost node) is played again.
A bot's fault is a result, not a failure, and is never retried."""


class RayMissingError(ValueError):
    """``--backend ray`` without Ray installed."""


class RayBatchLost(ValueError):
    """A batch that Ray could not play, even after its retries."""


class RayBackend:
    """Plays batches as Ray tasks, on a new local Ray instance or on the cluster at ``address``
    (``auto`` for the one this machine belongs to). A bot's exception that stops the tournament
    comes back as itself, not wrapped by Ray."""

    largest_batch = 256
    """Larger batches than local workers get: a Ray task costs about a millisecond to hand out."""

    def __init__(self, address: str | None = None, workers: int | None = None) -> None:
        self.address = address
        self.workers = workers

    def run(
        self,
        config: Config,
        batches: Iterable[Sequence[Unit]],
        keep_records: bool,
        logs: BotLogs,
    ) -> Iterator[list[Played]]:
        """Yield each batch's results as its task finishes, a few batches per CPU of Ray
        handed out at a time."""
        ray, started = start_ray(self.address, self.workers)
        task = ray.remote(max_retries=RETRIES, retry_exceptions=False)(play_batch)
        most = AHEAD * max(1, int(self.workers or ray.cluster_resources().get("CPU", 1)))
        work = iter(batches)
        pending: list[Any] = []

        def start(batch: Sequence[Unit]) -> Any:
            return task.remote(config, list(batch), keep_records, logs)

        try:
            hand_out(pending, work, most, start)
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                hand_out(pending, work, most, start)
                try:
                    played = ray.get(done[0])
                except ray.exceptions.RayError as error:
                    cause = getattr(error, "cause", None)
                    if isinstance(cause, Exception):
                        raise cause from None
                    raise RayBatchLost(
                        f"Ray lost a batch of units after {RETRIES} retries "
                        f"({type(error).__name__}); continue the tournament with --resume"
                    ) from None
                yield played
        finally:
            # On a cluster this run did not start, the batches handed out are left to finish
            # and their results unread (a resume plays them again): cancelling a task that is
            # finishing at that moment, forced or not, can crash Ray's driver.
            if started:
                ray.shutdown()


def start_ray(address: str | None, workers: int | None) -> tuple[Any, bool]:
    """The ray module, connected to the cluster at ``address`` (``None``: a new local instance
    with ``workers`` CPUs) unless it already is: also whether it was started here (and is to
    be shut down here)."""
    ray = import_ray()
    started = not ray.is_initialized()
    if started:
        ray.init(
            address=address or "local",
            num_cpus=workers if address is None else None,
            include_dashboard=False,
            log_to_driver=False,
            logging_level=logging.ERROR,
        )
    return ray, started


def import_ray() -> Any:
    """The ray module; without it, :class:`RayMissingError`, saying how to install it."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise RayMissingError(
            "--backend ray needs Ray: install it with python -m pip install ray"
        ) from None
