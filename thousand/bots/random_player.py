"""The ``random`` bot: a uniformly random legal action, from the player's own generator."""

from __future__ import annotations

from thousand.games import AnyObservation
from thousand.players import SeatedPlayer

__all__ = ["RandomPlayer"]


class RandomPlayer(SeatedPlayer[AnyObservation]):
    """Plays a uniformly random legal action, in either game."""

    def act(self, observation: AnyObservation) -> object:
        """Any of the legal actions, each as likely."""
        return self.rng.choice(observation.legal_actions)
