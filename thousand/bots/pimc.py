"""The ``pimc`` bot: perfect-information Monte Carlo search, for both games.

For each decision it samples full states consistent with what its seat has seen (see
:mod:`thousand.determinise`), plays each candidate action out in every sampled world with the
``greedy`` strategy at all seats, and picks the action that did best on average. The budget is
shared out by successive halving: every candidate is tried in a first batch of worlds, the better
half goes on to the next batch, and so on, so that close calls get the most playouts. Every world
tries all the remaining candidates, which makes their comparison fairer than separate samples.

It decides every phase this way: bids (pass or raise), the musik, the cards to give or lay aside,
the contract or a concession, the cards to play; in 1000? plays, bluffs and challenges.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from thousand.bots.search import Budget, Search, SearchPlayer, playout

__all__ = ["PimcPlayer"]

DEFAULT_STEPS = 1000


class PimcPlayer(SearchPlayer):
    """Perfect-information Monte Carlo: samples worlds, plays each action out, keeps the best.

    Args:
        steps: simulated actions per decision (the default keeps the median decision well
            under 100 ms on one core).
        seconds: think this long per decision instead (decisions then depend on the machine);
            the first playout is always finished, so a decision takes at least that long.
    """

    def __init__(self, steps: int = DEFAULT_STEPS, seconds: float | None = None) -> None:
        self.budget = Budget(steps, seconds)

    def search(self, game: Search, observation: Any, choices: Sequence[Any]) -> object:
        """The candidate action with the best average playout over sampled worlds."""
        sample = game.worlds(observation)
        seat = observation.seat
        rng = self.rng
        budget = self.budget
        totals = [0.0] * len(choices)
        weights = [0.0] * len(choices)
        alive = list(range(len(choices)))
        rounds = (len(choices) - 1).bit_length()

        def mean(index: int) -> float:
            # An action a time budget left untried ranks last.
            return totals[index] / weights[index] if weights[index] else -math.inf

        budget.start()
        for round_number in range(rounds):
            share = (round_number + 1) / rounds
            # Each round plays at least one world; a time budget may cut a world short.
            fresh = True
            while fresh or budget.used < share:
                fresh = False
                world = sample(rng)
                weight = game.weight(world, observation) or math.ulp(0.0)
                for index in alive:
                    if budget.timed and budget.used >= share and weights[alive[0]]:
                        break
                    end, steps = playout(game, world.apply(choices[index]), rng, seat)
                    totals[index] += weight * game.values(end, observation)[seat]
                    weights[index] += weight
                    budget.spend(steps + 1)
            if round_number < rounds - 1:
                alive.sort(key=mean, reverse=True)
                alive = alive[: (len(alive) + 1) // 2]
        return choices[max(alive, key=mean)]
