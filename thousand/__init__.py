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

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING

from thousand.classic.old_paths import keep_old_paths

keep_old_paths()  # import thousand.rules and the like still give the modules that moved

# The names are imported on first use, so that importing one engine module (thousand.classic.cards,
# say) does not load the driver, the bots and the bot processes. mypy reads the imports below.
if TYPE_CHECKING:
    from thousand.classic.actions import (
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
    from thousand.classic.cards import DECK, Card, Rank, Suit, cards
    from thousand.classic.determinise import Determiniser
    from thousand.classic.engine import new_deal, new_match
    from thousand.classic.layout import Layout
    from thousand.classic.observation import Observation, Trick, observe
    from thousand.classic.record import Record, RecordedDeal, dump_record, load_record, replay
    from thousand.classic.redeals import ThrowIn
    from thousand.classic.results import DealResult, MatchResult
    from thousand.classic.rules import (
        BarrelCapacity,
        BarrelFallPenalty,
        BoltCounting,
        Concession,
        Endgame,
        MarriageDeclaration,
        Redeal,
        Rules,
        Samosval,
        SetAside,
        Settlement,
        Sitter,
    )
    from thousand.classic.state import GameState, Origin, Phase
    from thousand.errors import (
        BotCrash,
        BotFailure,
        BotSpecError,
        BotTimeout,
        IllegalActionError,
        InvalidActionError,
        LayoutError,
        ModelError,
        NotationError,
        NoWorldError,
        RecordError,
        RulesError,
        SeatError,
        ThousandError,
        TurnError,
    )
    from thousand.games import determinise
    from thousand.players import Player, PlayerError, SeatedPlayer
    from thousand.table.driver import play
    from thousand.table.external import BotLimits, ExternalPlayer
    from thousand.table.faults import FaultPolicy, Status
    from thousand.table.match import Fault, Match, Outcome, resume_match, start_match
    from thousand.table.specs import BotInfo, available_bots, load_player

_EXPORTS: dict[str, tuple[str, ...]] = {
    "classic.actions": (
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
    ),
    "classic.cards": ("DECK", "Card", "Rank", "Suit", "cards"),
    "classic.determinise": ("Determiniser",),
    "games": ("determinise",),
    "table.driver": ("play",),
    "table.match": ("Fault", "Match", "Outcome", "resume_match", "start_match"),
    "table.faults": ("FaultPolicy", "Status"),
    "errors": (
        "BotCrash",
        "BotFailure",
        "BotSpecError",
        "BotTimeout",
        "IllegalActionError",
        "InvalidActionError",
        "LayoutError",
        "ModelError",
        "NotationError",
        "NoWorldError",
        "RecordError",
        "RulesError",
        "SeatError",
        "ThousandError",
        "TurnError",
    ),
    "table.external": ("BotLimits", "ExternalPlayer"),
    "classic.engine": ("new_deal", "new_match"),
    "classic.layout": ("Layout",),
    "classic.observation": ("Observation", "Trick", "observe"),
    "players": ("Player", "PlayerError", "SeatedPlayer"),
    "classic.record": ("Record", "RecordedDeal", "dump_record", "load_record", "replay"),
    "classic.results": ("DealResult", "MatchResult"),
    "classic.rules": (
        "BarrelCapacity",
        "BarrelFallPenalty",
        "BoltCounting",
        "Concession",
        "Endgame",
        "MarriageDeclaration",
        "Redeal",
        "Rules",
        "Samosval",
        "SetAside",
        "Settlement",
        "Sitter",
    ),
    "classic.redeals": ("ThrowIn",),
    "table.specs": ("BotInfo", "available_bots", "load_player"),
    "classic.state": ("GameState", "Origin", "Phase"),
}
"""Each public name by the module that defines it, relative to this package."""
_HOMES = {name: module for module, names in _EXPORTS.items() for name in names}

__version__ = "0.3.0"
"""The package's version, its one source: the built package's metadata takes it
(pyproject.toml) and ``thousand --version`` prints it."""

__all__ = [
    "DECK",
    "Action",
    "BarrelCapacity",
    "BarrelFallPenalty",
    "Bid",
    "BoltCounting",
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
    "Match",
    "MatchResult",
    "ModelError",
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
    "Redeal",
    "Rules",
    "RulesError",
    "Samosval",
    "SeatError",
    "SeatedPlayer",
    "SetAside",
    "Settlement",
    "Sitter",
    "Status",
    "Suit",
    "Take",
    "ThousandError",
    "ThrowIn",
    "Trick",
    "TurnError",
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
    "resume_match",
    "start_match",
]


if not TYPE_CHECKING:  # mypy sees the imports above, not a catch-all __getattr__

    def __getattr__(name: str) -> object:
        """Import a public name, or a submodule, on first use."""
        module = _HOMES.get(name)
        if module is None:
            try:
                return importlib.import_module(f"{__name__}.{name}")
            except ModuleNotFoundError as error:
                if error.name != f"{__name__}.{name}":
                    raise
                raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
        value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
        globals()[name] = value
        return value

    def __dir__() -> list[str]:
        """The names loaded so far and every public name."""
        return sorted({*globals(), *__all__})


class _Package(types.ModuleType):
    """This package, whose functions ``cards`` and ``determinise`` share their names with the
    old paths of two modules (``import thousand.cards`` still works): loading such a module does
    not bind the module over the function."""

    def __setattr__(self, name: str, value: object) -> None:
        if not (name in _HOMES and isinstance(value, types.ModuleType)):
            super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
