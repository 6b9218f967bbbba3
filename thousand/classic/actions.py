"""The actions a player can take, and their text notation.

Every action has a short text form that round-trips through :func:`parse_action`::

    >>> parse_action("play KH marriage")
    Play(card=Card.parse('KH'), marriage=True, aces=False)
    >>> str(parse_action("Bid 125"))
    'bid 125'

Actions are small frozen values. The engine hands out shared instances from
``legal_actions()``, but an action built by hand compares equal to them.
"""

from __future__ import annotations

from typing import TypeAlias

import attrs

from thousand.classic.cards import Card
from thousand.common.notation import HIDDEN, MAX_DIGITS, Pass, whole_number
from thousand.errors import InvalidActionError, NotationError

__all__ = [
    "HIDDEN",
    "Action",
    "Bid",
    "Concede",
    "Contract",
    "Discard",
    "Give",
    "Pass",
    "Play",
    "Take",
    "parse_action",
    "seen_by",
]


@attrs.frozen
class Bid:
    """Raise the auction to ``amount``."""

    amount: int

    def __str__(self) -> str:
        return f"bid {self.amount}"


@attrs.frozen
class Take:
    """Two players: the declarer takes musik 1 or musik 2."""

    musik: int

    def __str__(self) -> str:
        return f"take {self.musik}"


@attrs.frozen
class Give:
    """Three players: the declarer gives ``card`` face down to the opponent in seat ``to``.

    In another player's observation the card is ``None``: they saw a card go, not which.
    """

    card: Card | None
    to: int

    def __str__(self) -> str:
        return f"give {self.card or HIDDEN} {self.to}"


@attrs.frozen
class Discard:
    """Two players: the declarer lays ``card`` aside face down (``None`` when unseen)."""

    card: Card | None

    def __str__(self) -> str:
        return f"discard {self.card or HIDDEN}"


@attrs.frozen
class Contract:
    """The declarer fixes the contract at ``amount``."""

    amount: int

    def __str__(self) -> str:
        return f"contract {self.amount}"


@attrs.frozen
class Concede:
    """The declarer gives up the deal instead of fixing a contract (*роспись*)."""

    def __str__(self) -> str:
        return "concede"


@attrs.frozen
class Play:
    """Play ``card`` to the trick; on a lead, optionally declaring its marriage or the four aces."""

    card: Card
    marriage: bool = False
    aces: bool = False

    def __str__(self) -> str:
        suffix = " marriage" if self.marriage else " aces" if self.aces else ""
        return f"play {self.card}{suffix}"


Action: TypeAlias = Pass | Bid | Take | Give | Discard | Contract | Concede | Play
"""Any action of a Thousand deal."""

ACTION_TYPES = (Pass, Bid, Take, Give, Discard, Contract, Concede, Play)


def seen_by(action: Action, actor: int, viewer: int | None) -> Action:
    """``action``, taken by the seat ``actor``, as the seat ``viewer`` sees it (a spectator when
    ``None``): a card given is seen by the giver and the receiver, a card laid aside by the
    declarer alone; everything else is seen by everyone."""
    if type(action) is Give:
        return action if viewer in (actor, action.to) else Give(None, action.to)
    if type(action) is Discard:
        return action if viewer == actor else Discard(None)
    return action


def _number(word: str, text: str) -> int:
    number = whole_number(word)
    if number is None:
        raise InvalidActionError(
            f"'{text}': '{word}' is not a whole number (up to {MAX_DIGITS} digits 0-9)"
        )
    return number


def _card(word: str, text: str) -> Card | None:
    if word == HIDDEN:
        return None
    try:
        return Card.parse(word)
    except NotationError as error:
        raise InvalidActionError(f"'{text}': {error}") from None


_FORMS = (
    "pass, bid N, take 1|2, give CARD SEAT, discard CARD, contract N, concede, "
    "play CARD [marriage|aces]"
)


def parse_action(text: str) -> Action:
    """Read an action written as its ``str``: ``"pass"``, ``"bid 125"``, ``"play KH marriage"``...

    Raises:
        InvalidActionError: the text spells no action.
    """
    if not isinstance(text, str):
        raise InvalidActionError(f"an action is written as text, not {type(text).__name__}")
    words = text.lower().split()
    verb, args = (words[0], words[1:]) if words else ("", [])
    shape = (verb, len(args))
    if shape == ("pass", 0):
        return Pass()
    if shape == ("concede", 0):
        return Concede()
    if shape == ("bid", 1):
        return Bid(_number(args[0], text))
    if shape == ("contract", 1):
        return Contract(_number(args[0], text))
    if shape == ("take", 1):
        return Take(_number(args[0], text))
    if shape == ("give", 2):
        return Give(_card(args[0], text), _number(args[1], text))
    if shape == ("discard", 1):
        return Discard(_card(args[0], text))
    if verb == "play" and len(args) in (1, 2):
        card = _card(args[0], text)
        if card is None:
            raise InvalidActionError(f"'{text}': a played card is always face up")
        extra = args[1] if len(args) == 2 else ""
        if extra not in ("", "marriage", "aces"):
            raise InvalidActionError(
                f"'{text}': after the card only 'marriage' or 'aces' may follow"
            )
        return Play(card, marriage=extra == "marriage", aces=extra == "aces")
    raise InvalidActionError(f"'{text}' is not an action; the forms are: {_FORMS}")
