"""The 1000? game state: one frozen value per moment, cards held as numbers of the deck's kinds
(see :mod:`thousand.bluff.kinds`) and offered as :class:`Card` values through properties."""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, TypeAlias

import attrs

from thousand.bluff.actions import Action
from thousand.bluff.cards import Card
from thousand.bluff.kinds import Kinds
from thousand.bluff.layout import Layout
from thousand.bluff.results import Result
from thousand.bluff.rules import Rules
from thousand.history import Linked, history_tuple
from thousand.playable import Playable

if TYPE_CHECKING:
    from thousand.bluff.observation import Observation

__all__ = ["Origin", "Phase", "State", "TableCard"]

NOBODY = -1
Entry: TypeAlias = "tuple[int, int, bool, bool]"
"""A table card as ``(kind, owner, face_down, believed)``."""
History: TypeAlias = "Linked[Action]"
"""The actions so far as a linked list: ``None`` or ``(previous, seat, action)``."""


class Phase(enum.Enum):
    """What the player to act must do."""

    START = "climb start"
    """Play any card face up on the empty table (after a lost challenge: a card just drawn)."""
    CLIMB = "climb"
    """Play a card that beats the top, play one face down, or pass and draw."""
    RESPONSE = "response"
    """Believe or challenge the face-down card just played."""
    OVER = "end of the game"

    def __str__(self) -> str:
        return self.value


@attrs.frozen
class Origin:
    """How a game began; shared by all its states and written into its record."""

    seed: int
    """Seeds the deal (unless given by layout) and every reshuffle of the discards."""
    dealer: int
    layout: Layout | None
    """The deal when it was given by hand."""


@attrs.frozen
class TableCard:
    """A card of the current climb as one seat sees it (``card`` is ``None`` when hidden)."""

    card: Card | None
    owner: int
    face_down: bool
    believed: bool


@attrs.frozen
class State(Playable[Action]):
    """A moment of a 1000? game: ask ``current_player``, ``legal_actions()``, ``apply(action)``."""

    rules: Rules
    origin: Origin
    phase: Phase
    player: int
    """The seat to act, or -1 once the game is over."""
    hand_kinds: tuple[tuple[int, ...], ...]
    """Each hand as sorted kind numbers."""
    pile: tuple[int, ...]
    """The draw pile as dealt or last reshuffled; cards before ``pile_position`` are gone."""
    pile_position: int
    discards: tuple[int, ...]
    """The discard pile, oldest first."""
    table_entries: tuple[Entry, ...]
    """The current climb, bottom first."""
    restart_kinds: tuple[int, ...] | None
    """After a lost challenge, the kinds the new climb must start with; else ``None``."""
    reshuffles: int
    turns: int
    result: Result | None
    history: History = attrs.field(repr=False)
    legal_cache: tuple[Action, ...] | None = attrs.field(
        default=None, init=False, eq=False, repr=False, hash=False
    )
    """``legal_actions()`` once computed (not part of the state's value)."""

    def advance(
        self,
        action: Action,
        *,
        phase: Phase,
        player: int,
        hand_kinds: tuple[tuple[int, ...], ...] | None = None,
        pile: tuple[int, ...] | None = None,
        pile_position: int | None = None,
        discards: tuple[int, ...] | None = None,
        table_entries: tuple[Entry, ...] | None = None,
        restart_kinds: tuple[int, ...] | None = None,
        reshuffles: int | None = None,
        result: Result | None = None,
    ) -> State:
        """The state after ``action`` by the current player, with the given fields changed (the
        turn count and the history advance; ``restart_kinds`` and ``result`` are reset unless
        given)."""
        return State(
            self.rules,
            self.origin,
            phase,
            player,
            self.hand_kinds if hand_kinds is None else hand_kinds,
            self.pile if pile is None else pile,
            self.pile_position if pile_position is None else pile_position,
            self.discards if discards is None else discards,
            self.table_entries if table_entries is None else table_entries,
            restart_kinds,
            self.reshuffles if reshuffles is None else reshuffles,
            self.turns + 1,
            result,
            (self.history, self.player, action),
        )

    @property
    def kinds(self) -> Kinds:
        """The deck's kinds table."""
        return self.rules.kinds

    def compute_legal_actions(self) -> tuple[Action, ...]:
        """The legal actions, computed afresh (``legal_actions()`` keeps them)."""
        return _engine.legal_actions(self)

    def apply(self, action: Action) -> State:
        """The state after the current player takes ``action``; this state is unchanged.

        Raises:
            IllegalActionError: the rules do not allow ``action`` here; the message says why.
        """
        return _engine.apply(self, action)

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know of this state."""
        return _observation.observe(self, seat)

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards, lowest first."""
        cards = self.kinds.cards
        return tuple(tuple(cards[kind] for kind in hand) for hand in self.hand_kinds)

    @property
    def must_start_with(self) -> tuple[Card, ...] | None:
        """After a lost challenge, the cards just drawn, one of which must start the new climb;
        else ``None`` (any card)."""
        if self.restart_kinds is None:
            return None
        cards = self.kinds.cards
        return tuple(cards[kind] for kind in self.restart_kinds)

    @property
    def draw_pile(self) -> tuple[Card, ...]:
        """The cards still to be drawn, the next one first."""
        cards = self.kinds.cards
        return tuple(cards[kind] for kind in self.pile[self.pile_position :])

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """The discarded cards, oldest first (face-down ones included)."""
        cards = self.kinds.cards
        return tuple(cards[kind] for kind in self.discards)

    @property
    def table(self) -> tuple[TableCard, ...]:
        """The current climb, bottom first, every card shown."""
        cards = self.kinds.cards
        return tuple(
            TableCard(cards[kind], owner, face_down, believed)
            for kind, owner, face_down, believed in self.table_entries
        )

    @property
    def actions(self) -> tuple[tuple[int, Action], ...]:
        """Every action so far as ``(seat, action)``, oldest first."""
        return history_tuple(self.history)


# The dispatcher and the observer build on State, so they are imported once it exists.
from thousand.bluff import game as _engine  # noqa: E402
from thousand.bluff import observation as _observation  # noqa: E402
