"""Python bots that cheat or try to break a run, named by ``file.py:Class`` specs in the tests."""

from __future__ import annotations

import contextlib
import inspect
import random
import sys
import time
from typing import Any

from thousand import GameState, Observation, SeatedPlayer, bluff
from thousand.bots.greedy import GreedyPlayer
from thousand.classic.actions import Bid, Play
from thousand.classic.cards import Card


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


class ExitsAtEnd(SeatedPlayer):
    """Plays at random, and calls ``sys.exit(0)`` when told that the match is over."""

    def act(self, observation: Any) -> object:
        """A random legal action."""
        return self.rng.choice(observation.legal_actions)

    def end(self, outcome: Any) -> None:
        """Exit, as a careless script would."""
        sys.exit(0)


class InterruptedWhenMade(SeatedPlayer):
    """Raises ``KeyboardInterrupt`` itself while it is made."""

    def __init__(self) -> None:
        raise KeyboardInterrupt

    def act(self, observation: Any) -> object:
        """Never asked."""
        return observation.legal_actions[0]


def _note(marker: str, text: str) -> None:
    with open(marker, "a", encoding="utf-8") as file:
        file.write(text + "\n")


def _stall(seconds: float) -> None:
    """Keep busy for ``seconds``, swallowing every signal that tries to stop it."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(BaseException):
            time.sleep(0.01)


class Stubborn(SeatedPlayer):
    """Ignores its time: in ``where`` (``act``, ``start`` or ``end``) it keeps busy for
    ``seconds``, swallowing the alarm, then writes ``where`` to the file ``marker``."""

    def __init__(self, marker: str, where: str = "act", seconds: float = 3.0) -> None:
        super().__init__()
        self.marker, self.where, self.seconds = marker, where, seconds

    def start(self, seat: int, rules: Any, rng: random.Random) -> None:
        """Stall here when told to."""
        super().start(seat, rules, rng)
        self._stall_in("start")

    def act(self, observation: Any) -> object:
        """Stall here when told to, then a random legal action."""
        self._stall_in("act")
        return self.rng.choice(observation.legal_actions)

    def end(self, outcome: Any) -> None:
        """Stall here when told to."""
        self._stall_in("end")

    def _stall_in(self, where: str) -> None:
        if where == self.where:
            _stall(self.seconds)
            _note(self.marker, where)


class Peeker(SeatedPlayer):
    """Plays at random, but first looks up the call stack for the driver's game state, and
    writes ``saw`` and the hands it holds to the file ``marker`` when it finds it."""

    def __init__(self, marker: str) -> None:
        super().__init__()
        self.marker = marker

    def act(self, observation: Any) -> object:
        """A random legal action, after a look at the frames above."""
        frame = inspect.currentframe()
        while frame is not None:
            for value in frame.f_locals.values():
                state = getattr(value, "state", value)
                if isinstance(state, GameState):
                    _note(self.marker, f"saw {[list(map(str, hand)) for hand in state.hands]}")
                    return self.rng.choice(observation.legal_actions)
            frame = frame.f_back
        return self.rng.choice(observation.legal_actions)


class Saboteur(SeatedPlayer):
    """Plays at random; when started with ``active`` it rewrites the built-in greedy bot to
    take the last legal action (the highest bid), wherever this process also runs greedy."""

    def __init__(self, active: bool = True) -> None:
        super().__init__()
        self.active = active

    def start(self, seat: int, rules: Any, rng: random.Random) -> None:
        """Sabotage greedy, when active."""
        super().start(seat, rules, rng)
        if self.active:
            GreedyPlayer.act = lambda player, observation: observation.legal_actions[-1]  # type: ignore[method-assign]

    def act(self, observation: Any) -> object:
        """A random legal action."""
        return self.rng.choice(observation.legal_actions)
