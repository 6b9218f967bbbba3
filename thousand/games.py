"""The games behind one typed interface: each game is an object that knows how to start, observe,
score, record and replay itself, so that code serving players (the match driver, the bots, the
external bot protocol, the tournament) asks the game and never its name.

    >>> from thousand import Rules
    >>> game = game_of(Rules.preset("russian"))
    >>> game.title, game_named("1000?").title
    ('Thousand', '1000?')
"""

from __future__ import annotations

import abc
import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeAlias, TypeVar, cast, overload

from thousand import bluff
from thousand.bluff.actions import ACTION_TYPES as BLUFF_ACTION_TYPES
from thousand.bluff.actions import seen_by as bluff_seen_by
from thousand.bluff.record import FORMAT as BLUFF_FORMAT
from thousand.classic.actions import ACTION_TYPES, Action, parse_action, seen_by
from thousand.classic.determinise import Determiniser
from thousand.classic.engine import new_deal, new_match
from thousand.classic.layout import Layout
from thousand.classic.observation import Observation, observe
from thousand.classic.record import Record, replay
from thousand.classic.results import DealResult, MatchResult
from thousand.classic.rules import Rules
from thousand.classic.state import GameState, Phase
from thousand.common.config import load_json
from thousand.errors import LayoutError, RecordError, RulesError

if TYPE_CHECKING:
    from typing_extensions import Self

__all__ = [
    "BLUFF",
    "GAMES",
    "THOUSAND",
    "ActionT",
    "AnyGame",
    "AnyObservation",
    "AnyRecord",
    "AnyResult",
    "AnyRules",
    "AnyState",
    "BluffGame",
    "Game",
    "ObservationT",
    "PlayState",
    "RecordT",
    "RulesT",
    "StateT",
    "ThousandGame",
    "determinise",
    "game_named",
    "game_observed",
    "game_of",
    "ordinal",
    "per_game",
    "record_from_data",
    "record_from_json",
]

ActionT = TypeVar("ActionT")

AnyState: TypeAlias = "GameState | bluff.State"
AnyObservation: TypeAlias = "Observation | bluff.Observation"
AnyRules: TypeAlias = "Rules | bluff.Rules"
AnyRecord: TypeAlias = "Record | bluff.Record"
AnyResult: TypeAlias = "DealResult | MatchResult | bluff.Result"


class PlayState(Protocol[ActionT]):
    """What the match driver asks of a game state."""

    @property
    def player(self) -> int:
        """The seat to act, or -1 once the game is over."""
        ...

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        ...

    def legal_actions(self) -> tuple[ActionT, ...]:
        """The legal actions of the seat to act."""
        ...

    def apply(self, action: ActionT) -> Self:
        """The state after ``action``; raises ``IllegalActionError`` unless it is legal."""
        ...


StateT = TypeVar("StateT", bound="PlayState[Any]")
ObservationT = TypeVar("ObservationT", bound="AnyObservation")
RulesT = TypeVar("RulesT", bound="AnyRules")
RecordT = TypeVar("RecordT", bound="AnyRecord")
T = TypeVar("T")

Contracted: TypeAlias = "tuple[int, int, bool]"
"""A contract as ``(declarer, amount, made)``."""
DEFAULT_PRESETS = {2: "polish-2p", 3: "russian", 4: "russian-4"}
"""The Thousand preset played at each size of table unless another is chosen."""
Standings: TypeAlias = "tuple[tuple[int, ...], list[tuple[bool, int]]]"
"""Per seat, the score, and a key that ranks seats (higher is better) before forfeits."""


class Game(abc.ABC, Generic[StateT, ObservationT, ActionT, RulesT, RecordT]):
    """One game: its state, observation, action, rules and record types, and everything done
    with them outside the engine."""

    name: str
    """The game's name in the bot protocol and in outcomes."""
    key: str
    """The game's word in tournament configurations and on the command line."""
    title: str
    """The game's name for people."""
    state_type: type[StateT]
    rules_type: type[RulesT]
    observation_type: type[ObservationT]
    record_type: type[RecordT]
    action_types: tuple[type, ...]
    unit: str
    """What one whole play is called: a match (Thousand) or a game (1000?)."""
    units: str
    """The plural of :attr:`unit`."""
    has_deals: bool
    """Whether a match is a series of scored deals, each of which may be played on its own."""
    has_contracts: bool
    """Whether players bid for a contract that is then made or lost."""
    observe: Callable[[StateT, int], ObservationT]
    """What a seat of the table sees of a state (the observation class's own maker, called
    once per decision)."""

    def own_rules(self, rules: object) -> RulesT:
        """``rules``, checked to be this game's."""
        if not isinstance(rules, self.rules_type):
            raise RulesError(f"expected {self.rules_type.__qualname__}, not {type(rules).__name__}")
        return rules

    def handle(self, use: Callable[[Game[StateT, ObservationT, ActionT, RulesT, RecordT]], T]) -> T:
        """``use`` called with this game under its own types, for code generic in the game (a
        union of games cannot carry them)."""
        return use(self)

    @abc.abstractmethod
    def seat_role(self, seat: int, players: int) -> str:
        """What ``seat`` does at a table of ``players``, in a few words: seat 0 deals."""

    @abc.abstractmethod
    def seats_dealt(self, rules: RulesT, dealer: int) -> tuple[int, ...]:
        """The seats dealt cards when ``dealer`` deals: every seat but one sitting out."""

    @abc.abstractmethod
    def default_rules(self, players: int | None = None) -> RulesT:
        """The rules this game is played by unless others are chosen, for ``players`` seats
        (by default the game's usual table).

        Raises:
            RulesError: the game is not played by that many players.
        """

    @abc.abstractmethod
    def start(
        self, rules: RulesT, *, seed: int, layout: object, dealer: int | None, single_deal: bool
    ) -> StateT:
        """The first state of a game (a single deal when ``single_deal``) dealt from ``seed`` or
        ``layout``, with ``dealer`` dealing first (by default as the game decides)."""

    @abc.abstractmethod
    def watcher(
        self, watch: Callable[[AnyState], object] | None
    ) -> Callable[[StateT], object] | None:
        """``watch``, a watcher of either game's states, as a watcher of this game's."""

    @abc.abstractmethod
    def parse_action(self, text: str) -> ActionT:
        """The action written as ``text``; raises ``ValueError`` when it is none."""

    @abc.abstractmethod
    def seen_action(self, action: ActionT, actor: int, viewer: int | None) -> ActionT:
        """``action``, taken by the seat ``actor``, as the seat ``viewer`` sees it, or a
        spectator when ``viewer`` is ``None``: the cards it may not see hidden."""

    @abc.abstractmethod
    def seen_from(self, state: StateT, seat: int) -> ObservationT:
        """:attr:`observe` for a seat that is checked to exist."""

    @abc.abstractmethod
    def actions_played(self, state: StateT) -> int:
        """How many actions the whole play has seen."""

    @abc.abstractmethod
    def result(self, state: StateT) -> AnyResult | None:
        """The game's own result, ``None`` while it goes on."""

    @abc.abstractmethod
    def standings(self, state: StateT, forfeited: int | None) -> Standings:
        """Per seat, the score and a ranking key, ``forfeited`` (if a seat forfeited) scoring as
        the game's forfeit rule says."""

    @abc.abstractmethod
    def contracts(self, result: AnyResult | None, record: object) -> tuple[Contracted, ...]:
        """Every contract declared in a finished play (its ``result`` and ``record``) as
        ``(seat, amount, made)``; none when the game has no contracts or the play was cut
        short."""

    @abc.abstractmethod
    def record(self, state: StateT, players: Sequence[str] | None = None) -> RecordT:
        """The record of the play that led to ``state``, naming the seats' ``players`` when
        given."""

    @abc.abstractmethod
    def record_from_dict(self, data: Any) -> RecordT:
        """A record from its JSON data; raises ``RecordError`` when it is none."""

    @abc.abstractmethod
    def replay(self, record: RecordT) -> StateT:
        """The final state of a record played again."""

    @abc.abstractmethod
    def rules_from_dict(self, data: dict[str, Any]) -> RulesT:
        """This game's rules from their JSON data."""

    @abc.abstractmethod
    def observation_from_dict(
        self, data: dict[str, Any], rules: RulesT | None = None
    ) -> ObservationT:
        """This game's observation from its JSON data, with ``rules`` when they were left out."""

    @abc.abstractmethod
    def worlds(self, observation: ObservationT) -> Callable[[random.Random], StateT]:
        """A sampler of full states consistent with ``observation``, for search; raises
        ``NoWorldError`` when there is none."""

    def determinise(self, observation: object, rng: random.Random) -> StateT:
        """One full state consistent with ``observation``, an observation of this game."""
        if not isinstance(observation, self.observation_type):
            raise TypeError(
                f"expected a {self.title} observation, not {type(observation).__name__}"
            )
        return self.worlds(observation)(rng)


class ThousandGame(Game[GameState, Observation, Action, Rules, Record]):
    """Thousand: a match to 1000 (or one scored deal)."""

    name = key = "thousand"
    title = "Thousand"
    state_type = GameState
    rules_type = Rules
    observation_type = Observation
    record_type = Record
    action_types = ACTION_TYPES
    unit, units = "match", "matches"
    observe = Observation.of_player
    has_deals = True
    has_contracts = True

    def seat_role(self, seat: int, players: int) -> str:
        if seat == 0:
            return "dealer"
        return "forehand" if seat == 1 else f"{ordinal(seat)} hand"

    def seats_dealt(self, rules: Rules, dealer: int) -> tuple[int, ...]:
        sitter = rules.sitter_of(dealer)
        return tuple(seat for seat in range(rules.players) if seat != sitter)

    def default_rules(self, players: int | None = None) -> Rules:
        preset = DEFAULT_PRESETS.get(3 if players is None else players)
        if preset is None:
            raise RulesError(f"Thousand is played by 2, 3 or 4 players, not {players}")
        return Rules.preset(preset)

    def start(
        self, rules: Rules, *, seed: int, layout: object, dealer: int | None, single_deal: bool
    ) -> GameState:
        if layout is not None and not isinstance(layout, Layout):
            raise LayoutError("a Thousand deal needs a thousand.Layout")
        if single_deal:
            return new_deal(rules, seed=seed, layout=layout, dealer=dealer or 0)
        return new_match(rules, seed=seed, layout=layout, dealer=dealer)

    def watcher(
        self, watch: Callable[[AnyState], object] | None
    ) -> Callable[[GameState], object] | None:
        return watch

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def seen_action(self, action: Action, actor: int, viewer: int | None) -> Action:
        return seen_by(action, actor, viewer)

    def seen_from(self, state: GameState, seat: int) -> Observation:
        return observe(state, seat)

    def actions_played(self, state: GameState) -> int:
        played = sum(len(deal.actions) for deal in state.deals)
        # Once the game is over its last deal, scored, is among the deals.
        return played if state.phase is Phase.OVER else played + len(state.actions)

    def result(self, state: GameState) -> DealResult | MatchResult | None:
        return state.result

    def standings(self, state: GameState, forfeited: int | None) -> Standings:
        seats = range(state.rules.players)
        result = state.result
        if state.origin.single_deal:
            # A single deal forfeited costs the forfeiting seat at least 120 or its contract.
            if forfeited is None:
                assert isinstance(result, DealResult)
                scores = result.deal_scores
            else:
                contract = state.contract if state.contract is not None else 0
                if forfeited in (state.declarer, state.bidder):
                    contract = max(contract, state.bid)
                scores = tuple(-max(120, contract) if seat == forfeited else 0 for seat in seats)
            return scores, [(True, score) for score in scores]
        scores = state.scores if result is None else result.scores
        winners = result.winners if isinstance(result, MatchResult) else ()
        return scores, [(seat in winners, scores[seat]) for seat in seats]

    def contracts(self, result: AnyResult | None, record: object) -> tuple[Contracted, ...]:
        # A conceded deal counts as its bid, not made.
        if isinstance(result, DealResult):
            deals: tuple[DealResult, ...] = (result,)
        elif isinstance(result, MatchResult) and isinstance(record, Record):
            deals = replay(record).deals
        else:
            return ()
        return tuple(
            (deal.declarer, deal.bid if deal.contract is None else deal.contract, deal.made)
            for deal in deals
        )

    def record(self, state: GameState, players: Sequence[str] | None = None) -> Record:
        return Record.from_state(state, players)

    def record_from_dict(self, data: Any) -> Record:
        return Record.from_dict(data)

    def replay(self, record: Record) -> GameState:
        return replay(record)

    def rules_from_dict(self, data: dict[str, Any]) -> Rules:
        return Rules.from_dict(data)

    def observation_from_dict(
        self, data: dict[str, Any], rules: Rules | None = None
    ) -> Observation:
        return Observation.from_dict(data, rules)

    def worlds(self, observation: Observation) -> Callable[[random.Random], GameState]:
        return Determiniser(observation).sample


class BluffGame(Game[bluff.State, bluff.Observation, bluff.Action, bluff.Rules, bluff.Record]):
    """1000?: one game of climbing and bluffing, won by emptying one's hand."""

    name = title = "1000?"
    key = "bluff"
    state_type = bluff.State
    rules_type = bluff.Rules
    observation_type = bluff.Observation
    record_type = bluff.Record
    action_types = BLUFF_ACTION_TYPES
    unit, units = "game", "games"
    observe = bluff.Observation.of_player
    has_deals = False
    has_contracts = False

    def seat_role(self, seat: int, players: int) -> str:
        if seat == 0:
            return "dealer" if players == 2 else "dealer, plays last"
        return f"plays {ordinal(seat)}"

    def seats_dealt(self, rules: bluff.Rules, dealer: int) -> tuple[int, ...]:
        return tuple(range(rules.players))

    def default_rules(self, players: int | None = None) -> bluff.Rules:
        return bluff.Rules(players=4 if players is None else players)

    def start(
        self,
        rules: bluff.Rules,
        *,
        seed: int,
        layout: object,
        dealer: int | None,
        single_deal: bool,
    ) -> bluff.State:
        if single_deal:
            raise RulesError("single_deal is for Thousand; a 1000? game is already a single deal")
        if layout is not None and not isinstance(layout, bluff.Layout):
            raise LayoutError("a 1000? game needs a thousand.bluff.Layout")
        return bluff.new_game(rules, seed=seed, layout=layout, dealer=dealer or 0)

    def watcher(
        self, watch: Callable[[AnyState], object] | None
    ) -> Callable[[bluff.State], object] | None:
        return watch

    def parse_action(self, text: str) -> bluff.Action:
        return bluff.parse_action(text)

    def seen_action(self, action: bluff.Action, actor: int, viewer: int | None) -> bluff.Action:
        return bluff_seen_by(action, actor, viewer)

    def seen_from(self, state: bluff.State, seat: int) -> bluff.Observation:
        return bluff.observe(state, seat)

    def actions_played(self, state: bluff.State) -> int:
        return state.turns

    def result(self, state: bluff.State) -> bluff.Result | None:
        return state.result

    def standings(self, state: bluff.State, forfeited: int | None) -> Standings:
        # Minus the cards in hand; a forfeiting seat counts every card of the deck.
        sizes = [len(hand) for hand in state.hand_kinds]
        if forfeited is not None:
            sizes[forfeited] = len(state.rules.deck)
        winners = state.result.winners if state.result is not None else ()
        scores = tuple(-size for size in sizes)
        return scores, [(seat in winners, score) for seat, score in enumerate(scores)]

    def contracts(self, result: AnyResult | None, record: object) -> tuple[Contracted, ...]:
        return ()

    def record(self, state: bluff.State, players: Sequence[str] | None = None) -> bluff.Record:
        return bluff.Record.from_state(state, players)

    def record_from_dict(self, data: Any) -> bluff.Record:
        return bluff.Record.from_dict(data)

    def replay(self, record: bluff.Record) -> bluff.State:
        return bluff.replay(record)

    def rules_from_dict(self, data: dict[str, Any]) -> bluff.Rules:
        return bluff.Rules.from_dict(data)

    def observation_from_dict(
        self, data: dict[str, Any], rules: bluff.Rules | None = None
    ) -> bluff.Observation:
        return bluff.Observation.from_dict(data, rules)

    def worlds(self, observation: bluff.Observation) -> Callable[[random.Random], bluff.State]:
        return bluff.Determiniser(observation).sample


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")


def ordinal(number: int) -> str:
    """``third`` for 3, in words up to ``ninth``; ``12th``, ``21st`` beyond."""
    if 1 <= number <= len(_ORDINALS):
        return _ORDINALS[number - 1]
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"


THOUSAND = ThousandGame()
BLUFF = BluffGame()
AnyGame: TypeAlias = "ThousandGame | BluffGame"
GAMES: tuple[AnyGame, ...] = (THOUSAND, BLUFF)
"""Every game, Thousand first."""

_BY_TYPE: dict[type, AnyGame] = {
    kind: game
    for game in GAMES
    for kind in (game.state_type, game.rules_type, game.observation_type, game.record_type)
}


def _game_by_type(value: object) -> AnyGame | None:
    for kind in type(value).__mro__:
        game = _BY_TYPE.get(kind)
        if game is not None:
            return game
    return None


def game_of(value: object) -> AnyGame:
    """The game that ``value`` (rules, an observation, a state or a record) belongs to."""
    game = _game_by_type(value)
    if game is None:
        raise RulesError(
            f"expected thousand.Rules or thousand.bluff.Rules, not {type(value).__name__}"
        )
    return game


def per_game(table: Mapping[AnyGame, T], value: object, what: str) -> T:
    """The entry of ``table`` for the game ``value`` is, or belongs to (rules, an observation, a
    state or a record): what a part of the project does differently in each game, kept in a
    table keyed by the game, so that a game it was not written for gets an error rather than
    another's branch.

    Raises:
        RulesError: the table has nothing for that game; ``what`` names what is missing.
    """
    game = cast("AnyGame", value) if isinstance(value, Game) else game_of(value)
    try:
        return table[game]
    except KeyError:
        raise RulesError(f"{game.title} has no {what}") from None


def game_observed(observation: object) -> AnyGame:
    """The game ``observation`` is an observation of.

    Raises:
        TypeError: it is not an observation of a game played here.
    """
    game = _game_by_type(observation)
    if game is None or not isinstance(observation, game.observation_type):
        raise TypeError(
            f"bots here play Thousand and 1000?; a {type(observation).__name__} is not an "
            "observation of either"
        )
    return game


@overload
def determinise(observation: Observation, rng: random.Random) -> GameState: ...


@overload
def determinise(observation: bluff.Observation, rng: random.Random) -> bluff.State: ...


def determinise(observation: AnyObservation, rng: random.Random) -> AnyState:
    """One full state consistent with ``observation`` (of either game), drawn with ``rng``.

    To draw many worlds for the same observation, make one
    :class:`thousand.classic.determinise.Determiniser` (or :class:`thousand.bluff.Determiniser`)
    and call its ``sample`` repeatedly: the constraints are worked out once.

    Raises:
        TypeError: ``observation`` is not an observation of a game played here.
        NoWorldError: the game is over, or no deal agrees with ``observation``.
    """
    return game_observed(observation).determinise(observation, rng)


def game_named(word: str) -> AnyGame:
    """The game ``word`` names: its name or its key (``thousand``, ``1000?`` or ``bluff``).

    Raises:
        ValueError: no game has that name.
    """
    for game in GAMES:
        if word in (game.name, game.key):
            return game
    names = ", ".join(game.name for game in GAMES)
    raise ValueError(f"unknown game {word!r}; expected one of {names}")


def record_from_json(text: str) -> AnyRecord:
    """A record of either game from its JSON text, told apart by its ``format``.

    Raises:
        RecordError: the text is not a valid record of either game.
    """
    return record_from_data(load_json(text, RecordError, "the record is"))


def record_from_data(data: object) -> AnyRecord:
    """A record of either game from its data (its JSON, read), told apart by its ``format``.

    Raises:
        RecordError: the data is not a valid record of either game.
    """
    if isinstance(data, dict) and data.get("format") == BLUFF_FORMAT:
        return BLUFF.record_from_dict(data)
    return THOUSAND.record_from_dict(data)
