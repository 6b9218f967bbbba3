"""The game state: one frozen value per moment of a match, and the phases a deal goes through.

The state stores cards as bit masks (see :mod:`thousand.classic.cards`) and offers them as
:class:`~thousand.Card` tuples through its properties. Transitions never mutate a state: they
build a new one (:meth:`GameState.apply`).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, TypeAlias

import attrs

from thousand.classic.actions import Action, Discard, Give
from thousand.classic.cards import DECK, Card, Suit, cards_of, points_of
from thousand.classic.layout import Layout
from thousand.classic.results import DealResult, MatchResult, shown_actions
from thousand.classic.rules import Rules
from thousand.common.history import Linked
from thousand.common.state_base import Playable, fast_constructor

if TYPE_CHECKING:
    from thousand.classic.observation import Observation

__all__ = ["DealContext", "GameState", "Origin", "Phase"]

NOBODY = -1
"""The ``player`` of a finished game, the ``trump_suit`` before any marriage."""


class Phase(enum.Enum):
    """The stages of a deal, in order."""

    AUCTION = "auction"
    """Players bid or pass."""
    MUSIK = "musik choice"
    """Two players: the declarer picks one of the two musiki."""
    EXCHANGE = "exchange"
    """The declarer gives one card to each opponent (3 players) or lays two aside (2 players)."""
    CONTRACT = "contract"
    """The declarer fixes the contract, or concedes."""
    PLAY = "trick play"
    """Tricks are played."""
    OVER = "end of the game"
    """The match (or the single deal) is finished."""

    def __str__(self) -> str:
        return self.value


@attrs.frozen
class Origin:
    """How a match began; shared by all its states and written into its record."""

    seed: int
    """Seeds the deals not given by layout: deal ``n`` is ``Layout.from_seed(players, seed, n)``."""
    dealer: int
    scores: tuple[int, ...]
    layout: Layout | None
    """The first deal's layout when it was given by hand."""
    single_deal: bool
    """True for a state from :func:`~thousand.new_deal`: the game ends after one deal."""


PublicDeal: TypeAlias = tuple[
    int,
    int,
    tuple[int, ...],
    tuple[int | None, ...],
    tuple[int, ...],
    int,
    tuple[int, ...],
    tuple[int, ...],
    int,
]
"""What every seat may know of the match around a deal, as observations hold it: the dealer,
the deal's number, the scores, the barrel, the seats taking part, the sitter, the bolts, the
falls and the deals scored."""
History: TypeAlias = "Linked[Action]"
"""The current deal's actions as a linked list: ``None`` or ``(previous, seat, action)``."""


@attrs.frozen(weakref_slot=False)
class DealContext:
    """The match around the current deal: what stays the same while the deal is played, shared
    by all of its states (held apart so that a move copies only what it may change)."""

    origin: Origin
    deal_number: int
    dealer: int
    scores: tuple[int, ...]
    """The match scores before this deal (once the game is over: the final scores)."""
    barrel: tuple[int | None, ...]
    deals: tuple[DealResult, ...]
    layout: Layout
    sitter: int
    """The seat sitting out this deal (four seats), else -1."""
    active: tuple[int, ...]
    """The seats taking part, clockwise from the forehand."""
    turn: tuple[int, ...]
    """Per seat, the next seat taking part clockwise."""
    bolts: tuple[int, ...]
    """Per seat, the bolts counted so far (house rule ``bolts``)."""
    falls: tuple[int, ...]
    """Per seat, the falls from the barrel counted so far (house rule ``barrel_reset_falls``)."""
    scored_deals: int
    """The match's deals scored so far (thrown-in deals not counted)."""
    seen: PublicDeal | None = attrs.field(init=False, default=None, eq=False, repr=False)
    """What every seat may know of the above, as observations hold it: made by the deal's first
    observation and shared by the others (an observation is taken at every decision)."""


@attrs.frozen(weakref_slot=False)
class GameState(Playable[Action]):
    """A moment of a Thousand match (or of a single deal).

    Ask it ``current_player``, ``legal_actions()`` and ``apply(action)``; read ``scores``,
    ``trump``, ``result`` and ``observation(seat)``. Fields ending in ``_mask(s)`` hold cards as
    bit masks and are meant for the engine; the properties give the same cards as values.
    """

    rules: Rules
    context: DealContext
    """The match around this deal, read through ``origin``, ``deal_number``, ``dealer``,
    ``scores``, ``barrel``, ``deals`` and ``layout``."""
    result: DealResult | MatchResult | None
    """``None`` while the game goes on; then a ``MatchResult`` for a match, a ``DealResult``
    for a single deal."""
    phase: Phase
    player: int
    """The seat to act, or ``-1`` once the game is over (see :attr:`current_player`)."""
    hand_masks: tuple[int, ...]
    talon_masks: tuple[int, ...]
    """Talon piles not yet taken: one for 3 players, two musiki for 2 (the untaken one stays)."""
    bidder: int
    """The highest bidder so far; after the auction, the declarer."""
    bid: int
    """The highest bid so far; after the auction, the winning bid."""
    contract_amount: int
    """The contract once fixed, else 0."""
    passed_mask: int
    """Seats that have passed, as bits."""
    musik: int
    """Two players: the musik taken (1 or 2), else 0."""
    set_aside_mask: int
    trick_cards: tuple[int, ...]
    """Indices of the cards in the current trick, in the order played."""
    taken_masks: tuple[int, ...]
    """Cards each seat has won in tricks this deal."""
    melds: tuple[tuple[int, int], ...]
    """Declared marriages this deal as ``(seat, suit)``; suit 4 is the four-ace marriage."""
    trump_suit: int
    """The trump suit number, or -1 before any marriage."""
    exchange_seen: tuple[tuple[Give | Discard, ...], ...] = attrs.field(repr=False)
    """Per seat, the exchange as that seat saw it: the declarer every card it gave or laid aside,
    in order; an opponent the card it received. The history holds these actions card hidden."""
    history: History = attrs.field(repr=False)
    """The deal's public actions: every card given or laid aside is hidden (``give ?? 1``)."""
    legal_cache: tuple[Action, ...] | None = attrs.field(
        default=None, init=False, eq=False, repr=False, hash=False
    )
    """``legal_actions()`` once computed (not part of the state's value)."""

    # The game interface -------------------------------------------------------------------

    legal_actions: ClassVar[Callable[[GameState], tuple[Action, ...]]]
    """``legal_actions()``: the current player's legal actions in a fixed order, empty once the
    game is over; computed once and kept. (The dispatcher's own function, set on the class.)"""

    apply: ClassVar[Callable[[GameState, Action], GameState]]
    """``apply(action)``: the state after the current player takes ``action``; this state is
    unchanged. Raises ``IllegalActionError`` when the rules do not allow ``action`` here, saying
    why. (The dispatcher's own function, set on the class: no call in between.)"""

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know of this state (see :class:`~thousand.Observation`)."""
        return _observation.observe(self, seat)

    # The match around the deal ----------------------------------------------------------

    @property
    def origin(self) -> Origin:
        """How the match began."""
        return self.context.origin

    @property
    def deal_number(self) -> int:
        """The current deal's number, from 0."""
        return self.context.deal_number

    @property
    def dealer(self) -> int:
        """The current deal's dealer."""
        return self.context.dealer

    @property
    def scores(self) -> tuple[int, ...]:
        """The match scores per seat, before the current deal (once over: the final scores)."""
        return self.context.scores

    @property
    def barrel(self) -> tuple[int | None, ...]:
        """Per seat: ``None`` when off the barrel, else the deals already spent on it."""
        return self.context.barrel

    @property
    def deals(self) -> tuple[DealResult, ...]:
        """The finished deals of this match, oldest first."""
        return self.context.deals

    @property
    def layout(self) -> Layout:
        """The current deal's cards as dealt."""
        return self.context.layout

    @property
    def sitter(self) -> int | None:
        """The seat sitting out the current deal (four seats), else ``None``."""
        sitter = self.context.sitter
        return None if sitter < 0 else sitter

    @property
    def bolts(self) -> tuple[int, ...]:
        """Per seat, the bolts counted towards the next penalty (house rule ``bolts``)."""
        return self.context.bolts

    @property
    def falls(self) -> tuple[int, ...]:
        """Per seat, the falls from the barrel counted towards a reset (``barrel_reset_falls``)."""
        return self.context.falls

    # Card-level views ---------------------------------------------------------------------

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards, in display order."""
        return tuple(cards_of(mask) for mask in self.hand_masks)

    @property
    def talon(self) -> tuple[tuple[Card, ...], ...]:
        """The talon piles still on the table."""
        return tuple(cards_of(mask) for mask in self.talon_masks)

    @property
    def set_aside(self) -> tuple[Card, ...]:
        """Two players: the cards the declarer laid aside."""
        return cards_of(self.set_aside_mask)

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """The current trick as ``(seat, card)`` pairs in the order played."""
        return trick_seats(self.context.active, self.player, self.trick_cards)

    @property
    def trump(self) -> Suit | None:
        """The trump suit, or ``None`` before any marriage in this deal."""
        return None if self.trump_suit < 0 else Suit(self.trump_suit)

    @property
    def declarer(self) -> int | None:
        """The declarer once the auction is over, else ``None``."""
        return None if self.phase is Phase.AUCTION else self.bidder

    @property
    def contract(self) -> int | None:
        """The contract once fixed, else ``None``."""
        return self.contract_amount or None

    @property
    def points_taken(self) -> tuple[int, ...]:
        """Card points each seat has won in tricks this deal."""
        return tuple(points_of(mask) for mask in self.taken_masks)

    @property
    def actions(self) -> tuple[tuple[int, Action], ...]:
        """The current deal's actions so far, as ``(seat, action)`` pairs, every card shown."""
        return shown_actions(self.history, self.exchanged)

    @property
    def exchanged(self) -> tuple[Give | Discard, ...]:
        """The cards the declarer has given or laid aside so far this deal, in order."""
        return self.exchange_seen[self.bidder] if self.phase is not Phase.AUCTION else ()


def trick_seats(
    active: tuple[int, ...], player: int, cards: tuple[int, ...]
) -> tuple[tuple[int, Card], ...]:
    """The trick ``cards`` (indices, in the order played) as ``(seat, card)`` pairs, ``player``
    being the seat to play next and ``active`` the seats taking part in clockwise order."""
    if not cards:
        return ()
    count = len(active)
    leader = (active.index(player) - len(cards)) % count
    return tuple((active[(leader + i) % count], DECK[index]) for i, index in enumerate(cards))


build_context = fast_constructor(DealContext)
"""A new deal context from every field."""
build_state = fast_constructor(GameState)
"""A new state from every field (the transitions' fast ``GameState(...)``)."""

# The dispatcher and the observer build on GameState, so they are imported once it exists; the
# dispatcher sets the class's legal_actions and apply functions.
from thousand.classic import engine as _engine  # noqa: E402, F401
from thousand.classic import observation as _observation  # noqa: E402
