"""What the server measures of itself: its decisions, games and groups, the time of its own
that each decision takes (everything but the wait for a connected bot's answer), and the
processor time it spent, shown at ``GET /api/metrics``."""

from __future__ import annotations

import collections
import time

__all__ = ["Metrics", "Timings"]

KEPT = 20000
"""The most recent decisions whose times are kept for the percentiles."""


class Timings:
    """How many times something was done, and how long the latest :data:`KEPT` took."""

    def __init__(self) -> None:
        self.count = 0
        self.kept: collections.deque[float] = collections.deque(maxlen=KEPT)

    def add(self, seconds: float) -> None:
        self.count += 1
        self.kept.append(seconds)

    def percentiles(self) -> dict[str, float | None]:
        """The median and the 99th percentile, in milliseconds (``None`` before any)."""
        ordered = sorted(self.kept)

        def percentile(fraction: float) -> float | None:
            if not ordered:
                return None
            return round(ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] * 1000, 3)

        return {"p50": percentile(0.5), "p99": percentile(0.99)}


class Metrics:
    """Counts and times since the server started."""

    def __init__(self) -> None:
        self.games = 0
        self.groups = 0
        self.own = Timings()
        """The server's own time per decision."""
        self.began = time.monotonic()
        self.processor = time.process_time()

    @property
    def decisions(self) -> int:
        return self.own.count

    def decided(self, own_seconds: float) -> None:
        """Count a decision that took the server ``own_seconds`` of its own."""
        self.own.add(own_seconds)

    def to_dict(self) -> dict[str, object]:
        """The figures as JSON data; times in milliseconds."""
        processor = time.process_time() - self.processor
        return {
            "seconds": round(time.monotonic() - self.began, 1),
            "decisions": self.decisions,
            "games": self.games,
            "groups": self.groups,
            "own_ms_per_decision": self.own.percentiles(),
            "processor_seconds": round(processor, 3),
            "processor_ms_per_game": round(processor / self.games * 1000, 2)
            if self.games
            else None,
        }
