"""The cost of an observation: taking one, and taking one and reading every field.

States are collected from random playouts first; then each measurement takes the observation of
the seat to act in every one of them, in alternating rounds with a plain-Python reference loop
(building a small tuple per state), so that a ratio to the reference is comparable across
machines. Prints microseconds per observation and the ratio, medians of the rounds.

    python benchmarks/observation.py [--states 3000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from thousand import Rules, bluff, new_match
from thousand.games import game_of

GAMES = ("russian", "polish", "polish-2p", "1000?-4")


def states(name: str, count: int) -> tuple[Callable[[Any, int], Any], list[Any]]:
    """The game's observe function and ``count`` states from random playouts (none over)."""
    rng = random.Random(name)
    found: list[Any] = []
    seed = 0
    while len(found) < count:
        if name.startswith("1000?-"):
            state: Any = bluff.new_game(bluff.Rules(players=int(name.split("-")[1])), seed=seed)
        else:
            state = new_match(Rules.preset(name), seed=seed)
        while not state.is_over and len(found) < count:
            found.append(state)
            state = state.apply(rng.choice(state.legal_actions()))
        seed += 1
    return game_of(found[0].rules).observe, found


def per_item(run: Callable[[], object], items: int) -> float:
    """Microseconds per item of one run."""
    began = time.perf_counter()
    run()
    return (time.perf_counter() - began) / items * 1e6


def measure(name: str, count: int, rounds: int) -> tuple[float, float, float]:
    """Medians of: µs to take an observation, µs to take and read it whole, µs of the reference."""
    observe, found = states(name, count)
    seated = [(state, state.player) for state in found]
    for state, _ in seated:  # legal actions are cached on the state; compute them first
        state.legal_actions()

    def take() -> None:
        for state, seat in seated:
            observe(state, seat)

    def read() -> None:
        for state, seat in seated:
            observe(state, seat).fields()

    def reference() -> None:
        for state, seat in seated:
            (state, seat, state.player == seat, len(seated))

    takes, reads, references = [], [], []
    for _ in range(rounds):
        references.append(per_item(reference, len(seated)))
        takes.append(per_item(take, len(seated)))
        reads.append(per_item(read, len(seated)))
    return statistics.median(takes), statistics.median(reads), statistics.median(references)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=3000, help="states per game")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds")
    parser.add_argument("--game", action="append", help=", ".join(GAMES))
    args = parser.parse_args(argv)
    print(f"{'game':<10} {'take µs':>8} {'read µs':>8} {'take/ref':>9} {'read/ref':>9}")
    for name in args.game or GAMES:
        take, read, reference = measure(name, args.states, args.rounds)
        print(
            f"{name:<10} {take:>8.2f} {read:>8.2f} {take / reference:>9.2f} "
            f"{read / reference:>9.2f}"
        )


if __name__ == "__main__":
    main()
