"""Drawing ("buying") cards: from the draw pile, reshuffling the discards when it runs out."""

from __future__ import annotations

import random

import attrs

from thousand.bluff.rules import EmptyDrawPile
from thousand.bluff.state import State
from thousand.common.shuffling import shuffle


@attrs.frozen
class Draw:
    """The cards drawn and the piles afterwards."""

    cards: tuple[int, ...]
    pile: tuple[int, ...]
    pile_position: int
    discards: tuple[int, ...]
    reshuffles: int


def draw(state: State, count: int, discards: tuple[int, ...]) -> Draw:
    """Draw up to ``count`` cards. An empty pile takes the shuffled ``discards`` as a new pile
    (under the reshuffle rule); when nothing is left, fewer cards are drawn."""
    pile = state.pile
    position = state.pile_position
    reshuffles = state.reshuffles
    drawn = pile[position : position + count]
    position += len(drawn)
    short = count - len(drawn)
    if short and discards and state.rules.empty_draw_pile is EmptyDrawPile.RESHUFFLE:
        # One reshuffle empties the discards: what it cannot give, nothing can.
        order = list(discards)
        shuffle(order, random.Random(f"thousand-1000?:{state.origin.seed}:{reshuffles}"))
        pile, discards, reshuffles = tuple(order), (), reshuffles + 1
        more = pile[:short]
        drawn += more
        position = len(more)
    return Draw(drawn, pile, position, discards, reshuffles)
