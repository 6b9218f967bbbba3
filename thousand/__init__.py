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
from thousand.determinise import Determiniser, determinise
from thousand.driver import Fault, FaultPolicy, Outcome, Status, play
from thousand.errors import (
    BotCrash,
    BotFailure,
    BotSpecError,
    BotTimeout,
    IllegalActionError,
    InvalidActionError,
    LayoutError,
    NotationError,
    NoWorldError,
    PlayerError,
    RecordError,
    RulesError,
    SeatError,
    ThousandError,
)
from thousand.external import BotLimits, ExternalPlayer
from thousand.game import new_deal, new_match
from thousand.layout import Layout
from thousand.observation import Observation, Trick, observe
from thousand.players import Player, SeatedPlayer
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
from thousand.specs import BotInfo, available_bots, load_player
from thousand.state import GameState, Origin, Phase

__version__ = "0.1.0"

__all__ = [
    "DECK",
    "Action",
    "BarrelCapacity",
    "Bid",
    "BotCrash",
    "BotFailure",
    "BotInfo",
    "BotLimits",
    "BotSpecError",
    "BotTimeout",
    "Card",
    "Concede",
    "Concession",
    "Contract",
    "DealResult",
    "Determiniser",
    "Discard",
    "Endgame",
    "ExternalPlayer",
    "Fault",
    "FaultPolicy",
    "GameState",
    "Give",
    "IllegalActionError",
    "InvalidActionError",
    "Layout",
    "LayoutError",
    "MarriageDeclaration",
    "MatchResult",
    "NoWorldError",
    "NotationError",
    "Observation",
    "Origin",
    "Outcome",
    "Pass",
    "Phase",
    "Play",
    "Player",
    "PlayerError",
    "Rank",
    "Record",
    "RecordError",
    "RecordedDeal",
    "Rules",
    "RulesError",
    "SeatError",
    "SeatedPlayer",
    "SetAside",
    "Settlement",
    "Status",
    "Suit",
    "Take",
    "ThousandError",
    "Trick",
    "available_bots",
    "cards",
    "determinise",
    "dump_record",
    "load_player",
    "load_record",
    "new_deal",
    "new_match",
    "observe",
    "parse_action",
    "play",
    "replay",
]
