"""Fitting a model of a choice among a few options, each option scored by an offset plus the
weights of the yes-or-no facts that hold for it (a conditional logit), to labelled examples.

Both learned readings of the hidden cards are such models: where an unseen card lies among the
places it may be (:mod:`thousand.bots.card_places`) and whether a face-down card of 1000? is a
bluff (:mod:`thousand.bots.bluff_odds`). The weights follow the gradient of the log-likelihood
of the true options, one example at a time (AdaGrad, one pass): plain Python, so the same
examples give the same weights on any machine.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

__all__ = ["Example", "Option", "fit", "score"]

Option = tuple[float, tuple[int, ...]]
"""An option: its offset (the log of its chance before the facts are weighed) and the indices
of the facts that hold for it."""
Example = tuple[tuple[Option, ...], int]
"""The options of one choice and which of them is true."""

STEP = 0.1
"""AdaGrad's step size."""
DIGITS = 6
"""Significant digits kept of each weight: enough for the model, and few enough that a file
does not depend on the last bit of a machine's arithmetic."""


def score(weights: Sequence[float], option: Option) -> float:
    """An option's score: its offset plus its facts' weights."""
    offset, facts = option
    return offset + sum(weights[index] for index in facts)


def fit(examples: Iterable[Example], size: int) -> tuple[tuple[float, ...], int]:
    """The weights of ``size`` facts fitted to ``examples``, and how many examples there were."""
    weights = [0.0] * size
    squares = [0.0] * size
    count = 0
    for options, truth in examples:
        scores = [score(weights, option) for option in options]
        top = max(scores)
        chances = [math.exp(value - top) for value in scores]
        total = sum(chances)
        for place, (_, facts) in enumerate(options):
            gradient = (place == truth) - chances[place] / total
            if not gradient:
                continue
            for index in facts:
                squares[index] += gradient * gradient
                weights[index] += STEP * gradient / math.sqrt(squares[index])
        count += 1
    return tuple(float(f"{weight:.{DIGITS}g}") for weight in weights), count
