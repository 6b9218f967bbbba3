"""What a finished 1000? game leaves behind."""

from __future__ import annotations

import attrs

__all__ = ["Result"]


@attrs.frozen
class Result:
    """The outcome of a 1000? game."""

    winners: tuple[int, ...]
    """The player who emptied their hand; on adjudication, all with the fewest cards (a
    face-down card still waiting for its answer counting as its owner's)."""
    hand_sizes: tuple[int, ...]
    """Cards left in each hand at the end."""
    turns: int
    """Actions taken in the game."""
    adjudicated: bool = False
    """True when the turn limit ended the game."""
