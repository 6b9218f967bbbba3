"""How much stronger the ``greedy`` bot is than the ``random`` bot, measured in duplicate play.

Each group plays the same cards once per seat, with ``greedy`` in that seat and ``random`` bots
in the others, so that the luck of the deal cancels out:

* Thousand (``russian``, 3 players): the deal ``Layout.from_seed(3, seed, group)`` as a single
  deal, dealer seat 0. A seating's value is greedy's deal score less the mean of the two random
  bots' deal scores.
* 1000? (3 players): the game dealt from seed ``game_seed(seed, group)``. A seating's value is
  greedy's share of the win less the mean share of the random bots (a shared win counts
  ``1 / len(winners)``).

The players' own generators are seeded from ``game_seed(seed, group)`` too.

A group's value is the mean over its seatings; the script prints the mean over the groups with a
95% confidence interval (mean ± 1.96 sd / √N), a few figures about greedy's play, and the time.

    python benchmarks/strength.py [--groups 300] [--seed 0]
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable, Sequence

from thousand import DealResult, Layout, Outcome, Rules, bluff, play

SEATS = 3
GROUPS_PER_SEED = 1_000_000


def game_seed(seed: int, group: int) -> int:
    """The seed of a group's games (also seeding the players), distinct for every seed and group
    below ``GROUPS_PER_SEED``."""
    return seed * GROUPS_PER_SEED + group


def interval(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% confidence interval."""
    mean = statistics.fmean(values)
    spread = statistics.stdev(values) if len(values) > 1 else 0.0
    return mean, 1.96 * spread / math.sqrt(len(values))


class Tally:
    """What one game's groups add up to: the group values and greedy's own figures."""

    def __init__(self) -> None:
        self.values: list[float] = []
        self.own: list[float] = []
        self.declared = 0
        self.made = 0
        self.think = 0.0
        self.decisions = 0

    def seated(self, outcome: Outcome, seat: int) -> None:
        """Count greedy's decisions and thinking time in one seating."""
        self.think += outcome.think_time[seat]
        self.decisions += outcome.decisions[seat]


def lineup(greedy: int) -> list[str]:
    """The players of a seating: greedy in one seat, random bots elsewhere."""
    return ["greedy" if seat == greedy else "random" for seat in range(SEATS)]


def others_mean(values: Sequence[float], seat: int) -> float:
    """The mean of the values of every seat but ``seat``."""
    return statistics.fmean(value for other, value in enumerate(values) if other != seat)


def thousand_group(rules: Rules, seed: int, group: int, tally: Tally) -> None:
    """One deal played three times, greedy in each seat in turn."""
    layout = Layout.from_seed(SEATS, seed, group)
    margins = []
    for seat in range(SEATS):
        outcome = play(
            lineup(seat),
            rules,
            seed=game_seed(seed, group),
            single_deal=True,
            layout=layout,
            dealer=0,
        )
        result = outcome.result
        assert isinstance(result, DealResult)
        scores = result.deal_scores
        margins.append(scores[seat] - others_mean(scores, seat))
        tally.own.append(scores[seat])
        tally.seated(outcome, seat)
        if result.declarer == seat and result.contract is not None:
            tally.declared += 1
            tally.made += result.points[seat] >= result.contract
    tally.values.append(statistics.fmean(margins))


def bluff_group(rules: bluff.Rules, seed: int, group: int, tally: Tally) -> None:
    """One 1000? deal played three times, greedy in each seat in turn."""
    margins = []
    for seat in range(SEATS):
        outcome = play(lineup(seat), rules, seed=game_seed(seed, group))
        result = outcome.result
        assert isinstance(result, bluff.Result)
        shares = [0.0] * SEATS
        for winner in result.winners:
            shares[winner] = 1 / len(result.winners)
        margins.append(shares[seat] - others_mean(shares, seat))
        tally.own.append(shares[seat])
        tally.seated(outcome, seat)
    tally.values.append(statistics.fmean(margins))


def measure(groups: int, one_group: Callable[[int, Tally], None]) -> Tally:
    """Play every group of one game."""
    tally = Tally()
    for group in range(groups):
        one_group(group, tally)
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description="Greedy against random in duplicate play.")
    parser.add_argument("--groups", type=int, default=300, help="deal groups per game")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals")
    args = parser.parse_args()
    if not 1 <= args.groups < GROUPS_PER_SEED:
        parser.error(f"--groups must be from 1 to {GROUPS_PER_SEED - 1}")
    began = time.perf_counter()
    russian = Rules.preset("russian")
    game = bluff.Rules(players=SEATS)
    thousand = measure(
        args.groups, lambda group, tally: thousand_group(russian, args.seed, group, tally)
    )
    climbing = measure(args.groups, lambda group, tally: bluff_group(game, args.seed, group, tally))
    print(
        f"greedy against random in duplicate play: {args.groups} groups of {SEATS} seatings, "
        f"seed {args.seed}\n"
    )
    print(f"{'game':<20} {'greedy - random (95% CI)':<26} greedy on its own")
    mean, half = interval(thousand.values)
    made = thousand.made / thousand.declared if thousand.declared else 0.0
    print(
        f"{'Thousand (russian)':<20} {f'{mean:+.1f} ± {half:.1f} points':<26} "
        f"mean deal score {statistics.fmean(thousand.own):+.1f}; "
        f"{thousand.made} of {thousand.declared} contracts made ({made:.0%})"
    )
    mean, half = interval(climbing.values)
    print(
        f"{'1000? (3 players)':<20} {f'{mean:+.3f} ± {half:.3f} wins':<26} "
        f"win share {statistics.fmean(climbing.own):.3f} (an even share is {1 / SEATS:.3f})"
    )
    times = [
        f"{name} {tally.think / tally.decisions * 1e6:.0f} µs"
        for name, tally in (("Thousand", thousand), ("1000?", climbing))
    ]
    print(f"\ngreedy's mean decision time: {', '.join(times)}")
    print(f"total time: {time.perf_counter() - began:.1f} s")


if __name__ == "__main__":
    main()
