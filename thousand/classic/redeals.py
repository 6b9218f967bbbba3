"""Throw-ins (house rules): a deal in which a hand holds all four nines, all four jacks, or too
little is thrown in and dealt again by the same dealer.

Nobody calls a throw-in: it happens by itself at its check point (when the cards are dealt, or
when the exchange is over), so that no decision offered to one player tells the table what that
player holds.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from thousand.classic.cards import Rank, points_of
from thousand.classic.marriages import marriage_value
from thousand.classic.rules import Redeal, Rules

__all__ = ["ThrowIn", "after_exchange", "at_deal", "hand_worth"]

NINES = "four nines"
JACKS = "four jacks"
WEAK = "weak hand"
_FOUR = {NINES: sum(1 << (6 * suit + Rank.NINE) for suit in range(4)),
         JACKS: sum(1 << (6 * suit + Rank.JACK) for suit in range(4))}  # fmt: skip


@attrs.frozen
class ThrowIn:
    """Why a deal was thrown in: the first qualifying hand clockwise from the forehand."""

    seat: int
    reason: str
    """``"four nines"``, ``"four jacks"`` or ``"weak hand"`` (checked in that order)."""
    when: Redeal
    """``Redeal.DEALT`` (as dealt) or ``Redeal.AFTER_EXCHANGE``."""

    def __str__(self) -> str:
        holding = "a weak hand" if self.reason == WEAK else self.reason
        moment = "as dealt" if self.when is Redeal.DEALT else "after the exchange"
        return f"thrown in: seat {self.seat} holds {holding} {moment}"


def hand_worth(rules: Rules, hand: int) -> int:
    """What a hand is worth for the weak-hand throw-in: its card points plus the marriages it
    holds (the four aces where the rules count them)."""
    return points_of(hand) + marriage_value(rules, hand)


def checks_at_deal(rules: Rules) -> bool:
    """Whether any throw-in is checked when the cards are dealt."""
    return (
        rules.redeal_nines is Redeal.DEALT
        or rules.redeal_jacks is Redeal.DEALT
        or rules.redeal_weak_hand > 0
    )


def checks_after_exchange(rules: Rules) -> bool:
    """Whether any throw-in is checked when the exchange is over."""
    return (
        rules.redeal_nines is Redeal.AFTER_EXCHANGE or rules.redeal_jacks is Redeal.AFTER_EXCHANGE
    )


def at_deal(rules: Rules, hands: Sequence[int], active: Sequence[int]) -> ThrowIn | None:
    """The throw-in the dealt ``hands`` (card masks per seat) call for, if any; ``active`` lists
    the seats taking part clockwise from the forehand."""
    return _first(rules, hands, active, Redeal.DEALT)


def after_exchange(rules: Rules, hands: Sequence[int], active: Sequence[int]) -> ThrowIn | None:
    """The throw-in the hands after the exchange call for, if any."""
    return _first(rules, hands, active, Redeal.AFTER_EXCHANGE)


def _first(
    rules: Rules, hands: Sequence[int], active: Sequence[int], when: Redeal
) -> ThrowIn | None:
    checked = [
        reason
        for reason, setting in ((NINES, rules.redeal_nines), (JACKS, rules.redeal_jacks))
        if setting is when
    ]
    weak = rules.redeal_weak_hand if when is Redeal.DEALT else 0
    for seat in active:
        hand = hands[seat]
        for reason in checked:
            four = _FOUR[reason]
            if hand & four == four:
                return ThrowIn(seat, reason, when)
        if weak and hand_worth(rules, hand) < weak:
            return ThrowIn(seat, WEAK, when)
    return None
