"""Where the ladder server's reference bots should play: a decision made in the server's own
process against the same decision made by a worker process (``thousand server --reference``).

For each bot, Russian deals are played with the bot in every seat, first in the server's
process (``InServer``), then on one local worker (``Hosted``), taking turns for ``--seconds``
each, ``--rounds`` times. Printed per bot, medians of the rounds: the time per decision each
way, the worker's cost over the server's own, and the server process's own processor time per
decision with a worker (what sending the decision costs the server, which is what matters to
its other games).

    python benchmarks/server_workers.py [--seconds 2] [--rounds 3] [--bot greedy ...]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from thousand.classic.rules import Rules  # noqa: E402
from thousand.table.match import start_match  # noqa: E402
from thousand.table.specs import load_player  # noqa: E402
from tournament.server.hosts import Hosted, InServer, LocalHosts, ServerSeat  # noqa: E402

RUSSIAN = Rules.preset("russian")


async def deals(seats: list[ServerSeat], seconds: float, seed: int) -> tuple[int, float, float]:
    """Play deals with ``seats`` for ``seconds``: the decisions made, and the wall and processor
    seconds they took."""
    decisions, wall, processor = 0, 0.0, 0.0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        match = start_match(RUSSIAN, seed=seed, single_deal=True)
        seed += 1
        for seat, player in enumerate(seats):
            await player.begin(seat, RUSSIAN, seed, 60.0)
        while (to_act := match.to_act) is not None:
            observation = match.observation()
            began, used = time.perf_counter(), time.process_time()
            action = await seats[to_act].act(observation, 60.0)
            wall += time.perf_counter() - began
            processor += time.process_time() - used
            decisions += 1
            match.submit(to_act, action, 0.0)
        outcome = match.outcome()
        for player in seats:
            await player.end(outcome, 60.0)
    return decisions, wall, processor


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds each way a round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--bot", action="append", help="bots measured (random, greedy)")
    options = parser.parse_args()
    hosts = LocalHosts(1)
    try:
        print(f"{'bot':<22} {'server µs':>10} {'worker µs':>10} {'ratio':>7} {'server cpu µs':>14}")
        for spec in options.bot or ["random", "greedy"]:
            make = load_player(spec)
            here_times, away_times, away_processor = [], [], []
            for round_ in range(options.rounds):
                here = [InServer(make()) for _ in range(3)]
                away: list[ServerSeat] = [Hosted(hosts, spec) for _ in range(3)]
                count, wall, _ = asyncio.run(deals(list(here), options.seconds, round_))
                here_times.append(wall / count)
                count, wall, processor = asyncio.run(deals(away, options.seconds, round_))
                away_times.append(wall / count)
                away_processor.append(processor / count)
            here_us = statistics.median(here_times) * 1e6
            away_us = statistics.median(away_times) * 1e6
            print(
                f"{spec:<22} {here_us:>10.1f} {away_us:>10.1f} {away_us / here_us:>7.1f} "
                f"{statistics.median(away_processor) * 1e6:>14.1f}"
            )
    finally:
        hosts.close()


if __name__ == "__main__":
    main()
