"""Cards of the 24-card Thousand deck, their notation, and the bit masks the engine uses.

A card's ``index`` is ``6 * suit + rank`` (0..23); a set of cards is an ``int`` whose bit
``index`` is set for each card in it. Ranks are numbered in trick order, so within one suit a
higher bit always beats a lower one.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator

import attrs

from thousand.errors import NotationError

__all__ = ["DECK", "Card", "Rank", "Suit", "cards"]


class Suit(enum.IntEnum):
    """The four suits, numbered so that a higher suit carries a more valuable marriage."""

    SPADES = 0
    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3

    @property
    def letter(self) -> str:
        """The ASCII letter used in notation: ``S C D H``."""
        return "SCDH"[self]

    @property
    def symbol(self) -> str:
        """The suit symbol: ``♠ ♣ ♦ ♥``."""
        return "♠♣♦♥"[self]

    def __str__(self) -> str:
        return self.letter


class Rank(enum.IntEnum):
    """The six ranks, numbered in trick order (nine lowest, ace highest)."""

    NINE = 0
    JACK = 1
    QUEEN = 2
    KING = 3
    TEN = 4
    ACE = 5

    @property
    def letter(self) -> str:
        """The ASCII letter used in notation: ``9 J Q K T A``."""
        return "9JQKTA"[self]

    @property
    def points(self) -> int:
        """Card points: A 11, 10 10, K 4, Q 3, J 2, 9 0."""
        return _RANK_POINTS[self]

    def __str__(self) -> str:
        return self.letter


_RANK_POINTS = (0, 2, 3, 4, 10, 11)
_SUIT_BY_LETTER = {
    "S": Suit.SPADES,
    "C": Suit.CLUBS,
    "D": Suit.DIAMONDS,
    "H": Suit.HEARTS,
    "♠": Suit.SPADES,
    "♣": Suit.CLUBS,
    "♦": Suit.DIAMONDS,
    "♥": Suit.HEARTS,
    "♤": Suit.SPADES,
    "♧": Suit.CLUBS,
    "♢": Suit.DIAMONDS,
    "♡": Suit.HEARTS,
}
_RANK_BY_LETTER = {
    "9": Rank.NINE,
    "J": Rank.JACK,
    "Q": Rank.QUEEN,
    "K": Rank.KING,
    "T": Rank.TEN,
    "10": Rank.TEN,
    "A": Rank.ACE,
}


@attrs.frozen(repr=False, order=False)
class Card:
    """One card, such as the ten of hearts ``Card.parse("TH")``.

    Examples:
        >>> Card.parse("10♥")
        Card.parse('TH')
        >>> str(Card(Suit.HEARTS, Rank.TEN)), Card.parse("TH").points
        ('TH', 10)
    """

    suit: Suit = attrs.field(converter=Suit)
    rank: Rank = attrs.field(converter=Rank)
    index: int = attrs.field(init=False, eq=False)
    """The card's number 0..23 (``6 * suit + rank``), its bit in a card mask."""
    text: str = attrs.field(init=False, eq=False, repr=False)
    """The card's notation, such as ``TH``."""

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "index", 6 * self.suit + self.rank)
        object.__setattr__(self, "text", self.rank.letter + self.suit.letter)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card: rank ``9 J Q K T A`` (or ``10``) then suit ``S C D H`` (or a symbol)."""
        card = _BY_TEXT.get(text.strip().upper()) if isinstance(text, str) else None
        if card is None:
            raise NotationError(
                f"'{text}' is not a card: write the rank (9 J Q K T A, or 10) then the suit "
                "(S C D H, or ♠ ♣ ♦ ♥), as in 'TH' for the ten of hearts"
            )
        return card

    @property
    def points(self) -> int:
        """The card's points in a won trick."""
        return _RANK_POINTS[self.rank]

    @property
    def bit(self) -> int:
        """This card as a one-card mask."""
        return 1 << self.index

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card.parse('{self}')"


DECK: tuple[Card, ...] = tuple(Card(Suit(i // 6), Rank(i % 6)) for i in range(24))
"""All 24 cards in index order (spades nine first, ace of hearts last)."""

_BY_TEXT: dict[str, Card] = {}
for _card in DECK:
    for _rank_text, _rank in _RANK_BY_LETTER.items():
        for _suit_text, _suit in _SUIT_BY_LETTER.items():
            if _rank == _card.rank and _suit == _card.suit:
                _BY_TEXT[_rank_text + _suit_text] = _card

FULL_MASK = (1 << 24) - 1
SUIT_MASKS: tuple[int, ...] = tuple(0b111111 << (6 * s) for s in range(4))
RANK_MASKS: tuple[int, ...] = tuple(sum(1 << (6 * s + r) for s in range(4)) for r in range(6))
ACES_MASK = RANK_MASKS[Rank.ACE]
MARRIED_RANKS = (Rank.QUEEN, Rank.KING)
"""The ranks a marriage is made of, in a suit."""
MARRIAGE_MASKS: tuple[int, ...] = tuple(
    sum(1 << (6 * s + rank) for rank in MARRIED_RANKS) for s in range(4)
)
CARD_POINTS: tuple[int, ...] = tuple(card.points for card in DECK)


def cards(text: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Read several cards, e.g. ``cards("AH TH KH")``; also accepts a sequence of cards or strings.

    Examples:
        >>> cards("AH 10H kh")
        (Card.parse('AH'), Card.parse('TH'), Card.parse('KH'))
    """
    items = text.replace(",", " ").split() if isinstance(text, str) else text
    return tuple(item if isinstance(item, Card) else Card.parse(item) for item in items)


def mask_of(items: Iterable[Card]) -> int:
    """The mask holding these cards."""
    mask = 0
    for card in items:
        mask |= 1 << card.index
    return mask


def indices(mask: int) -> Iterator[int]:
    """The card indices in a mask in display order: hearts to spades, high rank to low."""
    while mask:
        top = mask.bit_length() - 1
        yield top
        mask ^= 1 << top


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards in a mask in display order: hearts to spades, high rank to low."""
    return tuple(DECK[i] for i in indices(mask))


def points_of(mask: int) -> int:
    """The card points of the cards in a mask."""
    return (
        _PATTERN_POINTS[mask & 63]
        + _PATTERN_POINTS[mask >> 6 & 63]
        + _PATTERN_POINTS[mask >> 12 & 63]
        + _PATTERN_POINTS[mask >> 18]
    )


_PATTERN_POINTS = tuple(
    sum(_RANK_POINTS[rank] for rank in range(6) if pattern >> rank & 1) for pattern in range(64)
)
"""The points of each suit's 6-bit pattern of cards."""
DECK_POINTS = sum(card.points for card in DECK)
"""The card points of the whole deck, 120: what the tricks of a deal hold in all."""


def format_cards(mask: int) -> str:
    """The cards of a mask as notation text, e.g. ``"AH KH 9S"``."""
    return " ".join(str(card) for card in cards_of(mask))
