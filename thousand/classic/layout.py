"""Deal layouts: who holds which cards, and what lies in the talon.

A layout comes from the seed of a match (a uniform random permutation, different for every deal)
or is written by hand for tests, puzzles and duplicate play::

    >>> layout = Layout(
    ...     hands=["AH TH KH QH JH 9H AD", "TD KD QD JD 9D AC TC", "KC QC JC 9C AS TS KS"],
    ...     talon="QS JS 9S",
    ... )
    >>> layout.players, [str(card) for card in layout.talon[0]]
    (3, ['QS', 'JS', '9S'])
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from thousand.classic.cards import DECK, Card, cards, mask_of
from thousand.common.card_text import read_cards, read_hands
from thousand.common.shuffling import shuffle
from thousand.common.state_base import fast_constructor
from thousand.errors import LayoutError

__all__ = ["Layout"]


def _to_cards(value: str | Iterable[str | Card]) -> tuple[Card, ...]:
    return read_cards(cards, value)


def _to_hands(value: Sequence[str | Iterable[str | Card]]) -> tuple[tuple[Card, ...], ...]:
    return read_hands(cards, value)


def _to_talon(value: Any) -> tuple[tuple[Card, ...], ...]:
    """One pile (3 players) given flat, or two musiki given as two entries or split by '|'."""
    if isinstance(value, str):
        return tuple(_to_cards(part) for part in value.split("|"))
    items = list(value)
    if all(isinstance(item, (Card, str)) for item in items) and not any(
        isinstance(item, str) and len(item.split()) > 1 for item in items
    ):
        return (_to_cards(items),)
    return tuple(_to_cards(item) for item in items)


@attrs.frozen(weakref_slot=False)
class Layout:
    """The cards of one deal: ``hands[seat]`` and the talon piles.

    ``talon`` holds one pile of 3 cards for three players, or two musiki of 2 cards for two.
    At a table of four the seat sitting out has an empty hand (``""``) and the other three hold
    7 cards each. Cards may be given as notation strings (``"AH TH KH"``) or as
    :class:`~thousand.Card` values.
    """

    hands: tuple[tuple[Card, ...], ...] = attrs.field(converter=_to_hands)
    talon: tuple[tuple[Card, ...], ...] = attrs.field(converter=_to_talon)

    def __attrs_post_init__(self) -> None:
        players = len(self.hands)
        if players not in (2, 3, 4):
            raise LayoutError(f"a layout has 2, 3 or 4 hands, not {players}")
        size = 10 if players == 2 else 7
        empty = [seat for seat, hand in enumerate(self.hands) if not hand]
        if players == 4 and len(empty) != 1:
            raise LayoutError(
                "a layout for four seats leaves exactly one hand empty (the seat sitting out), "
                f"not {len(empty)}"
            )
        for seat, hand in enumerate(self.hands):
            if len(hand) != size and not (players == 4 and seat in empty):
                raise LayoutError(
                    f"hand {seat} has {len(hand)} cards; with {players} players each holds {size}"
                )
        shape = [2, 2] if players == 2 else [3]
        if [len(pile) for pile in self.talon] != shape:
            wanted = "two musiki of 2 cards each" if players == 2 else "one talon of 3 cards"
            raise LayoutError(f"with {players} players the layout needs {wanted}")
        seen = 0
        repeated = []
        for pile in (*self.hands, *self.talon):
            for card in pile:
                if seen >> card.index & 1:
                    repeated.append(str(card))
                seen |= 1 << card.index
        if repeated:
            raise LayoutError(f"card(s) dealt twice: {' '.join(repeated)}")

    @property
    def players(self) -> int:
        """The number of hands (seats)."""
        return len(self.hands)

    @property
    def sitter(self) -> int | None:
        """Four seats: the seat with the empty hand; else ``None``."""
        if len(self.hands) < 4:
            return None
        return next(seat for seat, hand in enumerate(self.hands) if not hand)

    @classmethod
    def shuffled(cls, players: int, rng: random.Random, sitter: int | None = None) -> Layout:
        """A uniformly random layout for 2, 3 or 4 seats, drawn from ``rng``; with four, the
        ``sitter`` gets no cards and the other three the hands of a three-player deal."""
        deck = list(DECK)
        shuffle(deck, rng)
        if players == 2:
            return _dealt(
                (tuple(deck[:10]), tuple(deck[10:20])), (tuple(deck[20:22]), tuple(deck[22:]))
            )
        hands = [tuple(deck[:7]), tuple(deck[7:14]), tuple(deck[14:21])]
        if players == 4:
            if sitter is None or not 0 <= sitter < 4:
                raise LayoutError("a layout for four seats needs the seat sitting out, 0 to 3")
            hands.insert(sitter, ())
        elif players != 3:
            raise LayoutError(f"a layout has 2, 3 or 4 hands, not {players}")
        return _dealt(tuple(hands), (tuple(deck[21:]),))

    @classmethod
    def from_seed(
        cls, players: int, seed: int, deal_number: int, sitter: int | None = None
    ) -> Layout:
        """The layout of deal ``deal_number`` (from 0) of a match with this seed (with four
        seats, ``sitter`` sits out).

        Every deal gets its own generator, so deal 5 is the same whatever happened in deals 0-4;
        tables sharing a seed play duplicate deals.
        """
        return cls.shuffled(players, random.Random(f"thousand:{seed}:{deal_number}"), sitter)

    def hand_masks(self) -> tuple[int, ...]:
        """Each hand as a card mask."""
        return tuple(mask_of(hand) for hand in self.hands)

    def talon_masks(self) -> tuple[int, ...]:
        """Each talon pile as a card mask."""
        return tuple(mask_of(pile) for pile in self.talon)

    def to_dict(self) -> dict[str, list[str]]:
        """The layout as notation strings, for records."""
        return {
            "hands": [" ".join(map(str, hand)) for hand in self.hands],
            "talon": [" ".join(map(str, pile)) for pile in self.talon],
        }

    @classmethod
    def from_dict(cls, data: Any) -> Layout:
        """A layout from :meth:`to_dict` output."""
        if not isinstance(data, dict) or set(data) != {"hands", "talon"}:
            raise LayoutError("a layout is an object with exactly the keys 'hands' and 'talon'")
        return cls(hands=data["hands"], talon=list(data["talon"]))


_dealt = fast_constructor(Layout)
"""A layout from hands and talon already in their final form (a shuffled deck: nothing to
convert or check)."""
