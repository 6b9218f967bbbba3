"""Tournament statistics: Plackett–Luce fits, the bootstrap and the tournament summary."""

from __future__ import annotations

import itertools
import json
import math
import random
import re
from collections.abc import Sequence

import attrs
import pytest

from tournament.runner.ratings import (
    GroupSums,
    bootstrap,
    elo,
    fit_choices,
    interval,
    plackett_luce,
)
from tournament.runner.summary import MIN_GROUPS, Summary, Tally, summarize
from tournament.runner.unit_results import STATUSES, UnitResult

# Helpers


def near(value: float) -> object:
    """Equal once rounded to the summary's 6 decimals."""
    return pytest.approx(value, abs=1e-6)


def sample_order(rng: random.Random, logs: Sequence[float], members: Sequence[int]) -> list[int]:
    """A finishing order of ``members`` drawn from the Plackett–Luce model with ``logs``."""
    left = list(members)
    order = []
    while left:
        chosen = rng.choices(left, weights=[math.exp(logs[entrant]) for entrant in left])[0]
        order.append(chosen)
        left.remove(chosen)
    return order


def strict(order: Sequence[int]) -> list[list[int]]:
    """A finishing order as a ranking of single-entrant groups."""
    return [[entrant] for entrant in order]


def unit(
    name: str,
    seating: Sequence[int],
    scores: Sequence[int],
    *,
    table: int = 0,
    group: int = 0,
    places: Sequence[int] | None = None,
    faults: Sequence[Sequence[int]] | None = None,
    contracts: Sequence[tuple[int, int, bool]] = (),
    think_time: float = 0.5,
) -> UnitResult:
    """A unit result; places follow the scores (higher is better) unless given."""
    seats = len(seating)
    if places is None:
        places = [1 + sum(other > score for other in scores) for score in scores]
    if faults is None:
        faults = [(0, 0, 0, 0)] * seats
    return UnitResult(
        unit=name,
        table=table,
        group=group,
        seating=tuple(seating),
        scores=tuple(scores),
        places=tuple(places),
        statuses=tuple(
            next((status for status, count in zip(STATUSES, counts, strict=True) if count), "ok")
            for counts in faults
        ),
        faults=tuple(tuple(counts) for counts in faults),
        contracts=tuple(contracts),
        decisions=(10,) * seats,
        think_time=(think_time,) * seats,
    )


def simulated(
    rng: random.Random, logs: Sequence[float], *, seats: int, groups: int, per_group: int
) -> list[UnitResult]:
    """A tournament of entrants with Plackett–Luce log-strengths ``logs``: each deal group is
    one table of ``seats`` entrants (cycling through every such table) playing ``per_group``
    units in rotated seatings; scores are 10 points per entrant beaten plus noise."""
    tables = list(itertools.combinations(range(len(logs)), seats))
    results = []
    for group in range(groups):
        table = tables[group % len(tables)]
        for number in range(per_group):
            seating = table[number % seats :] + table[: number % seats]
            order = sample_order(rng, logs, seating)
            scores = [
                10 * (seats - 1 - order.index(entrant)) + rng.randint(-3, 3) for entrant in seating
            ]
            places = [1 + order.index(entrant) for entrant in seating]
            results.append(
                unit(f"g{group:04d}-u{number}", seating, scores, group=group, places=places)
            )
    return results


# Plackett–Luce


@pytest.mark.slow
def test_fit_matches_choix_on_simulated_rankings() -> None:
    """On strict rankings from a seeded simulation, the MLE matches choix's (both centred)."""
    choix = pytest.importorskip("choix")
    rng = random.Random(20240601)
    logs = [0.9, 0.2, -0.4, 0.0, -0.7]
    orders = [sample_order(rng, logs, rng.sample(range(5), 3)) for _ in range(1500)]
    orders += [sample_order(rng, logs, rng.sample(range(5), 4)) for _ in range(500)]
    ours = plackett_luce([strict(order) for order in orders], 5, prior=0)
    for fit in (choix.ilsr_rankings, choix.mm_rankings):
        theirs = fit(5, orders, alpha=0.0, tol=1e-12, max_iter=100_000)
        theirs = [float(value) for value in theirs - theirs.mean()]
        assert ours == pytest.approx(theirs, abs=1e-6)
    assert math.fsum(ours) == pytest.approx(0, abs=1e-12)


def test_three_wins_in_four_give_a_strength_ratio_of_three() -> None:
    """A beating B 3 times of 4 gives log-strengths ±log(3)/2 without a prior."""
    rankings = [[[0], [1]]] * 3 + [[[1], [0]]]
    fitted = plackett_luce(rankings, 2, prior=0)
    assert fitted[0] - fitted[1] == pytest.approx(math.log(3), abs=1e-9)
    assert fitted == pytest.approx([math.log(3) / 2, -math.log(3) / 2], abs=1e-9)


@pytest.mark.parametrize("prior", [0.0, 1.0, 5.0])
def test_symmetric_data_give_equal_ratings(prior: float) -> None:
    """Every finishing order of three entrants once: all log-strengths 0."""
    rankings = [strict(order) for order in itertools.permutations(range(3))]
    assert plackett_luce(rankings, 3, prior=prior) == pytest.approx([0, 0, 0], abs=1e-9)


def test_prior_keeps_an_undefeated_entrant_finite() -> None:
    """A always beats B: no MLE, but finite MAP ratings that grow with the record."""
    gaps = []
    for games in (1, 10, 100):
        fitted = plackett_luce([[[0], [1]]] * games, 2, prior=1.0)
        assert all(math.isfinite(value) for value in fitted)
        gaps.append(fitted[0] - fitted[1])
    assert 0 < gaps[0] < gaps[1] < gaps[2] < 20
    with pytest.raises(ValueError, match="entrant 0 never loses"):
        plackett_luce([[[0], [1]]] * 10, 2, prior=0)


@pytest.mark.parametrize("prior", [1.0, 2.0])
def test_prior_is_virtual_games_against_a_strength_one_entrant(prior: float) -> None:
    """The prior equals adding, per entrant, ``prior`` wins and losses against an explicit
    entrant held at log-strength 0."""
    rng = random.Random(7)
    logs = [1.5, 0.0, -1.0]
    rankings = [strict(sample_order(rng, logs, [0, 1, 2])) for _ in range(12)]
    virtual = [
        ranking
        for entrant in range(3)
        for ranking in ([[entrant], [3]], [[3], [entrant]])
        for _ in range(int(prior))
    ]
    explicit = plackett_luce(rankings + virtual, 4, prior=0)
    anchored = [value - explicit[3] for value in explicit[:3]]
    mean = sum(anchored) / 3
    assert plackett_luce(rankings, 3, prior=prior) == pytest.approx(
        [value - mean for value in anchored], abs=1e-8
    )


def test_ties_count_as_wins_over_everything_below() -> None:
    """[[0, 1], [2]] fits like 0 and 1 each beating 2; a ranking that is one tied group adds
    nothing."""
    rng = random.Random(3)
    base = [strict(sample_order(rng, [0.5, 0.0, -0.5], [0, 1, 2])) for _ in range(30)]
    tied = base + [[[0, 1], [2]]] * 4 + [[[0, 1, 2]]] * 7
    pairs = base + [[[0], [2]], [[1], [2]]] * 4
    assert plackett_luce(tied, 3) == pytest.approx(plackett_luce(pairs, 3), abs=1e-9)
    # A tie for last: the winner is chosen from all three, the tied pair is not compared.
    tied_last = [*base, [[2], [0, 1]], [[2], [0, 1]], [[0], [1]], [[1], [0]]]
    strict_last = [*base, [[2], [0], [1]], [[2], [1], [0]]]
    assert plackett_luce(tied_last, 3) == pytest.approx(plackett_luce(strict_last, 3), abs=1e-9)


def test_fit_on_thousands_of_rankings() -> None:
    """20,000 rankings (aggregated into choices) fit to the strengths they were drawn from."""
    rng = random.Random(11)
    orders = [strict(sample_order(rng, [0.3, 0.0, -0.3], [0, 1, 2])) for _ in range(20_000)]
    fitted = plackett_luce(orders, 3, prior=0)
    assert fitted == pytest.approx([0.3, 0.0, -0.3], abs=0.05)


NO_MLE = "so the maximum likelihood ratings do not exist: use a prior > 0"


@pytest.mark.parametrize(
    ("rankings", "entrants", "prior", "message"),
    [
        ([[[0], [1]]], 3, 1.0, "entrant 2 is in no ranking, so it cannot be rated"),
        ([[[0], [1]], [[1], [0]]], 3, 0.0, "entrant 2 is in no ranking, so it cannot be rated"),
        (
            [[[0], [1], [2]], [[1], [0], [2]]],
            3,
            0.0,
            "entrant 2 never wins, so its maximum likelihood rating is -infinity: use a prior > 0",
        ),
        (
            [[[0], [1], [2]], [[0], [2], [1]]],
            3,
            0.0,
            "entrant 0 never loses, so its maximum likelihood rating is +infinity: use a prior > 0",
        ),
        (
            [[[0], [1]], [[1], [0]], [[2], [3]], [[3], [2]], [[0], [2]], [[1], [3]]],
            4,
            0.0,
            f"entrants [0, 1] never lose to entrants [2, 3], {NO_MLE}",
        ),
        (
            [[[0], [1]], [[1], [0]], [[2], [3]], [[3], [2]], [[2], [0]], [[3], [1]]],
            4,
            0.0,
            f"entrants [2, 3] never lose to entrants [0, 1], {NO_MLE}",
        ),
        ([[[0], [3]]], 3, 1.0, "ranking 0 names entrant 3, not 0..2"),
        ([[[0], [0]]], 2, 1.0, "ranking 0 names an entrant more than once: [[0], [0]]"),
        ([[[0], [1]]], 2, -1.0, "the prior must be a finite number ≥ 0, not -1.0"),
    ],
)
def test_fit_rejects_what_it_cannot_rate(
    rankings: list[list[list[int]]], entrants: int, prior: float, message: str
) -> None:
    """Clear errors for unrated entrants, missing MLEs and malformed rankings."""
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        plackett_luce(rankings, entrants, prior=prior)


def test_no_entrants_give_no_ratings_and_a_negative_count_is_refused() -> None:
    """Zero entrants fit to an empty list, with or without a prior; a negative number of
    entrants is refused naming it."""
    assert plackett_luce([], 0) == []
    assert plackett_luce([], 0, prior=0) == []
    message = "the number of entrants must not be negative, not -1"
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        plackett_luce([], -1)


@pytest.mark.parametrize("prior", [0.0, 1.0])
def test_a_lone_entrant_has_log_strength_zero(prior: float) -> None:
    """A single entrant has nothing to be compared with: its log-strength is the centre, 0."""
    assert plackett_luce([[[0]]], 1, prior=prior) == [0.0]


def test_the_default_prior_is_one_virtual_win_and_loss_per_entrant() -> None:
    """Without ``prior``, the fit is the MLE of the data plus one win and one loss per entrant
    against an explicit entrant held at log-strength 0 (the same as ``prior=1``)."""
    rankings = [[[0], [1], [2]], [[0], [2], [1]], [[1], [0], [2]]]
    virtual = [ranking for entrant in range(3) for ranking in ([[entrant], [3]], [[3], [entrant]])]
    explicit = plackett_luce(rankings + virtual, 4, prior=0)
    anchored = [value - explicit[3] for value in explicit[:3]]
    mean = sum(anchored) / 3
    expected = [value - mean for value in anchored]
    assert plackett_luce(rankings, 3) == pytest.approx(expected, abs=1e-8)
    assert plackett_luce(rankings, 3, prior=2.0) != pytest.approx(expected, abs=1e-8)


def test_a_two_entrant_mle_names_the_entrant_that_never_wins_first() -> None:
    """Two entrants where 1 always beats 0: without a prior the error names entrant 0 as never
    winning (the winless check comes before the unbeaten one)."""
    message = "entrant 0 never wins, so its maximum likelihood rating is -infinity: use a prior > 0"
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        plackett_luce([[[1], [0]]] * 3, 2, prior=0)


def test_a_missing_mle_names_the_top_tier_of_entrant_zero() -> None:
    """Three tiers, {0, 2} over {3} over {1, 4}, each entrant winning and losing: the MLE does
    not exist, and the error splits the entrants at the tier of entrant 0 (those that beat it
    through others stay with it)."""
    rankings = [[[0], [2]], [[2], [0]], [[1], [4]], [[4], [1]], [[0], [3]], [[3], [1]]]
    message = f"entrants [0, 2] never lose to entrants [1, 3, 4], {NO_MLE}"
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        plackett_luce(rankings, 5, prior=0)


def test_an_interval_of_one_value_is_that_value() -> None:
    """The 95% interval interpolates between ranks as NumPy does, and one value is its own
    interval."""
    assert interval([]) is None
    assert interval([5.0]) == (5.0, 5.0)
    assert interval([3.0, 1.0]) == pytest.approx((1.05, 2.95))
    assert interval([float(value) for value in range(41)]) == pytest.approx((1.0, 39.0))


def test_the_same_data_with_a_prior_fit_where_the_mle_does_not_exist() -> None:
    """The data that have no MLE above have a MAP estimate."""
    fitted = plackett_luce([[[0], [1], [2]], [[1], [0], [2]]], 3, prior=1.0)
    assert fitted[0] == pytest.approx(fitted[1])
    assert fitted[2] < fitted[0]


def test_elo_scale() -> None:
    """Centred on 1500, 400 points per factor of 10 in strength."""
    ratings = elo([math.log(10) + 7, 7.0])
    assert ratings == pytest.approx([1700, 1300])
    assert elo([]) == []


# Bootstrap


def test_bootstrap_percentiles_of_seeded_resamples() -> None:
    """The interval is the 2.5th and 97.5th percentiles (linear interpolation) of the
    statistic over resamples drawn by random.Random(seed).choices."""
    groups = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0]

    def mean(sample: list[float]) -> float:
        return sum(sample) / len(sample)

    rng = random.Random(42)
    values = sorted(
        mean([groups[i] for i in rng.choices(range(len(groups)), k=len(groups))])
        for _ in range(200)
    )
    low_position, high_position = 0.025 * 199, 0.975 * 199
    expected_low = values[4] + (values[5] - values[4]) * (low_position - 4)
    expected_high = values[194] + (values[195] - values[194]) * (high_position - 194)
    interval = bootstrap(groups, mean, resamples=200, seed=42)
    assert interval == pytest.approx((expected_low, expected_high), abs=1e-12)
    assert interval == bootstrap(groups, mean, resamples=200, seed=42)
    assert interval != bootstrap(groups, mean, resamples=200, seed=43)
    assert interval is not None
    assert interval[0] < mean(groups) < interval[1]


def test_bootstrap_edge_cases() -> None:
    """Constant data give a point interval; undefined statistics are skipped or give None."""
    assert bootstrap([2.0] * 5, lambda sample: sum(sample) / 5, resamples=50, seed=0) == (2, 2)
    assert bootstrap([1, 2], lambda sample: None, resamples=10, seed=0) is None
    some = bootstrap([0, 1], lambda sample: 1.0 if 1 in sample else None, resamples=50, seed=1)
    assert some == (1.0, 1.0)
    with pytest.raises(ValueError, match="resamples"):
        bootstrap([1], lambda sample: 0.0, resamples=0, seed=0)
    with pytest.raises(ValueError, match="no groups"):
        bootstrap([], lambda sample: 0.0, resamples=5, seed=0)


def test_one_resample_gives_a_point_interval_at_its_statistic() -> None:
    """A single resample is allowed: the interval is that resample's statistic at both ends."""
    groups = [3.0, 1.0, 4.0, 1.0, 5.0]

    def mean(sample: list[float]) -> float:
        return sum(sample) / len(sample)

    low, high = bootstrap(groups, mean, resamples=1, seed=9)
    assert low == high
    assert min(groups) <= low <= max(groups)


def test_bootstrap_errors_say_what_is_wrong() -> None:
    """No resamples and no groups are refused with full messages."""
    with pytest.raises(ValueError, match=f"^{re.escape('resamples must be at least 1, not 0')}$"):
        bootstrap([1], lambda sample: 0.0, resamples=0, seed=0)
    with pytest.raises(ValueError, match=f"^{re.escape('there are no groups to resample')}$"):
        bootstrap([], lambda sample: 0.0, resamples=5, seed=0)


@pytest.mark.slow
def test_rating_intervals_cover_the_true_ratings() -> None:
    """Over 40 simulated tournaments (4 entrants of known strength, 3 per table, 180 units
    each), the 95% rating intervals hold the true Elo ratings about 95% of the time."""
    logs = [0.6, 0.2, -0.2, -0.6]
    truth = elo(logs)
    rng = random.Random(2024)
    covered = total = 0
    for tournament in range(40):
        results = simulated(rng, logs, seats=3, groups=60, per_group=3)
        summary = summarize(results, list("abcd"), format="deals", seed=tournament, resamples=200)
        for standing in summary.standings:
            assert standing.rating_interval is not None
            low, high = standing.rating_interval
            covered += low <= truth[standing.entrant] <= high
            total += 1
    assert 0.85 <= covered / total <= 0.99


# Summary


def small_tournament() -> list[UnitResult]:
    """Three entrants on a table, plus a fourth who only meets entrant 0."""
    return [
        unit("a1", (0, 1, 2), (30, 10, -5), group=0, contracts=[(0, 120, True)]),
        unit("a2", (1, 2, 0), (20, 20, 0), group=0, contracts=[(0, 100, False)]),
        unit(
            "a3",
            (2, 0, 1),
            (60, -10, 5),
            group=0,
            contracts=[(1, 110, False), (1, 100, True)],
            faults=[(0, 0, 0, 0), (0, 2, 0, 0), (0, 0, 1, 0)],
        ),
        unit("b1", (0, 3), (5, 5), table=1, group=0, faults=[(0, 0, 0, 1), (0, 0, 0, 0)]),
        unit("b2", (3, 0), (40, 0), table=1, group=0),
    ]


NAMES = ["alpha", "beta", "gamma", "delta"]


def varied_tournament() -> list[UnitResult]:
    """The small tournament, with each table playing a second deal group whose scores run the
    other way: four groups, the fewest that give intervals."""
    again = [
        unit(
            f"{result.unit}-again", result.seating, result.scores[::-1], table=result.table, group=1
        )
        for result in small_tournament()
    ]
    return [*small_tournament(), *again]


def test_summary_counts() -> None:
    """Units, mean scores, shared wins, contracts and faults per entrant."""
    summary = summarize(small_tournament(), NAMES, format="deals", seed=1, resamples=50)
    standing = {standing.name: standing for standing in summary.standings}
    alpha, beta, gamma, delta = (standing[name] for name in NAMES)
    assert [s.units for s in (alpha, beta, gamma, delta)] == [5, 3, 3, 2]
    assert alpha.mean_score == near((30 + 0 - 10 + 5 + 0) / 5)
    assert beta.mean_score == near((10 + 20 + 5) / 3)
    assert delta.mean_score == near(45 / 2)
    # a2: beta and gamma share first place; b1: alpha and delta share first place.
    assert alpha.win_rate == near((1 + 0.5) / 5)
    assert beta.win_rate == near(0.5 / 3)
    assert gamma.win_rate == near((0.5 + 1) / 3)
    assert delta.win_rate == near((0.5 + 1) / 2)
    assert alpha.contracts == 3
    assert alpha.contract_success == near(2 / 3)
    assert alpha.average_contract == near(110)
    assert (beta.contracts, beta.contract_success, beta.average_contract) == (1, 0.0, 100.0)
    assert (gamma.contracts, gamma.contract_success, gamma.average_contract) == (0, None, None)
    assert dict(alpha.faults) == {"illegal": 2, "error": 0, "timeout": 1}
    assert dict(beta.faults) == {"illegal": 0, "error": 1, "timeout": 0}
    assert dict(delta.faults) == {"illegal": 0, "error": 0, "timeout": 0}
    assert (summary.units, summary.groups, summary.format) == (5, 2, "deals")


def test_crosstable() -> None:
    """Mean score differences per pair: antisymmetric, None where entrants never met."""
    summary = summarize(small_tournament(), NAMES, format="deals", seed=1, resamples=0)
    table = summary.crosstable
    assert table[0][1] == near(((30 - 10) + (0 - 20) + (-10 - 5)) / 3)
    assert table[0][3] == near(((5 - 5) + (0 - 40)) / 2)
    assert table[1][3] is None
    assert table[3][1] is None
    for a in range(4):
        assert table[a][a] is None
        for b in range(4):
            value = table[a][b]
            assert (value is None) == (table[b][a] is None)
            if value is not None:
                assert table[b][a] == -value


def test_ratings_follow_the_fit_of_the_finishing_orders() -> None:
    """The ratings are the Elo-scaled prior-1 fit of each unit's places as a ranking."""
    results = small_tournament()
    summary = summarize(results, NAMES, format="deals", seed=1, resamples=0)
    rankings = []
    for result in results:
        by_place: dict[int, list[int]] = {}
        for entrant, place in zip(result.seating, result.places, strict=True):
            by_place.setdefault(place, []).append(entrant)
        rankings.append([by_place[place] for place in sorted(by_place)])
    expected = elo(plackett_luce(rankings, 4, prior=1.0))
    for standing in summary.standings:
        assert standing.rating == pytest.approx(expected[standing.entrant], abs=1e-6)
        assert standing.rating_interval is None
        assert standing.score_interval is None
    ranked = [standing.entrant for standing in summary.standings]
    assert ranked == sorted(range(4), key=lambda entrant: -expected[entrant])
    assert [standing.rank for standing in summary.standings] == [1, 2, 3, 4]


def test_score_interval_is_the_bootstrap_over_deal_groups() -> None:
    """The mean score interval is bootstrap() over (table, group) groups with the same seed."""
    rng = random.Random(5)
    results = simulated(rng, [0.5, 0.0, -0.5], seats=3, groups=40, per_group=6)
    summary = summarize(results, NAMES[:3], format="deals", seed=9, resamples=300)
    groups: dict[tuple[int, int], list[UnitResult]] = {}
    for result in sorted(results, key=lambda result: result.unit):
        groups.setdefault((result.table, result.group), []).append(result)
    ordered = [groups[key] for key in sorted(groups)]
    for standing in summary.standings:

        def mean_score(sample: list[list[UnitResult]], entrant: int = standing.entrant) -> float:
            scores = [
                result.scores[result.seating.index(entrant)]
                for group in sample
                for result in group
                if entrant in result.seating
            ]
            return sum(scores) / len(scores)

        expected = bootstrap(ordered, mean_score, resamples=300, seed=9)
        assert expected is not None
        assert standing.score_interval == pytest.approx(expected, abs=1e-6)
        assert standing.mean_score is not None
        assert expected[0] < standing.mean_score < expected[1]
        assert standing.rating_interval is not None
        assert standing.rating is not None
        assert standing.rating_interval[0] < standing.rating < standing.rating_interval[1]


def test_rank_ties_go_to_mean_score_then_name() -> None:
    """Equal ratings rank by mean score, then by name."""
    results = [
        unit("u1", (0, 1, 2), (100, 0, 0), places=(1, 2, 2)),
        unit("u2", (0, 1, 2), (0, 10, 0), places=(2, 1, 2)),
        unit("u3", (0, 1, 2), (0, 0, 10), places=(2, 2, 1)),
    ]
    summary = summarize(results, ["zed", "bob", "amy"], format="games", seed=0, resamples=0)
    ratings = {standing.rating for standing in summary.standings}
    assert len(ratings) == 1
    # zed: mean 33.3; bob and amy: mean 3.3 each, so amy first by name.
    assert [standing.name for standing in summary.standings] == ["zed", "amy", "bob"]


def test_an_entrant_that_never_played_ranks_last_without_ratings() -> None:
    """An entrant with no units has no rating, score or rates and comes last."""
    results = [unit("u1", (0, 1), (10, 0)), unit("u2", (1, 0), (10, 0))]
    summary = summarize(results, ["a", "b", "c"], format="deals", seed=0, resamples=20)
    last = summary.standings[-1]
    assert (last.name, last.units, last.rating, last.rating_interval) == ("c", 0, None, None)
    assert (last.mean_score, last.win_rate, last.contract_success) == (None, None, None)
    assert summary.crosstable[2] == (None, None, None)
    assert [standing.rating for standing in summary.standings[:2]] == [1500.0, 1500.0]


def test_summary_ignores_input_order_and_think_time() -> None:
    """Shuffled results with other think times give the same summary, byte for byte."""
    rng = random.Random(8)
    results = simulated(rng, [0.4, 0.1, -0.1, -0.4], seats=3, groups=30, per_group=3)
    first = summarize(results, list("abcd"), format="deals", seed=3, resamples=100)
    shuffled = [
        UnitResult.from_dict({**result.to_dict(), "think_time": [9.9] * 3}) for result in results
    ]
    rng.shuffle(shuffled)
    second = summarize(shuffled, list("abcd"), format="deals", seed=3, resamples=100)
    assert first == second
    assert json.dumps(first.to_dict()) == json.dumps(second.to_dict())
    assert "think" not in json.dumps(first.to_dict())


def test_summary_json_is_deterministic_and_rounded() -> None:
    """Two runs give identical JSON; floats carry at most 6 decimals; no NaN."""
    results = small_tournament()
    texts = [
        json.dumps(
            summarize(results, NAMES, format="deals", seed=4, resamples=100).to_dict(),
            allow_nan=False,
        )
        for _ in range(2)
    ]
    assert texts[0] == texts[1]
    data = json.loads(texts[0])
    assert data["standings"][0]["rank"] == 1
    assert set(data["standings"][0]["faults"]) == {"illegal", "error", "timeout"}

    def floats(value: object) -> list[float]:
        if isinstance(value, float):
            return [value]
        if isinstance(value, dict):
            return [item for inner in value.values() for item in floats(inner)]
        if isinstance(value, list):
            return [item for inner in value for item in floats(inner)]
        return []

    assert floats(data)
    for value in floats(data):
        assert round(value, 6) == value


@pytest.mark.parametrize(
    ("results", "message"),
    [
        ([unit("u", (0, 1), (1, 0)), unit("u", (1, 0), (1, 0))], "more than once"),
        ([unit("u", (0, 5), (1, 0))], "seats entrant 5"),
        ([unit("u", (0, 0), (1, 0))], "seats an entrant more than once"),
        ([unit("u", (0, 1), (1, 0), contracts=[(2, 100, True)])], "contract"),
    ],
)
def test_summary_rejects_malformed_results(results: list[UnitResult], message: str) -> None:
    """Duplicate units and impossible seatings are errors."""
    with pytest.raises(ValueError, match=message):
        summarize(results, ["a", "b"], format="deals", seed=0)


def test_summary_rejects_unknown_formats() -> None:
    """Only deals and games."""
    with pytest.raises(ValueError, match="unknown format"):
        summarize([], ["a"], format="matches", seed=0)


@pytest.mark.slow
def test_summary_of_a_large_tournament() -> None:
    """3 entrants, 12,000 units in groups of 6 seatings, 1000 resamples: ranked in order."""
    rng = random.Random(1)
    results = []
    for group in range(2000):
        for number, seating in enumerate(itertools.permutations(range(3))):
            order = sample_order(rng, [0.4, 0.0, -0.4], seating)
            places = [1 + order.index(entrant) for entrant in seating]
            scores = [100 - 40 * place + rng.randint(-20, 20) for place in places]
            results.append(
                unit(f"d{group:04d}-s{number}", seating, scores, group=group, places=places)
            )
    summary = summarize(results, ["a", "b", "c"], format="deals", seed=0, resamples=1000)
    assert [standing.name for standing in summary.standings] == ["a", "b", "c"]


# Head to head: intervals of the crosstable


def lead_cover(interval: tuple[float, float] | None, value: float) -> bool:
    assert interval is not None
    return interval[0] <= value <= interval[1]


def test_crosstable_intervals_bracket_the_crosstable() -> None:
    """Every pair that met has an interval around its lead, the mirror image of the reverse
    pair's; the diagonal has none."""
    rng = random.Random(21)
    results = simulated(rng, [0.6, 0.2, -0.2, -0.6], seats=3, groups=40, per_group=3)
    summary = summarize(results, list("abcd"), format="deals", seed=2, resamples=200)
    table, intervals = summary.crosstable, summary.crosstable_intervals
    assert [len(row) for row in intervals] == [4, 4, 4, 4]
    for a in range(4):
        assert intervals[a][a] is None
        for b in range(4):
            if a == b:
                continue
            lead, interval = table[a][b], intervals[a][b]
            assert lead is not None
            assert interval is not None
            low, high = interval
            assert low < lead < high
            assert intervals[b][a] == (-high, -low)
    # The strongest entrant leads the weakest beyond the luck of the deals.
    low, high = intervals[0][3] or (0.0, 0.0)
    assert low > 0


def test_crosstable_intervals_are_the_bootstrap_of_each_pairs_lead() -> None:
    """The interval of a's lead over b is bootstrap() over the (table, group) deal groups, with
    the summary's seed, of a's mean score minus b's on the units both played; resamples where
    they never meet are left out."""
    rng = random.Random(6)
    results = simulated(rng, [0.5, 0.0, -0.2, -0.5], seats=3, groups=24, per_group=3)
    summary = summarize(results, list("abcd"), format="deals", seed=13, resamples=300)
    groups: dict[tuple[int, int], list[UnitResult]] = {}
    for result in sorted(results, key=lambda result: result.unit):
        groups.setdefault((result.table, result.group), []).append(result)
    ordered = [groups[key] for key in sorted(groups)]
    for a, b in itertools.permutations(range(4), 2):

        def lead(sample: list[list[UnitResult]], a: int = a, b: int = b) -> float | None:
            leads = [
                result.scores[result.seating.index(a)] - result.scores[result.seating.index(b)]
                for group in sample
                for result in group
                if a in result.seating and b in result.seating
            ]
            return sum(leads) / len(leads) if leads else None

        expected = bootstrap(ordered, lead, resamples=300, seed=13)
        assert expected is not None
        assert summary.crosstable_intervals[a][b] == pytest.approx(expected, abs=1e-6)


def test_crosstable_intervals_are_none_where_nothing_was_measured() -> None:
    """Pairs that never met, entrants that never played and a summary without resamples have
    no interval."""
    summary = summarize(varied_tournament(), NAMES, format="deals", seed=1, resamples=60)
    intervals = summary.crosstable_intervals
    assert intervals[1][3] is None
    assert intervals[3][1] is None
    for a, b in [(0, 1), (0, 2), (1, 2), (0, 3)]:
        assert intervals[a][b] is not None
        lead = summary.crosstable[a][b]
        assert lead is not None
        assert lead_cover(intervals[a][b], lead)
        assert lead_cover(intervals[b][a], -lead)
    unplayed = summarize(
        [unit("u1", (0, 1), (10, 0)), unit("u2", (1, 0), (0, 20))],
        ["a", "b", "c"],
        format="deals",
        seed=0,
        resamples=20,
    )
    assert unplayed.crosstable_intervals[2] == (None, None, None)
    assert [row[2] for row in unplayed.crosstable_intervals] == [None, None, None]
    # One deal group: every resample is that group, which measures no interval.
    assert unplayed.crosstable_intervals[0][1] is None
    assert unplayed.crosstable_intervals[1][0] is None
    bare = summarize(small_tournament(), NAMES, format="deals", seed=1, resamples=0)
    assert all(interval is None for row in bare.crosstable_intervals for interval in row)


@pytest.mark.slow
def test_identical_entrants_lead_each_other_by_nothing_most_of_the_time() -> None:
    """Three entrants of equal strength over 40 simulated tournaments: the 95% intervals of
    their leads hold 0 about 95% of the time; an entrant much stronger than two equal ones leads
    both beyond doubt."""
    rng = random.Random(31)
    covered = total = 0
    for tournament in range(40):
        results = simulated(rng, [0.0, 0.0, 0.0], seats=3, groups=30, per_group=3)
        summary = summarize(results, list("abc"), format="deals", seed=tournament, resamples=200)
        for a, b in itertools.combinations(range(3), 2):
            covered += lead_cover(summary.crosstable_intervals[a][b], 0.0)
            total += 1
    assert 0.85 <= covered / total < 1
    for tournament in range(5):
        results = simulated(rng, [1.5, 0.0, 0.0], seats=3, groups=30, per_group=3)
        summary = summarize(results, list("abc"), format="deals", seed=tournament, resamples=200)
        for other in (1, 2):
            low, high = summary.crosstable_intervals[0][other] or (0.0, 0.0)
            assert low > 0
            assert summary.crosstable_intervals[other][0] == (-high, -low)


def test_summary_json_has_the_crosstable_intervals() -> None:
    """JSON: [low, high] per pair, null on the diagonal and where entrants never met."""
    summary = summarize(varied_tournament(), NAMES, format="deals", seed=4, resamples=80)
    data = json.loads(json.dumps(summary.to_dict(), allow_nan=False))
    listed = data["crosstable_intervals"]
    assert len(listed) == 4
    for a, row in enumerate(listed):
        assert len(row) == 4
        for b, pair in enumerate(row):
            interval = summary.crosstable_intervals[a][b]
            assert pair == (None if interval is None else list(interval))
    assert listed[0][0] is None
    assert listed[1][3] is None
    assert listed[0][1] is not None


def head_to_head_rows(lines: list[str]) -> list[list[str]]:
    """The rows of the head-to-head table as [pair, lead, interval]."""
    start = next(number for number, line in enumerate(lines) if line.startswith("Head to head"))
    rows = []
    for line in lines[start + 3 :]:
        if not line.strip():
            break
        pair, lead, span = (cell.strip() for cell in line.split("  ") if cell.strip())
        rows.append([pair, lead, span])
    return rows


def test_standings_show_each_pair_once_with_its_interval() -> None:
    """Each pair that met appears once, the one that scored more first, with a lead inside its
    interval; a pair that never met does not appear."""
    from thousand import Rules
    from tournament.runner.display import standings_lines
    from tournament.runner.schedule import Config, entrants_of

    config = Config(
        game="thousand",
        rules=Rules.preset("russian").to_dict(),
        entrants=entrants_of(NAMES),
        players=3,
        format="deals",
        per_table=1,
        seed=1,
    )
    summary = summarize(varied_tournament(), NAMES, format="deals", seed=1, resamples=60)
    lines = standings_lines(config, summary)
    assert "Head to head, on the units both played:" in lines
    start = lines.index("Head to head, on the units both played:")
    assert lines[start + 2].split() == ["bots", "lead/deal", "95%", "interval"]
    rows = head_to_head_rows(lines)
    pairs = sorted(row[0] for row in rows)
    assert pairs == sorted(
        ["beta over alpha", "gamma over alpha", "gamma over beta", "alpha over delta"]
    )
    for pair, lead, span in rows:
        better, _, worse = pair.partition(" over ")
        a, b = NAMES.index(better), NAMES.index(worse)
        value = summary.crosstable[a][b]
        assert value is not None
        assert value >= 0
        assert lead == f"{value:+.1f}"
        interval = summary.crosstable_intervals[a][b]
        assert interval is not None
        assert span == f"{interval[0]:+.1f} to {interval[1]:+.1f}"
        assert interval[0] <= value <= interval[1]


def test_standings_head_to_head_edge_cases() -> None:
    """A tied pair appears once; without resamples the interval is '-'; entrants that never met
    give no table at all."""
    from thousand import Rules
    from tournament.runner.display import standings_lines
    from tournament.runner.schedule import Config, entrants_of

    config = Config(
        game="thousand",
        rules=Rules.preset("polish-2p").to_dict(),
        entrants=entrants_of(["a", "b", "c"]),
        players=2,
        format="deals",
        per_table=1,
        seed=1,
    )
    tied = [unit("u1", (0, 1), (10, 0)), unit("u2", (1, 0), (10, 0))]
    summary = summarize(tied, ["a", "b", "c"], format="deals", seed=0, resamples=0)
    assert head_to_head_rows(standings_lines(config, summary)) == [["a over b", "+0.0", "-"]]
    alone = [unit("u1", (0,), (10,))]
    summary = summarize(alone, ["a", "b", "c"], format="deals", seed=0, resamples=10)
    assert not any(line.startswith("Head to head") for line in standings_lines(config, summary))


def test_tournament_prints_the_head_to_head_table() -> None:
    """A small tournament through the command line ends with greedy's lead over random."""
    from typer.testing import CliRunner

    from tournament.cli import app

    result = CliRunner().invoke(
        app, ["tournament", "greedy", "random", "random", "--deals", "5", "--workers", "1"]
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "Head to head, on the units both played:" in lines
    rows = {row[0]: row for row in head_to_head_rows(lines)}
    assert len(rows) == 3
    assert "greedy over random" in rows
    _, lead, span = rows["greedy over random"]
    low, _, high = span.partition(" to ")
    assert float(low) <= float(lead) <= float(high)


def test_an_anchor_fixes_one_rating_and_moves_the_others_with_it() -> None:
    """--anchor shifts every rating by the amount that gives the anchor its rating; the others'
    intervals are measured from the anchor in each resample (so the anchor's own interval is a
    point), and the standings, scores and crosstable do not change."""
    plain = summarize(small_tournament(), NAMES, format="deals", seed=1, resamples=50)
    name = NAMES[1]
    pinned = summarize(
        small_tournament(), NAMES, format="deals", seed=1, resamples=50, anchor=((name, 1000.0),)
    )
    before = {standing.name: standing for standing in plain.standings}
    after = {standing.name: standing for standing in pinned.standings}
    assert after[name].rating == 1000.0
    assert after[name].rating_interval == (1000.0, 1000.0)
    shift = 1000.0 - before[name].rating
    for other in NAMES:
        assert after[other].rating == pytest.approx(before[other].rating + shift, abs=0.01)
        assert after[other].mean_score == before[other].mean_score
        assert after[other].rank == before[other].rank
    assert pinned.crosstable == plain.crosstable
    assert pinned.to_dict()["anchor"] == {name: 1000.0}
    assert "anchor" not in plain.to_dict()


def test_several_anchors_hold_their_mean_and_keep_the_differences() -> None:
    """Anchoring several entrants (the reference ladder) shifts every rating by one amount, the
    one that makes the anchored ratings average their given ones, in the fit and in every
    resample; the differences between ratings are the fit's."""
    plain = summarize(varied_tournament(), NAMES, format="deals", seed=1, resamples=50)
    anchor = ((NAMES[0], 1200.0), (NAMES[2], 1700.0))
    pinned = summarize(
        varied_tournament(), NAMES, format="deals", seed=1, resamples=50, anchor=anchor
    )
    before = {standing.name: standing for standing in plain.standings}
    after = {standing.name: standing for standing in pinned.standings}
    assert (after[NAMES[0]].rating + after[NAMES[2]].rating) / 2 == pytest.approx(1450, abs=0.01)
    shift = after[NAMES[0]].rating - before[NAMES[0]].rating
    assert shift != pytest.approx(0)
    for other in NAMES:
        assert after[other].rating == pytest.approx(before[other].rating + shift, abs=0.01)
    # Two anchors free each other: neither interval is a point any more.
    low, high = after[NAMES[0]].rating_interval
    assert low <= after[NAMES[0]].rating <= high
    assert low < high
    assert pinned.to_dict()["anchor"] == {NAMES[0]: 1200.0, NAMES[2]: 1700.0}


def test_an_anchor_must_name_an_entrant() -> None:
    with pytest.raises(ValueError, match="--anchor names 'nobody'"):
        summarize(small_tournament(), NAMES, format="deals", seed=1, anchor=(("nobody", 1500.0),))


@pytest.mark.parametrize("rating", [1e308, -1e308, math.inf, -math.inf, math.nan, 10_000.5, -2e4])
def test_an_absurd_anchored_rating_is_refused(rating: float) -> None:
    """An anchored rating that is not a number within ±10000 would make every rating equal (or
    NaN): it is refused in one line before anything is fitted."""
    with pytest.raises(ValueError, match="must be a number from -10000 to 10000") as raised:
        summarize(small_tournament(), NAMES, format="deals", seed=1, anchor=((NAMES[0], rating),))
    assert "\n" not in str(raised.value)


def test_the_anchored_range_ends_at_ten_thousand_either_way() -> None:
    """±10000 are kept, and a rating just beyond is refused."""
    for rating in (-10_000.0, 0.0, 10_000.0):
        anchor = ((NAMES[1], rating),)
        summary = summarize(
            varied_tournament(), NAMES, format="deals", seed=1, resamples=20, anchor=anchor
        )
        ratings = {standing.name: standing.rating for standing in summary.standings}
        assert ratings[NAMES[1]] == rating
        assert len(set(ratings.values())) == len(NAMES)
    for rating in (-10_000.001, 10_000.001):
        with pytest.raises(ValueError, match="must be a number from -10000 to 10000"):
            summarize(
                small_tournament(), NAMES, format="deals", seed=1, anchor=((NAMES[1], rating),)
            )


def all_intervals(summary: Summary) -> list[tuple[float, float] | None]:
    """Every interval of a summary: the standings', the seats' and the crosstable's."""
    found: list[tuple[float, float] | None] = []
    for standing in summary.standings:
        found += [standing.rating_interval, standing.score_interval, standing.next_seat_interval]
    found += [seat.advantage_interval for seat in summary.seats]
    found += [interval for row in summary.crosstable_intervals for interval in row]
    return found


def test_fewer_than_four_deal_groups_give_no_interval() -> None:
    """Resampling one, two or three groups draws a resample made of one group alone too often
    for a 95% interval: every interval is None (never a width of 0), and four groups give them."""
    varied = varied_tournament()
    for groups in ([(0, 0)], [(0, 0), (1, 0)], [(0, 0), (1, 0), (0, 1)]):
        results = [result for result in varied if (result.table, result.group) in groups]
        summary = summarize(results, NAMES, format="deals", seed=1, resamples=50)
        assert summary.groups == len(groups)
        assert all(interval is None for interval in all_intervals(summary))
        assert all(standing.rating is not None for standing in summary.standings if standing.units)
    summary = summarize(varied, NAMES, format="deals", seed=1, resamples=50)
    assert summary.groups == MIN_GROUPS == 4
    standing = {standing.name: standing for standing in summary.standings}
    assert standing[NAMES[0]].rating_interval is not None
    assert standing[NAMES[0]].score_interval is not None


def test_a_figure_every_resample_agrees_on_has_no_interval() -> None:
    """A bot that wins every deal of every group by the same score: every resample gives the
    same ratings and scores, so there is no interval to give, not one of width 0. With one bot
    anchored alone its rating is fixed, and its interval is that rating."""
    results = [
        unit(f"g{group}-{turn}", seating, scores, group=group)
        for group in range(6)
        for turn, (seating, scores) in enumerate([((0, 1), (10, 0)), ((1, 0), (0, 10))])
    ]
    summary = summarize(results, ["strong", "weak"], format="deals", seed=1, resamples=50)
    assert summary.groups == 6
    strong, weak = summary.standings
    assert strong.rating is not None
    assert weak.rating is not None
    assert strong.rating > weak.rating
    for standing in (strong, weak):
        assert standing.rating_interval is None
        assert standing.score_interval is None
    anchored = summarize(
        results, ["strong", "weak"], format="deals", seed=1, resamples=50, anchor=(("weak", 900.0),)
    )
    weak = next(standing for standing in anchored.standings if standing.name == "weak")
    assert weak.rating_interval == (900.0, 900.0)


def test_a_tally_brought_up_to_date_batch_by_batch_is_the_summary_of_all() -> None:
    """Units added to a tally a few at a time, in any order, give the summary of them all,
    byte for byte: also when a later batch brings a table larger than any before (the first
    batches here hold two-seat units only, the later ones three- and four-seat units)."""
    rng = random.Random(11)
    four = simulated(rng, [0.3, 0.1, -0.1, -0.3], seats=4, groups=6, per_group=4)
    four = [attrs.evolve(result, unit=f"f{result.unit}", table=7) for result in four]
    results = [*varied_tournament(), *four]
    whole = summarize(results, NAMES, format="deals", seed=5, resamples=60)
    for attempt in range(4):
        rng.shuffle(results)
        ordered = sorted(results, key=lambda result: len(result.seating)) if attempt else results
        tally = Tally(len(NAMES))
        start = 0
        while start < len(ordered):
            size = rng.randint(1, 5)
            tally.add(ordered[start : start + size])
            start += size
        assert tally.units == {result.unit for result in results}
        summary = tally.summary(NAMES, format="deals", seed=5, resamples=60)
        assert json.dumps(summary.to_dict()) == json.dumps(whole.to_dict())


def test_a_batch_with_a_bad_unit_adds_nothing_to_a_tally() -> None:
    results = varied_tournament()
    tally = Tally(len(NAMES))
    tally.add(results[:4])
    before = tally.summary(NAMES, format="deals", seed=1, resamples=20)
    with pytest.raises(ValueError, match="appears more than once"):
        tally.add([results[5], results[0]])
    with pytest.raises(ValueError, match="seats entrant 9"):
        tally.add([results[5], unit("z", (9, 0), (1, 2))])
    assert tally.units == {result.unit for result in results[:4]}
    assert tally.summary(NAMES, format="deals", seed=1, resamples=20) == before


def test_a_fit_that_does_not_converge_stops_and_says_so() -> None:
    """A fit given too few iterations to converge raises at once, naming the cause, instead of
    running on."""
    rankings = [[[0], [1], [2]], [[1], [0], [2]], [[2], [1], [0]], [[0], [2], [1]]]
    assert len(plackett_luce(rankings, 3, prior=0.5)) == 3
    with pytest.raises(RuntimeError, match="did not converge to 1e-10 in 1 iterations"):
        plackett_luce(rankings, 3, prior=0.5, max_iterations=1)


NEAR_PERFECT_CHAIN = (
    [[[0], [1]]] * 99
    + [[[1], [0]]]
    + [[[1], [2]]] * 99
    + [[[2], [1]]]
    + [[[2], [3]]] * 9
    + [[[3], [2]]]
)
"""0 beat 1 in 99 games of 100, 1 beat 2 as often, 2 beat 3 in 9 of 10: the MM steps alone take
about a thousand iterations to fit it."""


def test_a_fit_without_a_prior_converges_in_a_dozen_iterations_where_mm_alone_would_creep() -> None:
    """Fitted without a prior, the Newton steps (the last entrant held, since the likelihood
    ignores a common shift) reach the maximum likelihood within twelve iterations. Along a chain
    each log-ratio is the log of its record."""
    logs = plackett_luce(NEAR_PERFECT_CHAIN, 4, prior=0, max_iterations=12)
    gaps = [logs[0] - logs[1], logs[1] - logs[2], logs[2] - logs[3]]
    assert gaps == pytest.approx([math.log(99), math.log(99), math.log(9)], abs=1e-9)
    assert math.fsum(logs) == pytest.approx(0.0, abs=1e-12)


def test_a_fit_with_a_prior_converges_in_a_dozen_iterations() -> None:
    """With a prior every entrant's Newton step is taken; within twelve iterations the fit
    reaches the ratings it reaches when allowed its full two hundred."""
    quick = plackett_luce(NEAR_PERFECT_CHAIN, 4, prior=1, max_iterations=12)
    assert quick == pytest.approx(plackett_luce(NEAR_PERFECT_CHAIN, 4, prior=1), abs=1e-9)


def test_a_fit_where_the_newton_step_has_no_solution_takes_the_mm_step() -> None:
    """Two pairs that never meet, fitted without a prior: no Newton step exists (the gap
    between the pairs is free), so each iteration takes the MM step, which rates each pair
    within itself: 3 wins to 1, and 2 to 2."""
    logs = fit_choices([3.0, 1.0, 2.0, 2.0], [((0, 1), 4.0), ((2, 3), 4.0)], prior=0.0)
    assert logs[0] - logs[1] == pytest.approx(math.log(3), abs=1e-9)
    assert logs[2] == pytest.approx(logs[3], abs=1e-9)
    assert math.fsum(logs) == pytest.approx(0.0, abs=1e-12)


def test_group_sums_add_each_total_over_a_draw_and_refuse_groups_of_other_lengths() -> None:
    """Each total is summed over the groups drawn, a group counting as often as it is drawn,
    negative totals included; groups that do not hold as many totals each are refused."""
    sums = GroupSums([[3, -2, 0], [5, 7, -1], [0, 0, 4]])
    assert sums.sums([0, 2, 2]) == [3, -2, 8]
    assert sums.sums([1, 1, 0]) == [13, 12, -2]
    assert sums.sums([]) == [0, 0, 0]
    with pytest.raises(ValueError, match=r"shorter|longer"):
        GroupSums([[1, 2], [3]])
