"""Timing loops side by side on a noisy machine: each loop runs in short slices, taking turns
with the others, so that all of them see the same moments of the machine.

The machines here change speed by a factor of two within seconds; two loops timed one after the
other for a few seconds each can differ by that much for no reason of their own. Taking turns
every few tens of milliseconds puts the same slow and fast moments into every loop's total, so
the ratio of two loops stays steady even when their absolute speeds do not.
"""

from __future__ import annotations

import time
from collections.abc import Iterator


class Meter:
    """A loop that yields the decisions of each unit of work it finishes (a deal, a game), timed
    over every slice it is given. A loop that times its decisions apart from the rest of each
    unit (dealing, starting the players, the outcome) yields ``(decisions, seconds deciding)``
    instead, and :attr:`deciding_speed` leaves that rest out."""

    def __init__(self, units: Iterator[int | tuple[int, float]]) -> None:
        self.units = units
        self.decisions = 0
        self.finished = 0
        self.seconds = 0.0
        self.deciding = 0.0

    def run(self, seconds: float) -> None:
        """Play whole units until at least ``seconds`` have passed."""
        units = self.units
        decisions = finished = 0
        deciding = 0.0
        began = time.perf_counter()
        while True:
            unit: int | tuple[int, float] = next(units)
            if isinstance(unit, tuple):
                decisions += unit[0]
                deciding += unit[1]
            else:
                decisions += unit
            finished += 1
            elapsed = time.perf_counter() - began
            if elapsed >= seconds:
                break
        self.decisions += decisions
        self.finished += finished
        self.seconds += elapsed
        self.deciding += deciding

    @property
    def speed(self) -> float:
        """Decisions per second over every slice so far."""
        return self.decisions / self.seconds

    @property
    def deciding_speed(self) -> float:
        """Decisions per second of deciding alone, for a loop that times it apart."""
        return self.decisions / self.deciding

    @property
    def setup_seconds(self) -> float:
        """Seconds per unit outside its decisions, for a loop that times them apart."""
        return (self.seconds - self.deciding) / self.finished

    @property
    def units_per_second(self) -> float:
        """Units of work per second over every slice so far."""
        return self.finished / self.seconds


def interleaved(meters: list[Meter], seconds: float, slice_seconds: float = 0.1) -> None:
    """Give each meter about ``seconds`` in all, in turns of ``slice_seconds``."""
    for _ in range(max(1, round(seconds / slice_seconds))):
        for meter in meters:
            meter.run(slice_seconds)
