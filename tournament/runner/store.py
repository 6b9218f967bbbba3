"""Where a tournament's results live: a store that keeps its configuration and its finished
units, appended as they come and read back to resume.

The tournament folder's journal (:class:`~tournament.runner.journal.Journal`) is one; a server
keeps them in its database instead; :class:`MemoryStore` keeps them in memory, for a tournament
embedded in a program of one's own. :func:`~tournament.runner.run.run_tournament` plays into
whichever it is given, and a :class:`~tournament.runner.summary.Tally` brings the standings up to
date from the new units alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from tournament.runner.schedule import Config
from tournament.runner.unit_results import UnitResult

__all__ = ["MemoryStore", "ResultStore"]


class ResultStore(Protocol):
    """The results of one tournament, kept somewhere."""

    def read_config(self) -> Config:
        """The configuration of the tournament the store keeps."""
        ...

    def read_units(self) -> dict[str, UnitResult]:
        """Every unit kept so far, by name."""
        ...

    def append(self, results: Iterable[tuple[UnitResult, str | None]]) -> None:
        """Keep finished units, each with its record's JSON text when records are kept; a
        unit counts as finished once this returns."""
        ...

    def close(self) -> None:
        """Let go of what the store holds open."""
        ...


class MemoryStore:
    """A store in memory: the units of a tournament played inside a program of one's own, kept
    as long as the program keeps the store (records included, when they are kept)."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.units: dict[str, UnitResult] = {}
        self.records: dict[str, str] = {}

    def read_config(self) -> Config:
        return self.config

    def read_units(self) -> dict[str, UnitResult]:
        return dict(self.units)

    def append(self, results: Iterable[tuple[UnitResult, str | None]]) -> None:
        for result, record in results:
            self.units[result.unit] = result
            if record is not None:
                self.records[result.unit] = record

    def close(self) -> None:
        """Nothing is held open."""
