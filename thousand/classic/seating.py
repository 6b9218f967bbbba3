"""Who plays a deal: the forehand, the seat sitting out at a table of four, and the order of
play over the seats taking part."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from thousand.classic.rules import Rules

__all__ = ["Seating", "seating"]


class Seating(NamedTuple):
    """The seats of one deal."""

    sitter: int
    """The seat sitting out (four seats), else -1."""
    active: tuple[int, ...]
    """The seats taking part, clockwise from the forehand."""
    turn: tuple[int, ...]
    """Per seat, the next seat taking part clockwise (the sitter's entry too)."""

    @property
    def forehand(self) -> int:
        """The seat left of the dealer, committed to the opening bid: the first taking part."""
        return self.active[0]


def seating(rules: Rules, dealer: int) -> Seating:
    """The seating of the deal ``dealer`` deals under ``rules``: the forehand is always the seat
    left of the dealer, and play goes clockwise over the seats taking part."""
    return _seating(rules.players, rules.sitter_of(dealer), dealer)


@lru_cache(maxsize=64)
def _seating(players: int, sitter: int, dealer: int) -> Seating:
    forehand = (dealer + 1) % players
    active = tuple(
        seat for step in range(players) for seat in [(forehand + step) % players] if seat != sitter
    )
    turn = []
    for seat in range(players):
        following = (seat + 1) % players
        if following == sitter:
            following = (following + 1) % players
        turn.append(following)
    return Seating(sitter, active, tuple(turn))
