"""Thousand and 1000? as learning environments: a PettingZoo AEC environment for every seat at
once, and a Gymnasium environment for one seat playing against bots.

Both show a seat ``{"observation": vector, "action_mask": flags}``: the vector is
:class:`~thousand.rl.encoding.ObservationEncoder`'s, the flags mark the legal actions among the
:class:`~thousand.rl.codec.ActionCodec`'s ``Discrete(n)``. Rewards are score changes: a
Thousand match's score after each deal, a single deal's score at its end, and in 1000? minus
the cards left in hand at the end (0 for the winner).

At a table of four the seat sitting out a deal holds no cards and never acts: it is simply not
asked that deal. A game that ends before anyone acts (a single deal thrown in as dealt, under
the house rules that throw deals in) is dealt again from the next seed, since it holds no
decision.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeAlias, cast

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from thousand import bluff
from thousand.classic.actions import Action
from thousand.classic.marriages import highest_ceiling
from thousand.classic.observation import Observation
from thousand.classic.record import Record
from thousand.classic.rules import Rules
from thousand.classic.state import GameState
from thousand.errors import IllegalActionError, InvalidActionError, RulesError
from thousand.games import BLUFF, GAMES, THOUSAND, AnyGame, Game, game_named, game_of, per_game
from thousand.games import ActionT as A
from thousand.games import ObservationT as O
from thousand.games import RecordT as Rec
from thousand.games import RulesT as R
from thousand.games import StateT as S
from thousand.players import AnyPlayer, Player
from thousand.rl.codec import ActionCodec
from thousand.rl.encoding import ObservationEncoder
from thousand.table.faults import FaultPolicy
from thousand.table.match import Match
from thousand.table.specs import load_player

__all__ = ["SeatEnv", "TableEnv", "rules_named"]

AnyRules = Rules | bluff.Rules
DEALS_TRIED = 1000
"""Deals tried for a game in which someone acts, before the rules are taken to throw every deal
in."""


def rules_named(rules: str | AnyRules, players: int | None = None) -> AnyRules:
    """The rules an environment plays: a Thousand preset's name, a game's name (``thousand``,
    ``bluff`` or ``1000?``) for its default rules at ``players`` seats, or rules given as they
    are."""
    chosen: AnyRules
    if isinstance(rules, str):
        try:
            game = game_named(rules)
        except ValueError:
            chosen = Rules.preset(rules)
        else:
            return game.default_rules(players)
    else:
        chosen = rules
    if players is not None and players != chosen.players:
        raise RulesError(f"these rules are for {chosen.players} players, not {players}")
    return chosen


class Table(Generic[S, O, A, R, Rec]):
    """One game being played for learning, as a stepped :class:`~thousand.table.match.Match`:
    the seats' scores so far, and how the seats see it and act in it."""

    def __init__(
        self, game: Game[S, O, A, R, Rec], rules: R, *, single_deal: bool, normalise: bool
    ) -> None:
        if single_deal and not game.has_deals:
            dealt = " and ".join(game.title for game in GAMES if game.has_deals)
            raise RulesError(
                f"single_deal is for {dealt}; a {game.title} {game.unit} is already one game"
            )
        self.game = game
        self.rules = rules
        self.single_deal = single_deal
        self.codec = ActionCodec.for_rules(rules)
        # The encoder of this game's rules takes this game's observations.
        either: AnyRules = rules
        self.encoder = cast("ObservationEncoder[O]", ObservationEncoder.for_rules(either))
        self.scale = 1.0 / _reward_unit(rules, single_deal) if normalise else 1.0
        self.match: Match[S, O, A, R, Rec] | None = None
        self.scores = [0.0] * rules.players

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def state(self) -> S:
        """The game's state, every card included (never shown to a seat)."""
        return self.playing.state

    @property
    def playing(self) -> Match[S, O, A, R, Rec]:
        """The match being played."""
        if self.match is None:
            raise RulesError("the environment must be reset before it is used")
        return self.match

    def deal(self, seed: int, dealer: int | None = None) -> None:
        """Start a new game dealt from ``seed``, its first deal dealt by ``dealer`` (by default
        seat 0 in a single deal, a seat drawn from the seed in a match)."""
        state = self.game.start(
            self.rules, seed=seed, layout=None, dealer=dealer, single_deal=self.single_deal
        )
        # A learner's illegal action never reaches the match (it is refused before), and the
        # bots' answers are their own: a bot's fault raises.
        self.match = Match(self.game, self.rules, state, seed=seed, on_fault=FaultPolicy.RAISE)
        self.scores = [0.0] * self.players

    def deal_until_played(self, seeds: random.Random, dealer: int | None = None) -> None:
        """Start a new game from the next seed of ``seeds`` that gives a game with a decision in
        it (one whose deals are not all thrown in)."""
        for _ in range(DEALS_TRIED):
            self.deal(seeds.getrandbits(63), dealer)
            if not self.playing.is_over:
                return
        raise RulesError(f"these rules threw in {DEALS_TRIED} games in a row before any action")

    def seats_dealt(self, dealer: int) -> tuple[int, ...]:
        """The seats dealt cards when ``dealer`` deals."""
        return self.game.seats_dealt(self.rules, dealer)

    @property
    def to_act(self) -> int | None:
        """The seat to act, ``None`` once the game is over."""
        return self.playing.to_act

    def observation_space(self) -> spaces.Dict:
        return spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.codec.size,), np.int8),
            }
        )

    def seen_by(self, seat: int) -> dict[str, Any]:
        """What ``seat`` sees: its encoded observation and the mask of its legal actions (all 0
        when it is not its turn)."""
        observation = self.game.seen_from(self.state, seat)
        return {
            "observation": self.encoder.encode(observation),
            "action_mask": np.array(self.codec.mask(observation.legal_actions), dtype=np.int8),
        }

    def action(self, index: object) -> A:
        """The action numbered ``index``, checked to be legal for the seat to act.

        Raises:
            InvalidActionError: ``index`` is no action number of these rules.
            IllegalActionError: the action is not legal now (the game is unchanged).
        """
        # The codec numbers the actions of this table's rules.
        action = cast("A", self.codec.action(index))
        if action not in self.state.legal_actions():
            self.state.apply(action)  # raises the error naming the action, the seat and phase
        return action

    def act(self, index: object) -> list[float]:
        """Play action number ``index`` for the seat to act; each seat's reward."""
        action = self.action(index)
        match = self.playing
        seat = match.to_act
        assert seat is not None
        match.submit(seat, action, 0.0)
        return self.rewards()

    def ask(self, seat: int, player: AnyPlayer) -> list[float]:
        """Play what ``player``, the bot of ``seat`` (whose turn it is), answers; each seat's
        reward.

        Raises:
            PlayerError: the bot raised or answered with an illegal action.
        """
        match = self.playing
        bot = cast("Player[O]", player)  # seated at this game: it is handed its observations
        try:
            answer = bot.act(match.observation())
        except Exception as error:
            match.fail(seat, error, 0.0)
        else:
            match.submit(seat, answer, 0.0)
        return self.rewards()

    def rewards(self) -> list[float]:
        """Each seat's score gained since the last call, scaled."""
        now = self.current_scores()
        gained = [(new - old) * self.scale for new, old in zip(now, self.scores, strict=True)]
        self.scores = now
        return gained

    def current_scores(self) -> list[float]:
        """Each seat's score as the game counts it (its standings): a match's scores as they
        stand, a single deal's or a 1000? game's only once it is over."""
        state = self.state
        whole_only = self.single_deal or not self.game.has_deals
        if whole_only and not state.is_over:
            return [0.0] * self.players
        scores, _ = self.game.standings(state, None)
        return [float(score) for score in scores]


AnyTable: TypeAlias = (
    "Table[GameState, Observation, Action, Rules, Record]"
    " | Table[bluff.State, bluff.Observation, bluff.Action, bluff.Rules, bluff.Record]"
)
"""A game of either kind being played for learning."""


def _table(rules: AnyRules, *, single_deal: bool, normalise: bool) -> AnyTable:
    """The table of the game ``rules`` are for."""

    def made(game: Game[S, O, A, R, Rec]) -> Table[S, O, A, R, Rec]:
        return Table(game, game.own_rules(rules), single_deal=single_deal, normalise=normalise)

    return game_of(rules).handle(made)


def _reward_unit(rules: AnyRules, single_deal: bool) -> float:
    """What a normalised reward of 1 stands for: the target score of a Thousand match, the
    highest contract of a single deal, the cards of a 1000? deck."""
    unit: Callable[[Any, bool], float] = per_game(_REWARD_UNITS, rules, "learning environment")
    return unit(rules, single_deal)


def _thousand_unit(rules: Rules, single_deal: bool) -> float:
    return float(highest_ceiling(rules) if single_deal else rules.target)


def _bluff_unit(rules: bluff.Rules, single_deal: bool) -> float:
    return float(len(rules.deck))


class TableEnv(AECEnv):  # type: ignore[misc]
    """Every seat of one game as a PettingZoo agent, ``seat_0`` to ``seat_{n-1}``, acting in
    turn (agent-environment cycle). At a table of four the seat sitting out a deal is not
    selected during it; its rewards (the sitter's bonus) wait for its next turn or the end."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo reads it from the class
        "name": "thousand_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: str | AnyRules = "russian",
        *,
        players: int | None = None,
        single_deal: bool = False,
        normalise: bool = False,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        chosen = rules_named(rules, players)
        self.table = _table(chosen, single_deal=single_deal, normalise=normalise)
        self.possible_agents = [f"seat_{seat}" for seat in range(chosen.players)]
        self.agents = list(self.possible_agents)
        self.render_mode = render_mode
        self._observation_space = self.table.observation_space()
        self._action_space = spaces.Discrete(self.table.codec.size)
        self._seeds = random.Random()
        self.metadata = {**TableEnv.metadata, "name": _name(chosen, single_deal)}

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
        self.table.deal_until_played(self._seeds)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self._to_act()]

    def observe(self, agent: str) -> dict[str, Any]:
        return self.table.seen_by(self.possible_agents.index(agent))

    def step(self, action: object) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise InvalidActionError(f"{agent} must act: None is no action")
        self._cumulative_rewards[agent] = 0.0
        gained = self.table.act(action)
        self.rewards = {name: gained[seat] for seat, name in enumerate(self.possible_agents)}
        if self.table.to_act is None:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[self._to_act()]
        self._accumulate_rewards()

    def _to_act(self) -> int:
        seat = self.table.to_act
        assert seat is not None
        return seat

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return str(self.table.state)

    def close(self) -> None:
        """Nothing to release."""


class SeatEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One seat of a game as a Gymnasium environment; the other seats are played by bots (any
    bot spec, or Player objects), which act between the learner's steps.

    At a table of four the bots play the deals the learner sits out (its reward for them comes
    with its next step); a single deal is dealt by the first seat from 0 that leaves the
    learner in play."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 - Gymnasium's own annotation

    def __init__(
        self,
        rules: str | AnyRules = "russian",
        *,
        seat: int = 0,
        opponents: Sequence[str | AnyPlayer] | None = None,
        players: int | None = None,
        single_deal: bool = False,
        normalise: bool = False,
        illegal: str = "lose",
        render_mode: str | None = None,
    ) -> None:
        chosen = rules_named(rules, players)
        if not 0 <= seat < chosen.players:
            raise RulesError(f"seat {seat} is not at a table of {chosen.players}")
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal must be 'lose' or 'raise', not {illegal!r}")
        others = list(opponents) if opponents is not None else ["random"] * (chosen.players - 1)
        if len(others) != chosen.players - 1:
            raise RulesError(
                f"{chosen.players} players need {chosen.players - 1} opponents, not {len(others)}"
            )
        self.table = _table(chosen, single_deal=single_deal, normalise=normalise)
        self.seat = seat
        self.illegal = illegal
        self.penalty = -_reward_unit(chosen, single_deal) * self.table.scale
        self.render_mode = render_mode
        self.opponents: dict[int, AnyPlayer] = {}
        opposing = [other for other in range(chosen.players) if other != seat]
        for other, spec in zip(opposing, others, strict=True):
            self.opponents[other] = load_player(spec)() if isinstance(spec, str) else spec
        self.observation_space = self.table.observation_space()
        self.action_space = spaces.Discrete(self.table.codec.size)
        self.dealer: int | None = None
        if single_deal:
            self.dealer = next(
                dealer for dealer in range(chosen.players) if seat in self.table.seats_dealt(dealer)
            )

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        draw = random.Random(int(self.np_random.integers(2**63)))
        table = self.table
        for _ in range(DEALS_TRIED):
            table.deal_until_played(draw, self.dealer)
            for other, player in self.opponents.items():
                start = getattr(player, "start", None)
                if start is not None:
                    start(other, table.rules, random.Random(draw.getrandbits(63)))
            self._gained = 0.0
            self._play_opponents()
            if table.to_act is not None:
                return table.seen_by(self.seat), {}
        raise RulesError(f"seat {self.seat} had no decision in {DEALS_TRIED} games in a row")

    def step(self, action: object) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        table = self.table
        try:
            table.action(action)
        except (InvalidActionError, IllegalActionError) as error:
            if self.illegal == "raise":
                raise
            # No action number, or not a legal one: info names it as the error does.
            chosen = error.action if isinstance(error, IllegalActionError) else error
            info = {"illegal_action": str(chosen)}
            return table.seen_by(self.seat), self.penalty, True, False, info
        self._gained = table.act(action)[self.seat]
        self._play_opponents()
        reward, self._gained = self._gained, 0.0
        return table.seen_by(self.seat), reward, table.to_act is None, False, {}

    def _play_opponents(self) -> None:
        """Let the bots act until it is the learner's turn or the game is over."""
        table = self.table
        while (seat := table.to_act) is not None and seat != self.seat:
            self._gained += table.ask(seat, self.opponents[seat])[self.seat]

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return str(self.table.state)

    def close(self) -> None:
        for player in self.opponents.values():
            end = getattr(player, "end", None)
            if end is not None:
                with contextlib.suppress(Exception):  # a bot's end may fail; nothing is lost
                    end(None)


def _name(rules: AnyRules, single_deal: bool) -> str:
    """The environment's name in PettingZoo's metadata."""
    name: Callable[[Any, bool], str] = per_game(_NAMES, rules, "learning environment")
    return name(rules, single_deal)


def _thousand_name(rules: Rules, single_deal: bool) -> str:
    preset = (rules.preset_name() or "custom").replace("-", "_")
    return f"thousand_{preset}{'_deal' if single_deal else ''}_v0"


def _bluff_name(rules: bluff.Rules, single_deal: bool) -> str:
    return f"thousand_bluff{rules.players}_v0"


_REWARD_UNITS: dict[AnyGame, Callable[[Any, bool], float]] = {
    THOUSAND: _thousand_unit,
    BLUFF: _bluff_unit,
}
_NAMES: dict[AnyGame, Callable[[Any, bool], str]] = {
    THOUSAND: _thousand_name,
    BLUFF: _bluff_name,
}
