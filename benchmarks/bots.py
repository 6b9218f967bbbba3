"""How long each built-in bot takes per decision, by game and phase, at its default budget.

Each bot plays in one seat of whole games against ``greedy`` bots (Thousand: single ``russian``
deals, the bot's seat rotating; 1000?: 3-player games), and every call of its ``act`` is timed.
The script prints, per bot and phase, the number of decisions, the median and the 95th
percentile. Only decisions with a real choice count (a single legal action is answered at once
by every bot, and is left out).

    python benchmarks/bots.py [--deals 20] [--games 10] [--bots random,greedy,pimc,ismcts]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict
from typing import Any

from thousand import Rules, bluff, load_player, play
from thousand.bots import GreedyPlayer


class Timed:
    """A player that times its inner player's decisions by phase."""

    def __init__(self, inner: Any, times: dict[str, list[float]]) -> None:
        self.inner = inner
        self.times = times

    def start(self, seat: int, rules: Any, rng: Any) -> None:
        self.inner.start(seat, rules, rng)

    def act(self, observation: Any) -> object:
        begin = time.perf_counter()
        action = self.inner.act(observation)
        if len(observation.legal_actions) > 1:
            self.times[str(observation.phase)].append(time.perf_counter() - begin)
        return action


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(spec: str, deals: int, games: int) -> dict[str, dict[str, list[float]]]:
    """Decision times of the bot named ``spec``, by game then phase."""
    make = load_player(spec)
    found: dict[str, dict[str, list[float]]] = {}
    thousand_times: dict[str, list[float]] = defaultdict(list)
    for deal in range(deals):
        seat = deal % 3
        players: list[Any] = [GreedyPlayer(), GreedyPlayer(), GreedyPlayer()]
        players[seat] = Timed(make(), thousand_times)
        play(players, Rules.preset("russian"), seed=deal, single_deal=True)
    found["Thousand (russian)"] = thousand_times
    bluff_times: dict[str, list[float]] = defaultdict(list)
    for game in range(games):
        seat = game % 3
        players = [GreedyPlayer(), GreedyPlayer(), GreedyPlayer()]
        players[seat] = Timed(make(), bluff_times)
        play(players, bluff.Rules(players=3), seed=game)
    found["1000? (3 players)"] = bluff_times
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20, help="Thousand deals per bot")
    parser.add_argument("--games", type=int, default=10, help="1000? games per bot")
    parser.add_argument("--bots", default="random,greedy,pimc,ismcts")
    args = parser.parse_args()
    print(f"{'bot':<10} {'game':<20} {'phase':<14} {'decisions':>9} {'median':>10} {'p95':>10}")
    for spec in args.bots.split(","):
        everything: list[float] = []
        for game, phases in measure(spec, args.deals, args.games).items():
            for phase, times in phases.items():
                everything += times
                print(
                    f"{spec:<10} {game:<20} {phase:<14} {len(times):>9} "
                    f"{statistics.median(times) * 1000:>8.2f}ms "
                    f"{percentile(times, 0.95) * 1000:>8.2f}ms"
                )
        print(
            f"{spec:<10} {'both':<20} {'all':<14} {len(everything):>9} "
            f"{statistics.median(everything) * 1000:>8.2f}ms "
            f"{percentile(everything, 0.95) * 1000:>8.2f}ms"
        )


if __name__ == "__main__":
    main()
