"""What isolating a Python bot costs.

First, single matches through ``thousand.play``: the bot is ``RandomCopy`` below, a Python bot
that is not built in and plays like ``random``, in seat 0 against two built-in ``random`` bots, in
alternating rounds so that every way sees the same machine:

* ``in process``: ``isolate="none"``, the bot trusted;
* ``sandbox``: ``isolate="sandbox"``, the bot in a process of its own walled in by namespaces,
  kept between matches of other cards (the default of tournaments);
* ``process``: ``isolate="process"``, the bot in a process forked from its loader;
* ``new interpreter``: ``cmd:python -m thousand.serve SPEC``, a program of its own.

For single deals (the worst case: the cost of a process is paid for a few decisions) and whole
matches to 1000, it prints milliseconds per match (medians of the rounds) and each way's time
over the in-process way's, measured in the same round.

Then whole tournaments through the ``thousand`` program: ``MyGreedy`` below (a file that
subclasses the built-in greedy, as a newcomer's first bot does) against ``random`` and
``random``, in single deals on two workers, trusted (``--no-isolate``), sandboxed (the default),
in processes (``--isolate=process``), and as an external Python program
(``cmd:python -m thousand.serve``, sandboxed): deals per second and the share of the trusted
throughput, medians of alternating rounds. Last, what sandboxing adds to the start of a single
``thousand match``.

    python benchmarks/isolation.py [--seconds 2] [--rounds 3] [--deals 1000]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

import thousand
from thousand import SeatedPlayer
from thousand.bots.greedy import GreedyPlayer
from thousand.games import AnyObservation

SPEC = f"{__file__}:RandomCopy"


class RandomCopy(SeatedPlayer[AnyObservation]):
    """Plays a random legal action, like the built-in ``random``, after ``think`` seconds."""

    def __init__(self, think: float = 0.0) -> None:
        super().__init__()
        self.think = think

    def act(self, observation: AnyObservation) -> object:
        """A random legal action."""
        if self.think:
            time.sleep(self.think)
        return self.rng.choice(observation.legal_actions)


class MyGreedy(GreedyPlayer):
    """A newcomer's first bot: the built-in greedy, from a file of its own."""


WAYS = {
    "in process": (SPEC, "none"),
    "sandbox": (SPEC, "sandbox"),
    "process": (SPEC, "process"),
    "new interpreter": (f"cmd:{sys.executable} -m thousand.serve {SPEC}", "none"),
}

PROGRAM = str(Path(sys.executable).with_name("thousand"))
"""The installed ``thousand`` program."""
GREEDY = f"{__file__}:MyGreedy"
TOURNAMENTS = {
    "trusted": [GREEDY, "--no-isolate"],
    "sandbox": [GREEDY],
    "process": [GREEDY, "--isolate=process"],
    "program": [f"cmd:{sys.executable} -m thousand.serve {GREEDY}"],
}
"""The ways a tournament runs the bot: its spec and options."""


def per_match(way: str, single_deal: bool, seconds: float) -> float:
    """Milliseconds per match played the given way, over about ``seconds``."""
    spec, isolate = WAYS[way]
    rules = thousand.Rules.preset("russian")
    matches = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds or matches < 3:
        outcome = thousand.play(
            [spec, "random", "random"],
            rules,
            seed=matches,
            single_deal=single_deal,
            isolate=isolate,
        )
        assert outcome.faults == (), outcome.faults
        matches += 1
    return (time.perf_counter() - began) / matches * 1000


def seconds_of(command: list[str]) -> float:
    """Seconds a run of the ``thousand`` program takes."""
    began = time.perf_counter()
    subprocess.run([PROGRAM, *command], check=True, capture_output=True)
    return time.perf_counter() - began


def tournament_seconds(way: str, deals: int) -> float:
    """Seconds a tournament of the bot run ``way`` against two ``random`` takes."""
    spec, *options = TOURNAMENTS[way]
    command = ["tournament", spec, "random", "random", "--deals", str(deals), "--seed", "1"]
    return seconds_of([*command, "--workers", "2", "--json", *options])


def match_start_seconds(sandboxed: bool) -> float:
    """Seconds a ``thousand match`` of one deal with the bot takes."""
    options = ["--isolate"] if sandboxed else []
    return seconds_of(["match", GREEDY, "random", "random", "--deal", "--seed", "1", *options])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds")
    parser.add_argument("--deals", type=int, default=1000, help="per table, in tournaments")
    args = parser.parse_args()
    for way in WAYS:  # loaders and kept processes start once, not in a round
        per_match(way, True, 0.1)
    print(f"{'match':<12} {'way':<16} {'ms/match':>9} {'x in process':>13}")
    for single_deal, kind in ((True, "single deal"), (False, "to 1000")):
        times: dict[str, list[float]] = {way: [] for way in WAYS}
        ratios: dict[str, list[float]] = {way: [] for way in WAYS}
        for _ in range(args.rounds):
            measured = {way: per_match(way, single_deal, args.seconds) for way in WAYS}
            for way, value in measured.items():
                times[way].append(value)
                ratios[way].append(value / measured["in process"])
        for way in WAYS:
            print(
                f"{kind:<12} {way:<16} {statistics.median(times[way]):>9.1f}"
                f" {statistics.median(ratios[way]):>13.2f}"
            )
    rates: dict[str, list[float]] = {way: [] for way in TOURNAMENTS}
    shares: dict[str, list[float]] = {way: [] for way in TOURNAMENTS}
    for _ in range(args.rounds):
        measured = {
            way: args.deals * 6 / tournament_seconds(way, args.deals) for way in TOURNAMENTS
        }
        for way, rate in measured.items():
            rates[way].append(rate)
            shares[way].append(rate / measured["trusted"])
    print(f"\n{'tournament, ' + str(args.deals * 6) + ' deals':<26} {'deals/s':>8} {'share':>6}")
    for way in TOURNAMENTS:
        print(
            f"{way:<26} {statistics.median(rates[way]):>8.0f}"
            f" {statistics.median(shares[way]):>6.0%}"
        )
    added = []
    for _ in range(args.rounds):
        added.append(match_start_seconds(True) - match_start_seconds(False))
    print(f"\nthousand match, one deal: the sandbox adds {statistics.median(added):.2f} s")


if __name__ == "__main__":
    main()
