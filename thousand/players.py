"""The Player protocol: what a bot implements to play either game.

A player only ever receives observations (what its seat may see) and answers with one of the
legal actions listed in them. Two hooks are optional and called when present:

* ``start(seat, rules, rng)`` before the first decision of a match: the player's seat, the rules in
  force (:class:`thousand.Rules` or :class:`thousand.bluff.Rules`), and a ``random.Random`` seeded
  for this player alone, so that the same seed gives the same decisions;
* ``end(outcome)`` once the match is over, with its :class:`~thousand.table.match.Outcome`, or with
  ``None`` when the match was interrupted. Exceptions raised by ``end`` are ignored.

A player whose ``skip_forced`` attribute is true (read after ``start``) is not asked for a forced
decision, one with a single legal action: the driver plays that action for it, and the player
sees it in the history of its next observation. A bot in another process saves a message that
way; a bot that must see every decision (or draws from its generator at each) leaves it false.

Under the ``raise`` fault policy the driver raises :class:`PlayerError` for a player's first fault.
A player that stops the match on its user's behalf raises :class:`StopMatch`.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Generic, Protocol, TypeAlias, TypeVar, runtime_checkable

from thousand.errors import ThousandError

if TYPE_CHECKING:
    from thousand import bluff
    from thousand.classic.observation import Observation
    from thousand.classic.rules import Rules
    from thousand.table.match import Fault, Outcome

__all__ = ["AnyPlayer", "Player", "PlayerError", "SeatedPlayer", "StopMatch"]

ObservationT = TypeVar("ObservationT")
ObservationT_contra = TypeVar("ObservationT_contra", contravariant=True)


@runtime_checkable
class Player(Protocol[ObservationT_contra]):
    """A bot: given an observation, return one of ``observation.legal_actions``.

    The type parameter is the observation it takes: ``Player[thousand.Observation]`` plays
    Thousand, ``Player[thousand.bluff.Observation]`` plays 1000?, and a bot of both games takes
    either (``Player[thousand.games.AnyObservation]``)."""

    def act(self, observation: ObservationT_contra) -> object:
        """Choose an action for the observing seat, whose turn it is."""
        ...


AnyPlayer: TypeAlias = "Player[Observation] | Player[bluff.Observation]"
"""A bot of either game, or of both: what a table seats."""


class SeatedPlayer(Generic[ObservationT]):
    """A convenient base for bots: keeps the seat, rules and generator given at the start of a
    match (``self.seat``, ``self.rules``, ``self.rng``) and does nothing at the end. The type
    parameter is the observation the bot takes, as for :class:`Player`."""

    skip_forced: bool = False
    """Whether the driver plays a decision with a single legal action without asking."""
    seat: int = 0
    rules: Rules | bluff.Rules | None = None
    rng: random.Random = random.Random()
    """This player's generator once the match starts; before, one shared by all players."""

    def start(self, seat: int, rules: Rules | bluff.Rules, rng: random.Random) -> None:
        """Remember the seat, the rules and this player's own generator."""
        self.seat = seat
        self.rules = rules
        self.rng = rng

    def end(self, outcome: Outcome | None) -> None:
        """Called when the match is over; nothing to do by default."""

    def act(self, observation: ObservationT) -> object:
        """Choose an action; subclasses decide."""
        raise NotImplementedError


class PlayerError(ThousandError):
    """A bot's fault, raised by :func:`thousand.play` under the ``raise`` fault policy. When the
    bot raised, its exception is the cause (``__cause__``): for a bot in another process, a
    :class:`~thousand.BotCrash` caused by the traceback the process sent, when it sent one."""

    def __init__(self, fault: Fault) -> None:
        super().__init__(str(fault))
        self.fault = fault


class StopMatch(KeyboardInterrupt):
    """Raised by a player to stop the match on its user's behalf, as Ctrl-C does (a person who
    quits at the terminal): :func:`thousand.play` lets it through once every player's ``end``
    has been called with ``None``. Any other ``KeyboardInterrupt`` a player raises itself, like
    its ``sys.exit()``, is its fault."""
