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
    drawn: tuple[int, ...] = ()
    while len(drawn) < count:
        if position >= len(pile):
            if state.rules.empty_draw_pile is not EmptyDrawPile.RESHUFFLE or not discards:
                break
            order = list(discards)
            shuffle(order, random.Random(f"thousand-1000?:{state.origin.seed}:{reshuffles}"))
            pile, position, discards, reshuffles = tuple(order), 0, (), reshuffles + 1
        taken = pile[position : position + count - len(drawn)]
        drawn += taken
        position += len(taken)
    return Draw(drawn, pile, position, discards, reshuffles)
