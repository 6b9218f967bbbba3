"""Marriage values, and the bidding ceiling they give a hand (shared by auction and contract)."""

from __future__ import annotations

from thousand.cards import ACES_MASK, MARRIAGE_MASKS
from thousand.rules import Rules

MARRIAGE_POINTS: tuple[int, ...] = (40, 60, 80, 100)
"""Marriage values indexed by suit: spades 40, clubs 60, diamonds 80, hearts 100."""
_MARRIAGES = tuple(zip(MARRIAGE_POINTS, MARRIAGE_MASKS, strict=True))


def marriage_value(rules: Rules, hand: int) -> int:
    """The value of the marriages in a hand (the four aces included where the rules have them)."""
    value = 0
    for points, pair in _MARRIAGES:
        if hand & pair == pair:
            value += points
    if rules.ace_marriage and hand & ACES_MASK == ACES_MASK:
        value += rules.ace_marriage
    return value


def ceiling(rules: Rules, hand: int) -> int:
    """The highest bid or contract this hand allows: the cap base plus the marriages held."""
    return rules.cap_base + marriage_value(rules, hand)


def highest_ceiling(rules: Rules) -> int:
    """The highest bid or contract any hand can allow: the cap base plus every marriage (the
    four aces included where they count)."""
    return rules.cap_base + sum(MARRIAGE_POINTS) + rules.ace_marriage
