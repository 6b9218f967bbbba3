"""1000? cards: number cards with a printed two-digit label, and 1000 cards that go on anything."""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from thousand.common.notation import whole_number
from thousand.errors import NotationError

__all__ = ["THOUSAND", "Card", "cards"]

THOUSAND = "1000"
"""The label of a 1000 card."""


def _label(value: str) -> str:
    """A label is 1 to 4 digits 0-9, so that a card's value is always a small number."""
    if not (isinstance(value, str) and whole_number(value) is not None and len(value) <= 4):
        raise NotationError(
            f"'{value}' is not a 1000? card: write its printed label, 1 to 4 digits such as "
            "'06' or '1000'"
        )
    return value


@attrs.frozen(repr=False, order=False)
class Card:
    """A 1000? card, known by its printed label: ``"06"``, ``"23"`` or ``"1000"``.

    Examples:
        >>> sorted(Card("06").digits), Card("06").value, Card("1000").is_thousand
        (['0', '6'], 6, True)
    """

    label: str = attrs.field(converter=_label)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card label (surrounding spaces ignored)."""
        return cls(text.strip() if isinstance(text, str) else text)

    @property
    def is_thousand(self) -> bool:
        """Whether this is a 1000 card, playable on anything."""
        return self.label == THOUSAND

    @property
    def value(self) -> int:
        """The number on the card (1000 for a 1000 card)."""
        return int(self.label)

    @property
    def digits(self) -> frozenset[str]:
        """The digits printed on the card: ``"06"`` has {0, 6}."""
        return frozenset(self.label)

    def __str__(self) -> str:
        return self.label

    def __repr__(self) -> str:
        return f"Card('{self.label}')"


def cards(text: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Read several cards, e.g. ``cards("06 23 1000")``.

    Examples:
        >>> cards("06 23 1000")
        (Card('06'), Card('23'), Card('1000'))
    """
    items = text.replace(",", " ").split() if isinstance(text, str) else text
    return tuple(item if isinstance(item, Card) else Card.parse(item) for item in items)


def beats(card: Card, top: Card) -> bool:
    """Whether ``card`` may be played face up on ``top``: a 1000 always; anything on a 1000;
    otherwise strictly greater and sharing at least one printed digit."""
    if card.is_thousand or top.is_thousand:
        return True
    return card.value > top.value and bool(card.digits & top.digits)
