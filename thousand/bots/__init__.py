"""The built-in bots, playable in both games: ``random``, ``greedy``, and the search bots
``pimc`` and ``ismcts``."""

from thousand.bots.greedy import GreedyPlayer
from thousand.bots.ismcts import IsmctsPlayer
from thousand.bots.pimc import PimcPlayer
from thousand.bots.random_player import RandomPlayer
from thousand.players import AnyPlayer

__all__ = ["BUILTIN", "GreedyPlayer", "IsmctsPlayer", "PimcPlayer", "RandomPlayer"]

BUILTIN: dict[str, type[AnyPlayer]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "pimc": PimcPlayer,
    "ismcts": IsmctsPlayer,
}
"""The built-in bots by the name a bot spec uses for them."""
