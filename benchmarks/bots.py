"""How long each built-in bot takes per decision, by game and phase, at its default budget.

Each bot plays in one seat of whole games against ``greedy`` bots (Thousand: single ``russian``
deals, the bot's seat rotating; 1000?: 3-player games), and every call of its ``act`` is timed.
The script prints, per bot and phase, the number of decisions, the median, the 95th
percentile and the mean; for the search bots also the simulated actions per second of thinking
(steps/s), the figure a faster engine raises. Only decisions with a real choice count (a single
legal action is answered at once by every bot, and is left out).

    python benchmarks/bots.py [--deals 20] [--games 10] [--bots random,greedy,pimc,ismcts]
"""

from __future__ import annotations

import argparse
import re
import statistics
import time
from collections import defaultdict
from typing import Any

from thousand import Rules, bluff, load_player, play
from thousand.bots import GreedyPlayer
from thousand.bots.search import search_for


class Timed:
    """A player that times its inner player's decisions by phase."""

    def __init__(self, inner: Any, times: dict[str, list[float]], steps: list[float]) -> None:
        self.inner = inner
        self.times = times
        self.steps = steps
        """Simulated actions and seconds, summed over the decisions of a search bot."""

    def start(self, seat: int, rules: Any, rng: Any) -> None:
        self.inner.start(seat, rules, rng)

    def act(self, observation: Any) -> object:
        begin = time.perf_counter()
        action = self.inner.act(observation)
        spent = time.perf_counter() - begin
        if len(observation.legal_actions) > 1:
            self.times[str(observation.phase)].append(spent)
            budget = getattr(self.inner, "budget", None)
            if hasattr(self.inner, "budget_for"):
                budget = self.inner.budget_for(search_for(observation), observation)
            if budget is not None:
                self.steps[0] += budget.spent
                self.steps[1] += spent
        return action


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(
    spec: str, deals: int, games: int
) -> tuple[dict[str, dict[str, list[float]]], dict[str, list[float]]]:
    """Decision times of the bot named ``spec``, by game then phase, and per game its simulated
    actions and thinking seconds."""
    make = load_player(spec)
    found: dict[str, dict[str, list[float]]] = {}
    steps: dict[str, list[float]] = {"Thousand (russian)": [0, 0], "1000? (3 players)": [0, 0]}
    thousand_times: dict[str, list[float]] = defaultdict(list)
    for deal in range(deals):
        seat = deal % 3
        players: list[Any] = [GreedyPlayer(), GreedyPlayer(), GreedyPlayer()]
        players[seat] = Timed(make(), thousand_times, steps["Thousand (russian)"])
        play(players, Rules.preset("russian"), seed=deal, single_deal=True)
    found["Thousand (russian)"] = thousand_times
    bluff_times: dict[str, list[float]] = defaultdict(list)
    for game in range(games):
        seat = game % 3
        players = [GreedyPlayer(), GreedyPlayer(), GreedyPlayer()]
        players[seat] = Timed(make(), bluff_times, steps["1000? (3 players)"])
        play(players, bluff.Rules(players=3), seed=game)
    found["1000? (3 players)"] = bluff_times
    return found, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20, help="Thousand deals per bot")
    parser.add_argument("--games", type=int, default=10, help="1000? games per bot")
    parser.add_argument(
        "--bots",
        default="random,greedy,pimc,ismcts",
        help="bot specs, separated by commas (options in parentheses may hold commas too)",
    )
    args = parser.parse_args()
    print(
        f"{'bot':<10} {'game':<20} {'phase':<14} {'decisions':>9} {'median':>10} {'p95':>10} "
        f"{'mean':>10}"
    )
    for spec in re.split(r",(?![^()]*\))", args.bots):
        everything: list[float] = []
        found, steps = measure(spec, args.deals, args.games)
        for game, phases in found.items():
            for phase, times in phases.items():
                everything += times
                print(
                    f"{spec:<10} {game:<20} {phase:<14} {len(times):>9} "
                    f"{statistics.median(times) * 1000:>8.2f}ms "
                    f"{percentile(times, 0.95) * 1000:>8.2f}ms "
                    f"{statistics.mean(times) * 1000:>8.2f}ms"
                )
        print(
            f"{spec:<10} {'both':<20} {'all':<14} {len(everything):>9} "
            f"{statistics.median(everything) * 1000:>8.2f}ms "
            f"{percentile(everything, 0.95) * 1000:>8.2f}ms "
            f"{statistics.mean(everything) * 1000:>8.2f}ms"
        )
        for game, (simulated, seconds) in steps.items():
            if seconds:
                print(f"{spec:<10} {game:<20} {'steps/s':<14} {simulated / seconds:>20,.0f}")


if __name__ == "__main__":
    main()
