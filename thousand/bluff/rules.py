"""The 1000? rules configuration: the deck, the table size, and the readings RULES.md decides.

Examples:
    >>> rules = Rules(players=4)
    >>> len(rules.deck), rules.hand_size, rules.challenge_restart.value
    (56, 7, 'drawn_card')
"""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping
from typing import Any

import attrs

from thousand.bluff.cards import THOUSAND, Card, cards
from thousand.bluff.kinds import Kinds, kinds_of
from thousand.common.config import enum_field, int_field, json_object, only_known_fields, parse_json
from thousand.errors import NotationError, RulesError

__all__ = ["DEFAULT_DECK", "ChallengeRestart", "EmptyDrawPile", "LastCardFaceDown", "Rules"]

DEFAULT_DECK: tuple[Card, ...] = (
    *(Card(f"{number:02d}") for number in range(1, 51)),
    *(Card(THOUSAND) for _ in range(6)),
)
"""The default 56 cards: ``01`` to ``50`` once each and six ``1000`` cards."""


class ChallengeRestart(enum.Enum):
    """What the player who lost a challenge starts the new climb with."""

    DRAWN_CARD = "drawn_card"
    """One of the cards just drawn as the penalty (any card if none could be drawn)."""
    ANY_CARD = "any_card"
    """Any card from hand."""


class EmptyDrawPile(enum.Enum):
    """What happens when a card must be drawn and the draw pile is empty."""

    RESHUFFLE = "reshuffle"
    """The discard pile is shuffled into a new draw pile; if there is nothing, nothing is drawn."""
    NO_RESHUFFLE = "no_reshuffle"
    """Nothing is reshuffled: once the pile is empty, draws take nothing."""


class LastCardFaceDown(enum.Enum):
    """Whether a player's last card, played face down, may still be challenged."""

    CHALLENGEABLE = "challengeable"
    """The next player may challenge it; a revealed bluff keeps the game going."""
    WINS = "wins"
    """Playing the last card ends the game at once, face down or not."""


MAX_DECK = 1000
"""The most cards a deck may hold."""


def _deck(value: Any) -> tuple[Card, ...]:
    try:
        deck = cards(value)
    except (NotationError, TypeError) as error:
        raise RulesError(f"bad deck: {error}") from None
    if len(deck) > MAX_DECK:
        raise RulesError(f"a deck holds at most {MAX_DECK:,} cards, not {len(deck):,}")
    return deck


@attrs.frozen(kw_only=True, cache_hash=True)
class Rules:
    """The rules of a 1000? game. The defaults are RULES.md Part 2."""

    players: int = int_field(4, 2, 6)
    """Players at the table: 2 to 6."""
    hand_size: int = int_field(7, 1, 100)
    """Cards dealt to each player."""
    deck: tuple[Card, ...] = attrs.field(default=DEFAULT_DECK, converter=_deck)
    """Every card of the game; duplicates allowed (the default has six 1000 cards)."""
    challenge_restart: ChallengeRestart = enum_field(ChallengeRestart, ChallengeRestart.DRAWN_CARD)
    """What the loser of a challenge starts the new climb with."""
    empty_draw_pile: EmptyDrawPile = enum_field(EmptyDrawPile, EmptyDrawPile.RESHUFFLE)
    """Whether the discards are reshuffled when the draw pile runs out."""
    last_card_face_down: LastCardFaceDown = enum_field(
        LastCardFaceDown, LastCardFaceDown.CHALLENGEABLE
    )
    """Whether a last card played face down may be challenged before it wins."""
    max_turns: int = int_field(2000, 1, 100_000)
    """After this many actions the game is adjudicated: fewest cards in hand wins."""
    kinds: Kinds = attrs.field(init=False, eq=False, repr=False, hash=False)
    """The deck's distinct cards, numbered for the engine (derived from ``deck``)."""

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "kinds", kinds_of(self.deck))
        if len(self.deck) < self.players * self.hand_size + 1:
            raise RulesError(
                f"a deck of {len(self.deck)} cards cannot deal {self.hand_size} to each of "
                f"{self.players} players and leave a card to draw"
            )

    def to_dict(self) -> dict[str, Any]:
        """The rules as JSON-ready values."""
        return {
            "players": self.players,
            "hand_size": self.hand_size,
            "deck": " ".join(card.label for card in self.deck),
            "challenge_restart": self.challenge_restart.value,
            "empty_draw_pile": self.empty_draw_pile.value,
            "last_card_face_down": self.last_card_face_down.value,
            "max_turns": self.max_turns,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Rules from :meth:`to_dict` output; missing fields take their defaults."""
        values = json_object(data)
        only_known_fields(cls, values)
        return cls(**values)

    def to_json(self) -> str:
        """The rules as a JSON object."""
        return json.dumps(self.to_dict(), indent=2)

    @classmethod
    def from_json(cls, text: str) -> Rules:
        """Rules from :meth:`to_json` text."""
        return cls.from_dict(parse_json(text))
