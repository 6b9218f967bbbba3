"""A Monte Carlo bot in thirty lines, built on the determiniser.

The bot cannot see the other hands, so for each decision it asks ``thousand.Determiniser`` for a
few full deals that agree with everything its seat has seen, plays every legal action out in
each of them with random play by all seats, and keeps the action that scored best on average.

Usage::

    python examples/sampling_bot.py                 # 6 deals against two random bots
    python examples/sampling_bot.py --deals 30 --worlds 20

Prints the bot's mean deal score next to that of the random bots it played against.
"""

from __future__ import annotations

import argparse
import statistics

import thousand
from thousand import GameState, Observation, Rules


class Sampler(thousand.SeatedPlayer[Observation]):
    """Tries every legal action in a few sampled deals, played out at random."""

    def __init__(self, worlds: int = 8) -> None:
        self.worlds = worlds

    def act(self, observation: Observation) -> object:
        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        sampler = thousand.Determiniser(observation)
        totals = [0.0] * len(legal)
        for _ in range(self.worlds):
            world = sampler.sample(self.rng)
            for index, action in enumerate(legal):
                totals[index] += self.playout(world.apply(action))
        return legal[max(range(len(legal)), key=totals.__getitem__)]

    def playout(self, state: GameState) -> float:
        """This seat's deal score once the deal is played out at random."""
        while not state.is_over:
            state = state.apply(self.rng.choice(state.legal_actions()))
        assert isinstance(state.result, thousand.DealResult)
        return state.result.deal_scores[self.seat]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--worlds", type=int, default=8)
    args = parser.parse_args()
    rules = Rules.preset("russian")
    own: list[int] = []
    others: list[int] = []
    for deal in range(args.deals):
        seat = deal % 3
        players: list[thousand.Player[Observation] | str] = ["random", "random", "random"]
        players[seat] = Sampler(args.worlds)
        outcome = thousand.play(players, rules, seed=deal, single_deal=True)
        own.append(outcome.scores[seat])
        others += [score for other, score in enumerate(outcome.scores) if other != seat]
    print(f"sampling bot, {args.deals} deals, {args.worlds} worlds per decision")
    print(f"mean deal score: sampling bot {statistics.fmean(own):+.1f}")
    print(f"mean deal score: random bots  {statistics.fmean(others):+.1f}")


if __name__ == "__main__":
    main()
