"""1000?: the climbing and bluffing card game, on the same API as Thousand.

Examples:
    >>> import random
    >>> from thousand import bluff
    >>> state = bluff.new_game(bluff.Rules(players=4), seed=1)
    >>> rng = random.Random(1)
    >>> while not state.is_over:
    ...     state = state.apply(rng.choice(state.legal_actions()))
    >>> len(state.result.winners) >= 1
    True
"""

from thousand.bluff.actions import Action, Believe, Challenge, Hide, Pass, Play, parse_action
from thousand.bluff.cards import Card, cards
from thousand.bluff.determinise import Determiniser, determinise
from thousand.bluff.engine import new_game
from thousand.bluff.layout import Layout
from thousand.bluff.observation import Observation, observe
from thousand.bluff.record import Record, dump_record, load_record, replay
from thousand.bluff.results import Result
from thousand.bluff.rules import (
    DEFAULT_DECK,
    ChallengeRestart,
    EmptyDrawPile,
    LastCardFaceDown,
    Rules,
)
from thousand.bluff.state import Origin, Phase, State, TableCard

__all__ = [
    "DEFAULT_DECK",
    "Action",
    "Believe",
    "Card",
    "Challenge",
    "ChallengeRestart",
    "Determiniser",
    "EmptyDrawPile",
    "Hide",
    "LastCardFaceDown",
    "Layout",
    "Observation",
    "Origin",
    "Pass",
    "Phase",
    "Play",
    "Record",
    "Result",
    "Rules",
    "State",
    "TableCard",
    "cards",
    "determinise",
    "dump_record",
    "load_record",
    "new_game",
    "observe",
    "parse_action",
    "replay",
]
