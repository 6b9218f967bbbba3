"""Engine speed and memory: random games through the public API, for every Thousand preset and
for 1000? at several table sizes.

Each decision is ``state.legal_actions()`` -> ``rng.choice`` -> ``state.apply``, as a bot driver
does. Prints decisions/s, deals (Thousand) or games (1000?) per second, and the bytes each
retained state adds when every state of a game is kept (structure shared between successive
states counts once).

    python benchmarks/engine.py [--seconds 5] [--game russian --game 1000?-4 ...]

With ``--ratio`` it reports each game's decisions/s as a share of the plain-Python reference loop
(``benchmarks/reference.py``), the two taking turns every 100 ms in this process (see
``interleave.py``), median of ``--rounds``: figures that stay comparable on a loaded or slower
machine. ``--floor FILE`` also takes the share of the ``deal_full_api`` loop of an outside
benchmark file, taking its turns with the other two.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import random
import statistics
import time
import tracemalloc
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

from interleave import Meter, interleaved
from reference import reference_deals

from thousand import Rules, bluff, new_match

Start = Callable[[int], Any]


def thousand_match(rules: Rules, seed: int) -> Any:
    return new_match(rules, seed=seed)


def bluff_game(rules: bluff.Rules, seed: int) -> Any:
    return bluff.new_game(rules, seed=seed)


def deals_played(state: Any) -> int:
    return len(state.deals)


def one_game(state: Any) -> int:
    return 1


def games() -> dict[str, tuple[Start, Callable[[Any], int]]]:
    """Each benchmarked game: how to start it from a seed, and how many units (deals or games)
    a finished one counts for."""
    table: dict[str, tuple[Start, Callable[[Any], int]]] = {}
    for name in Rules.preset_names():
        table[name] = (partial(thousand_match, Rules.preset(name)), deals_played)
    for players in (2, 4, 6):
        table[f"1000?-{players}"] = (partial(bluff_game, bluff.Rules(players=players)), one_game)
    return table


def speed(start: Start, units: Callable[[Any], int], seconds: float) -> tuple[float, float]:
    """Decisions per second and deals (or games) per second over random games."""
    rng = random.Random(0)
    decisions = done = seed = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        state = start(seed)
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))
            decisions += 1
        done += units(state)
        seed += 1
    elapsed = time.perf_counter() - began
    return decisions / elapsed, done / elapsed


def retained_bytes(start: Start, games: int = 3) -> float:
    """Average memory per state when every state of a few whole games is kept alive."""
    rng = random.Random(1)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept = []
    for seed in range(games):
        state = start(1000 + seed)
        kept.append(state)
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))
            kept.append(state)
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) / len(kept)


def played(start: Start, first_seed: int = 0) -> Iterator[int]:
    """Random games one after another, seeded from ``first_seed`` on: yields each game's
    decisions."""
    rng = random.Random(first_seed)
    choice = rng.choice
    seed = first_seed
    while True:
        state = start(seed)
        decisions = 0
        while not state.is_over:
            state = state.apply(choice(state.legal_actions()))
            decisions += 1
        seed += 1
        yield decisions


def outside_deals(path: str) -> Iterator[int]:
    """Deals of the ``deal_full_api`` function of a benchmark file: yields each deal's
    decisions."""
    spec = importlib.util.spec_from_file_location("outside_floor", Path(path))
    if spec is None or spec.loader is None:
        raise SystemExit(f"{path} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    deal = module.deal_full_api
    rng = random.Random(1)
    while True:
        yield deal(rng)[0]


def ratios(
    table: dict[str, tuple[Start, Callable[[Any], int]]],
    names: list[str],
    seconds: float,
    rounds: int,
    floor: str | None,
) -> None:
    """Print each game's share of the reference loop (and of the outside floor): in every round
    the loops take turns in slices of 100 ms (see ``interleave.py``)."""
    header = f"{'game':<10} {'decisions/s':>12} {'reference/s':>12} {'ratio':>7}"
    print(header + (f" {'floor/s':>10} {'of floor':>9}" if floor else ""))
    for name in names:
        start, _ = table[name]
        own, reference, shares, floors, floor_shares = [], [], [], [], []
        for number in range(rounds):
            meters = [Meter(played(start, 1000 * number)), Meter(reference_deals(number))]
            if floor:
                meters.append(Meter(outside_deals(floor)))
            interleaved(meters, seconds)
            engine, plain = meters[0].speed, meters[1].speed
            own.append(engine)
            reference.append(plain)
            shares.append(engine / plain)
            if floor:
                floors.append(meters[2].speed)
                floor_shares.append(engine / meters[2].speed)
        line = (
            f"{name:<10} {statistics.median(own):>12,.0f} {statistics.median(reference):>12,.0f}"
            f" {statistics.median(shares):>7.3f}"
        )
        if floor:
            line += f" {statistics.median(floors):>10,.0f} {statistics.median(floor_shares):>9.3f}"
        print(line)


def main() -> None:
    table = games()
    parser = argparse.ArgumentParser(description="Engine speed and memory per game.")
    parser.add_argument("--seconds", type=float, default=5.0, help="timing per game")
    parser.add_argument(
        "--game", action="append", choices=sorted(table), help="games to measure (default: all)"
    )
    parser.add_argument("--ratio", action="store_true", help="report shares of the reference loop")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (--ratio)")
    parser.add_argument("--floor", help="a benchmark file with deal_full_api, also compared")
    args = parser.parse_args()
    if args.ratio:
        ratios(table, args.game or list(table), args.seconds, args.rounds, args.floor)
        return
    print(f"{'game':<10} {'decisions/s':>12} {'deals/s':>9} {'bytes/state':>12}")
    for name in args.game or table:
        start, units = table[name]
        per_decision, per_unit = speed(start, units, args.seconds)
        memory = retained_bytes(start)
        print(f"{name:<10} {per_decision:>12,.0f} {per_unit:>9,.0f} {memory:>12,.0f}")
    print("(for 1000? the deals/s column counts whole games)")


if __name__ == "__main__":
    main()
