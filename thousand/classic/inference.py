"""What one seat can deduce from the play of a deal: who played which cards, and which cards each
seat can no longer hold because the rules would have made it play them, and which it must still
hold because it declared them married.

Following rules reveal a lot: a seat that does not follow suit holds none of that suit; one that
then does not trump holds no trump (where trumping is compulsory); one that follows with a low card
where it had to beat the trick holds nothing higher; and under automatic declaration a king or
queen led plain means its partner is not in hand. These deductions are shared by the card-counting
``greedy`` bot and by the determiniser.
"""

from __future__ import annotations

import attrs

from thousand.classic.cards import ACES_MASK, MARRIAGE_MASKS, MARRIED_RANKS
from thousand.classic.observation import Observation
from thousand.classic.rules import MarriageDeclaration, Rules
from thousand.classic.tricks import following, trick_complete, trick_winner, trump_after

__all__ = ["Deductions", "deduce"]


@attrs.frozen
class Deductions:
    """Card masks deduced from a deal's plays, each indexed by seat where it is a tuple."""

    played: int
    """Every card played this deal, the current trick included."""
    played_by: tuple[int, ...]
    """The cards each seat has played."""
    lacks: tuple[int, ...]
    """Cards each seat cannot hold now, as shown by its plays (its own played cards aside)."""
    holds: tuple[int, ...]
    """Cards each seat must hold now: the rest of a marriage (or of the four aces) it declared,
    not played since."""
    trump: int
    """The trump suit number after the plays so far, -1 before any marriage."""


def deduce(observation: Observation) -> Deductions:
    """The deductions every seat can make from the plays in ``observation``'s history."""
    rules: Rules = observation.rules
    players = rules.players
    automatic = rules.marriage_declaration is MarriageDeclaration.AUTOMATIC
    need_trick = rules.marriage_requires_trick
    played_by = [0] * players
    lacks = [0] * players
    declared = [0] * players
    won = [False] * players
    trump = -1
    trick: list[int] = []
    seats: list[int] = []
    for actor, action in observation.card_plays:
        index = action.card.index
        if not trick:
            trump = trump_after(action, trump)
            if action.marriage:
                declared[actor] |= MARRIAGE_MASKS[trump]
            elif action.aces:
                declared[actor] |= ACES_MASK
            elif automatic and index % 6 in MARRIED_RANKS and (won[actor] or not need_trick):
                lacks[actor] |= MARRIAGE_MASKS[index // 6] & ~(1 << index)
        else:
            bit = 1 << index
            for cards in following(rules, tuple(trick), trump):
                if cards & bit:
                    break
                lacks[actor] |= cards
        played_by[actor] |= 1 << index
        trick.append(index)
        seats.append(actor)
        if trick_complete(rules, len(trick)):
            if automatic:
                won[seats[trick_winner(tuple(trick), trump)]] = True
            trick = []
            seats = []
    played = 0
    for cards in played_by:
        played |= cards
    return Deductions(
        played=played,
        played_by=tuple(played_by),
        lacks=tuple(mask & ~played for mask in lacks),
        holds=tuple(mask & ~played for mask in declared),
        trump=trump,
    )
