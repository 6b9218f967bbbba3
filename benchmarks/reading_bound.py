"""How much a search bot could still gain by reading the hidden cards: ``pimc`` against a ``pimc``
told the truth, each measured against ``greedy`` in the same seat of the same deal.

A model of where the unseen cards lie can at best make the worlds a search draws the true one.
This measures that ceiling for Thousand (``--rules``, by default ``russian``): each layout
``Layout.from_seed(3, --seed, n)`` is played as a single deal, dealer seat 0, once with
``greedy`` at every seat and then once per seat with the measured bot there and ``greedy``
elsewhere, every player seeded alike. A seating's value is the bot's margin (its deal score
less the others' mean) less the margin ``greedy`` made in that seat; a layout's value is the
mean of its seatings. The bots:

* ``pimc``: the search bot as it plays (or any bot spec, with ``--bots``);
* ``told-play``: ``pimc`` whose every world in the trick play is the true deal;
* ``told-all``: the same for every decision: the talon and the other hands are known from the
  first bid.

Printed per bot: its lead over ``greedy`` in points a deal with a 95% interval, and its gain
over the first bot, paired layout by layout.

    python benchmarks/reading_bound.py [--deals 200] [--seed 777] [--rules russian]
        [--bots pimc,told-play,told-all]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence

from thousand import DealResult, Layout, Rules, play
from thousand.bots.auction_value import AuctionValues
from thousand.bots.pimc import PimcPlayer
from thousand.bots.search import ThousandSearch
from thousand.classic.actions import Action
from thousand.classic.observation import Observation
from thousand.classic.state import GameState, Phase
from thousand.games import THOUSAND, AnyState
from thousand.players import AnyPlayer

SEATS = 3
TOLD = {"told-play": frozenset({Phase.PLAY}), "told-all": frozenset(Phase)}
"""The bots told the true deal, and in which phases."""


class Truth:
    """The deal as it stands, kept up to date by the match's ``watch``."""

    def __init__(self) -> None:
        self.state: GameState | None = None

    def watch(self, state: AnyState) -> None:
        assert isinstance(state, GameState)
        self.state = state


class ToldSearch(ThousandSearch):
    """The Thousand search whose only world, in ``phases``, is the true deal."""

    def __init__(self, truth: Truth, phases: frozenset[Phase]) -> None:
        super().__init__()
        self.truth = truth
        self.phases = phases

    def worlds(self, observation: Observation) -> Callable[[random.Random], GameState]:
        state = self.truth.state
        if observation.phase not in self.phases or state is None:
            return super().worlds(observation)
        assert state.player == observation.seat
        return lambda rng: state

    def weighing(self, start: Observation) -> Callable[[GameState], float]:
        if start.phase in self.phases:
            return lambda world: 1.0
        return super().weighing(start)

    def prior(
        self, observation: Observation, choices: Sequence[Action], model: AuctionValues | None
    ) -> tuple[tuple[float, ...], float] | None:
        # Told the deal, a bid owes nothing to the learned estimate of what a raise is worth.
        if observation.phase in self.phases:
            return None
        return super().prior(observation, choices, model)


def player(spec: str, truth: Truth) -> AnyPlayer | str:
    """The measured bot of ``spec``: a told ``pimc``, or the spec itself."""
    if spec not in TOLD:
        return spec
    told = PimcPlayer()
    told.searches = {**told.searches, THOUSAND: ToldSearch(truth, TOLD[spec])}
    return told


def margin(scores: Sequence[int], seat: int) -> float:
    """A seat's deal score less the mean of the others'."""
    return scores[seat] - statistics.fmean(s for other, s in enumerate(scores) if other != seat)


def deal_scores(
    lineup: Sequence[AnyPlayer | str], rules: Rules, seed: int, deal: int, truth: Truth
) -> tuple[int, ...]:
    """The deal scores of one layout played by ``lineup``."""
    outcome = play(
        lineup,
        rules,
        seed=deal,
        single_deal=True,
        layout=Layout.from_seed(SEATS, seed, deal),
        dealer=0,
        watch=truth.watch,
    )
    assert isinstance(outcome.result, DealResult)
    return outcome.result.deal_scores


def interval(values: Sequence[float]) -> str:
    """The mean with the half-width of its 95% confidence interval."""
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return f"{statistics.fmean(values):+.1f} ± {half:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description="pimc against pimc told the hidden cards.")
    parser.add_argument("--deals", type=int, default=200, help="layouts, each played per seat")
    parser.add_argument("--seed", type=int, default=777, help="seed of the layouts")
    parser.add_argument("--rules", default="russian", help="a three-player Thousand preset")
    parser.add_argument("--bots", default="pimc,told-play,told-all", help="comma-separated")
    args = parser.parse_args()
    rules = Rules.preset(args.rules)
    if rules.players != SEATS:
        parser.error(f"--rules must be a preset for {SEATS} players")
    bots = args.bots.split(",")
    began = time.perf_counter()
    truth = Truth()
    leads: dict[str, list[float]] = {bot: [] for bot in bots}
    for deal in range(args.deals):
        greedy = deal_scores(["greedy"] * SEATS, rules, args.seed, deal, truth)
        for bot in bots:
            gains = []
            for seat in range(SEATS):
                lineup = [player(bot, truth) if s == seat else "greedy" for s in range(SEATS)]
                scores = deal_scores(lineup, rules, args.seed, deal, truth)
                gains.append(margin(scores, seat) - margin(greedy, seat))
            leads[bot].append(statistics.fmean(gains))
    print(f"{args.rules}: {args.deals} layouts of seed {args.seed}, each bot in every seat\n")
    print(f"{'bot':<24} {'over greedy':<16} over {bots[0]}")
    for bot in bots:
        paired = [mine - first for mine, first in zip(leads[bot], leads[bots[0]], strict=True)]
        print(f"{bot:<24} {interval(leads[bot]):<16} {interval(paired)}")
    print(f"\ntotal time: {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
