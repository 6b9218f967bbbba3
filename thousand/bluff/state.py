"""The 1000? game state: one frozen value per moment, cards held as numbers of the deck's kinds
(see :mod:`thousand.bluff.kinds`) and offered as :class:`Card` values through properties."""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, ClassVar, TypeAlias

import attrs

from thousand.bluff.actions import Action, Challenge, Hide
from thousand.bluff.cards import Card
from thousand.bluff.kinds import Kinds
from thousand.bluff.layout import Layout
from thousand.bluff.results import Result
from thousand.bluff.rules import Rules
from thousand.common.history import Linked
from thousand.common.state_base import Playable, fast_constructor

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


@attrs.frozen(weakref_slot=False)
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
    own_hides: tuple[History, ...] = attrs.field(repr=False)
    """Per seat, its face-down cards that no challenge has revealed, newest first: what the
    history holds as ``hide ??``."""
    history: History = attrs.field(repr=False)
    """The public actions so far: a face-down card is ``hide ??`` unless a challenge revealed
    it."""
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
        hand_kinds: tuple[tuple[int, ...], ...],
        table_entries: tuple[Entry, ...],
        revealing: bool,
        pile: tuple[int, ...] | None = None,
        pile_position: int | None = None,
        discards: tuple[int, ...] | None = None,
        restart_kinds: tuple[int, ...] | None = None,
        reshuffles: int | None = None,
        result: Result | None = None,
        own_hides: tuple[History, ...] | None = None,
    ) -> State:
        """The state after ``action`` by the current player, with the given fields changed (the
        turn count and the history advance; ``restart_kinds`` and ``result`` are reset unless
        given). ``action`` is what the history records: ``hide ??`` for a face-down card; a
        challenge is ``revealing`` the face-down card before it to everyone."""
        history = self.history
        if own_hides is None:
            own_hides = self.own_hides
        if revealing:
            assert history is not None
            history, owner, _ = history
            hidden = list(own_hides)
            node = hidden[owner]
            assert node is not None
            hidden[owner], _, hide = node
            history = (history, owner, hide)
            own_hides = tuple(hidden)
        return build_state(
            self.rules,
            self.origin,
            phase,
            player,
            hand_kinds,
            self.pile if pile is None else pile,
            self.pile_position if pile_position is None else pile_position,
            self.discards if discards is None else discards,
            table_entries,
            restart_kinds,
            self.reshuffles if reshuffles is None else reshuffles,
            self.turns + 1,
            result,
            own_hides,
            (history, self.player, action),
        )

    @property
    def kinds(self) -> Kinds:
        """The deck's kinds table."""
        return self.rules.kinds

    legal_actions: ClassVar[Callable[[State], tuple[Action, ...]]]
    """``legal_actions()``: the current player's legal actions in a fixed order, empty once the
    game is over; computed once and kept. (The dispatcher's own function, set on the class.)"""

    apply: ClassVar[Callable[[State, Action], State]]
    """``apply(action)``: the state after the current player takes ``action``; this state is
    unchanged. Raises ``IllegalActionError`` when the rules do not allow ``action`` here, saying
    why. (The dispatcher's own function, set on the class: no call in between.)"""

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
        """Every action so far as ``(seat, action)``, oldest first, every card shown."""
        own = list(self.own_hides)
        actions: list[tuple[int, Action]] = []
        node = self.history
        while node is not None:
            node, seat, action = node
            if isinstance(action, Hide) and action.card is None:
                hidden = own[seat]
                assert hidden is not None
                own[seat], _, action = hidden
            actions.append((seat, action))
        actions.reverse()
        return tuple(actions)


build_state = fast_constructor(State)
"""A new state from every field (the transitions' fast ``State(...)``)."""

FACE_DOWN = Hide(None)
"""A face-down card as the history holds it until a challenge reveals it."""


def public_history(
    actions: Sequence[tuple[int, Action]],
    history: History = None,
    own_hides: tuple[History, ...] = (),
    players: int = 0,
) -> tuple[History, tuple[History, ...]]:
    """``history`` and ``own_hides`` (or empty ones for ``players``) followed by ``actions``,
    every face-down card among them hidden unless the next action challenges it."""
    hides: list[History] = list(own_hides) if own_hides else [None] * players
    last = len(actions) - 1
    for position, (seat, action) in enumerate(actions):
        if isinstance(action, Hide) and not (
            position < last and isinstance(actions[position + 1][1], Challenge)
        ):
            hides[seat] = (hides[seat], seat, action)
            action = FACE_DOWN
        history = (history, seat, action)
    return history, tuple(hides)


# The dispatcher and the observer build on State, so they are imported once it exists; the
# dispatcher sets the class's legal_actions and apply functions.
from thousand.bluff import engine as _engine  # noqa: E402, F401
from thousand.bluff import observation as _observation  # noqa: E402
