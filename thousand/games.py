"""The two games side by side, so that code serving players (the match driver, the external
bot protocol) can treat either one alike."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from thousand import bluff
from thousand.actions import ACTION_TYPES, parse_action
from thousand.bluff.actions import ACTION_TYPES as BLUFF_ACTION_TYPES
from thousand.bluff.record import FORMAT as BLUFF_FORMAT
from thousand.config import load_json
from thousand.errors import RecordError, RulesError
from thousand.observation import Observation
from thousand.record import Record, replay
from thousand.rules import Rules

__all__ = ["BLUFF", "GAMES", "THOUSAND", "GameKind", "game_of", "record_from_json"]


@attrs.frozen
class GameKind:
    """What tells one game from the other where players are concerned."""

    name: str
    """The game's name in the bot protocol: ``thousand`` or ``1000?``."""
    rules_type: type[Rules] | type[bluff.Rules]
    observation_type: type[Observation] | type[bluff.Observation]
    parse_action: Callable[[str], Any]
    action_types: tuple[type, ...]
    record_type: type[Record] | type[bluff.Record]
    replay: Callable[[Any], Any]
    """Plays a record of this game again, returning its final state."""

    def rules_from_dict(self, data: dict[str, Any]) -> Rules | bluff.Rules:
        """This game's rules from their JSON data."""
        return self.rules_type.from_dict(data)

    def observation_from_dict(self, data: dict[str, Any], rules: object = None) -> Any:
        """This game's observation from its JSON data, with ``rules`` when they were left out."""
        return self.observation_type.from_dict(data, rules)  # type: ignore[arg-type]


THOUSAND = GameKind("thousand", Rules, Observation, parse_action, ACTION_TYPES, Record, replay)
BLUFF = GameKind(
    "1000?",
    bluff.Rules,
    bluff.Observation,
    bluff.parse_action,
    BLUFF_ACTION_TYPES,
    bluff.Record,
    bluff.replay,
)
GAMES = {game.name: game for game in (THOUSAND, BLUFF)}
"""Both games by name."""


def game_of(rules: object) -> GameKind:
    """The game that ``rules`` configure."""
    if isinstance(rules, Rules):
        return THOUSAND
    if isinstance(rules, bluff.Rules):
        return BLUFF
    raise RulesError(f"expected thousand.Rules or thousand.bluff.Rules, not {type(rules).__name__}")


def record_from_json(text: str) -> Record | bluff.Record:
    """A record of either game from its JSON text, told apart by its ``format``.

    Raises:
        RecordError: the text is not a valid record of either game.
    """
    data = load_json(text, RecordError, "the record is")
    if isinstance(data, dict) and data.get("format") == BLUFF_FORMAT:
        return bluff.Record.from_dict(data)
    return Record.from_dict(data)
