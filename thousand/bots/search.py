"""What the search bots share: sampled worlds, playouts by the ``greedy`` strategy, and what a
finished playout is worth to each seat, for both games.

A search spends a budget of simulated actions ("steps") per decision rather than seconds, so that
the same seed gives the same decisions on any machine; a time limit can be set instead.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from thousand import bluff
from thousand.actions import Bid, Pass
from thousand.bluff.determinise import Determiniser as BluffDeterminiser
from thousand.bots import bluff_strategy, thousand_strategy
from thousand.determinise import Determiniser
from thousand.observation import Observation
from thousand.state import GameState, Phase

__all__ = ["Budget", "Game", "game_of", "playout"]

PLAYOUT_LIMIT = 100
"""A 1000? playout is stopped after this many actions and judged by the cards left in hand (a
three-player game takes about 40 actions from the deal)."""


class World(Protocol):
    """A full state of either game, as the search uses it."""

    player: int

    @property
    def is_over(self) -> bool: ...

    def legal_actions(self) -> tuple[Any, ...]: ...

    def apply(self, action: Any) -> Any: ...


class Game:
    """How a search treats one game: sampling worlds, playing them out, valuing the end."""

    def worlds(self, observation: Any) -> Callable[[random.Random], Any]:
        """A sampler of full states consistent with ``observation``."""
        raise NotImplementedError

    def choices(self, phase: Any, legal: Sequence[Any]) -> Sequence[Any]:
        """The actions worth searching among ``legal`` in ``phase`` (all unless some are
        redundant)."""
        return legal

    def policy(self, state: Any, rng: random.Random, seat: int) -> Any:
        """The playout policy's action in ``state``, for a search made by ``seat``."""
        raise NotImplementedError

    def values(self, state: Any, start: Any) -> tuple[float, ...]:
        """What the end of a playout is worth to each seat, about -1 to 1."""
        raise NotImplementedError

    def weight(self, world: Any, start: Any) -> float:
        """How likely the other seats were to act as they did had ``world`` been true, up to a
        constant (1 when their actions say nothing of their cards)."""
        return 1.0


class ThousandGame(Game):
    """Thousand: the world is the rest of the deal; a seat values its score gain against the
    others' average gain (in hundreds of points)."""

    def worlds(self, observation: Observation) -> Callable[[random.Random], GameState]:
        return Determiniser(observation).sample

    def choices(self, phase: Any, legal: Sequence[Any]) -> Sequence[Any]:
        # In the auction, raising by one step now or passing are the real choices: a higher
        # bid can be made on a later turn.
        return legal[:2] if phase is Phase.AUCTION else legal

    def policy(self, state: GameState, rng: random.Random, seat: int) -> Any:
        # The searching seat's bid is the one being tried: in the playout it bids no higher.
        if state.phase is Phase.AUCTION and state.player == seat:
            return PASS
        return thousand_strategy.choose(state.observation(state.player), rng)

    def weight(self, world: GameState, start: Observation) -> float:
        # Bidders are taken to raise when their hand is clearly worth more than the bid.
        rules = world.rules
        hands = world.layout.hand_masks()
        estimates: dict[int, float] = {}
        bid = rules.opening_bid
        weight = 1.0
        for actor, action in start.history:
            if not isinstance(action, Bid | Pass):
                break
            amount = action.amount if isinstance(action, Bid) else bid + rules.bid_step
            if actor != start.seat:
                if actor not in estimates:
                    estimates[actor] = thousand_strategy.bidding_estimate(rules, hands[actor])
                raising = 1.0 / (1.0 + math.exp((amount + BID_MARGIN - estimates[actor]) / 15.0))
                weight *= raising if isinstance(action, Bid) else 1.0 - raising
            if isinstance(action, Bid):
                bid = amount
        return weight

    def values(self, state: GameState, start: Observation) -> tuple[float, ...]:
        result = state.result
        assert result is not None
        gains = [after - before for after, before in zip(result.scores, start.scores, strict=True)]
        return _against_average(gains, 100.0)


class BluffGame(Game):
    """1000?: a win is worth 1 against the others' average; a playout cut short goes to the
    fewest cards in hand, as an adjudicated game does."""

    def worlds(self, observation: bluff.Observation) -> Callable[[random.Random], bluff.State]:
        return BluffDeterminiser(observation).sample

    def policy(self, state: bluff.State, rng: random.Random, seat: int) -> Any:
        return bluff_strategy.choose(state.observation(state.player))

    def values(self, state: bluff.State, start: bluff.Observation) -> tuple[float, ...]:
        if state.result is not None:
            winners = state.result.winners
        else:
            sizes = [len(hand) for hand in state.hand_kinds]
            fewest = min(sizes)
            winners = tuple(seat for seat, size in enumerate(sizes) if size == fewest)
        wins = [
            1.0 / len(winners) if seat in winners else 0.0 for seat in range(len(state.hand_kinds))
        ]
        return _against_average(wins, 1.0)


PASS = Pass()
BID_MARGIN = 30.0
"""How much more than a bid a hand is taken to be worth, by the deal points it should make,
before a player makes that bid (about even odds at this margin)."""
THOUSAND_SEARCH = ThousandGame()
BLUFF_SEARCH = BluffGame()


def game_of(observation: Any) -> Game:
    """The search treatment of the game ``observation`` comes from."""
    if isinstance(observation, Observation):
        return THOUSAND_SEARCH
    if isinstance(observation, bluff.Observation):
        return BLUFF_SEARCH
    raise TypeError(f"the search bots play Thousand and 1000?, not {type(observation).__name__}")


def _against_average(gains: Sequence[float], scale: float) -> tuple[float, ...]:
    """Each seat's gain less the average gain of the others, divided by ``scale``."""
    total = sum(gains)
    others = len(gains) - 1
    return tuple((gain - (total - gain) / others) / scale for gain in gains)


def playout(game: Game, state: Any, rng: random.Random, seat: int) -> tuple[Any, int]:
    """Play ``state`` out with the playout policy of a search by ``seat``: the final (or
    cut-off) state and the number of actions taken."""
    steps = 0
    while not state.is_over and steps < PLAYOUT_LIMIT:
        state = state.apply(game.policy(state, rng, seat))
        steps += 1
    return state, steps


class Budget:
    """How much a search may spend on one decision: ``steps`` simulated actions (reproducible),
    or ``seconds`` of thinking when given (faster or slower machines then decide differently)."""

    def __init__(self, steps: int, seconds: float | None) -> None:
        if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
            raise ValueError(f"a search needs a budget of at least 1 step, not {steps!r}")
        if seconds is not None and (isinstance(seconds, bool) or not seconds > 0):
            raise ValueError(f"a time budget must be a positive number of seconds, not {seconds!r}")
        self.steps = steps
        self.seconds = seconds
        self._spent = 0
        self._began = 0.0

    def start(self) -> None:
        """A decision begins: nothing is spent yet."""
        self._spent = 0
        self._began = time.perf_counter()

    def spend(self, steps: int) -> None:
        """Count ``steps`` simulated actions (at least one per playout)."""
        self._spent += max(1, steps)

    @property
    def used(self) -> float:
        """The share of the decision's budget spent so far (1 or more when it is all spent)."""
        if self.seconds is not None:
            return (time.perf_counter() - self._began) / self.seconds
        return self._spent / self.steps

    @property
    def timed(self) -> bool:
        """Whether the budget is a time limit."""
        return self.seconds is not None
