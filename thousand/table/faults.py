"""The words for how a bot behaved in a match and what a fault leads to: small enough for the
command line to name them without loading the driver."""

from __future__ import annotations

import enum

__all__ = ["FaultPolicy", "Status"]


class Status(enum.Enum):
    """How a seat's player behaved in a match."""

    OK = "ok"
    """Every answer was a legal action in time."""
    ILLEGAL = "illegal"
    """It answered with something that is not a legal action."""
    ERROR = "error"
    """It raised an exception, or its program crashed or broke the protocol."""
    TIMEOUT = "timeout"
    """It ran past the time limit of a decision or the time quota of the match."""

    def __str__(self) -> str:
        return self.value


class FaultPolicy(enum.Enum):
    """What the driver does when a player is at fault."""

    FORFEIT = "forfeit"
    """The match ends there and the faulty player loses it: ranked last, and in a single
    Thousand deal it scores minus the larger of 120 and the contract (the others score 0)."""
    SUBSTITUTE = "substitute"
    """A random legal action is played in its place and the match goes on. A player that cannot
    be asked again (its program died) is played for until the end."""
    RAISE = "raise"
    """:class:`~thousand.players.PlayerError` is raised."""

    def __str__(self) -> str:
        return self.value
