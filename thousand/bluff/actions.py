"""1000? actions and their text: ``play 06``, ``play 1000``, ``hide 23``, ``pass``, ``believe``,
``challenge``.

    >>> parse_action("hide 23")
    Hide(card=Card('23'))
    >>> str(parse_action("PLAY 1000"))
    'play 1000'
"""

from __future__ import annotations

from typing import TypeAlias

import attrs

from thousand.bluff.cards import Card
from thousand.common.notation import HIDDEN, Pass
from thousand.errors import InvalidActionError, NotationError

__all__ = ["Action", "Believe", "Challenge", "Hide", "Pass", "Play", "parse_action", "seen_by"]


@attrs.frozen
class Play:
    """Play ``card`` face up: to start a climb, or on a card it beats."""

    card: Card

    def __str__(self) -> str:
        return f"play {self.card}"


@attrs.frozen
class Hide:
    """Play ``card`` face down, claiming it beats the top card (``None`` when unseen)."""

    card: Card | None

    def __str__(self) -> str:
        return f"hide {self.card or HIDDEN}"


@attrs.frozen
class Believe:
    """Accept the face-down card just played: it counts as a 1000 from now on."""

    def __str__(self) -> str:
        return "believe"


@attrs.frozen
class Challenge:
    """Turn the face-down card just played over: whoever was wrong draws three."""

    def __str__(self) -> str:
        return "challenge"


Action: TypeAlias = Play | Hide | Pass | Believe | Challenge
"""Any action of a 1000? game. ``Pass`` (draw a card) is the same value as Thousand's."""

ACTION_TYPES = (Play, Hide, Pass, Believe, Challenge)

_FORMS = "play CARD, hide CARD, pass, believe, challenge"


def seen_by(action: Action, actor: int, viewer: int | None) -> Action:
    """``action``, taken by the seat ``actor``, as the seat ``viewer`` sees it (a spectator when
    ``None``): a card played face down is seen by its player alone."""
    if type(action) is Hide and viewer != actor:
        return Hide(None)
    return action


def _card(word: str, text: str) -> Card:
    try:
        return Card.parse(word)
    except NotationError as error:
        raise InvalidActionError(f"'{text}': {error}") from None


def parse_action(text: str) -> Action:
    """Read an action written as its ``str``.

    Raises:
        InvalidActionError: the text spells no 1000? action.
    """
    if not isinstance(text, str):
        raise InvalidActionError(f"an action is written as text, not {type(text).__name__}")
    words = text.lower().split()
    if words == ["pass"]:
        return Pass()
    if words == ["believe"]:
        return Believe()
    if words == ["challenge"]:
        return Challenge()
    if len(words) == 2 and words[0] == "play":
        if words[1] == HIDDEN:
            raise InvalidActionError(f"'{text}': a card played face up is always seen")
        return Play(_card(words[1], text))
    if len(words) == 2 and words[0] == "hide":
        return Hide(None if words[1] == HIDDEN else _card(words[1], text))
    raise InvalidActionError(f"'{text}' is not a 1000? action; the forms are: {_FORMS}")
