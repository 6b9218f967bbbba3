"""The built-in bots, playable in both games: ``random`` and ``greedy``."""

from thousand.bots.greedy import GreedyPlayer
from thousand.bots.random_player import RandomPlayer
from thousand.players import Player

__all__ = ["BUILTIN", "GreedyPlayer", "RandomPlayer"]

BUILTIN: dict[str, type[Player]] = {"random": RandomPlayer, "greedy": GreedyPlayer}
"""The built-in bots by the name a bot spec uses for them."""
