"""Marriage values, and the bidding ceiling they give a hand (shared by auction and contract)."""

from __future__ import annotations

from thousand.classic.cards import ACES_MASK, MARRIAGE_MASKS
from thousand.classic.rules import Rules

ACES = 4
"""The suit number recorded in ``melds`` for the four-ace marriage."""
MARRIAGE_POINTS: tuple[int, ...] = (40, 60, 80, 100)
"""Marriage values indexed by suit: spades 40, clubs 60, diamonds 80, hearts 100."""
SUIT_MARRIAGES: tuple[tuple[int, int], ...] = tuple(
    zip(MARRIAGE_POINTS, MARRIAGE_MASKS, strict=True)
)
"""Each suit's marriage as ``(points, card mask)``, spades first."""


def marriages(rules: Rules) -> tuple[tuple[int, int], ...]:
    """Every marriage these rules score, as ``(points, card mask)``: the four suits', then the
    four aces where they count."""
    if not rules.ace_marriage:
        return SUIT_MARRIAGES
    return (*SUIT_MARRIAGES, (rules.ace_marriage, ACES_MASK))


def marriages_value(held: tuple[tuple[int, int], ...], cards: int) -> int:
    """What the marriages of ``held`` complete in ``cards`` (a card mask) are worth together."""
    value = 0
    for points, pair in held:
        if cards & pair == pair:
            value += points
    return value


def marriage_value(rules: Rules, hand: int) -> int:
    """The value of the marriages in a hand (the four aces included where the rules have them)."""
    return marriages_value(marriages(rules), hand)


def ceiling(rules: Rules, hand: int) -> int:
    """The highest bid or contract this hand allows: the cap base plus the marriages held."""
    return rules.cap_base + marriage_value(rules, hand)


def meld_points(rules: Rules, suit: int) -> int:
    """What a declared marriage of ``suit`` scores (suit ``ACES``: the four-ace marriage)."""
    return rules.ace_marriage if suit == ACES else MARRIAGE_POINTS[suit]


def every_marriage(rules: Rules) -> int:
    """What all the marriages these rules score are worth together."""
    return sum(points for points, _ in marriages(rules))


def highest_ceiling(rules: Rules) -> int:
    """The highest bid or contract any hand can allow: the cap base plus every marriage (the
    four aces included where they count)."""
    return rules.cap_base + every_marriage(rules)
