"""What isolating a Python bot costs.

The bot is ``RandomCopy`` below, a Python bot that is not built in (so it is isolated) and
plays like ``random``. It plays in seat 0 against two built-in ``random`` bots, in alternating
rounds so that every way sees the same machine:

* ``in process``: ``thousand.play(..., isolate=False)``, the bot trusted;
* ``isolated``: ``isolate=True``, in processes forked from the bot's loader, each playing match
  after match (sessions; every seed differs, so one process plays them all);
* ``new interpreter``: ``cmd:python -m thousand.table.serve SPEC``, a Python interpreter of its
  own, which plays match after match too (before sessions, one interpreter per match).

For single deals (the worst case: the cost of a process is paid for a few decisions) and whole
matches to 1000, it prints milliseconds per match (medians of the rounds) and the isolated
way's time over the in-process way's, measured in the same round.

Then whole tournaments through the ``thousand`` program, ``RandomCopy`` against ``greedy`` and
``random`` in single deals on two workers, isolated (the default) and with ``--no-isolate``:
once with the bot answering at once, once with it thinking 2 ms per decision, as a quick search
bot would.

    python benchmarks/isolation.py [--seconds 2] [--rounds 3] [--deals 100]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path
from subprocess import PIPE
from typing import Any

import thousand
from thousand import SeatedPlayer

SPEC = f"{__file__}:RandomCopy"


class RandomCopy(SeatedPlayer):
    """Plays a random legal action, like the built-in ``random``, after ``think`` seconds."""

    def __init__(self, think: float = 0.0) -> None:
        super().__init__()
        self.think = think

    def act(self, observation: Any) -> object:
        """A random legal action."""
        if self.think:
            time.sleep(self.think)
        return self.rng.choice(observation.legal_actions)


WAYS = {
    "in process": (SPEC, False),
    "isolated": (SPEC, True),
    "new interpreter": (f"cmd:{sys.executable} -m thousand.table.serve {SPEC}", False),
}


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


def tournament_seconds(spec: str, deals: int, isolate: bool) -> float:
    """Seconds the ``thousand`` program takes for a tournament of ``spec``, greedy and random."""
    program = str(Path(sys.executable).with_name("thousand"))
    command = [program, "tournament", spec, "greedy", "random", "--deals", str(deals)]
    command += ["--seed", "1", "--workers", "2", "--json"]
    began = time.perf_counter()
    subprocess.run([*command, *([] if isolate else ["--no-isolate"])], check=True, stdout=PIPE)
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds")
    parser.add_argument("--deals", type=int, default=100, help="per table, in tournaments")
    args = parser.parse_args()
    per_match("isolated", True, 0.1)  # the loader is started once, not in a round
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
    print(f"\n{'tournament':<26} {'isolated s':>10} {'in process s':>13} {'ratio':>6}")
    for think in (0.0, 0.002):
        spec = SPEC if not think else f"{SPEC}(think={think})"
        isolated, trusted = [], []
        for _ in range(args.rounds):
            isolated.append(tournament_seconds(spec, args.deals, True))
            trusted.append(tournament_seconds(spec, args.deals, False))
        label = f"{args.deals * 6} deals, think {think * 1000:g} ms"
        print(
            f"{label:<26} {statistics.median(isolated):>10.1f} {statistics.median(trusted):>13.1f}"
            f" {statistics.median(i / t for i, t in zip(isolated, trusted, strict=True)):>6.2f}"
        )


if __name__ == "__main__":
    main()
