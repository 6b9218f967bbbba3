"""The ``pimc`` bot: perfect-information Monte Carlo search, for both games.

For each decision it samples full states consistent with what its seat has seen (see
:func:`thousand.determinise`), plays each candidate action out in every sampled world with the
``greedy`` strategy at all seats, and picks the action that did best on average. The budget is
shared out by successive halving: every candidate is tried in a first batch of worlds, the better
half goes on to the next batch, and so on, so that close calls get the most playouts. Every world
tries all the remaining candidates, which makes their comparison fairer than separate samples.

It decides every phase this way: bids (pass or raise), the cards to give or lay aside, the
contract or a concession, the cards to play; in 1000? plays, bluffs and challenges. The few
decisions that shape a Thousand deal (bids, exchange, contract) get a larger budget than the cards
played, and a bid starts from a learned estimate of the raise's worth
(:mod:`thousand.bots.auction_value`), counted as the sampled worlds it is worth.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from thousand.bots.auction_value import AuctionValues
from thousand.bots.search import Budget, Search, SearchPlayer, playout, searches_for_worlds
from thousand.games import ActionT as A
from thousand.games import ObservationT as O
from thousand.games import StateT as S

__all__ = ["PimcPlayer"]

DEFAULT_STEPS = 3000
BLUFF_STEPS = 1000
"""The default budget in 1000?, whose playouts cost about three times as much a step."""
DEAL_SHARE = 2.5
"""How many times the budget of a card played the search spends on a decision that shapes the
deal: there are only about two of them a deal for each seat, they matter most, and each of their
playouts is a whole deal."""


class PimcPlayer(SearchPlayer):
    """Perfect-information Monte Carlo: samples worlds, plays each action out, keeps the best.

    Args:
        steps: simulated actions per decision (by default 3000 in Thousand and 1000 in 1000?,
            which keeps the median decision near 50 ms on one core).
        deal_steps: simulated actions for each Thousand decision that shapes the deal: a bid,
            a card given or laid aside, the contract (by default two and a half times
            ``steps``).
        seconds: think this long per decision instead (decisions then depend on the machine);
            the first playout is always finished, so a decision takes at least that long.
        deal_seconds: the same for the decisions that shape the deal (by default two and a half
            times ``seconds``).
        bidding: a file of bidding models (``thousand train-bidding``) to use instead of the
            shipped ones, say for rules of one's own.
        worlds: how worlds are drawn and weighed: ``"rules"`` (every deal the rules allow
            alike, but for the bids; a face-down card of 1000? read as ``greedy`` would have
            played it), ``"learned"`` (as the shipped learned models place the unseen cards
            and rate the bluffs), or a file of models (``thousand train-inference`` or
            ``thousand train-bluffs``).
    """

    def __init__(
        self,
        steps: int | None = None,
        deal_steps: int | None = None,
        seconds: float | None = None,
        deal_seconds: float | None = None,
        bidding: str | None = None,
        worlds: str = "rules",
    ) -> None:
        self.searches = searches_for_worlds(worlds)
        self.budget = Budget(DEFAULT_STEPS if steps is None else steps, seconds)
        self.bluff_budget = Budget(BLUFF_STEPS if steps is None else steps, seconds)
        if deal_seconds is None and seconds is not None:
            deal_seconds = seconds * DEAL_SHARE
        if deal_steps is None:
            deal_steps = round(self.budget.steps * DEAL_SHARE)
        self.deal_budget = Budget(deal_steps, deal_seconds)
        self.bidding = None if bidding is None else AuctionValues.load(Path(bidding))

    def budget_for(self, game: Search[S, O, A], observation: O) -> Budget:
        """The budget a decision is searched with: 1000?'s, a Thousand decision that shapes the
        deal's, or a card's."""
        if game.whole_game:
            return self.bluff_budget
        return self.deal_budget if game.shapes_deal(observation) else self.budget

    def search(self, game: Search[S, O, A], observation: O, choices: Sequence[A]) -> A:
        """The candidate action with the best average playout over sampled worlds."""
        sample = game.worlds(observation)
        weigh = game.weighing(observation)
        seat = observation.seat
        rng = self.rng
        budget = self.budget_for(game, observation)
        prior = game.prior(observation, choices, self.bidding)
        if prior is None:
            totals = [0.0] * len(choices)
            weights = [0.0] * len(choices)
        else:
            values, worlds = prior
            totals = [value * worlds for value in values]
            weights = [worlds] * len(choices)
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
                weight = weigh(world) or math.ulp(0.0)
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
