"""The sequential test: its bounds, its log-likelihood ratio, and its error rates on seeded
synthetic streams of group leads (hundreds of simulated tests)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest

from tournament.runner.sprt import (
    MIN_OBSERVATIONS,
    GroupLeads,
    Hypotheses,
    SequentialTest,
    SprtOutcome,
    Verdict,
    parse_hypotheses,
)
from tournament.runner.unit_results import UnitResult

CAP = 20_000
"""Observations a simulated test may take before it counts as inconclusive."""


def test_bounds_are_walds() -> None:
    hypotheses = Hypotheses(0, 10, alpha=0.05, beta=0.1)
    assert hypotheses.lower == pytest.approx(math.log(0.1 / 0.95))
    assert hypotheses.upper == pytest.approx(math.log(0.9 / 0.05))


def test_the_summary_gives_the_test_to_six_decimals() -> None:
    """``summary.json`` holds the hypotheses as given and the bounds and the ratio to six
    decimals, with the groups seen and the decision."""
    hypotheses = Hypotheses(0, 10, alpha=0.05, beta=0.1)
    assert SprtOutcome(hypotheses, Verdict(12, 1.23456789, None)).to_dict() == {
        "h0": 0,
        "h1": 10,
        "alpha": 0.05,
        "beta": 0.1,
        "lower": -2.251292,
        "upper": 2.890372,
        "llr": 1.234568,
        "groups": 12,
        "accepted": None,
    }


def test_log_likelihood_ratio_of_the_normal_model_with_the_sample_variance() -> None:
    values = [12.0, -3.0, 25.0, 7.0, 4.0]
    test = SequentialTest(Hypotheses(0, 10))
    for value in values:
        test.add(value)
    mean = sum(values) / len(values)
    variance = sum((value - mean) ** 2 for value in values) / (len(values) - 1)
    expected = (10 - 0) / variance * (sum(values) - len(values) * 5)
    assert test.llr() == pytest.approx(expected)
    assert test.verdict.observations == 5


def test_no_verdict_before_the_minimum_and_a_verdict_stays() -> None:
    test = SequentialTest(Hypotheses(0, 10))
    strong = [100.0 + (index % 3) for index in range(MIN_OBSERVATIONS + 5)]
    verdicts = [test.add(value) for value in strong]
    assert all(verdict.accepted is None for verdict in verdicts[: MIN_OBSERVATIONS - 1])
    assert verdicts[MIN_OBSERVATIONS - 1].accepted == "H1"
    settled = test.verdict
    assert test.add(-1000.0) == settled


def test_a_test_fed_in_two_parts_decides_as_one_fed_at_once() -> None:
    """A resumed tournament feeds the groups already played, then the new ones: the verdict and
    the group it comes at are those of a run that never stopped."""
    rng = random.Random(5)
    values = [rng.gauss(6, 50) for _ in range(3000)]
    whole = SequentialTest(Hypotheses(0, 10)).add_all(values)
    resumed = SequentialTest(Hypotheses(0, 10))
    resumed.add_all(values[:40])
    assert resumed.add_all(values[resumed.count :]) == whole
    assert whole.accepted is not None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("10", "two numbers"),
        ("a,b", "two numbers"),
        ("10,0", "H0 below H1"),
        ("5,5", "H0 below H1"),
    ],
)
def test_bad_hypotheses_are_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message) as raised:
        parse_hypotheses(text)
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize("alpha", [0.0, 0.5, -0.1, 1.2])
def test_error_rates_must_be_below_a_half(alpha: float) -> None:
    with pytest.raises(ValueError, match="--alpha"):
        Hypotheses(0, 10, alpha=alpha)


def normal(spread: float) -> Callable[[random.Random, float], float]:
    return lambda rng, mean: rng.gauss(mean, spread)


def thousand_like(rng: random.Random, mean: float) -> float:
    """A lumpy, skewed lead like a group of Thousand deals: mostly small differences in the
    defenders' points, now and then a contract made or failed by one side only."""
    lump = rng.choices((0.0, 120.0, -120.0, 240.0), weights=(70, 12, 12, 6))[0]
    return mean + rng.gauss(0, 25) + lump - 0.06 * 240


def outcomes(
    draw: Callable[[random.Random, float], float], mean: float, runs: int, seed: int
) -> dict[str | None, int]:
    """How many of ``runs`` seeded tests of H0 0 against H1 10 accepted each hypothesis."""
    rng = random.Random(seed)
    counts: dict[str | None, int] = {"H0": 0, "H1": 0, None: 0}
    for _ in range(runs):
        test = SequentialTest(Hypotheses(0, 10, alpha=0.05, beta=0.05))
        verdict = test.add_all(draw(rng, mean) for _ in range(CAP))
        counts[verdict.accepted] += 1
    return counts


@pytest.mark.parametrize(
    "draw", [normal(40), normal(80), thousand_like], ids=["sd40", "sd80", "lumpy"]
)
def test_error_rates_hold_on_synthetic_streams(
    draw: Callable[[random.Random, float], float],
) -> None:
    """Under H0 the test accepts H1 in about alpha of the runs at most, under H1 it accepts H0
    in about beta at most (300 seeded runs each; 0.05 allowed, 0.09 tolerated for the
    sampling error of 300 runs and the estimated variance)."""
    runs = 300
    under_h0 = outcomes(draw, 0.0, runs, seed=1)
    under_h1 = outcomes(draw, 10.0, runs, seed=2)
    assert under_h0["H1"] / runs <= 0.09, under_h0
    assert under_h1["H0"] / runs <= 0.09, under_h1
    assert under_h0[None] == under_h1[None] == 0
    # and it does decide the right way most of the time
    assert under_h0["H0"] / runs >= 0.9
    assert under_h1["H1"] / runs >= 0.9


def unit(
    group: int, seating: tuple[int, ...], scores: tuple[int, ...], table: int = 0
) -> UnitResult:
    seats = len(seating)
    return UnitResult(
        unit=f"t{table}-d{group}-{seating}",
        table=table,
        group=group,
        seating=seating,
        scores=scores,
        places=(1,) * seats,
        statuses=("ok",) * seats,
        faults=((0, 0, 0, 0),) * seats,
        contracts=(),
        decisions=(1,) * seats,
        think_time=(0.0,) * seats,
    )


def test_group_leads_average_the_new_bots_lead_over_a_whole_group_in_group_order() -> None:
    """Entrant 0 against the others: per group, its score minus the mean of the other seats,
    averaged over the group's seatings and tables; a group is given out once it is complete and
    every earlier one is; units without entrant 0 do not count; the order they come in does
    not, nor how they are split between readings."""
    results = [
        # group 0, table 0: leads 60 - (0 + 30) / 2 = 45 and 10 - (20 + 0) / 2 = 0
        unit(0, (0, 1, 2), (60, 0, 30)),
        unit(0, (1, 0, 2), (20, 10, 0)),
        # group 0, table 1: leads -15 and +30
        unit(0, (0, 3, 1), (-10, 10, 0), table=1),
        unit(0, (3, 1, 0), (0, 0, 30), table=1),
        # a table without entrant 0 is left out
        unit(0, (1, 2, 3), (90, -90, 0), table=2),
        # group 1 is one unit short: neither it nor group 2 is given out yet
        unit(1, (0, 1, 2), (5, 5, 5)),
        unit(1, (1, 0, 2), (5, 5, 5)),
        unit(1, (0, 3, 1), (5, 5, 5), table=1),
        unit(2, (0, 1, 2), (5, 5, 5)),
        unit(2, (1, 0, 2), (5, 5, 5)),
        unit(2, (0, 3, 1), (5, 5, 5), table=1),
        unit(2, (3, 1, 0), (5, 5, 5), table=1),
    ]
    first = [(45 + 0 - 15 + 30) / 4]
    assert GroupLeads(group_size=2, tables=2).add(results) == first
    assert GroupLeads(group_size=2, tables=2).add(reversed(results)) == first
    leads = GroupLeads(group_size=2, tables=2)
    assert leads.add(results[:3]) == []
    assert leads.add(results[3:]) == first
    assert leads.add([unit(1, (3, 1, 0), (0, 0, 12), table=1)]) == [12 / 4, 0.0]
    assert leads.add([]) == []


def test_hypotheses_read_from_the_command_line_have_five_percent_error_rates() -> None:
    """``--sprt 0,10`` tests H0 = 0 against H1 = 10 with both error rates 5%, unless given."""
    assert parse_hypotheses("0,10") == Hypotheses(0.0, 10.0, alpha=0.05, beta=0.05)
    assert parse_hypotheses("-5,2.5", beta=0.1) == Hypotheses(-5.0, 2.5, alpha=0.05, beta=0.1)


def test_a_test_fed_nothing_has_seen_no_group_and_decided_nothing() -> None:
    """A tournament that finished no group yet reports zero groups, a ratio of 0 and no
    decision."""
    test = SequentialTest(Hypotheses(0, 10))
    assert test.verdict == Verdict(0, 0.0, None)
    assert test.add_all([]) == Verdict(0, 0.0, None)


def test_identical_leads_carry_no_evidence_however_many() -> None:
    """Leads that never vary have no variance to weigh them by: the ratio stays 0 and the test
    never decides, rather than dividing by zero."""
    test = SequentialTest(Hypotheses(0, 10))
    verdicts = [test.add(0.3) for _ in range(2 * MIN_OBSERVATIONS)]
    assert verdicts == [Verdict(count, 0.0, None) for count in range(1, 2 * MIN_OBSERVATIONS + 1)]


def test_two_differing_leads_already_give_a_ratio_however_close() -> None:
    """From the second observation on, the ratio is ``(h1 - h0) / s² * (S - n * (h0 + h1) / 2)``
    even for a sample variance well below 1: leads 1 and 1.5 (s² = 0.125) under H0 5, H1 15
    give 10 / 0.125 * (2.5 - 20) = -1400; a single lead gives 0."""
    test = SequentialTest(Hypotheses(5, 15))
    assert test.add(1.0) == Verdict(1, 0.0, None)
    assert test.add(1.5) == Verdict(2, -1400.0, None)


@pytest.mark.parametrize(("last", "accepted"), [(4.0, "H1"), (-4.0, "H0")])
def test_a_ratio_exactly_on_a_bound_decides(last: float, accepted: str) -> None:
    """Wald's bounds are reached at equality: 15 level groups and a 16th 4 points away give a
    sample variance of 1 and a ratio of exactly 8 × d under H0 -d, H1 d, so with d an eighth of
    the bound the ratio lands on it and the test accepts that hypothesis."""
    bounds = Hypotheses(-1, 1)
    bound = bounds.upper if last > 0 else bounds.lower
    half_width = abs(bound) / 8
    hypotheses = Hypotheses(-half_width, half_width)
    test = SequentialTest(hypotheses)
    verdict = test.add_all([0.0] * (MIN_OBSERVATIONS - 1) + [last])
    assert verdict == Verdict(MIN_OBSERVATIONS, bound, accepted)
