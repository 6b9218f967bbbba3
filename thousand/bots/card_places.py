"""A learned belief about where the cards a seat has not seen lie, which the search bots draw
their worlds from.

The rules alone say little about the other hands: a seat that shows out of a suit holds none of
it, one that declared a marriage still holds its other half. Players say more than the rules
make them: a high bid speaks of marriages and aces, the declarer leads its winners, a defender
that follows low where a higher card would have taken the trick probably has none. This model
reads such habits from games: for every unseen card and every other seat it scores a few
yes-or-no facts of what that seat did (its bid, its role, the cards it led, followed and
trumped with, what it played in the card's suit), each fact with a learned weight, and the
card is ``exp(score)`` times likelier in that hand than if every placement were alike. The
determiniser then draws whole deals in proportion to the product of those weights
(:class:`thousand.classic.determinise.Determiniser`'s ``affinity``).

It is fitted to deals the ``greedy`` strategy plays at every seat, with the true hands as labels:
at every decision, each unseen card's place is predicted as a choice among the places it may lie
in, in proportion to their sizes times the weights (a conditional logit), and the weights follow
the gradient of the log-likelihood (AdaGrad, one pass). Training is plain Python, so the same
seed gives the same model on any machine; the model shipped with the library covers every
preset (``thousand train-inference`` regenerates it, see the bots guide).
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

import attrs

from thousand.bots import thousand_strategy
from thousand.bots.choice_fit import Example, fit, score
from thousand.bots.model_file import ModelFile
from thousand.classic.actions import Bid, Give
from thousand.classic.cards import FULL_MASK, MARRIAGE_MASKS, MARRIED_RANKS, mask_of
from thousand.classic.engine import new_deal
from thousand.classic.inference import deduce
from thousand.classic.observation import Observation
from thousand.classic.rules import Rules
from thousand.classic.state import GameState, Phase
from thousand.classic.tricks import above, trump_after
from thousand.errors import ModelError

__all__ = [
    "FEATURES",
    "CardPlaces",
    "CardPlacesModels",
    "facts",
    "shipped",
    "train",
]

RANKS = ("nine", "jack", "queen", "king", "ten", "ace")
ROLES = ("bidding", "declarer", "defender")
BIDS = ("no bid", "bid to 110", "bid to 125", "bid to 145", "bid to 175", "bid above 175")
"""The highest bid a seat made, in brackets."""
_BID_TOPS = (0, 110, 125, 145, 175)
PLAYED = ("none", "one", "two", "three or more")
PLAYS = (
    "led its suit",
    "led a lower card of its suit",
    "led a higher card of its suit",
    "followed lower where it would have beaten an opponent",
    "followed lower where it would have beaten a partner",
    "followed lower where it would not have won",
    "played a higher card of its suit",
    "trumped another suit",
    "declared the marriage of its suit",
)
"""What a seat did in the trick play, as it bears on one card (a card of the same suit); the
declarer's plays and a defender's are told apart."""
SIDES = ("declarer", "defender")
DEALT = ("was in the talon", "was given a card unseen")
"""What the exchange tells of a seat's hand, as it bears on a card."""


def _names() -> tuple[str, ...]:
    names = [f"{role}: {rank}" for role in ROLES for rank in RANKS]
    names += [f"{role}, trump: {rank}" for role in ROLES for rank in RANKS]
    names += [f"{bid}: {rank}" for bid in BIDS for rank in RANKS]
    names += [f"{bid}: {rank} of a marriage still possible" for bid in BIDS for rank in RANKS[2:4]]
    names += [f"played {count} of its suit: {rank}" for count in PLAYED for rank in RANKS]
    names += [f"{side} {play}: {rank}" for side in SIDES for play in PLAYS for rank in RANKS]
    names += [f"{fact}: {rank}" for fact in DEALT for rank in RANKS]
    return tuple(names)


FEATURES = _names()
"""The facts the model weighs, each about one card and one other seat (its rank after the
colon)."""
_INDEX = {name: index for index, name in enumerate(FEATURES)}
_ROLE = [[_INDEX[f"{role}: {rank}"] for rank in RANKS] for role in ROLES]
_ROLE_TRUMP = [[_INDEX[f"{role}, trump: {rank}"] for rank in RANKS] for role in ROLES]
_BID = [[_INDEX[f"{bid}: {rank}"] for rank in RANKS] for bid in BIDS]
_BID_MARRIAGE = [
    [_INDEX.get(f"{bid}: {rank} of a marriage still possible", -1) for rank in RANKS]
    for bid in BIDS
]
_PLAYED = [[_INDEX[f"played {count} of its suit: {rank}"] for rank in RANKS] for count in PLAYED]
_PLAY = [[[_INDEX[f"{side} {play}: {rank}"] for rank in RANKS] for play in PLAYS] for side in SIDES]
_TALON, _GIVEN = ([_INDEX[f"{fact}: {rank}"] for rank in RANKS] for fact in DEALT)
(
    _LED,
    _LED_BELOW,
    _LED_ABOVE,
    _DUCKED,
    _DUCKED_PARTNER,
    _FOLLOWED_LOW,
    _PLAYED_ABOVE,
    _TRUMPED,
    _DECLARED,
) = range(len(PLAYS))

_SUIT_MASK = 0b111111


def _bid_bracket(amount: int) -> int:
    return sum(amount > top for top in _BID_TOPS)


@attrs.frozen
class Facts:
    """What the model reads at one decision."""

    cards: dict[int, dict[int, tuple[int, ...]]]
    """For every card the observer has not seen (nor can place for sure), and every other seat
    that may hold it: the indices of the :data:`FEATURES` that hold."""
    room: dict[int, int]
    """How many cards each other seat holds that the observer cannot place for sure."""
    hidden: int
    """How many unseen cards lie elsewhere: in the talon or musik, or laid aside."""


def facts(observation: Observation) -> Facts:
    """What the model reads in ``observation`` (see :class:`Facts`). A seat's bid is the highest
    it bid or, for the declarer, its contract if it raised it (the forehand's opening bid, made
    for it, does not count)."""
    seat = observation.seat
    declarer = observation.declarer
    deductions = deduce(observation)
    others = [other for other in observation.active if other != seat]
    own = mask_of(observation.hand)
    known = own | deductions.played
    placed = list(deductions.holds)
    if declarer == seat:
        known |= mask_of(observation.talon) | mask_of(observation.set_aside)
        for gift, to in observation.given:
            known |= gift.bit
            placed[to] |= gift.bit & ~deductions.played
    elif observation.received is not None:
        known |= observation.received.bit
    for other in others:
        known |= placed[other]
    unseen = FULL_MASK & ~known
    sizes = observation.hand_sizes
    room = {other: sizes[other] - placed[other].bit_count() for other in others}

    highest = _highest_bids(observation)
    # Per seat, the kings and queens whose marriage it cannot hold: a card of it is in the
    # observer's hand, played, or placed for sure in another hand.
    # (No card is placed for sure in two hands, so the others' are all placed less its own.)
    seen = own | deductions.played
    all_placed = 0
    for other in others:
        all_placed |= placed[other]
    broken = {}
    for other in others:
        elsewhere = seen | all_placed & ~placed[other]
        broken[other] = sum(marriage for marriage in MARRIAGE_MASKS if marriage & elsewhere)
    plays, counts = _plays(observation)
    shown = 0 if declarer == seat else mask_of(observation.talon)
    given_unseen = {
        action.to
        for _, action in observation.history
        if isinstance(action, Give) and action.card is None
    }
    found: dict[int, dict[int, tuple[int, ...]]] = {}
    for other in others:
        role = 0 if declarer is None else 1 if other == declarer else 2
        side = _PLAY[0 if other == declarer else 1]
        bracket = _bid_bracket(highest[other])
        allowed = unseen & ~deductions.lacks[other]
        for card in range(24):
            bit = 1 << card
            if not allowed & bit:
                continue
            rank = card % 6
            suit = card // 6
            row = [_ROLE[role][rank], _BID[bracket][rank], _PLAYED[counts[other][suit]][rank]]
            if suit == deductions.trump:
                row.append(_ROLE_TRUMP[role][rank])
            if rank in MARRIED_RANKS and not broken[other] & bit:
                row.append(_BID_MARRIAGE[bracket][rank])
            row += [side[play][rank] for play, mask in enumerate(plays[other]) if mask & bit]
            if shown & bit:
                row.append(_TALON[rank])
            if other in given_unseen:
                row.append(_GIVEN[rank])
            found.setdefault(card, {})[other] = tuple(row)
    return Facts(found, room, unseen.bit_count() - sum(room.values()))


def _highest_bids(observation: Observation) -> list[int]:
    """Each seat's highest bid, or the declarer's contract if it raised it (0 for none: the
    forehand's opening bid is made for it)."""
    highest = [0] * observation.rules.players
    for actor, action in observation.history:
        if isinstance(action, Bid):
            highest[actor] = max(highest[actor], action.amount)
    declarer = observation.declarer
    contract = observation.contract
    if declarer is not None and contract is not None and contract > observation.bid:
        highest[declarer] = max(highest[declarer], contract)
    return highest


def _plays(observation: Observation) -> tuple[list[list[int]], list[list[int]]]:
    """For each seat, per fact of :data:`PLAYS`, the mask of the cards its plays bear on that
    way; and per suit how many of its cards the seat played (three counting for more)."""
    players = observation.rules.players
    declarer = observation.declarer
    plays = [[0] * len(PLAYS) for _ in range(players)]
    counts = [[0] * 4 for _ in range(players)]
    position = best = winning = led = 0
    trump = -1
    for actor, action in observation.card_plays:
        card = action.card.index
        bit = 1 << card
        suit = card // 6
        suit_cards = _SUIT_MASK << (suit * 6)
        bearing = plays[actor]
        counts[actor][suit] = min(3, counts[actor][suit] + 1)
        if not position:
            trump = trump_after(action, trump)
            bearing[_LED] |= suit_cards
            bearing[_LED_BELOW] |= above(card)
            bearing[_LED_ABOVE] |= suit_cards & ~above(card) & ~bit
            if action.marriage:
                bearing[_DECLARED] |= suit_cards
            led, best, winning = suit, card, actor
        else:
            winners = above(best)
            if trump >= 0 and best // 6 != trump:
                winners |= _SUIT_MASK << (trump * 6)
            higher = above(card)
            if not winners & bit:
                partners = declarer is not None and declarer not in (actor, winning)
                bearing[_DUCKED_PARTNER if partners else _DUCKED] |= higher & winners
            bearing[_FOLLOWED_LOW] |= higher & ~winners
            bearing[_PLAYED_ABOVE] |= suit_cards & ~higher & ~bit
            if suit != led and suit == trump:
                bearing[_TRUMPED] |= suit_cards
            if winners & bit:
                best, winning = card, actor
        position = (position + 1) % observation.rules.active_players
    return plays, counts


@attrs.frozen
class CardPlaces:
    """The model for one set of rules: a weight per :data:`FEATURES`, and how many deals and
    card placements it was fitted to."""

    rules: Rules
    weights: tuple[float, ...]
    deals: int
    cards: int

    def affinity(self, observation: Observation) -> list[list[float]]:
        """How many times likelier than under a uniform placement the model holds each card
        (by index) to be in each seat's hand, for :class:`~thousand.classic.determinise.
        Determiniser`."""
        weights = self.weights
        players = observation.rules.players
        table = [[1.0] * players for _ in range(24)]
        for card, seats in facts(observation).cards.items():
            row = table[card]
            for other, found in seats.items():
                row[other] = math.exp(score(weights, (0.0, found)))
        return table

    def to_dict(self) -> dict[str, Any]:
        """The model as plain JSON data (weights of zero left out)."""
        return {
            "rules": self.rules.to_dict(),
            "deals": self.deals,
            "cards": self.cards,
            "weights": {
                name: weight for name, weight in zip(FEATURES, self.weights, strict=True) if weight
            },
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CardPlaces:
        """The model from :meth:`to_dict`'s data.

        Raises:
            ModelError: the data is not such a model.
        """
        try:
            weights = data["weights"]
            unknown = set(weights) - set(FEATURES)
            if unknown:
                raise ModelError(f"a card-places model has no fact {sorted(unknown)[0]!r}")
            return cls(
                rules=Rules.from_dict(data["rules"]),
                weights=tuple(float(weights.get(name, 0.0)) for name in FEATURES),
                deals=int(data["deals"]),
                cards=int(data["cards"]),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise ModelError(f"not a card-places model: {error}") from None


@attrs.frozen
class CardPlacesModels(ModelFile[CardPlaces]):
    """Models for several sets of rules, as saved in one file, with the seed they came from."""

    kind = "card-places models"

    @classmethod
    def read_model(cls, data: Mapping[str, Any]) -> CardPlaces:
        return CardPlaces.from_dict(data)

    def for_rules(self, rules: Rules) -> CardPlaces | None:
        """The model fitted under exactly these rules, if any."""
        return next((model for model in self.models if model.rules == rules), None)


@cache
def shipped() -> CardPlacesModels:
    """The models that come with the library, one per preset."""
    return CardPlacesModels.packaged("card_places.json")


# An example is one unseen card: for each place it may lie in, the log of the place's size and
# the facts that hold there (none for the talon, musik or cards laid aside), and the true place.


def examples(rules: Rules, rng: random.Random) -> Iterator[tuple[int, list[Example]]]:
    """Labelled card placements from deals dealt and played by the ``greedy`` strategy without
    end: for each decision of every seat, each unseen card's candidate places and the true one;
    with the number of the deal they come from."""
    deal = 0
    while True:
        state = new_deal(rules, seed=rng.getrandbits(62), dealer=rng.randrange(rules.players))
        while state.phase is not Phase.OVER:
            observation = state.observation(state.player)
            yield deal, _placements(observation, state)
            state = state.apply(thousand_strategy.choose(observation, rng))
        deal += 1


def _placements(observation: Observation, state: GameState) -> list[Example]:
    """The labelled placements of the unseen cards at one decision."""
    found = facts(observation)
    hands = state.hand_masks
    elsewhere = ((math.log(found.hidden), ()),) if found.hidden else ()
    labelled = []
    for card, seats in found.cards.items():
        owners = [other for other in seats if found.room[other]]
        places = [(math.log(found.room[other]), seats[other]) for other in owners]
        truth = next(
            (place for place, other in enumerate(owners) if hands[other] >> card & 1), len(owners)
        )
        candidates = (*places, *elsewhere)
        if len(candidates) > 1 and truth < len(candidates):
            labelled.append((candidates, truth))
    return labelled


def train(rules: Rules, *, seed: int, deals: int) -> CardPlaces:
    """Fit the model for ``rules`` to the decisions of ``deals`` simulated deals drawn from
    ``seed``.

    Raises:
        ValueError: no deals to fit.
    """
    if deals < 1:
        raise ValueError("a card-places model needs at least 1 deal")
    rng = random.Random(
        f"thousand:card-places:{seed}:{json.dumps(rules.to_dict(), sort_keys=True)}"
    )

    def labelled() -> Iterator[Example]:
        for deal, placements in examples(rules, rng):
            if deal >= deals:
                return
            yield from placements

    weights, cards = fit(labelled(), len(FEATURES))
    return CardPlaces(
        rules=rules,
        weights=weights,
        deals=deals,
        cards=cards,
    )
