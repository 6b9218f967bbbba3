"""Every possible action of a game as a number, and back: the fixed ``Discrete(n)`` action space
of the learning environments.

The numbering depends only on the rules (the player count, the bids the rules allow, the cards
of a 1000? deck), never on the moment, so a policy's output layer has one size for a whole game::

    >>> from thousand import Bid, Rules
    >>> codec = ActionCodec.for_rules(Rules.preset("russian"))
    >>> codec.size, codec.index(Bid(120)), codec.action(codec.index(Bid(120)))
    (312, 5, Bid(amount=120))
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from thousand import bluff
from thousand.classic.actions import Bid, Concede, Contract, Discard, Give, Pass, Play, Take
from thousand.classic.cards import DECK, Rank
from thousand.classic.marriages import highest_ceiling
from thousand.classic.rules import Rules
from thousand.errors import InvalidActionError
from thousand.games import BLUFF, THOUSAND, AnyGame, per_game

__all__ = ["ActionCodec", "action_number", "bluff_actions", "thousand_actions"]


@attrs.frozen(eq=False)
class ActionCodec:
    """The actions of one game's rules in a fixed order: ``index(action)`` and ``action(index)``
    are inverse, and ``mask(legal)`` marks the legal ones."""

    actions: tuple[Any, ...]
    """Every action the rules allow at any moment, in index order."""
    _indexes: dict[Any, int] = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(
            self, "_indexes", {action: index for index, action in enumerate(self.actions)}
        )

    @classmethod
    def for_rules(cls, rules: Rules | bluff.Rules) -> ActionCodec:
        """The codec of a Thousand or 1000? game under ``rules``."""
        return cls(per_game(_ACTIONS, rules, "action codec")(rules))

    @property
    def size(self) -> int:
        """How many actions there are: the ``n`` of ``Discrete(n)``."""
        return len(self.actions)

    def index(self, action: object) -> int:
        """The number of ``action``; :class:`~thousand.InvalidActionError` if the rules have no
        such action (a face-down card written as unseen, a bid off the step)."""
        try:
            return self._indexes[action]
        except (KeyError, TypeError):
            raise InvalidActionError(f"{action} is no action of these rules") from None

    def action(self, index: object) -> Any:
        """The action numbered ``index``; :class:`~thousand.InvalidActionError` out of range,
        or when ``index`` is no action number (see :func:`action_number`)."""
        number = action_number(index)
        if not 0 <= number < len(self.actions):
            raise InvalidActionError(
                f"action number {number} is out of range: these rules have {len(self.actions)}"
            )
        return self.actions[number]

    def mask(self, legal: Iterable[object]) -> list[int]:
        """1 for each action in ``legal``, 0 for the others, in index order."""
        mask = [0] * len(self.actions)
        for action in legal:
            mask[self.index(action)] = 1
        return mask

    def describe(self) -> list[str]:
        """Each action's text, in index order (the mapping a person reads)."""
        return [str(action) for action in self.actions]


def action_number(value: object) -> int:
    """``value`` as an action number: a whole number of an integer type (``int``, a NumPy
    integer). A float (even ``2.0``, most likely a mistake), a bool, ``None`` or anything else
    numbers no action: :class:`~thousand.InvalidActionError`, naming it.

    Examples:
        >>> action_number(3)
        3
    """
    if not isinstance(value, bool):
        try:
            return operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise InvalidActionError(
        f"{_shown(value)} is no action number: actions are numbered by whole numbers"
    )


def _shown(value: object) -> str:
    """``value`` as an error message shows it, even one whose ``repr`` fails."""
    try:
        return repr(value)
    except Exception:
        return f"a {type(value).__name__}"


def _amounts(rules: Rules) -> range:
    """Every bid or contract the rules can ever allow: from the opening bid up to the cap base
    plus every marriage (the four aces included where they count), in bid steps."""
    return range(rules.opening_bid, highest_ceiling(rules) + 1, rules.bid_step)


def thousand_actions(rules: Rules) -> tuple[Any, ...]:
    """Thousand's actions in index order: pass; every bid; (two players) take 1 and 2;
    (three players) every card given to every seat; (two players) every card discarded; every
    contract; concede; every card played; kings and queens played declaring their marriage; aces
    played declaring the four aces."""
    amounts = _amounts(rules)
    two = rules.players == 2
    actions: list[Any] = [Pass(), *(Bid(amount) for amount in amounts)]
    if two:
        actions += [Take(1), Take(2)]
    else:
        actions += [Give(card, seat) for seat in range(rules.players) for card in DECK]
    if two:
        actions += [Discard(card) for card in DECK]
    actions += [Contract(amount) for amount in amounts]
    actions.append(Concede())
    actions += [Play(card) for card in DECK]
    actions += [Play(card, marriage=True) for card in DECK if card.rank in (Rank.QUEEN, Rank.KING)]
    actions += [Play(card, aces=True) for card in DECK if card.rank == Rank.ACE]
    return tuple(actions)


def bluff_actions(rules: bluff.Rules) -> tuple[Any, ...]:
    """1000?'s actions in index order: pass (draw), believe, challenge; every distinct card of
    the deck played face up; every distinct card played face down."""
    kinds: Sequence[bluff.Card] = rules.kinds.cards
    return (
        bluff.Pass(),
        bluff.Believe(),
        bluff.Challenge(),
        *(bluff.Play(card) for card in kinds),
        *(bluff.Hide(card) for card in kinds),
    )


_ACTIONS: dict[AnyGame, Callable[[Any], tuple[Any, ...]]] = {
    THOUSAND: thousand_actions,
    BLUFF: bluff_actions,
}
"""Every action of each game's rules, in index order."""
