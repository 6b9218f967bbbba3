"""Python bots that cheat or try to break a run, named by ``file.py:Class`` specs in the tests."""

from __future__ import annotations

import sys
from typing import Any

from thousand import Observation, SeatedPlayer, bluff
from thousand.actions import Bid, Play
from thousand.cards import Card


class EqualsAll:
    """Not an action at all, but claims to equal anything."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return "EqualsAll()"


class EqualBid(Bid):
    """A bid that claims to equal anything, so that it passes for whatever is legal."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = Bid.__hash__


class EqualPlay(Play):
    """A card play that claims to equal anything."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = Play.__hash__


class EqualBluffPlay(bluff.Play):
    """A 1000? card play that claims to equal anything."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = bluff.Play.__hash__


class Cheat(SeatedPlayer):
    """Plays at random, but answers with a look-alike of a great move whenever it can: a bid of
    990 at the auction, the ace of hearts in the trick play, a 1000 card in 1000?."""

    def act(self, observation: Any) -> object:
        """A look-alike action when one fits the phase, else a random legal action."""
        kinds = {type(action) for action in observation.legal_actions}
        if not isinstance(observation, Observation):
            return EqualBluffPlay(bluff.Card("1000")) if bluff.Play in kinds else EqualsAll()
        if Bid in kinds:
            return EqualBid(990)
        if Play in kinds:
            return EqualPlay(Card.parse("AH"))
        return self.rng.choice(observation.legal_actions)


class Flatterer(SeatedPlayer):
    """Answers with an object that is no action but claims to equal anything."""

    def act(self, observation: Any) -> object:
        """Something that says it is every action."""
        return EqualsAll()


class HollowBid(SeatedPlayer):
    """Answers with a real bid whose amount claims to equal anything."""

    def act(self, observation: Any) -> object:
        """A bid of something that says it is every number."""
        return Bid(EqualsAll())  # type: ignore[arg-type]


class Overbidder(SeatedPlayer):
    """Bids 9999, far above anything the rules allow."""

    def act(self, observation: Any) -> object:
        """Always the same impossible bid."""
        return Bid(9999)


class LateExit(SeatedPlayer):
    """Plays at random, then calls ``sys.exit()`` at its fifth decision of each match."""

    def __init__(self) -> None:
        super().__init__()
        self.decisions = 0

    def act(self, observation: Any) -> object:
        """A random legal action, except at the fifth decision."""
        self.decisions += 1
        if self.decisions == 5:
            sys.exit()
        return self.rng.choice(observation.legal_actions)


class BrokenInit(SeatedPlayer):
    """Cannot even be made: its constructor raises."""

    def __init__(self) -> None:
        raise RuntimeError("no cards for me")

    def act(self, observation: Any) -> object:
        """Never reached."""
        return observation.legal_actions[0]
