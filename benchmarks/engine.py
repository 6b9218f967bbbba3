"""Engine speed and memory: random full matches through the public API, per preset.

Each decision is ``state.legal_actions()`` -> ``rng.choice`` -> ``state.apply``, as a bot driver
does. Prints decisions/s, deals/s and the bytes each retained state adds when every state of a
match is kept (the structure shared between successive states counts once).

    python benchmarks/engine.py [--seconds 5] [--preset russian ...]
"""

from __future__ import annotations

import argparse
import gc
import random
import time
import tracemalloc

from thousand import Rules, new_match


def speed(rules: Rules, seconds: float) -> tuple[float, float]:
    """Decisions per second and deals per second over random matches for about ``seconds``."""
    rng = random.Random(0)
    decisions = deals = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = new_match(rules, seed=seed)
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))
            decisions += 1
        deals += len(state.deals)
        seed += 1
    elapsed = time.perf_counter() - start
    return decisions / elapsed, deals / elapsed


def retained_bytes(rules: Rules, matches: int = 3) -> float:
    """Average memory per state when every state of a few whole matches is kept alive."""
    rng = random.Random(1)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept = []
    for seed in range(matches):
        state = new_match(rules, seed=1000 + seed)
        kept.append(state)
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))
            kept.append(state)
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) / len(kept)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="timing per preset")
    parser.add_argument("--preset", action="append", help="presets to measure (default: all)")
    args = parser.parse_args()
    print(f"{'preset':<10} {'decisions/s':>12} {'deals/s':>9} {'bytes/state':>12}")
    for name in args.preset or Rules.preset_names():
        rules = Rules.preset(name)
        per_decision, per_deal = speed(rules, args.seconds)
        memory = retained_bytes(rules)
        print(f"{name:<10} {per_decision:>12,.0f} {per_deal:>9,.0f} {memory:>12,.0f}")


if __name__ == "__main__":
    main()
