"""The ``greedy`` bot: a fast rule-based player for both games.

In Thousand it bids from a hand evaluation, gives away its weakest cards, fixes the contract the
hand is worth and plays tricks by counting cards (:mod:`thousand.bots.thousand_strategy`). In 1000?
it climbs with its cheapest card, bluffs when that is worth it and challenges from card counting
(:mod:`thousand.bots.bluff_strategy`). Its only randomness comes from the generator given at the
start, so the same seed gives the same decisions.
"""

from __future__ import annotations

from thousand.bots.search import search_for
from thousand.games import AnyObservation
from thousand.players import SeatedPlayer

__all__ = ["GreedyPlayer"]


class GreedyPlayer(SeatedPlayer[AnyObservation]):
    """Plays either game by rules of thumb; tells the game from the observation it is given."""

    skip_forced = True
    """A decision with one legal action draws nothing from its generator: it need not be asked."""

    def act(self, observation: AnyObservation) -> object:
        """One of ``observation.legal_actions``, chosen by the strategy of the observed game."""
        return search_for(observation).greedy_choice(observation, self.rng)
