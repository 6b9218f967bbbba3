"""What one finished unit of a tournament leaves behind: a small value that goes into the journal
as one line of JSON and into the statistics."""

from __future__ import annotations

from typing import Any

import attrs

__all__ = ["UnitResult"]

STATUSES = ("ok", "illegal", "error", "timeout")
"""The statuses a seat can end a unit with, in the order the standings count faults."""


@attrs.frozen
class UnitResult:
    """One unit (a single deal, or a whole match or game) as played."""

    unit: str
    """The unit's name, unique in the tournament, such as ``t0-d12-s3``."""
    table: int
    """The table's number in the schedule."""
    group: int
    """The deal group (deals format) or group of matches or games (games format) within the
    table: units of one group play the same cards with the entrants in other seats."""
    seating: tuple[int, ...]
    """The entrant (by number) in each seat."""
    scores: tuple[int, ...]
    """Per seat: deal scores (deals format), final match scores (Thousand games), or minus the
    cards left in hand (1000?)."""
    places: tuple[int, ...]
    """Per seat, 1 for the best; tied seats share a place."""
    statuses: tuple[str, ...]
    """Per seat: ``ok`` or the status of its first fault."""
    faults: tuple[tuple[int, ...], ...]
    """Per seat, how many faults of each status in :data:`STATUSES` order (``ok`` counts 0)."""
    contracts: tuple[tuple[int, int, bool], ...]
    """Thousand: every played contract as ``(declarer seat, contract, made)``."""
    decisions: tuple[int, ...]
    think_time: tuple[float, ...] = attrs.field(eq=False)
    """Seconds per seat; kept in the journal, left out of the summary (it varies run to run)."""

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON data."""
        return {
            "unit": self.unit,
            "table": self.table,
            "group": self.group,
            "seating": list(self.seating),
            "scores": list(self.scores),
            "places": list(self.places),
            "statuses": list(self.statuses),
            "faults": [list(counts) for counts in self.faults],
            "contracts": [list(contract) for contract in self.contracts],
            "decisions": list(self.decisions),
            "think_time": [round(seconds, 6) for seconds in self.think_time],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> UnitResult:
        """The result written by :meth:`to_dict` (raises ``KeyError``, ``TypeError`` or
        ``ValueError`` on malformed data)."""
        return cls(
            unit=str(data["unit"]),
            table=int(data["table"]),
            group=int(data["group"]),
            seating=tuple(int(entrant) for entrant in data["seating"]),
            scores=tuple(int(score) for score in data["scores"]),
            places=tuple(int(place) for place in data["places"]),
            statuses=tuple(str(status) for status in data["statuses"]),
            faults=tuple(tuple(int(count) for count in counts) for counts in data["faults"]),
            contracts=tuple(
                (int(seat), int(amount), bool(made)) for seat, amount, made in data["contracts"]
            ),
            decisions=tuple(int(count) for count in data["decisions"]),
            think_time=tuple(float(seconds) for seconds in data["think_time"]),
        )
