"""The ``random`` bot: a uniformly random legal action, from the player's own generator."""

from __future__ import annotations

from typing import Any

from thousand.table.players import SeatedPlayer

__all__ = ["RandomPlayer"]


class RandomPlayer(SeatedPlayer):
    """Plays a uniformly random legal action, in either game."""

    def act(self, observation: Any) -> object:
        """Any of the legal actions, each as likely."""
        return self.rng.choice(observation.legal_actions)
