"""What the search bots share: sampled worlds, playouts by the ``greedy`` strategy, and what a
finished playout is worth to each seat, for both games.

A search spends a budget of simulated actions ("steps") per decision rather than seconds, so that
the same seed gives the same decisions on any machine; a time limit can be set instead.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Generic, cast

import attrs

from thousand import bluff
from thousand.bluff.challenge import is_honest
from thousand.bots import auction_value, bluff_odds, bluff_strategy, card_places, thousand_strategy
from thousand.bots.model_file import read_models_text
from thousand.classic.actions import Action, Bid, Pass
from thousand.classic.determinise import Determiniser
from thousand.classic.observation import Observation
from thousand.classic.rules import Rules
from thousand.classic.state import GameState, Phase
from thousand.errors import ModelError, NoWorldError
from thousand.games import BLUFF, THOUSAND, AnyGame, AnyObservation, game_observed
from thousand.games import ActionT as A
from thousand.games import ObservationT as O
from thousand.games import StateT as S
from thousand.players import SeatedPlayer

__all__ = [
    "BluffSearch",
    "Budget",
    "Search",
    "SearchPlayer",
    "playout",
    "search_for",
    "searches_for_worlds",
    "train_bidding",
]

BLUFF_PLAYOUT = 16
"""A 1000? playout is stopped after this many actions and judged by the cards in hand (a
three-player game takes about 40 actions from the deal): more, shorter playouts judge better."""
BLUFF_CHOICES = 2
"""The cards a 1000? search considers playing face down."""
OTHERS_STRAY = 0.2
"""How much less likely a world is for each bid or pass of another seat in Thousand (each card
played face down in 1000?) that the greedy strategy would not have made there."""
PASS = Pass()
SHAPING = frozenset((Phase.AUCTION, Phase.EXCHANGE, Phase.CONTRACT))
"""The Thousand phases whose few decisions shape the whole deal: the bids, the cards given or laid
aside, and the contract or concession."""


class Search(Generic[S, O, A]):
    """How the bots treat one game: sampling worlds, playing them out, valuing the end, and the
    greedy strategy; generic in the game's state, observation and action."""

    observation_type: type[O]

    playout_limit = 1000
    """A playout stops after this many actions (a Thousand deal always ends well before)."""
    whole_game = False
    """Whether every decision is searched with the budget of a whole game (1000?, a game of one
    deal), rather than a deal's or a card's."""

    def worlds(self, observation: O) -> Callable[[random.Random], S]:
        """A sampler of full states consistent with ``observation``."""
        raise NotImplementedError

    def choices(self, where: O | S, legal: Sequence[A]) -> Sequence[A]:
        """The actions worth searching among ``legal`` in ``where`` (an observation or a state;
        all unless some are not worth the budget)."""
        return legal

    def policy(self, state: S, rng: random.Random, seat: int) -> A:
        """The playout policy's action in ``state``, for a search made by ``seat``."""
        raise NotImplementedError

    def greedy(self, observation: O, rng: random.Random) -> A:
        """The greedy strategy's action (also for an observation no world could be drawn for)."""
        raise NotImplementedError

    def values(self, state: S, start: O) -> tuple[float, ...]:
        """What the end of a playout is worth to each seat, about -1 to 1."""
        raise NotImplementedError

    def weighing(self, start: O) -> Callable[[S], float]:
        """How much each world drawn for ``start`` counts: how likely the other seats were to
        act as they did had it been true, against how often it is drawn, up to a constant (1
        when their actions say nothing of their cards)."""
        return _same_weight

    def shapes_deal(self, observation: O) -> bool:
        """Whether the decision is one of the few that shape a whole deal (the search bots give
        those a larger budget)."""
        return False

    def prior(
        self, observation: O, choices: Sequence[A], model: auction_value.AuctionValues | None
    ) -> tuple[tuple[float, ...], float] | None:
        """A learned estimate of each choice's value (up to a constant), and how many sampled
        worlds it is worth; ``None`` where there is none. ``model`` is the bot's set of models,
        ``None`` for the shipped one."""
        return None

    def observed(self, observation: object) -> O:
        """``observation``, checked to be of this game."""
        if not isinstance(observation, self.observation_type):
            raise TypeError(f"expected a {self.observation_type.__qualname__}")
        return observation

    def legal(self, observation: O) -> tuple[A, ...]:
        """The observer's legal actions, as this game's actions."""
        return cast("tuple[A, ...]", observation.legal_actions)

    def decide(self, player: SearchPlayer, observation: object) -> A:
        """``player``'s choice for ``observation`` among the actions worth searching: a lone
        one at once, else by its search, or as greedy plays when no world can be drawn."""
        seen = self.observed(observation)
        choices = self.choices(seen, self.legal(seen))
        if len(choices) == 1:
            return choices[0]
        try:
            return player.search(self, seen, choices)
        except NoWorldError:
            return self.greedy(seen, player.rng)

    def greedy_choice(self, observation: object, rng: random.Random) -> A:
        """:meth:`greedy` for an observation checked to be of this game."""
        return self.greedy(self.observed(observation), rng)


class ThousandSearch(Search[GameState, Observation, Action]):
    """Thousand: the world is the rest of the deal; a seat values its score gain against the
    others' average gain (in hundreds of points)."""

    observation_type = Observation

    def __init__(self, card_places: card_places.CardPlacesModels | None = None) -> None:
        self.card_places = card_places
        """The models of where the unseen cards lie that worlds are drawn by (``None``: every
        placement the rules and the bids allow alike)."""

    def worlds(self, observation: Observation) -> Callable[[random.Random], GameState]:
        affinity = None
        if self.card_places is not None:
            model = self.card_places.for_rules(observation.rules)
            if model is not None:
                affinity = model.affinity(observation)
        determiniser = Determiniser(observation, affinity)
        likelihood = bids_likelihood(observation)
        return lambda rng: determiniser.sample(rng, likelihood)

    def choices(self, where: Observation | GameState, legal: Sequence[Action]) -> Sequence[Action]:
        # In the auction, raising by one step now or passing are the real choices: a higher
        # bid can be made on a later turn. Both musiki are unseen, so either is as good.
        if where.phase is Phase.AUCTION:
            return legal[:2]
        return legal[:1] if where.phase is Phase.MUSIK else legal

    def greedy(self, observation: Observation, rng: random.Random) -> Action:
        return thousand_strategy.choose(observation, rng)

    def shapes_deal(self, observation: Observation) -> bool:
        return observation.phase in SHAPING

    def prior(
        self,
        observation: Observation,
        choices: Sequence[Action],
        model: auction_value.AuctionValues | None,
    ) -> tuple[tuple[float, ...], float] | None:
        # The model knows a seat off the barrel and below the lock choosing between a pass and
        # a raise of one step, as in the deals it was fitted to.
        if observation.phase is not Phase.AUCTION or tuple(choices[:1]) != (PASS,):
            return None
        if len(choices) != 2 or not thousand_strategy.defence_counts(observation):
            return None
        fitted = (model or auction_value.shipped()).for_rules(observation.rules)
        if fitted is None:
            return None
        raise_to = choices[1]
        assert isinstance(raise_to, Bid)
        return (0.0, fitted.advantage(observation, raise_to.amount)), fitted.worlds

    def outcomes(
        self, observation: Observation, choices: Sequence[Action], rng: random.Random
    ) -> tuple[float, ...]:
        """Each choice played out in one world sampled for ``observation``, valued for the
        observer (how the bidding models are trained)."""
        world = self.worlds(observation)(rng)
        seat = observation.seat
        return tuple(
            self.values(playout(self, world.apply(choice), rng, seat)[0], observation)[seat]
            for choice in choices
        )

    def policy(self, state: GameState, rng: random.Random, seat: int) -> Action:
        # A sampled deal is played out with every hand in view. The searching seat's bid is the
        # one being tried: in the playout it bids no higher.
        if state.phase is Phase.PLAY:
            return thousand_strategy.play_in_view(state)
        if state.phase is Phase.AUCTION and state.player == seat:
            return PASS
        return thousand_strategy.choose(state.observation(state.player), rng)

    def values(self, state: GameState, start: Observation) -> tuple[float, ...]:
        result = state.result
        assert result is not None
        gains = [after - before for after, before in zip(result.scores, start.scores, strict=True)]
        return _against_average(gains, 100.0)


class BluffSearch(Search[bluff.State, bluff.Observation, bluff.Action]):
    """1000?: a win, plus the cards the others still hold against one's own (a seventh of a win
    per card of a hand of seven), against the others' average; a playout cut short goes to the
    fewest cards in hand, as an adjudicated game does."""

    observation_type = bluff.Observation
    whole_game = True

    playout_limit = BLUFF_PLAYOUT

    def worlds(self, observation: bluff.Observation) -> Callable[[random.Random], bluff.State]:
        return BLUFF.worlds(observation)

    def choices(
        self, where: bluff.Observation | bluff.State, legal: Sequence[bluff.Action]
    ) -> Sequence[bluff.Action]:
        # Every card face up and the pass; face down only the cards hardest to play face up
        # later (those that go on the fewest others), since a bluff is best spent on them.
        hides = [action for action in legal if isinstance(action, bluff.Hide)]
        if len(hides) <= BLUFF_CHOICES:
            return legal
        useful = bluff_strategy.usefulness(where.rules.deck)

        def spare(hide: bluff.Hide) -> tuple[bool, int, int]:
            card = cast(bluff.Card, hide.card)
            return card.is_thousand, useful[card], card.value

        kept = sorted(hides, key=spare)[:BLUFF_CHOICES]
        return [action for action in legal if not isinstance(action, bluff.Hide) or action in kept]

    def greedy(self, observation: bluff.Observation, rng: random.Random) -> bluff.Action:
        return bluff_strategy.choose(observation)

    def policy(self, state: bluff.State, rng: random.Random, seat: int) -> bluff.Action:
        return bluff_strategy.choose(state.observation(state.player))

    def __init__(self, bluff_odds: bluff_odds.BluffOddsModels | None = None) -> None:
        self.bluff_odds = bluff_odds
        """The models of how often a face-down card is a bluff that worlds are weighed by
        (``None``: as the greedy strategy would have played the card)."""

    def weighing(self, start: bluff.Observation) -> Callable[[bluff.State], float]:
        if start.phase is not bluff.Phase.RESPONSE:
            return _same_weight
        model = None if self.bluff_odds is None else self.bluff_odds.for_rules(start.rules)
        if model is None:
            return _as_greedy_hides
        reading = bluff_odds.read(start)
        if reading is None:
            return _same_weight
        # Worlds put a bluff on top as often as the unseen cards would not beat the card below;
        # each counts as much more as the model makes it likelier.
        chance = model.chance(reading)
        bluffing = chance / reading.blind
        honest = (1 - chance) / (1 - reading.blind)
        return lambda world: honest if is_honest(world) else bluffing

    def values(self, state: bluff.State, start: bluff.Observation) -> tuple[float, ...]:
        if state.result is not None:
            winners = state.result.winners
        else:
            sizes = [len(hand) for hand in state.hand_kinds]
            fewest = min(sizes)
            winners = tuple(seat for seat, size in enumerate(sizes) if size == fewest)
        size = state.rules.hand_size
        worth = [
            (1.0 / len(winners) if seat in winners else 0.0) - len(hand) / size
            for seat, hand in enumerate(state.hand_kinds)
        ]
        return _against_average(worth, 1.0)


THOUSAND_SEARCH = ThousandSearch()
SEARCHES: dict[AnyGame, ThousandSearch | BluffSearch] = {
    THOUSAND: THOUSAND_SEARCH,
    BLUFF: BluffSearch(),
}
"""Each game's treatment by the bots."""


def searches_for_worlds(worlds: str) -> Mapping[AnyGame, ThousandSearch | BluffSearch]:
    """Each game's treatment for a search bot's ``worlds`` option: ``"rules"`` (every deal the
    rules allow alike but for the bids, a face-down card read as greedy would have played it),
    ``"learned"`` (as the shipped learned models weigh the cards' places and the bluffs), or a
    file of models made by ``thousand train-inference`` (Thousand) or ``thousand train-bluffs``
    (1000?), used for its game, with the shipped learned models for the other. Rules no model
    was fitted to (house rules) get the plain worlds.

    Raises:
        ModelError: the file cannot be read or holds neither kind of models.
    """
    if worlds == "rules":
        return SEARCHES
    places = card_places.shipped()
    bluffs = bluff_odds.shipped()
    if worlds != "learned":
        text = read_models_text(worlds, "card-places or bluff models")
        try:
            places = card_places.CardPlacesModels.from_json(text)
        except ModelError as not_places:
            try:
                bluffs = bluff_odds.BluffOddsModels.from_json(text)
            except ModelError as not_bluffs:
                raise ModelError(
                    f"{worlds} holds neither card-places models ({not_places}) nor bluff models "
                    f"({not_bluffs})"
                ) from None
    return {THOUSAND: ThousandSearch(places), BLUFF: BluffSearch(bluffs)}


def search_for(observation: object) -> ThousandSearch | BluffSearch:
    """The bots' treatment of the game ``observation`` comes from.

    Raises:
        TypeError: it is not an observation of either game.
    """
    return SEARCHES[game_observed(observation)]


def train_bidding(rules: Rules, *, seed: int, decisions: int) -> auction_value.AuctionValue:
    """The bidding model for ``rules``, fitted to ``decisions`` simulated bid decisions, each
    played out as the search bots play it out."""
    return auction_value.train(
        rules, seed=seed, decisions=decisions, playouts=THOUSAND_SEARCH.outcomes
    )


def _same_weight(world: object) -> float:
    return 1.0


def _as_greedy_hides(world: bluff.State) -> float:
    """The card just played face down read as the greedy strategy would have played it (a
    bluff when it could not beat the card below, a trap against a challenger): a world where
    greedy would have hidden another card counts less."""
    kind, owner, _, _ = world.table_entries[-1]
    assert world.history is not None
    hides = list(world.own_hides)
    just_hidden = hides[owner]
    assert just_hidden is not None
    hides[owner] = just_hidden[0]
    before = attrs.evolve(
        world,
        phase=bluff.Phase.CLIMB,
        player=owner,
        hand_kinds=tuple(
            tuple(sorted((*hand, kind))) if seat == owner else hand
            for seat, hand in enumerate(world.hand_kinds)
        ),
        table_entries=world.table_entries[:-1],
        turns=world.turns - 1,
        own_hides=tuple(hides),
        history=world.history[0],
    )
    hidden = bluff_strategy.choose(before.observation(owner))
    return 1.0 if hidden == bluff.Hide(world.kinds.cards[kind]) else OTHERS_STRAY


def _against_average(gains: Sequence[float], scale: float) -> tuple[float, ...]:
    """Each seat's gain less the average gain of the others, divided by ``scale``."""
    total = sum(gains)
    others = len(gains) - 1
    return tuple((gain - (total - gain) / others) / scale for gain in gains)


def bids_likelihood(observation: Observation) -> Callable[[tuple[int, ...]], float] | None:
    """How likely the other seats were to bid and pass as they did with the hands dealt, taking
    them to bid as the greedy strategy does, but not always; ``None`` before any such action."""
    rules = observation.rules
    seat = observation.seat
    auction: list[tuple[int, int, bool]] = []
    bid = rules.opening_bid_of(observation.scored_deals)
    for actor, action in observation.history:
        if not isinstance(action, Bid | Pass):
            break
        amount = action.amount if isinstance(action, Bid) else bid + rules.bid_step
        if actor != seat:
            auction.append((actor, amount, isinstance(action, Bid)))
        if isinstance(action, Bid):
            bid = amount
    if not auction:
        return None

    # Late in a deal the same hands come up again and again: each is judged once.
    estimates: dict[int, float] = {}

    def likelihood(dealt: tuple[int, ...]) -> float:
        chance = 1.0
        for actor, amount, bids in auction:
            hand = dealt[actor]
            estimate = estimates.get(hand)
            if estimate is None:
                estimate = estimates[hand] = thousand_strategy.bidding_estimate(rules, hand)
            if thousand_strategy.bids_with(estimate, amount) != bids:
                chance *= OTHERS_STRAY
        return chance

    return likelihood


def playout(game: Search[S, O, A], state: S, rng: random.Random, seat: int) -> tuple[S, int]:
    """Play ``state`` out with the playout policy of a search by ``seat``: the final (or
    cut-off) state and the number of actions taken."""
    steps = 0
    limit = game.playout_limit
    while not state.is_over and steps < limit:
        state = state.apply(game.policy(state, rng, seat))
        steps += 1
    return state, steps


class Budget:
    """How much a search may spend on one decision: ``steps`` simulated actions (reproducible),
    or ``seconds`` of thinking when given (faster or slower machines then decide differently)."""

    def __init__(self, steps: int, seconds: float | None) -> None:
        if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
            raise ValueError(f"a search needs a budget of at least 1 step, not {steps!r}")
        if seconds is not None and (isinstance(seconds, bool) or not seconds > 0):
            raise ValueError(f"a time budget must be a positive number of seconds, not {seconds!r}")
        self.steps = steps
        self.seconds = seconds
        self._spent = 0
        self._began = 0.0

    def start(self) -> None:
        """A decision begins: nothing is spent yet."""
        self._spent = 0
        self._began = time.perf_counter()

    def spend(self, steps: int) -> None:
        """Count ``steps`` simulated actions (at least one per playout)."""
        self._spent += max(1, steps)

    @property
    def spent(self) -> int:
        """The simulated actions counted in this decision so far."""
        return self._spent

    @property
    def used(self) -> float:
        """The share of the decision's budget spent so far (1 or more when it is all spent)."""
        if self.seconds is not None:
            return (time.perf_counter() - self._began) / self.seconds
        return self._spent / self.steps

    @property
    def timed(self) -> bool:
        """Whether the budget is a time limit."""
        return self.seconds is not None


class SearchPlayer(SeatedPlayer[AnyObservation]):
    """What both search bots do around their search: a forced action is played at once, and an
    observation no world can be drawn for (bids needing marriages so rare that sampling cannot
    find them) is played as greedy plays it."""

    budget: Budget
    searches: Mapping[AnyGame, ThousandSearch | BluffSearch] = SEARCHES
    """How the bot treats each game (how it draws its worlds)."""

    def act(self, observation: AnyObservation) -> object:
        """The search's choice among the actions worth searching."""
        return self.searches[game_observed(observation)].decide(self, observation)

    def search(self, game: Search[S, O, A], observation: O, choices: Sequence[A]) -> A:
        """One of ``choices`` (at least two), chosen by searching sampled worlds."""
        raise NotImplementedError
