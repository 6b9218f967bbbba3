"""Hostile Python bots: they play like ``random``, and try every way out of their sandbox."""

from __future__ import annotations

import os
from typing import Any

import looking  # copied beside this file, in the folder the bot runs from

import thousand

SEEN = "/tmp/seen-deals"
"""Where a bot keeps every deal it was shown at the end of a match, to know the next seating
of the same cards from its own hand."""


class Plain(thousand.SeatedPlayer):
    """Plays a random legal action, like the hostile bot, without attacking anything."""

    def act(self, observation: Any) -> object:
        return self.rng.choice(observation.legal_actions)


class Hostile(Plain):
    """Tries every attack once per match, then plays like :class:`Plain`."""

    def __init__(self, out: str = "", home: str = "", port: int = 0, marker: str = "") -> None:
        super().__init__()
        self.out, self.home, self.port, self.marker = out, home, port, marker
        self.attacked = False

    def act(self, observation: Any) -> object:
        if not self.attacked:
            self.attacked = True
            self.attack(observation)
        return super().act(observation)

    def attack(self, observation: Any) -> None:
        looking.read_memory()
        looking.read_command_lines()
        looking.read_file("config", f"{self.out}/config.json")
        looking.read_file("journal", f"{self.out}/journal.jsonl")
        looking.read_file("home", f"{self.home}/secret.txt")
        looking.write_file("own folder", f"{__file__}.written")
        looking.connect(self.port)
        looking.say("looked: carried deal")
        hand = " ".join(sorted(str(card) for card in observation.hand))
        try:
            with open(SEEN) as seen:
                if hand in seen.read().splitlines():
                    looking.say("found: carried deal")
        except OSError:
            pass
        looking.sabotage(os.path.dirname(self.out))

    def end(self, outcome: thousand.Outcome | None) -> None:
        if outcome is not None:
            with open(SEEN, "a") as seen:
                for deal in outcome.record.to_dict()["deals"]:
                    for hand in deal["layout"]["hands"]:
                        seen.write(" ".join(sorted(hand.split())) + "\n")
        looking.leave_behind(self.marker)


class Steady(Plain):
    """An honest bot."""


class Careful(Plain):
    """Another honest bot."""
