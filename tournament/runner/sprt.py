"""Sequential testing: a sequential probability ratio test on a stream of observations (one per
duplicate group: the new bot's lead over the baseline in points per deal, or per game), which
stops as soon as the evidence settles which of two hypotheses about the mean lead holds.

The model is the normal one with the variance estimated as the test goes (a generalised SPRT):
after ``n`` observations with sum ``S`` and sample variance ``s²``, the log-likelihood ratio of
mean ``h1`` against mean ``h0`` is ``(h1 - h0) / s² * (S - n * (h0 + h1) / 2)``. Wald's bounds
``log(beta / (1 - alpha))`` and ``log((1 - beta) / alpha)`` accept H0 and H1. A duplicate
group plays one set of cards under every seating, so the luck of the cards cancels within it
and the groups are independent draws of the same distribution: what the test assumes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import attrs

from tournament.runner.unit_results import UnitResult

__all__ = [
    "GroupLeads",
    "Hypotheses",
    "SequentialTest",
    "SprtOutcome",
    "Verdict",
    "parse_hypotheses",
]

MIN_OBSERVATIONS = 16
"""No verdict before this many groups: the variance estimate of fewer is too unsteady."""


@attrs.frozen
class Hypotheses:
    """The two means the test decides between, and the error rates it is allowed."""

    h0: float
    """The lead under the null hypothesis (usually 0: the change made no difference)."""
    h1: float
    """The lead under the alternative (the smallest gain worth detecting)."""
    alpha: float = 0.05
    """The chance allowed of accepting H1 when H0 holds."""
    beta: float = 0.05
    """The chance allowed of accepting H0 when H1 holds."""

    def __attrs_post_init__(self) -> None:
        if not self.h0 < self.h1:
            raise ValueError(f"--sprt needs H0 below H1, not {self.h0:g},{self.h1:g}")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0 < value < 0.5:
                raise ValueError(f"--{name} must lie between 0 and 0.5, not {value:g}")

    def __str__(self) -> str:
        return f"{self.h0:g},{self.h1:g} (alpha {self.alpha:g}, beta {self.beta:g})"

    @property
    def lower(self) -> float:
        """The log-likelihood ratio at or below which H0 is accepted."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """The log-likelihood ratio at or above which H1 is accepted."""
        return math.log((1 - self.beta) / self.alpha)


def parse_hypotheses(text: str, alpha: float = 0.05, beta: float = 0.05) -> Hypotheses:
    """``H0,H1`` as given to ``--sprt`` (for example ``0,10``), with the error rates."""
    parts = text.split(",")
    try:
        h0, h1 = (float(part) for part in parts)
    except ValueError:
        raise ValueError(
            f"--sprt takes two numbers H0,H1 (points per deal or game), such as 0,10; not {text!r}"
        ) from None
    return Hypotheses(h0, h1, alpha, beta)


@attrs.frozen
class Verdict:
    """Where a test stands after some observations."""

    observations: int
    llr: float
    """The log-likelihood ratio of H1 against H0 so far."""
    accepted: str | None
    """``"H0"`` or ``"H1"`` once a bound is reached, else ``None`` (go on)."""


@attrs.frozen
class SprtOutcome:
    """A tournament's sequential test as it ended: what was tested and the verdict."""

    hypotheses: Hypotheses
    verdict: Verdict

    def to_dict(self) -> dict[str, Any]:
        """The test as JSON data: the hypotheses, the bounds, the ratio and the decision."""
        hypotheses = self.hypotheses
        return {
            **attrs.asdict(hypotheses),
            "lower": round(hypotheses.lower, 6),
            "upper": round(hypotheses.upper, 6),
            "llr": round(self.verdict.llr, 6),
            "groups": self.verdict.observations,
            "accepted": self.verdict.accepted,
        }


class SequentialTest:
    """A running SPRT: feed it one observation per group, in group order."""

    def __init__(self, hypotheses: Hypotheses) -> None:
        self.hypotheses = hypotheses
        self.count = 0
        self.mean = 0.0
        self.squares = 0.0
        """The sum of squared deviations from the mean (Welford's running form)."""
        self.verdict = Verdict(0, 0.0, None)
        """The verdict after the last observation; it stays once a bound is reached."""

    def add(self, value: float) -> Verdict:
        """Take the next group's observation and return the verdict after it (once a bound has
        been reached, later observations change nothing)."""
        if self.verdict.accepted is not None:
            return self.verdict
        self.count += 1
        delta = value - self.mean
        self.mean += delta / self.count
        self.squares += delta * (value - self.mean)
        llr = self.llr()
        accepted = None
        if self.count >= MIN_OBSERVATIONS:
            if llr >= self.hypotheses.upper:
                accepted = "H1"
            elif llr <= self.hypotheses.lower:
                accepted = "H0"
        self.verdict = Verdict(self.count, llr, accepted)
        return self.verdict

    def add_all(self, values: Iterable[float]) -> Verdict:
        """Take observations in order until a bound is reached; the verdict then."""
        for value in values:
            if self.add(value).accepted is not None:
                break
        return self.verdict

    def llr(self) -> float:
        """The log-likelihood ratio of H1 against H0 under the normal model with the sample
        variance (0 until there are two observations that differ)."""
        if self.count < 2 or self.squares <= 0:
            return 0.0
        variance = self.squares / (self.count - 1)
        h0, h1 = self.hypotheses.h0, self.hypotheses.h1
        return (h1 - h0) / variance * (self.count * self.mean - self.count * (h0 + h1) / 2)


class GroupLeads:
    """The observations of a test of entrant ``new`` against the others, gathered from finished
    units as they come: one per group number, in order, each once it and every group before it
    are complete.

    A group's observation is, averaged over the ``tables`` tables that seat ``new`` and over
    the group's ``group_size`` seatings, ``new``'s score minus the mean score of the other seats
    (points per deal in the deals format, per match or game in the games format). Groups are
    given out in order, so the test reads the same stream however the units were scheduled,
    played or resumed."""

    def __init__(self, *, group_size: int, tables: int, new: int = 0) -> None:
        self.complete = group_size * tables
        self.new = new
        self.next_group = 0
        self.sums: dict[int, float] = {}
        self.counts: dict[int, int] = {}

    def add(self, results: Iterable[UnitResult]) -> list[float]:
        """Take more finished units (each once); the observations they complete, in order."""
        for result in results:
            if self.new not in result.seating:
                continue
            seat = result.seating.index(self.new)
            others = [score for place, score in enumerate(result.scores) if place != seat]
            lead = result.scores[seat] - sum(others) / len(others)
            self.sums[result.group] = self.sums.get(result.group, 0.0) + lead
            self.counts[result.group] = self.counts.get(result.group, 0) + 1
        completed = []
        while self.counts.get(self.next_group) == self.complete:
            completed.append(self.sums.pop(self.next_group) / self.complete)
            del self.counts[self.next_group]
            self.next_group += 1
        return completed
