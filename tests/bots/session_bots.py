"""Python bots for the tests of sessions: each notes on its error output its process and how
many matches that process and the player itself have started."""

from __future__ import annotations

import os
import random
import sys
import time
from typing import Any

from thousand import SeatedPlayer

MATCHES = 0
"""Matches this process has started."""
DRAWN: list[int] = []
"""In a sandbox, the number that names this process."""


def process() -> int:
    """This process: its pid, or in a sandbox, where every bot is process 1 of its own
    namespace, a number drawn once in the process."""
    if os.getpid() != 1:
        return os.getpid()
    if not DRAWN:
        DRAWN.append(random.SystemRandom().randrange(10**9, 10**10))
    return DRAWN[0]


class Counted(SeatedPlayer):
    """Plays at random, taking ``seconds`` over its first decision of a match; notes each start
    and what its end is told of the match's seed and result."""

    def __init__(self, seconds: float = 0.0) -> None:
        super().__init__()
        self.seconds = seconds
        self.started = 0

    def start(self, seat: int, rules: Any, rng: random.Random) -> None:
        """Count the match, in the process and in this player."""
        global MATCHES
        MATCHES += 1
        self.started += 1
        super().start(seat, rules, rng)
        print(f"counted pid {process()} match {MATCHES} player {self.started}", file=sys.stderr)

    def act(self, observation: Any) -> object:
        """A random legal action, after a while at the first decision."""
        time.sleep(self.seconds)
        self.seconds = 0.0
        return self.rng.choice(observation.legal_actions)

    def end(self, outcome: Any) -> None:
        """Note what the outcome tells of the match's seed and result."""
        seed, result = outcome.record.seed, outcome.result
        print(f"counted ended seed {seed} result {result}", file=sys.stderr, flush=True)


class Quiet(SeatedPlayer):
    """Plays at random and writes nothing."""

    def act(self, observation: Any) -> object:
        """A random legal action."""
        return self.rng.choice(observation.legal_actions)
