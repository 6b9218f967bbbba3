"""What a finished deal and a finished match leave behind."""

from __future__ import annotations

from functools import cached_property

import attrs

from thousand.classic.actions import Action, Discard, Give
from thousand.classic.layout import Layout
from thousand.classic.redeals import ThrowIn
from thousand.common.history import Linked, history_tuple

__all__ = ["DealResult", "MatchResult", "shown_actions"]


def shown_actions(
    history: Linked[Action], exchanged: tuple[Give | Discard, ...]
) -> tuple[tuple[int, Action], ...]:
    """A deal's actions as ``(seat, action)`` pairs from its public history (where every card
    given or laid aside is hidden), with the declarer's ``exchanged`` cards shown."""
    public = history_tuple(history)
    if not exchanged:
        return public
    # The exchange's are the last gives or discards of the deal: look back for them from the
    # end, newest first.
    actions = list(public)
    position = len(actions)
    for action in reversed(exchanged):
        position -= 1
        while type(actions[position][1]) is not type(action):
            position -= 1
        actions[position] = (actions[position][0], action)
    return tuple(actions)


@attrs.frozen(weakref_slot=False)
class DealResult:
    """The outcome of one deal, with everything needed to replay it."""

    number: int
    """The deal's number in the match, from 0."""
    dealer: int
    layout: Layout
    """The cards as dealt."""
    declarer: int
    bid: int
    """The winning bid of the auction."""
    contract: int | None
    """The contract fixed after the exchange; ``None`` when the declarer conceded."""
    points: tuple[int, ...]
    """Deal points per seat: card points of won tricks plus declared marriages."""
    deal_scores: tuple[int, ...]
    """Per seat, what the deal scored before barrel or lock rules: the declarer's ±contract (or
    concession value), the defenders' rounded points, the sitter's bonus (four seats), less any
    bolt penalty."""
    scores: tuple[int, ...]
    """Match scores after the deal, barrel or lock rules applied."""
    barrel: tuple[int | None, ...]
    """After the deal, per seat: ``None`` off the barrel, else the deals already spent on it."""
    history: Linked[Action] = attrs.field(repr=False)
    """The deal's public actions as a linked list (the cards given or laid aside hidden)."""
    exchanged: tuple[Give | Discard, ...] = attrs.field(repr=False)
    """The declarer's exchange as it saw it: the cards it gave or laid aside, in order."""
    bolts: tuple[int, ...] = ()
    """After the deal, per seat: the bolts counted towards the next penalty."""
    falls: tuple[int, ...] = ()
    """After the deal, per seat: the falls from the barrel counted towards a reset."""
    thrown_in: ThrowIn | None = None
    """Why the deal was thrown in (it then scored nothing), else ``None``."""

    @cached_property
    def actions(self) -> tuple[tuple[int, Action], ...]:
        """Every action of the deal in order, with the seat that took it, every card shown
        (worked out when first read: most finished deals are never looked at again)."""
        return shown_actions(self.history, self.exchanged)

    @property
    def conceded(self) -> bool:
        """Whether the declarer gave the deal up."""
        return self.contract is None and self.thrown_in is None

    @property
    def made(self) -> bool:
        """Whether the declarer made the contract."""
        return self.contract is not None and self.points[self.declarer] >= self.contract


@attrs.frozen
class MatchResult:
    """The outcome of a match."""

    winners: tuple[int, ...]
    """The winning seats: one, or several on an exact tie."""
    scores: tuple[int, ...]
    """Final scores per seat."""
    settlement: tuple[int, ...] | None
    """What each seat receives (+) or pays (-) when the rules settle; sums to zero."""
    deals: int
    """How many deals were played."""
    adjudicated: bool = False
    """True when the deal limit ended the match and the highest score was declared the winner."""
