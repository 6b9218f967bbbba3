"""A learned chance that the face-down card on top of a 1000? climb is a bluff, which the search
bots weigh their worlds by.

Drawn blindly from the cards a seat has not seen, the face-down card would be a bluff as often
as those cards fail to beat the card below it: that share is where the model starts. Players
bluff more or less than that: with their last cards, on a card that is hard to beat, late in a
climb, when the draw pile is empty. The model weighs such yes-or-no facts, each with a learned
weight added to the log-odds of that share (a logistic regression fitted like the card-places
model, :mod:`thousand.bots.choice_fit`, to games the ``greedy`` strategy plays at every seat,
with the true cards as labels). A search then counts each world by how much likelier the model
makes its top card's being a bluff, or honest, than the blind share did.

The models shipped with the library cover 2 to 6 players (``thousand train-bluffs``
regenerates them, see the bots guide).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

import attrs

from thousand import bluff
from thousand.bluff.cards import beats
from thousand.bluff.challenge import is_honest
from thousand.bots import bluff_strategy
from thousand.bots.choice_fit import Example, fit, score
from thousand.bots.model_file import ModelFile
from thousand.errors import ModelError

__all__ = [
    "FEATURES",
    "BluffOdds",
    "BluffOddsModels",
    "Reading",
    "read",
    "shipped",
    "train",
]

HAND = ("no card", "one card", "two cards", "three or four cards", "five to seven cards")
"""How many cards the player of the face-down card holds after it, in brackets (the last
bracket takes more cards too)."""
_HAND_TOPS = (0, 1, 2, 4)
BELOW = ("1 to 10", "11 to 20", "21 to 30", "31 to 40", "41 to 50")
"""The card below it (on a 1000 anything is honest: there is nothing to read)."""
CLIMB = ("second", "third", "fourth", "fifth or later")
"""Its place in the climb."""
BLIND = ("below a fifth", "a fifth to two fifths", "two to three fifths", "three to four fifths")
"""The blind share of bluffs among the unseen cards (the last bracket takes the rest)."""


def _names() -> tuple[str, ...]:
    names = [f"holds {hand} after it" for hand in HAND]
    names += [f"on a card {below}" for below in BELOW]
    names += [f"the {place} card of the climb" for place in CLIMB]
    names += [f"blind share {share}" for share in BLIND]
    names += ["the draw pile is empty", "its player hid a card earlier in this climb"]
    return tuple(names)


FEATURES = _names()
"""The facts the model weighs about a face-down card."""
_INDEX = {name: index for index, name in enumerate(FEATURES)}
_HAND = [_INDEX[f"holds {hand} after it"] for hand in HAND]
_BELOW = [_INDEX[f"on a card {below}"] for below in BELOW]
_CLIMB = [_INDEX[f"the {place} card of the climb"] for place in CLIMB]
_BLIND = [_INDEX[f"blind share {share}"] for share in BLIND]
_EMPTY = _INDEX["the draw pile is empty"]
_HID_BEFORE = _INDEX["its player hid a card earlier in this climb"]


@attrs.frozen
class Reading:
    """What the model reads of the face-down card on top of the climb."""

    blind: float
    """The share of the observer's unseen cards that would not beat the card below."""
    facts: tuple[int, ...]
    """The indices of the :data:`FEATURES` that hold."""


def read(observation: bluff.Observation) -> Reading | None:
    """The model's reading of the face-down card on top of the climb, waiting to be believed or
    challenged, or ``None`` where there is nothing to read: no such card that the observer has
    not seen, a card below that lets anything follow, or unseen cards that would all be bluffs
    or all honest there."""
    table = observation.table
    if len(table) < 2 or not table[-1].face_down or table[-1].believed:
        return None
    if table[-1].card is not None:
        return None
    below = table[-2]
    if below.believed or below.card is None:
        return None
    unseen = bluff_strategy.unseen_cards(observation)
    total = sum(unseen.values())
    bluffs = sum(count for card, count in unseen.items() if not beats(card, below.card))
    if not 0 < bluffs < total:
        return None
    blind = bluffs / total
    owner = table[-1].owner
    held = observation.hand_sizes[owner]
    value = below.card.value
    facts = [
        _HAND[sum(held > top for top in _HAND_TOPS)],
        _BELOW[min(4, (value - 1) // 10)],
        _CLIMB[min(3, len(table) - 2)],
        _BLIND[min(3, int(blind * 5))],
    ]
    if not observation.draw_pile_size:
        facts.append(_EMPTY)
    if any(entry.face_down and entry.owner == owner for entry in table[:-1]):
        facts.append(_HID_BEFORE)
    return Reading(blind, tuple(facts))


def _options(reading: Reading) -> tuple[tuple[float, tuple[int, ...]], ...]:
    """The choice the model makes: honest (the blind odds alone) or a bluff."""
    return ((math.log(1 - reading.blind), ()), (math.log(reading.blind), reading.facts))


@attrs.frozen
class BluffOdds:
    """The model for one table size: a weight per :data:`FEATURES`, and how many games and
    face-down cards it was fitted to."""

    players: int
    weights: tuple[float, ...]
    games: int
    cards: int

    def chance(self, reading: Reading) -> float:
        """The chance that the card read is a bluff."""
        honest, bluffing = (score(self.weights, option) for option in _options(reading))
        return 1 / (1 + math.exp(honest - bluffing))

    def to_dict(self) -> dict[str, Any]:
        """The model as plain JSON data."""
        return {
            "players": self.players,
            "games": self.games,
            "cards": self.cards,
            "weights": dict(zip(FEATURES, self.weights, strict=True)),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BluffOdds:
        """The model from :meth:`to_dict`'s data.

        Raises:
            ModelError: the data is not such a model.
        """
        try:
            weights = data["weights"]
            if list(weights) != list(FEATURES):
                raise ModelError(f"a bluff model has the weights of {', '.join(FEATURES)}")
            return cls(
                players=int(data["players"]),
                weights=tuple(float(weights[name]) for name in FEATURES),
                games=int(data["games"]),
                cards=int(data["cards"]),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise ModelError(f"not a bluff model: {error}") from None


@attrs.frozen
class BluffOddsModels(ModelFile[BluffOdds]):
    """Models for several table sizes, as saved in one file, with the seed they came from."""

    kind = "bluff models"

    @classmethod
    def read_model(cls, data: Mapping[str, Any]) -> BluffOdds:
        return BluffOdds.from_dict(data)

    def for_rules(self, rules: bluff.Rules) -> BluffOdds | None:
        """The model for these rules: fitted at their table size, under the standard rules
        otherwise (``None`` under any other rules)."""
        if rules != bluff.Rules(players=rules.players):
            return None
        return next((model for model in self.models if model.players == rules.players), None)


@cache
def shipped() -> BluffOddsModels:
    """The models that come with the library, for 2 to 6 players."""
    return BluffOddsModels.packaged("bluff_odds.json")


def examples(rules: bluff.Rules, rng: random.Random) -> Iterator[tuple[int, Example]]:
    """Labelled face-down cards from games the ``greedy`` strategy plays at every seat without
    end: at each answer to a face-down card, the model's choice and whether it was a bluff;
    with the number of the game they come from."""
    game = 0
    while True:
        state = bluff.new_game(rules, seed=rng.getrandbits(62))
        while not state.is_over:
            observation = state.observation(state.player)
            if state.phase is bluff.Phase.RESPONSE:
                reading = read(observation)
                if reading is not None:
                    yield game, (_options(reading), int(not is_honest(state)))
            state = state.apply(bluff_strategy.choose(observation))
        game += 1


def train(rules: bluff.Rules, *, seed: int, games: int) -> BluffOdds:
    """Fit the model for ``rules`` (the standard rules at some table size) to the face-down cards
    of ``games`` simulated games drawn from ``seed``.

    Raises:
        ValueError: no games to fit.
    """
    if games < 1:
        raise ValueError("a bluff model needs at least 1 game")
    rng = random.Random(f"thousand:bluff-odds:{seed}:{rules.players}")

    def labelled() -> Iterator[Example]:
        for game, example in examples(rules, rng):
            if game >= games:
                return
            yield example

    weights, cards = fit(labelled(), len(FEATURES))
    return BluffOdds(players=rules.players, weights=weights, games=games, cards=cards)
