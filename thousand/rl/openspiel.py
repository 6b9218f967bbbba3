"""Thousand and 1000? as OpenSpiel games, and OpenSpiel's bots as players at a table.

:func:`register_games` registers one game per Thousand preset (a single deal each) and 1000?
with a ``players`` parameter, so that ``pyspiel.load_game`` knows them::

    >>> import pyspiel
    >>> register_games()
    >>> game = pyspiel.load_game("python_thousand_bluff", {"players": 3})
    >>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
    (3, 105, 51)

The deal is made by chance nodes, one card at a time, each drawn uniformly from the cards not yet
dealt (at a table of four the seat sitting out gets none); the players' actions go through the
engine, the one judge of legality. A seat's tensor is
:class:`~thousand.rl.encoding.ObservationEncoder`'s vector of its observation, and its strings are
its observation written out: everything a seat is shown is built from what the seat may see.

:func:`ismcts` makes OpenSpiel's information-set Monte Carlo tree search a player for
:func:`thousand.play` and the tournament, where the bot spec ``openspiel:ismcts(...)`` names it.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Generic, Protocol, TypeAlias, cast

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts as spiel_ismcts
from open_spiel.python.algorithms import mcts as spiel_mcts

from thousand import bluff
from thousand.classic.actions import Action
from thousand.classic.cards import DECK, DECK_POINTS
from thousand.classic.engine import new_deal
from thousand.classic.layout import Layout
from thousand.classic.marriages import every_marriage, highest_ceiling
from thousand.classic.observation import Observation
from thousand.classic.record import Record
from thousand.classic.rules import Rules
from thousand.classic.state import GameState
from thousand.errors import RulesError
from thousand.games import BLUFF, THOUSAND, AnyGame, AnyObservation, Game, per_game
from thousand.games import ActionT as A
from thousand.games import ObservationT as O
from thousand.games import RecordT as Rec
from thousand.games import RulesT as R
from thousand.games import StateT as S
from thousand.rl.codec import ActionCodec, action_number
from thousand.rl.encoding import ObservationEncoder, Vector, highest_sitter_bonus

__all__ = [
    "GAME_NAMES",
    "OpenSpielPlayer",
    "SpielGame",
    "SpielState",
    "ismcts",
    "register_games",
    "spiel_game",
]

AnyRules = Rules | bluff.Rules
DEALER = 0
"""The seat that deals a Thousand game's deal."""

THOUSAND_PRESETS = {
    "python_thousand_russian": "russian",
    "python_thousand_polish": "polish",
    "python_thousand_polish_2p": "polish-2p",
    "python_thousand_russian_4": "russian-4",
    "python_thousand_polish_4": "polish-4",
}
BLUFF_NAME = "python_thousand_bluff"
GAME_NAMES = (*THOUSAND_PRESETS, BLUFF_NAME)
"""The names :func:`register_games` registers."""


def _game_type(
    short_name: str, long_name: str, players: tuple[int, int], parameters: dict[str, Any]
) -> Any:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players[1],
        min_num_players=players[0],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


def _thousand_type(name: str) -> Any:
    rules = Rules.preset(THOUSAND_PRESETS[name])
    title = f"Thousand ({THOUSAND_PRESETS[name]} rules, one deal)"
    return _game_type(name, title, (rules.players, rules.players), {})


BLUFF_TYPE_PLAYERS = (2, 6)


def _bluff_type() -> Any:
    return _game_type(BLUFF_NAME, BLUFF.title, BLUFF_TYPE_PLAYERS, {"players": 4})


class _Shown(Protocol):
    """What a state shows a person: every hand, and the actions of its deal or game."""

    @property
    def hands(self) -> Sequence[Sequence[object]]: ...

    @property
    def actions(self) -> Sequence[tuple[int, object]]: ...


class _Spec(Generic[S, O, A, R, Rec]):
    """What every state of one game shares, never copied: the rules, the action numbering, the
    encoder and the cards to deal (as chance outcomes); and what differs from game to game. It
    is generic in the game's types: the OpenSpiel state holds an engine's state as an
    ``object``, which the spec checks is its game's (:meth:`own`) before it touches it."""

    deck: tuple[int, ...]
    """The cards dealt, as chance outcomes."""
    outcomes: int
    """How many different chance outcomes there are."""
    bounds: tuple[float, float]
    """The lowest and highest return of a seat."""
    longest: int
    """The most actions a game can take, chance outcomes included."""

    def __init__(self, game: Game[S, O, A, R, Rec], rules: R) -> None:
        self.rules = rules
        self.game = game
        self.codec = ActionCodec.for_rules(rules)
        either: AnyRules = rules
        # The encoder of this game's rules takes this game's observations.
        self.encoder = cast("ObservationEncoder[O]", ObservationEncoder.for_rules(either))

    def __deepcopy__(self, memo: dict[int, Any]) -> _Spec[S, O, A, R, Rec]:
        return self

    def own(self, engine: object) -> S:
        """``engine``, checked to be a state of this game."""
        if not isinstance(engine, self.game.state_type):
            raise TypeError(f"expected a {self.game.title} state, not {type(engine).__name__}")
        return engine

    def player(self, engine: object) -> int:
        """The seat to act in ``engine``."""
        return self.own(engine).player

    def legal_numbers(self, engine: object) -> list[int]:
        """The numbers of the legal actions in ``engine``, in order."""
        index = self.codec.index
        return sorted(index(action) for action in self.own(engine).legal_actions())

    def after(self, engine: object, number: int) -> S:
        """``engine`` after action number ``number``."""
        # The codec numbers this game's actions.
        return self.own(engine).apply(cast("A", self.codec.action(number)))

    def observation_of(self, engine: object, seat: int) -> O:
        """What ``seat`` sees of ``engine``."""
        return self.game.seen_from(self.own(engine), seat)

    def encoded(self, engine: object, seat: int) -> Vector:
        """What ``seat`` sees of ``engine``, encoded."""
        return self.encoder.encode(self.observation_of(engine, seat))

    def world(self, observation: object, rng: random.Random) -> S:
        """A full state drawn from those consistent with ``observation``."""
        if not isinstance(observation, self.game.observation_type):
            raise TypeError(f"expected a {self.game.title} observation")
        return self.game.worlds(observation)(rng)

    def text(self, engine: object) -> str:
        """``engine``'s hands and actions, for people."""
        state = cast("_Shown", self.own(engine))  # both games' states show both
        hands = " | ".join(" ".join(map(str, hand)) or "-" for hand in state.hands)
        actions = "; ".join(f"{seat}: {action}" for seat, action in state.actions)
        return f"hands: {hands}\nactions: {actions}"

    def card(self, number: int) -> str:
        """The text of the card dealt as chance outcome ``number``."""
        raise NotImplementedError

    def start(self, dealt: Sequence[int]) -> S:
        """The engine's first state after the deal ``dealt``, seat 0 dealing."""
        raise NotImplementedError

    def deals_before(self, engine: object) -> int:
        """The deals scored before ``engine``, a state already dealt (a Thousand deal taken
        from a match ends with that deal)."""
        return 0

    def over(self, engine: object, deal: int) -> bool:
        """Whether the game is over, ``deal`` deals having been scored before it began."""
        return bool(self.own(engine).is_over)

    def returns(self, engine: object, deal: int) -> list[float]:
        """Per seat, what the game that is over gave it."""
        raise NotImplementedError


class _ThousandSpec(_Spec[GameState, Observation, Action, Rules, Record]):
    """A single Thousand deal: its returns are the deal's scores."""

    def __init__(self, rules: Rules) -> None:
        super().__init__(THOUSAND, rules)
        self.deck = tuple(card.index for card in DECK)
        self.outcomes = len(DECK)
        self.bounds = _deal_score_bounds(rules)
        bids = (highest_ceiling(rules) - rules.opening_bid) // rules.bid_step + 1
        # The deal, the auction (every bid higher than the last, every seat passing once),
        # taking, giving or discarding, the contract, a concession and every trick.
        self.longest = len(DECK) + bids + rules.players + 8 + len(DECK)

    def card(self, number: int) -> str:
        return str(DECK[number])

    def deal_layout(self, dealt: Sequence[int]) -> Layout:
        """Each seat's hand in turn (at a table of four, each seat taking part; the seat
        sitting out gets an empty hand), then the talon."""
        rules = self.rules
        size = rules.hand_size
        active = rules.active_players
        hands = [dealt[seat * size : (seat + 1) * size] for seat in range(active)]
        rest = dealt[active * size :]
        sitter = rules.sitter_of(DEALER)
        if sitter >= 0:
            hands.insert(sitter, ())
        piles = [rest] if active == 3 else [rest[:2], rest[2:]]
        return Layout(
            hands=[[DECK[index] for index in hand] for hand in hands],
            talon=[[DECK[index] for index in pile] for pile in piles],
        )

    def start(self, dealt: Sequence[int]) -> GameState:
        return new_deal(self.rules, seed=0, layout=self.deal_layout(dealt), dealer=DEALER)

    def deals_before(self, engine: object) -> int:
        return len(self.own(engine).deals)

    def over(self, engine: object, deal: int) -> bool:
        return len(self.own(engine).deals) > deal

    def returns(self, engine: object, deal: int) -> list[float]:
        return [float(score) for score in self.own(engine).deals[deal].deal_scores]


class _BluffSpec(_Spec[bluff.State, bluff.Observation, bluff.Action, bluff.Rules, bluff.Record]):
    """A game of 1000?: its returns are minus the cards left in each hand."""

    def __init__(self, rules: bluff.Rules) -> None:
        super().__init__(BLUFF, rules)
        self.deck = tuple(rules.kinds.number[card] for card in rules.deck)
        self.outcomes = len(rules.kinds.cards)
        self.bounds = (-float(len(rules.deck)), 0.0)
        self.longest = len(rules.deck) + rules.max_turns

    def card(self, number: int) -> str:
        return str(self.rules.kinds.cards[number])

    def deal_layout(self, dealt: Sequence[int]) -> bluff.Layout:
        """Each seat's hand in turn, then the draw pile, its first card drawn first."""
        rules = self.rules
        size = rules.hand_size
        players = rules.players
        hands = [dealt[seat * size : (seat + 1) * size] for seat in range(players)]
        kinds = rules.kinds.cards
        return bluff.Layout(
            hands=[[kinds[kind] for kind in hand] for hand in hands],
            draw_pile=[kinds[kind] for kind in dealt[players * size :]],
        )

    def start(self, dealt: Sequence[int]) -> bluff.State:
        # Reshuffles of the discards follow a seed taken from the deal itself.
        digest = hashlib.sha256(",".join(map(str, dealt)).encode()).digest()
        seed = int.from_bytes(digest[:8], "big") >> 1
        return bluff.new_game(self.rules, seed=seed, layout=self.deal_layout(dealt))

    def returns(self, engine: object, deal: int) -> list[float]:
        return [-float(len(hand)) for hand in self.own(engine).hand_kinds]


AnySpec: TypeAlias = "_ThousandSpec | _BluffSpec"
"""How either game is played as an OpenSpiel game."""
_SPECS: dict[AnyGame, Callable[[Any], AnySpec]] = {THOUSAND: _ThousandSpec, BLUFF: _BluffSpec}
"""How each game is played as an OpenSpiel game."""


class SpielGame(pyspiel.Game):  # type: ignore[misc]
    """One game's rules as an OpenSpiel game: a single Thousand deal, or a game of 1000?."""

    def __init__(self, rules: AnyRules, game_type: Any, params: dict[str, Any]) -> None:
        spec = per_game(_SPECS, rules, "OpenSpiel game")(rules)
        low, high = spec.bounds
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.codec.size,
            max_chance_outcomes=spec.outcomes,
            num_players=rules.players,
            min_utility=low,
            max_utility=high,
            utility_sum=None,
            max_game_length=spec.longest,
        )
        super().__init__(game_type, info, params)
        self.spec = spec

    def new_initial_state(self) -> SpielState:
        """The state before the first card is dealt."""
        return SpielState(self)

    def state_of(self, engine: object) -> SpielState:
        """An OpenSpiel state standing for ``engine``, a state of this game already dealt (its
        deal is not replayed as chance actions)."""
        return SpielState(self, engine=engine)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> SeatObserver:
        """What one seat sees: the same tensor for the information state and the observation
        (the seat's encoded observation); the information state string adds the history the
        seat has seen, the observation string leaves it out."""
        if params:
            raise ValueError(f"this observer takes no parameters, not {params}")
        if iig_obs_type is not None and not (
            iig_obs_type.public_info
            and iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError("only the observation of one seat, public and private, is provided")
        history = iig_obs_type is None or iig_obs_type.perfect_recall
        return SeatObserver(self.spec.encoder, history=history)


def _deal_score_bounds(rules: Rules) -> tuple[float, float]:
    """The lowest and highest a seat can score in one deal: losing the highest contract (and a
    bolt's penalty), and making it, taking every card point and marriage in defence (rounded
    up), or the largest bonus for sitting out."""
    highest = highest_ceiling(rules)
    defence = DECK_POINTS + every_marriage(rules) + rules.rounding
    sitting = highest_sitter_bonus(rules)
    lowest = highest + (rules.bolt_penalty if rules.bolts else 0)
    return -float(lowest), float(max(highest, defence, sitting))


class _Kept:
    """An engine state held by an OpenSpiel state: immutable, so copies of the OpenSpiel state
    share it."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> _Kept:
        return self


class SpielState(pyspiel.State):  # type: ignore[misc]
    """A state of a :class:`SpielGame`: the cards dealt so far, then the engine's state."""

    def __init__(
        self, game: SpielGame, *, spec: AnySpec | None = None, engine: object = None
    ) -> None:
        super().__init__(game)
        # OpenSpiel copies a state attribute by attribute: the shared parts copy as themselves.
        self._spec: AnySpec = spec if spec is not None else game.spec
        self._dealt: list[int] = [] if engine is None else list(self._spec.deck)
        self._kept = _Kept(engine)
        self._deal = 0 if engine is None else self._spec.deals_before(engine)

    @property
    def engine(self) -> object:
        """The engine's state, ``None`` while the cards are being dealt."""
        return self._kept.value

    def _over(self) -> bool:
        """Whether the game is over."""
        engine = self.engine
        return engine is not None and self._spec.over(engine, self._deal)

    def current_player(self) -> int:
        engine = self.engine
        if engine is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self._over():
            return int(pyspiel.PlayerId.TERMINAL)
        return self._spec.player(engine)

    def is_terminal(self) -> bool:
        return self._over()

    def _legal_actions(self, player: int) -> list[int]:
        engine = self.engine
        if engine is None or self._over() or player != self._spec.player(engine):
            return []
        return self._spec.legal_numbers(engine)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.engine is not None:
            return []
        deck = self._spec.deck
        left = Counter(deck)
        left.subtract(self._dealt)
        total = len(deck) - len(self._dealt)
        return [(card, count / total) for card, count in sorted(left.items()) if count > 0]

    def apply_action(self, action: object) -> None:
        """Apply action (or card) number ``action``; anything but a whole number of an integer
        type (a float, a bool, ``None``) is refused with :class:`~thousand.InvalidActionError`
        rather than rounded or passed to OpenSpiel."""
        super().apply_action(action_number(action))

    def _apply_action(self, action: int) -> None:
        engine = self.engine
        if engine is None:
            self._dealt.append(int(action))
            if len(self._dealt) == len(self._spec.deck):
                self._kept = _Kept(self._spec.start(self._dealt))
        else:
            self._kept = _Kept(self._spec.after(engine, int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {self._spec.card(int(action))}"
        return str(self._spec.codec.action(int(action)))

    def returns(self) -> list[float]:
        """Per seat, the deal's scores (Thousand) or minus the cards left in hand (1000?), once
        the game is over; zeros before."""
        if not self._over():
            return [0.0] * self._spec.rules.players
        return self._spec.returns(self.engine, self._deal)

    def observation_of(self, seat: int) -> AnyObservation | None:
        """What ``seat`` sees, ``None`` while the cards are being dealt."""
        engine = self.engine
        if engine is None:
            return None
        return self._spec.observation_of(engine, seat)

    def encoded(self, seat: int) -> Vector | None:
        """``seat``'s observation encoded, ``None`` while the cards are being dealt."""
        engine = self.engine
        if engine is None:
            return None
        return self._spec.encoded(engine, seat)

    def resample_from_infostate(self, player: int, sampler: Any) -> SpielState:
        """A state drawn from those ``player`` cannot tell from this one: a world sampled by the
        project's determiniser from the seat's observation alone (dealt, so its deal is not in
        its history). ``sampler`` is OpenSpiel's probability sampler (called for a number in
        [0, 1)) or a ``random.Random``."""
        rng = sampler if isinstance(sampler, random.Random) else random.Random(sampler())
        if self.engine is None:
            # Nobody has seen a card yet: any deal as far as this one will do.
            state = SpielState(self.get_game(), spec=self._spec)
            left = list(self._spec.deck)
            rng.shuffle(left)
            for card in left[: len(self._dealt)]:
                state.apply_action(card)
            return state
        world = self._spec.world(self.observation_of(player), rng)
        return SpielState(self.get_game(), spec=self._spec, engine=world)

    def __str__(self) -> str:
        engine = self.engine
        if engine is None:
            dealt = " ".join(self._spec.card(number) for number in self._dealt)
            return f"dealing: {dealt}" if dealt else "dealing"
        return self._spec.text(engine)


class SeatObserver:
    """One seat's view for OpenSpiel: ``tensor`` is the seat's encoded observation (named
    parts in ``dict``), ``string_from`` its observation written out as JSON."""

    def __init__(
        self,
        encoder: ObservationEncoder[Observation] | ObservationEncoder[bluff.Observation],
        *,
        history: bool,
    ) -> None:
        self._history = history
        self.tensor = np.zeros(encoder.size, dtype=np.float32)
        self.dict = {
            name: self.tensor[encoder.offsets[name] : encoder.offsets[name] + length]
            for name, length in encoder.segments
        }

    def set_from(self, state: SpielState, player: int) -> None:
        encoded = state.encoded(player)
        if encoded is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = encoded

    def string_from(self, state: SpielState, player: int) -> str:
        observation = state.observation_of(player)
        if observation is None:
            return f"seat {player}: the cards are being dealt"
        data = observation.to_dict()
        for key in ("rules", "legal_actions", *(() if self._history else ("history",))):
            data.pop(key, None)
        return json.dumps(data, separators=(",", ":"))


def spiel_game(rules: AnyRules) -> SpielGame:
    """The OpenSpiel game of ``rules`` (a single deal for Thousand), registered or not."""
    made: Callable[[Any], SpielGame] = per_game(_GAMES_OF, rules, "OpenSpiel game")
    return made(rules)


def _bluff_game(rules: bluff.Rules) -> SpielGame:
    return SpielGame(rules, _bluff_type(), {"players": rules.players})


def _thousand_game(rules: Rules) -> SpielGame:
    name = next(
        (key for key, preset in THOUSAND_PRESETS.items() if preset == rules.preset_name()), None
    )
    game_type = _thousand_type(name) if name is not None else _custom_type(rules)
    return SpielGame(rules, game_type, {})


_GAMES_OF: dict[AnyGame, Callable[[Any], SpielGame]] = {
    THOUSAND: _thousand_game,
    BLUFF: _bluff_game,
}


def _custom_type(rules: Rules) -> Any:
    return _game_type(
        "python_thousand_custom", "Thousand (custom rules, one deal)", (rules.players,) * 2, {}
    )


class _PresetDeal(SpielGame):
    """A single deal under one preset; subclasses name the preset."""

    short_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        if params:
            raise ValueError(f"{self.short_name} takes no parameters, not {dict(params)}")
        name = self.short_name
        super().__init__(Rules.preset(THOUSAND_PRESETS[name]), _thousand_type(name), {})


# OpenSpiel's registry holds on to what it is given until the interpreter has gone: classes,
# which live as long as it, rather than functions, which it would free too late.
_PRESET_CLASSES = {
    name: type(f"_{name.title().replace('_', '')}", (_PresetDeal,), {"short_name": name})
    for name in THOUSAND_PRESETS
}


class _BluffGame(SpielGame):
    """1000? at ``players`` seats (2 to 6, default 4)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        players = int((params or {}).get("players", 4))
        low, high = BLUFF_TYPE_PLAYERS
        if not low <= players <= high:
            raise RulesError(f"1000? is played by {low} to {high} players, not {players}")
        super().__init__(bluff.Rules(players=players), _bluff_type(), {"players": players})


def register_games() -> None:
    """Register the games with OpenSpiel (once; calling again does nothing):
    ``python_thousand_russian``, ``python_thousand_polish``, ``python_thousand_polish_2p``,
    ``python_thousand_russian_4`` and ``python_thousand_polish_4`` (one deal each), and
    ``python_thousand_bluff`` (parameter ``players``, 2 to 6, default 4)."""
    known = set(pyspiel.registered_names())
    for name in THOUSAND_PRESETS:
        if name not in known:
            pyspiel.register_game(_thousand_type(name), _PRESET_CLASSES[name])
    if BLUFF_NAME not in known:
        pyspiel.register_game(_bluff_type(), _BluffGame)


class OpenSpielPlayer:
    """A player for :func:`thousand.play` and the tournament that asks an OpenSpiel bot.

    For each decision it samples one full state consistent with its observation (the
    determiniser of :mod:`thousand.games`), wraps it as an OpenSpiel state and gives it to the
    bot; the bot's own resampling draws further worlds from the same observation. A Thousand
    deal inside a match is searched as a game ending with that deal, scored by its deal scores.
    """

    def __init__(self, make_bot: Callable[[SpielGame, random.Random], Any], name: str) -> None:
        self._make_bot = make_bot
        self.name = name
        self._rng = random.Random()
        self._rules: AnyRules | None = None
        self._game: SpielGame | None = None
        self._bot: Any = None

    def start(self, seat: int, rules: AnyRules, rng: random.Random) -> None:
        """Keep this player's generator; the game and the bot are made at the first decision."""
        self._rng = rng
        self._rules = None

    def act(self, observation: AnyObservation) -> object:
        """The bot's choice, for the observing seat."""
        rules = observation.rules
        if self._game is None or rules != self._rules:
            self._rules = rules
            self._game = spiel_game(rules)
            self._bot = self._make_bot(self._game, self._rng)
        game = self._game
        spec = game.spec
        state = game.state_of(spec.world(observation, self._rng))
        resample = getattr(self._bot, "set_resampler", None)
        if resample is not None:
            resample(lambda _state, _player: game.state_of(spec.world(observation, self._rng)))
        return game.spec.codec.action(int(self._bot.step(state)))

    def __repr__(self) -> str:
        return self.name


FINAL_POLICIES = {
    "max_visit_count": spiel_ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
    "max_value": spiel_ismcts.ISMCTSFinalPolicyType.MAX_VALUE,
    "normalized_visit_count": spiel_ismcts.ISMCTSFinalPolicyType.NORMALIZED_VISITED_COUNT,
}


def ismcts(
    simulations: int = 100,
    *,
    max_simulations: int | None = None,
    uct_c: float | None = None,
    rollouts: int = 1,
    world_samples: int = -1,
    final_policy: str = "max_visit_count",
) -> OpenSpielPlayer:
    """OpenSpiel's information-set MCTS (``open_spiel.python.algorithms.ismcts``) as a player,
    with random rollouts: the bot spec ``openspiel:ismcts(simulations=200, uct_c=100)``.

    Args:
        simulations: simulations per decision (``max_simulations`` is another name for it).
        uct_c: the exploration constant; by default half the range of the game's returns
            (returns are in game units: card points, cards in hand).
        rollouts: random rollouts per leaf.
        world_samples: how many worlds to search over, -1 for a new one per simulation.
        final_policy: ``max_visit_count``, ``max_value`` or ``normalized_visit_count``.
    """
    count = simulations if max_simulations is None else max_simulations
    if not isinstance(count, int) or count < 1:
        raise ValueError(f"simulations must be a whole number of at least 1, not {count!r}")
    if not isinstance(rollouts, int) or rollouts < 1:
        raise ValueError(f"rollouts must be a whole number of at least 1, not {rollouts!r}")
    if final_policy not in FINAL_POLICIES:
        raise ValueError(f"final_policy must be one of {', '.join(FINAL_POLICIES)}")

    def make(game: SpielGame, rng: random.Random) -> Any:
        numbers = np.random.RandomState(rng.getrandbits(32))
        spread = game.max_utility() - game.min_utility()
        return spiel_ismcts.ISMCTSBot(
            game=game,
            evaluator=spiel_mcts.RandomRolloutEvaluator(rollouts, numbers),
            uct_c=spread / 2 if uct_c is None else float(uct_c),
            max_simulations=count,
            max_world_samples=world_samples,
            random_state=numbers,
            final_policy_type=FINAL_POLICIES[final_policy],
        )

    return OpenSpielPlayer(make, f"openspiel:ismcts(simulations={count})")
