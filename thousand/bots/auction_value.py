"""A learned estimate of what a raise is worth in the auction, which the search bots start from.

A bid decides a deal more than any card does, yet the search can afford only a few dozen sampled
deals for it. This model gives it a head start: for a seat that may pass or raise the bid one step
(and then bid no higher), it estimates how much better the raise does, in the search's own units
(the seat's deal score against the others' average, in hundreds of points). It reads a few
features of the hand and of the auction so far, and it is linear in them.

It is fitted by least squares to simulated deals: at each bid decision of a deal that the
``greedy`` strategy plays at every seat, both choices are played out to the end as the search
plays them out, and the difference is the label. Training is plain Python, so the same seed gives
the same model on any machine; the model shipped with the library covers every preset
(``thousand train-bidding`` regenerates it, see the bots guide).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from typing import Any

import attrs

from thousand.bots import thousand_strategy
from thousand.bots.model_file import ModelFile
from thousand.classic.actions import Bid, Pass
from thousand.classic.cards import ACES_MASK, mask_of
from thousand.classic.engine import new_deal
from thousand.classic.marriages import SUIT_MARRIAGES, marriages_value
from thousand.classic.observation import Observation
from thousand.classic.rules import Rules
from thousand.classic.state import Phase
from thousand.errors import ModelError, NoWorldError

__all__ = [
    "FEATURES",
    "AuctionValue",
    "AuctionValues",
    "features",
    "shipped",
    "train",
]

FEATURES = (
    "constant",
    "margin",
    "margin above -30",
    "margin above -15",
    "margin above 0",
    "margin above 15",
    "margin above 30",
    "bid above 100",
    "margin times bid above 100",
    "marriages held",
    "aces held",
    "passes so far",
    "bids so far",
)
"""What the model reads. The margin is the greedy hand evaluation before the talon less the bid,
in tens of points, with hinges where a linear fit would bend; the bid is in hundreds; marriages
in hundreds of points; aces in quarters; passes and others' bids (up to two and three) in shares."""


_HINGES = (-3.0, -1.5, 0.0, 1.5, 3.0)
_RIDGE = 1e-6
"""Keeps the least-squares fit well posed, as a share of the number of examples."""
_DIGITS = 6
"""Significant digits kept of each weight: enough for the estimate, and few enough that the file
does not depend on the last bit of a machine's arithmetic."""


def features(observation: Observation, amount: int) -> tuple[float, ...]:
    """The model's inputs for the observer's decision to bid ``amount`` or pass (see
    :data:`FEATURES`)."""
    rules = observation.rules
    hand = mask_of(observation.hand)
    margin = (thousand_strategy.bidding_estimate(rules, hand) - amount) / 10
    stakes = amount / 100 - 1
    marriages = marriages_value(SUIT_MARRIAGES, hand)
    passes = bids = 0
    for actor, action in observation.history:
        if isinstance(action, Pass):
            passes += 1
        elif isinstance(action, Bid) and actor != observation.seat:
            bids += 1
    return (
        1.0,
        margin,
        *(max(0.0, margin - hinge) for hinge in _HINGES),
        stakes,
        margin * stakes,
        marriages / 100,
        (hand & ACES_MASK).bit_count() / 4,
        min(passes, 2) / 2,
        min(bids, 3) / 3,
    )


@attrs.frozen
class AuctionValue:
    """The model for one set of rules: the weights of :data:`FEATURES`, and how many decisions
    of how many deals it was fitted to."""

    rules: Rules
    weights: tuple[float, ...]
    decisions: int
    worlds: float
    """How many sampled deals the estimate is worth to a search (the spread of a single playout's
    difference against the spread of the estimate's error)."""

    def advantage(self, observation: Observation, amount: int) -> float:
        """How much better bidding ``amount`` (and no higher) does than passing, in hundreds of
        points of the observer's deal score against the others' average."""
        return sum(
            weight * value
            for weight, value in zip(self.weights, features(observation, amount), strict=True)
        )

    def to_dict(self) -> dict[str, Any]:
        """The model as plain JSON data."""
        return {
            "rules": self.rules.to_dict(),
            "decisions": self.decisions,
            "worlds": self.worlds,
            "weights": dict(zip(FEATURES, self.weights, strict=True)),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AuctionValue:
        """The model from :meth:`to_dict`'s data.

        Raises:
            ModelError: the data is not such a model.
        """
        try:
            weights = data["weights"]
            if list(weights) != list(FEATURES):
                raise ModelError(f"a bidding model has the weights of {', '.join(FEATURES)}")
            return cls(
                rules=Rules.from_dict(data["rules"]),
                weights=tuple(float(weights[name]) for name in FEATURES),
                decisions=int(data["decisions"]),
                worlds=float(data["worlds"]),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise ModelError(f"not a bidding model: {error}") from None


@attrs.frozen
class AuctionValues(ModelFile[AuctionValue]):
    """Models for several sets of rules, as saved in one file, with the seed they came from."""

    kind = "bidding models"

    @classmethod
    def read_model(cls, data: Mapping[str, Any]) -> AuctionValue:
        return AuctionValue.from_dict(data)

    def for_rules(self, rules: Rules) -> AuctionValue | None:
        """The model fitted under exactly these rules, if any."""
        return next((model for model in self.models if model.rules == rules), None)


@cache
def shipped() -> AuctionValues:
    """The models that come with the library, one per preset."""
    return AuctionValues.packaged("auction_value.json")


Playouts = Callable[[Observation, Sequence[Any], random.Random], Sequence[float]]
"""Plays each choice out in one deal sampled for the observer, as the search that uses the model
does, and values each for the observer."""

WORLDS_PER_DECISION = 2
"""Sampled deals per training decision: two tell the spread of one playout from the spread of
the decisions' true advantages."""


Example = tuple[tuple[float, ...], tuple[float, ...]]
"""A decision's features and the raise's advantage over the pass in each sampled deal."""


def examples(rules: Rules, rng: random.Random, playouts: Playouts) -> Iterable[Example]:
    """Labelled bid decisions from deals dealt and played by the ``greedy`` strategy without end:
    at each decision where the seat may pass or raise, both are played out in
    :data:`WORLDS_PER_DECISION` sampled deals, each giving the raise's advantage."""
    while True:
        state = new_deal(rules, seed=rng.getrandbits(62), dealer=rng.randrange(rules.players))
        while state.phase is Phase.AUCTION:
            observation = state.observation(state.player)
            legal = observation.legal_actions
            raise_ = next((action for action in legal if isinstance(action, Bid)), None)
            if raise_ is not None and Pass() in legal:
                try:
                    labels = []
                    for _ in range(WORLDS_PER_DECISION):
                        raised, passed = playouts(observation, (raise_, Pass()), rng)
                        labels.append(raised - passed)
                except NoWorldError:
                    pass
                else:
                    yield features(observation, raise_.amount), tuple(labels)
            state = state.apply(thousand_strategy.choose(observation, rng))


def train(rules: Rules, *, seed: int, decisions: int, playouts: Playouts) -> AuctionValue:
    """Fit the model for ``rules`` to ``decisions`` simulated bid decisions drawn from ``seed``.

    Raises:
        ValueError: too few decisions to fit.
    """
    if decisions < 2 * len(FEATURES):
        raise ValueError(f"a bidding model needs at least {2 * len(FEATURES)} decisions")
    rng = random.Random(f"thousand:bidding:{seed}:{json.dumps(rules.to_dict(), sort_keys=True)}")
    size = len(FEATURES)
    gram = [[0.0] * size for _ in range(size)]
    moment = [0.0] * size
    fitted: list[tuple[tuple[float, ...], float]] = []
    spread = 0.0
    for row, labels in examples(rules, rng, playouts):
        mean = sum(labels) / len(labels)
        spread += sum((label - mean) ** 2 for label in labels) / (len(labels) - 1)
        for i, value in enumerate(row):
            moment[i] += value * mean
            line = gram[i]
            for j, other in enumerate(row):
                line[j] += value * other
        fitted.append((row, mean))
        if len(fitted) == decisions:
            break
    for i in range(size):
        gram[i][i] += _RIDGE * decisions
    weights = tuple(_round(weight) for weight in _solve(gram, moment))
    # The means' errors mix the estimate's own error with the playouts' spread around the truth.
    single = spread / decisions
    error = (
        sum(
            (mean - sum(w * v for w, v in zip(weights, row, strict=True))) ** 2
            for row, mean in fitted
        )
        / decisions
        - single / WORLDS_PER_DECISION
    )
    worlds = single / error if error > 0 else float(decisions)
    return AuctionValue(rules=rules, weights=weights, decisions=decisions, worlds=_round(worlds))


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``x`` with ``matrix @ x == vector``, by Gaussian elimination with partial pivoting."""
    size = len(vector)
    rows = [[*line, vector[i]] for i, line in enumerate(matrix)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda row: abs(rows[row][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        for row in range(size):
            if row != column:
                factor = rows[row][column] / rows[column][column]
                for k in range(column, size + 1):
                    rows[row][k] -= factor * rows[column][k]
    return [rows[i][size] / rows[i][i] for i in range(size)]


def _round(value: float) -> float:
    return float(f"{value:.{_DIGITS}g}")
