"""Thousand (Тысяча, Tysiąc): cards, rules presets, immutable game states, observations and
records for the trick-taking game, under the Russian, Polish and two-player Polish rules.

    >>> import random
    >>> import thousand
    >>> state = thousand.new_match(thousand.Rules.preset("russian"), seed=1)
    >>> rng = random.Random(1)
    >>> while not state.is_over:
    ...     state = state.apply(rng.choice(state.legal_actions()))
    >>> len(state.result.winners) >= 1
    True
"""

from thousand.actions import (
    Action,
    Bid,
    Concede,
    Contract,
    Discard,
    Give,
    Pass,
    Play,
    Take,
    parse_action,
)
from thousand.cards import DECK, Card, Rank, Suit, cards
from thousand.errors import (
    IllegalActionError,
    InvalidActionError,
    LayoutError,
    NotationError,
    RecordError,
    RulesError,
    SeatError,
    ThousandError,
)
from thousand.game import new_deal, new_match
from thousand.layout import Layout
from thousand.observation import Observation, Trick, observe
from thousand.record import Record, RecordedDeal, dump_record, load_record, replay
from thousand.results import DealResult, MatchResult
from thousand.rules import (
    BarrelCapacity,
    Concession,
    Endgame,
    MarriageDeclaration,
    Rules,
    SetAside,
    Settlement,
)
from thousand.state import GameState, Origin, Phase

__version__ = "0.1.0"

__all__ = [
    "DECK",
    "Action",
    "BarrelCapacity",
    "Bid",
    "Card",
    "Concede",
    "Concession",
    "Contract",
    "DealResult",
    "Discard",
    "Endgame",
    "GameState",
    "Give",
    "IllegalActionError",
    "InvalidActionError",
    "Layout",
    "LayoutError",
    "MarriageDeclaration",
    "MatchResult",
    "NotationError",
    "Observation",
    "Origin",
    "Pass",
    "Phase",
    "Play",
    "Rank",
    "Record",
    "RecordError",
    "RecordedDeal",
    "Rules",
    "RulesError",
    "SeatError",
    "SetAside",
    "Settlement",
    "Suit",
    "Take",
    "ThousandError",
    "Trick",
    "cards",
    "dump_record",
    "load_record",
    "new_deal",
    "new_match",
    "observe",
    "parse_action",
    "replay",
]
