"""The distinct cards of a deck, numbered for the engine, with the 'beats' table precomputed.

The state keeps hands as sorted tuples of these numbers (a hand may hold several equal cards).
"""

from __future__ import annotations

from functools import lru_cache

import attrs

from thousand.bluff.actions import Hide, Play
from thousand.bluff.cards import Card, beats


@attrs.frozen
class Kinds:
    """The distinct cards of a deck, lowest value first, and what each may be played on."""

    cards: tuple[Card, ...]
    number: dict[Card, int] = attrs.field(eq=False)
    """Each card's number (its position in ``cards``)."""
    number_by_label: dict[str, int] = attrs.field(eq=False)
    """The same numbers by label (a string's hash is cached: the engine's fast way in)."""
    beats: tuple[tuple[bool, ...], ...] = attrs.field(eq=False)
    """``beats[top][card]``: whether ``card`` may be played face up on ``top``."""
    plays: tuple[Play, ...] = attrs.field(eq=False)
    hides: tuple[Hide, ...] = attrs.field(eq=False)
    deck: tuple[int, ...] = attrs.field(eq=False)
    """The deck as numbers, in the rules' order: what a game shuffles and deals."""


@lru_cache(maxsize=64)
def kinds_of(deck: tuple[Card, ...]) -> Kinds:
    """The kinds table of a deck (cached: decks are few)."""
    distinct = tuple(sorted(set(deck), key=lambda card: (card.value, card.label)))
    number = {card: number for number, card in enumerate(distinct)}
    return Kinds(
        cards=distinct,
        number=number,
        number_by_label={card.label: number for number, card in enumerate(distinct)},
        beats=tuple(tuple(beats(card, top) for card in distinct) for top in distinct),
        plays=tuple(Play(card) for card in distinct),
        hides=tuple(Hide(card) for card in distinct),
        deck=tuple(number[card] for card in deck),
    )
