"""What a finished deal and a finished match leave behind."""

from __future__ import annotations

import attrs

from thousand.actions import Action
from thousand.layout import Layout

__all__ = ["DealResult", "MatchResult"]


@attrs.frozen(weakref_slot=False)
class DealResult:
    """The outcome of one deal, with everything needed to replay it."""

    number: int
    """The deal's number in the match, from 0."""
    dealer: int
    layout: Layout
    """The cards as dealt."""
    actions: tuple[tuple[int, Action], ...]
    """Every action of the deal in order, with the seat that took it."""
    declarer: int
    bid: int
    """The winning bid of the auction."""
    contract: int | None
    """The contract fixed after the exchange; ``None`` when the declarer conceded."""
    points: tuple[int, ...]
    """Deal points per seat: card points of won tricks plus declared marriages."""
    deal_scores: tuple[int, ...]
    """Per seat, what the deal scored before barrel or lock rules: the declarer's ±contract (or
    concession value), the defenders' rounded points."""
    scores: tuple[int, ...]
    """Match scores after the deal, barrel or lock rules applied."""
    barrel: tuple[int | None, ...]
    """After the deal, per seat: ``None`` off the barrel, else the deals already spent on it."""

    @property
    def conceded(self) -> bool:
        """Whether the declarer gave the deal up."""
        return self.contract is None

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
