"""Python bots named by ``file.py:Class`` specs in the tests, good and bad."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

from thousand import SeatedPlayer
from thousand.bots.greedy import GreedyPlayer
from thousand.classic.actions import Bid


class Cautious(SeatedPlayer):
    """Plays one of the last two legal actions, chosen with its own generator."""

    def act(self, observation: Any) -> object:
        """One of the two last legal actions."""
        return self.rng.choice(observation.legal_actions[-2:])


class Labelled(SeatedPlayer):
    """Plays a random legal action; its ``label`` option changes nothing but its spec, and so
    its name in a tournament."""

    def __init__(self, label: str = "") -> None:
        super().__init__()
        self.label = label

    def act(self, observation: Any) -> object:
        """A random legal action."""
        return self.rng.choice(observation.legal_actions)


class Chatty(SeatedPlayer):
    """Plays a random legal action and prints a line about it on its standard output."""

    def act(self, observation: Any) -> object:
        """A random legal action, announced on stdout."""
        action = self.rng.choice(observation.legal_actions)
        print(f"chatty-bot plays {action}")
        sys.stdout.flush()
        return action


class Texter(SeatedPlayer):
    """Answers with the text of a legal action instead of the action itself."""

    def act(self, observation: Any) -> object:
        """The text of a random legal action."""
        return str(self.rng.choice(observation.legal_actions))


class NoAct:
    """Has no act method at all."""

    def play(self, observation: Any) -> object:
        """Not the method a player needs."""
        return observation.legal_actions[0]


NOT_CALLABLE = 42
"""Neither a class nor a function."""


def make_nothing() -> object:
    """A factory that makes something without an act method."""
    return object()


def make_cautious() -> Cautious:
    """A factory function, allowed where a class is."""
    return Cautious()


class Flaky(SeatedPlayer):
    """Plays random legal actions but raises ``error`` at its third decision."""

    error: type[BaseException] = RuntimeError

    def __init__(self) -> None:
        super().__init__()
        self.decisions = 0

    def act(self, observation: Any) -> object:
        """A random legal action, except at the third decision."""
        self.decisions += 1
        if self.decisions == 3:
            raise self.error("flaky bot tripped")
        return self.rng.choice(observation.legal_actions)


class InterruptsItself(Flaky):
    """Raises ``KeyboardInterrupt`` itself, with no Ctrl-C pressed, at its third decision."""

    error = KeyboardInterrupt


class ThousandOnly(SeatedPlayer):
    """Plays only Thousand, and says so in its games attribute."""

    games = ("thousand",)

    def act(self, observation: Any) -> object:
        """A random legal action."""
        return self.rng.choice(observation.legal_actions)


class DiesOnce(SeatedPlayer):
    """Kills its own process at its first decision, once per marker file named in the
    THOUSAND_TEST_MARKER environment variable; afterwards plays at random."""

    def act(self, observation: Any) -> object:
        """A random legal action, unless this is the first decision ever made with the marker."""
        marker = Path(os.environ["THOUSAND_TEST_MARKER"])
        if not marker.exists():
            marker.write_text("died once\n")
            os._exit(1)
        return self.rng.choice(observation.legal_actions)


class Pusher(GreedyPlayer):
    """Plays as ``greedy`` does, but bids 115 whenever it may. Without a marriage the player
    after it may then only pass or bid 120, the most its hand allows, so that player often
    declares a contract it cannot make: a strong bot that costs the seat after it most."""

    def act(self, observation: Any) -> object:
        """Bid 115 when that is legal, else what greedy would do."""
        if PUSH in observation.legal_actions:
            return PUSH
        return super().act(observation)


PUSH = Bid(115)


class Shouter(SeatedPlayer):
    """Raises an exception whose message would clear the terminal."""

    def act(self, observation: Any) -> object:
        """Never answers: its error message holds an escape sequence."""
        raise RuntimeError("\x1b[2J the screen is mine")


class WhereAmI(SeatedPlayer):
    """Answers every decision with the id of the process it runs in (not an action): for the
    tests of where a server's workers play a bot."""

    def act(self, observation: Any) -> object:
        """This process's id."""
        return os.getpid()


class ExitsAtOnce(SeatedPlayer):
    """Kills its own process at its first decision."""

    def act(self, observation: Any) -> object:
        """Nothing: the process ends."""
        os._exit(3)


class Sleeper(SeatedPlayer):
    """Sleeps for a minute over each decision, then plays at random."""

    def act(self, observation: Any) -> object:
        """A random legal action, a minute late."""
        time.sleep(60)
        return self.rng.choice(observation.legal_actions)
