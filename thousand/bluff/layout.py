"""Who holds which 1000? cards, and the order of the draw pile.

Examples:
    >>> layout = Layout(hands=["06 16 1000", "23 36 60"], draw_pile="07 08")
    >>> [str(card) for card in layout.draw_pile]
    ['07', '08']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from thousand.bluff.cards import Card, cards
from thousand.common.card_text import read_cards, read_hands
from thousand.errors import LayoutError

__all__ = ["Layout"]


def _to_cards(value: str | Iterable[str | Card]) -> tuple[Card, ...]:
    return read_cards(cards, value)


def _to_hands(value: Sequence[str | Iterable[str | Card]]) -> tuple[tuple[Card, ...], ...]:
    return read_hands(cards, value)


@attrs.frozen(weakref_slot=False)
class Layout:
    """The hands as dealt and the draw pile, ``draw_pile[0]`` being the next card drawn."""

    hands: tuple[tuple[Card, ...], ...] = attrs.field(converter=_to_hands)
    draw_pile: tuple[Card, ...] = attrs.field(converter=_to_cards)

    def to_dict(self) -> dict[str, Any]:
        """The layout as labels, for records."""
        return {
            "hands": [" ".join(card.label for card in hand) for hand in self.hands],
            "draw_pile": " ".join(card.label for card in self.draw_pile),
        }

    @classmethod
    def from_dict(cls, data: Any) -> Layout:
        """A layout from :meth:`to_dict` output."""
        if not isinstance(data, dict) or set(data) != {"hands", "draw_pile"}:
            raise LayoutError("a layout is an object with exactly the keys 'hands' and 'draw_pile'")
        return cls(hands=data["hands"], draw_pile=data["draw_pile"])
