"""Match driver overhead and external bot throughput.

1. Random bots through ``thousand.play`` against the engine's raw loop (``legal_actions`` ->
   ``rng.choice`` -> ``apply``, as in ``benchmarks/engine.py``), taking turns every 100 ms so
   that both see the same machine (``interleave.py``). Each side's decisions are timed apart
   from the rest of a match (the engine's dealing; the driver's seating and starting the
   players, and its outcome and record): prints each side's decisions/s while deciding, the
   driver's share of the engine's, and what the rest costs per match (milliseconds, and the
   share of the whole the driver keeps with it), medians of ``--rounds``.
2. Whole matches in which every seat is an external random bot speaking the JSON-lines protocol
   (``examples/external_bot.py`` in a process of its own per seat); prints decisions/s.

    python benchmarks/driver.py [--seconds 2] [--rounds 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine import Start, games
from interleave import Meter, interleaved

from thousand import Match, Rules, bluff, play
from thousand.bots import RandomPlayer

EXTERNAL_BOT = Path(__file__).resolve().parent.parent / "examples" / "external_bot.py"


def rules_for(name: str) -> Rules | bluff.Rules:
    if name.startswith("1000?-"):
        return bluff.Rules(players=int(name.split("-")[1]))
    return Rules.preset(name)


def deciding(start: Start, first_seed: int) -> Iterator[tuple[int, float]]:
    """The engine's raw loop over random games seeded from ``first_seed`` on: yields each
    game's decisions and the seconds they took (its dealing left out)."""
    rng = random.Random(first_seed)
    choice = rng.choice
    clock = time.perf_counter
    seed = first_seed
    while True:
        state = start(seed)
        decisions = 0
        began = clock()
        while not state.is_over:
            state = state.apply(choice(state.legal_actions()))
            decisions += 1
        yield decisions, clock() - began
        seed += 1


def driven(rules: Rules | bluff.Rules, first_seed: int) -> Iterator[tuple[int, float]]:
    """Matches of random bots played by the driver, seeded from ``first_seed`` on: yields each
    match's decisions and the seconds its loop of decisions took."""
    seed = first_seed
    spent = [0.0]
    stepping = Match.play_out

    def timed(*arguments: Any) -> None:
        began = time.perf_counter()
        try:
            stepping(*arguments)
        finally:
            spent[0] += time.perf_counter() - began

    Match.play_out = timed  # type: ignore[method-assign,assignment]
    try:
        while True:
            players = [RandomPlayer() for _ in range(rules.players)]
            spent[0] = 0.0
            decisions = sum(play(players, rules, seed=seed).decisions)
            yield decisions, spent[0]
            seed += 1
    finally:
        Match.play_out = stepping  # type: ignore[method-assign]


def external_speed(rules: Rules | bluff.Rules, seconds: float) -> tuple[float, float, float]:
    """With every seat an external random bot: decisions per second of play (from the first
    request to the last answer), decisions per second overall (starting and stopping the
    programs included), and milliseconds per match spent starting and stopping them."""
    spec = f"cmd:{sys.executable} {EXTERNAL_BOT}"
    decisions = matches = 0
    deciding = 0.0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        outcome = play([spec] * rules.players, rules, seed=matches)
        assert all(status.value == "ok" for status in outcome.statuses), outcome.faults
        decisions += sum(outcome.decisions)
        deciding += sum(outcome.think_time)
        matches += 1
    elapsed = time.perf_counter() - began
    return decisions / deciding, decisions / elapsed, (elapsed - deciding) / matches * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per measurement")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds per game")
    table = games()
    parser.add_argument("--game", action="append", choices=sorted(table), help="games to measure")
    args = parser.parse_args()
    names = args.game or ["russian", "polish", "polish-2p", "1000?-4"]
    print(
        f"{'game':<10} {'engine/s':>10} {'driver/s':>10} {'share':>7}"
        f" {'setup ms':>9} {'overall':>8}"
    )
    for name in names:
        rules = rules_for(name)
        start = table[name][0]
        shares, raws, driven_speeds, setups, whole = [], [], [], [], []
        for number in range(args.rounds):
            first = 1000 * number
            engine, driver = Meter(deciding(start, first)), Meter(driven(rules, first))
            interleaved([engine, driver], args.seconds)
            raws.append(engine.deciding_speed)
            driven_speeds.append(driver.deciding_speed)
            shares.append(driver.deciding_speed / engine.deciding_speed)
            setups.append(driver.setup_seconds * 1000)
            whole.append(driver.speed / engine.speed)
        print(
            f"{name:<10} {statistics.median(raws):>10,.0f}"
            f" {statistics.median(driven_speeds):>10,.0f} {statistics.median(shares):>7.1%}"
            f" {statistics.median(setups):>9.2f} {statistics.median(whole):>8.1%}"
        )
    print("\nexternal random bots in every seat")
    print(f"{'game':<10} {'in play/s':>10} {'overall/s':>10} {'ms/match':>9}")
    for name in names:
        sustained, overall, startup = external_speed(rules_for(name), args.seconds * 2)
        print(f"{name:<10} {sustained:>10,.0f} {overall:>10,.0f} {startup:>9.1f}")


if __name__ == "__main__":
    main()
