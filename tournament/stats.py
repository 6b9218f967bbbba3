"""Tournament statistics: Plackett–Luce ratings from finishing orders, bootstrap intervals over
deal groups, and the standings and crosstable that summarise a tournament's results.

Ties in a ranking count as follows: each member of a tied group is chosen from the set made of
itself and every entrant ranked below the group, leaving out its tied partners. A strict ranking
thus gives the usual Plackett–Luce choices, a tie gives each tied entrant the win over everything
below it and no comparison with its partners, and a group ranked last (or a ranking with a single
group) adds nothing.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from fractions import Fraction
from itertools import pairwise, repeat, starmap
from typing import Any, TypeVar

import attrs

from tournament.results import STATUSES, UnitResult

__all__ = [
    "FORMATS",
    "SeatEffect",
    "Standing",
    "Summary",
    "bootstrap",
    "elo",
    "plackett_luce",
    "summarize",
]

T = TypeVar("T")

FORMATS = ("deals", "games")
"""The tournament formats :func:`summarize` accepts."""

FAULT_STATUSES = STATUSES[1:]
"""The statuses counted as faults in the standings (every status but ``ok``)."""

ELO_CENTRE = 1500.0
ELO_FACTOR = 400 / math.log(10)
DIGITS = 6
"""Decimals kept in a summary, so that identical results give identical JSON."""
SUMMARY_PRIOR = 1.0
"""The prior :func:`summarize` rates with: one virtual win and loss per entrant."""

_ChoiceSet = tuple[int, ...]
_Key = tuple[str, "int | _ChoiceSet"]
"""A deal-group total: ``("set", choice set)``; ``("win" | "units" | "score", entrant)``;
``("met" | "lead", (a, b))`` for two entrants at the same table (``a < b``): the units they
played together and the sum of ``a``'s score less ``b``'s; ``("seated" | "seat", seat)``: the
units with that seat and the sum of its score less the mean of its unit; ``("followed" |
"next", entrant)``: the units with a seat after it and another seat besides, and the sum of the
next seat's score less the mean of the other seats (each sum times its :class:`_Scale`)."""


# Plackett–Luce


def plackett_luce(
    rankings: Iterable[Sequence[Sequence[int]]],
    entrants: int,
    *,
    prior: float = 1.0,
    tolerance: float = 1e-10,
    max_iterations: int = 10_000,
) -> list[float]:
    """Plackett–Luce log-strengths of entrants ``0 .. entrants - 1`` fitted by Hunter's MM
    algorithm (sped up by Newton steps) to rankings given as tied groups, best first (ties as in
    the module docstring).

    ``prior`` gives every entrant that many virtual wins and losses against a virtual entrant of
    log-strength 0, so that undefeated and winless entrants stay finite; 0 gives the maximum
    likelihood estimate. The log-strengths are shifted to average 0. Raises ``ValueError`` when
    an entrant is in no ranking, or when ``prior`` is 0 and the maximum likelihood estimate does
    not exist; ``RuntimeError`` when ``max_iterations`` do not reach ``tolerance`` (the largest
    change of a log-strength in one iteration).
    """
    if entrants < 0:
        raise ValueError(f"the number of entrants must not be negative, not {entrants}")
    if prior < 0 or not math.isfinite(prior):
        raise ValueError(f"the prior must be a finite number ≥ 0, not {prior}")
    events: Counter[tuple[_ChoiceSet, int]] = Counter()
    seen = [False] * entrants
    for number, ranking in enumerate(rankings):
        members = [entrant for group in ranking for entrant in group]
        for entrant in members:
            if not 0 <= entrant < entrants:
                raise ValueError(f"ranking {number} names entrant {entrant}, not 0..{entrants - 1}")
            seen[entrant] = True
        if len(set(members)) != len(members):
            raise ValueError(f"ranking {number} names an entrant more than once: {ranking!r}")
        events.update(_choice_events(ranking))
    missing = [entrant for entrant in range(entrants) if not seen[entrant]]
    if missing:
        raise ValueError(f"entrant {missing[0]} is in no ranking, so it cannot be rated")
    if entrants == 1:
        return [0.0]
    if prior == 0:
        _check_mle_exists(entrants, events)
    wins, sets = _aggregate(entrants, events)
    return _centred(_fit(wins, sets, prior, tolerance, max_iterations))


def elo(log_strengths: Sequence[float]) -> list[float]:
    """Log-strengths on an Elo-like scale: centred on 1500, 400 points for a strength ratio of
    10, so that rating differences read like chess ratings."""
    if not log_strengths:
        return []
    mean = math.fsum(log_strengths) / len(log_strengths)
    return [ELO_CENTRE + ELO_FACTOR * (value - mean) for value in log_strengths]


def _choice_events(ranking: Sequence[Sequence[int]]) -> Iterator[tuple[_ChoiceSet, int]]:
    """The choices a ranking stands for, as (choice set, chosen entrant)."""
    below: list[int] = []
    for group in reversed(ranking):
        if below:
            for entrant in group:
                yield tuple(sorted([entrant, *below])), entrant
        below.extend(group)


def _aggregate(
    entrants: int, events: Counter[tuple[_ChoiceSet, int]]
) -> tuple[list[float], list[tuple[_ChoiceSet, float]]]:
    """What the MM algorithm needs from the choices: how often each entrant was chosen, and how
    often each choice set came up (in a fixed order, so that fits are reproducible)."""
    wins = [0.0] * entrants
    sets: Counter[_ChoiceSet] = Counter()
    for (choice_set, chosen), count in events.items():
        wins[chosen] += count
        sets[choice_set] += count
    return wins, [(choice_set, float(sets[choice_set])) for choice_set in sorted(sets)]


def _check_mle_exists(entrants: int, events: Counter[tuple[_ChoiceSet, int]]) -> None:
    """Raise ``ValueError`` unless every entrant beats, directly or through others, every other
    entrant: the condition for the maximum likelihood estimate to exist (Hunter 2004)."""
    beaten: list[set[int]] = [set() for _ in range(entrants)]
    beaten_by: list[set[int]] = [set() for _ in range(entrants)]
    for choice_set, chosen in events:
        for other in choice_set:
            if other != chosen:
                beaten[chosen].add(other)
                beaten_by[other].add(chosen)
    for entrant in range(entrants):
        if entrants > 1 and not beaten[entrant]:
            raise ValueError(
                f"entrant {entrant} never wins, so its maximum likelihood rating is -infinity: "
                "use a prior > 0"
            )
        if entrants > 1 and not beaten_by[entrant]:
            raise ValueError(
                f"entrant {entrant} never loses, so its maximum likelihood rating is +infinity: "
                "use a prior > 0"
            )
    for graph in (beaten, beaten_by):
        reached = _reachable(graph, 0) if entrants else set()
        if len(reached) < entrants:
            rest = sorted(set(range(entrants)) - reached)
            top, bottom = (rest, sorted(reached)) if graph is beaten else (sorted(reached), rest)
            raise ValueError(
                f"entrants {top} never lose to entrants {bottom}, so the maximum likelihood "
                "ratings do not exist: use a prior > 0"
            )


def _reachable(graph: Sequence[set[int]], start: int) -> set[int]:
    reached = {start}
    frontier = [start]
    while frontier:
        for neighbour in graph[frontier.pop()]:
            if neighbour not in reached:
                reached.add(neighbour)
                frontier.append(neighbour)
    return reached


def _fit(
    wins: Sequence[float],
    sets: Sequence[tuple[_ChoiceSet, float]],
    prior: float,
    tolerance: float = 1e-10,
    max_iterations: int = 10_000,
    start: Sequence[float] | None = None,
) -> list[float]:
    """Hunter's MM iteration for aggregated choices; the log-strengths it returns are anchored
    by the virtual entrant (log-strength 0) when ``prior`` > 0 and centred otherwise.

    Plain MM creeps along directions the data barely pin down (near-perfect records, groups of
    entrants that seldom meet), so each iteration also tries a Newton step and keeps it when it
    climbs higher than the MM step: every step still climbs, and convergence becomes quadratic.
    """
    entrants = len(wins)
    containing: list[list[int]] = [[] for _ in range(entrants)]
    for index, (choice_set, _) in enumerate(sets):
        for entrant in choice_set:
            containing[entrant].append(index)
    logs = list(start) if start is not None else [0.0] * entrants
    numerators = [count + prior for count in wins]
    virtual = 2 * prior
    for _ in range(max_iterations):
        strengths = [math.exp(value) for value in logs]
        totals = [sum([strengths[entrant] for entrant in choice_set]) for choice_set, _ in sets]
        ratios = [count / total for (_, count), total in zip(sets, totals, strict=True)]
        new_logs = [
            math.log(
                numerators[entrant]
                / (
                    sum([ratios[index] for index in containing[entrant]])
                    + virtual / (strengths[entrant] + 1)
                )
            )
            for entrant in range(entrants)
        ]
        newton = _newton_step(wins, sets, prior, logs, strengths, ratios)
        if newton is not None and _objective(wins, sets, prior, newton) >= _objective(
            wins, sets, prior, new_logs
        ):
            new_logs = newton
        if prior == 0:
            new_logs = _centred(new_logs)
        change = max((abs(new - old) for new, old in zip(new_logs, logs, strict=True)), default=0.0)
        logs = new_logs
        if change < tolerance:
            return logs
    raise RuntimeError(
        f"the Plackett–Luce fit did not converge to {tolerance} in {max_iterations} iterations"
    )


def _objective(
    wins: Sequence[float],
    sets: Sequence[tuple[_ChoiceSet, float]],
    prior: float,
    logs: Sequence[float],
) -> float:
    """The log-likelihood of the choices, plus that of the prior's virtual games."""
    value = math.fsum(count * log for count, log in zip(wins, logs, strict=True))
    value -= math.fsum(
        count * _log_sum_exp([logs[entrant] for entrant in choice_set])
        for choice_set, count in sets
    )
    if prior:
        value += prior * math.fsum(log - 2 * _log_sum_exp([log, 0.0]) for log in logs)
    return value


def _log_sum_exp(values: Sequence[float]) -> float:
    """``log(Σ exp(value))`` without overflow."""
    top = max(values)
    return top + math.log(math.fsum(math.exp(value - top) for value in values))


def _newton_step(
    wins: Sequence[float],
    sets: Sequence[tuple[_ChoiceSet, float]],
    prior: float,
    logs: Sequence[float],
    strengths: Sequence[float],
    ratios: Sequence[float],
) -> list[float] | None:
    """The Newton step for :func:`_objective` from ``logs`` (with the last log-strength held
    when there is no prior, since the likelihood ignores a common shift), or None when the
    Hessian is singular."""
    entrants = len(wins)
    gradient = [float(count) for count in wins]
    hessian = [[0.0] * entrants for _ in range(entrants)]
    for (choice_set, count), ratio in zip(sets, ratios, strict=True):
        inverse_total = ratio / count
        for first in choice_set:
            share = strengths[first] * ratio  # count × probability of choosing ``first``
            gradient[first] -= share
            hessian[first][first] -= share
            for second in choice_set:
                hessian[first][second] += share * strengths[second] * inverse_total
    if prior:
        for entrant, log in enumerate(logs):
            chance = 1 / (1 + math.exp(-log))
            gradient[entrant] += prior * (1 - 2 * chance)
            hessian[entrant][entrant] -= 2 * prior * chance * (1 - chance)
    free = entrants if prior else entrants - 1
    step = _solve([row[:free] for row in hessian[:free]], [-value for value in gradient[:free]])
    if step is None or not all(math.isfinite(value) for value in step):
        return None
    return [log + (step[entrant] if entrant < free else 0.0) for entrant, log in enumerate(logs)]


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float] | None:
    """``x`` with ``matrix x = vector`` by Gaussian elimination with partial pivoting, or None
    when the matrix is singular."""
    size = len(vector)
    rows = [[*row, value] for row, value in zip(matrix, vector, strict=True)]
    scale = max((abs(value) for row in matrix for value in row), default=0.0)
    for column in range(size):
        pivot = max(range(column, size), key=lambda row: abs(rows[row][column]))
        if abs(rows[pivot][column]) <= 1e-12 * scale:
            return None
        rows[column], rows[pivot] = rows[pivot], rows[column]
        for row in range(column + 1, size):
            factor = rows[row][column] / rows[column][column]
            if factor:
                for index in range(column, size + 1):
                    rows[row][index] -= factor * rows[column][index]
    solution = [0.0] * size
    for row in reversed(range(size)):
        known = sum(rows[row][index] * solution[index] for index in range(row + 1, size))
        solution[row] = (rows[row][size] - known) / rows[row][row]
    return solution


def _centred(values: Sequence[float]) -> list[float]:
    if not values:
        return []
    mean = math.fsum(values) / len(values)
    return [value - mean for value in values]


# Bootstrap


def bootstrap(
    groups: Sequence[T],
    statistic: Callable[[list[T]], float | None],
    *,
    resamples: int,
    seed: int,
) -> tuple[float, float] | None:
    """The 2.5th and 97.5th percentiles of ``statistic`` over ``resamples`` resamples of
    ``groups`` drawn with replacement by ``random.Random(seed)``: a 95% interval that respects
    whatever the items of a group share. Resamples where the statistic is None (undefined) are
    left out; None when it is undefined in all of them."""
    if resamples < 1:
        raise ValueError(f"resamples must be at least 1, not {resamples}")
    if not groups:
        raise ValueError("there are no groups to resample")
    values: list[float] = []
    for draw in _draws(len(groups), resamples, seed):
        value = statistic([groups[index] for index in draw])
        if value is not None:
            values.append(value)
    return _interval(values)


def _draws(count: int, resamples: int, seed: int) -> Iterator[list[int]]:
    """The indices of each resample; :func:`bootstrap` and :func:`summarize` share them."""
    rng = random.Random(seed)
    scale = float(count)
    for _ in range(resamples):
        # rng.choices(range(count), k=count), computed in C: floor(random() * count) each
        yield list(map(int, map(scale.__mul__, starmap(rng.random, repeat((), count)))))


def _interval(values: list[float]) -> tuple[float, float] | None:
    if not values:
        return None
    values = sorted(values)
    return _percentile(values, 0.025), _percentile(values, 0.975)


def _percentile(ordered: Sequence[float], fraction: float) -> float:
    """Linear interpolation between the closest ranks (NumPy's default)."""
    position = fraction * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


# Summary


@attrs.frozen
class Standing:
    """How one entrant did over a tournament."""

    rank: int
    """1 for the best rating; ties go to the better mean score, then to the name."""
    entrant: int
    name: str
    units: int
    """Units (deals or games) played."""
    rating: float | None
    """Plackett–Luce rating on the Elo scale (mean 1500 over the entrants that played), fitted
    with prior 1 to the finishing order of every unit; None when it played no unit."""
    rating_interval: tuple[float, float] | None
    """95% bootstrap interval of the rating, resampling deal groups."""
    mean_score: float | None
    """Mean score per unit played."""
    score_interval: tuple[float, float] | None
    """95% bootstrap interval of the mean score, resampling deal groups."""
    win_rate: float | None
    """Share of units won; a shared first place counts as 1 / number of winners."""
    contracts: int
    """Contracts played as declarer (Thousand)."""
    contract_success: float | None
    """Share of its contracts it made; None when it never declared."""
    average_contract: float | None
    """Mean contract it declared; None when it never declared."""
    faults: tuple[tuple[str, int], ...]
    """Faults by status (``illegal``, ``error``, ``timeout``)."""
    next_seat: float | None = None
    """How the entrant in the seat after this one scored, per unit, against the mean of the
    other entrants at the table (not counting this one); None at tables of two."""
    next_seat_interval: tuple[float, float] | None = None
    """95% bootstrap interval of :attr:`next_seat`, resampling deal groups."""

    def to_dict(self) -> dict[str, Any]:
        """The standing as JSON data."""
        return {
            "rank": self.rank,
            "entrant": self.entrant,
            "name": self.name,
            "units": self.units,
            "rating": self.rating,
            "rating_interval": _listed(self.rating_interval),
            "mean_score": self.mean_score,
            "score_interval": _listed(self.score_interval),
            "win_rate": self.win_rate,
            "contracts": self.contracts,
            "contract_success": self.contract_success,
            "average_contract": self.average_contract,
            "faults": dict(self.faults),
            "next_seat": self.next_seat,
            "next_seat_interval": _listed(self.next_seat_interval),
        }


@attrs.frozen
class SeatEffect:
    """How much one seat position is worth, from the same results: with every entrant in every
    seat equally often, what remains between the seats is the position itself."""

    seat: int
    """0 deals (first, in a whole match or game); the play goes on to seat 1, 2..."""
    units: int
    advantage: float | None
    """The seat's mean score per unit less the mean score of all the seats of the unit."""
    advantage_interval: tuple[float, float] | None
    """95% bootstrap interval of :attr:`advantage`, resampling deal groups."""
    win_rate: float | None
    """Share of units the seat won; a shared first place counts as 1 / number of winners."""

    def to_dict(self) -> dict[str, Any]:
        """The seat's figures as JSON data."""
        return {
            "seat": self.seat,
            "units": self.units,
            "advantage": self.advantage,
            "advantage_interval": _listed(self.advantage_interval),
            "win_rate": self.win_rate,
        }


@attrs.frozen
class Summary:
    """The standings and crosstable of a tournament, rounded so that identical results give
    identical JSON."""

    format: str
    entrants: tuple[str, ...]
    units: int
    groups: int
    """Deal groups: the units of one (table, group), resampled together."""
    resamples: int
    seed: int
    standings: tuple[Standing, ...]
    """Best first."""
    crosstable: tuple[tuple[float | None, ...], ...]
    """``crosstable[a][b]``: entrant ``a``'s mean score minus entrant ``b``'s over the units
    both played; None when they never met (and on the diagonal)."""
    crosstable_intervals: tuple[tuple[tuple[float, float] | None, ...], ...]
    """95% bootstrap interval of each ``crosstable`` entry, resampling deal groups: when it
    excludes 0, ``a`` outscored ``b`` (or the reverse) beyond the luck of the deals."""
    seats: tuple[SeatEffect, ...] = ()
    """Every seat position of the tables, seat 0 first."""

    def to_dict(self) -> dict[str, Any]:
        """The summary as JSON data."""
        return {
            "format": self.format,
            "entrants": list(self.entrants),
            "units": self.units,
            "groups": self.groups,
            "resamples": self.resamples,
            "seed": self.seed,
            "standings": [standing.to_dict() for standing in self.standings],
            "crosstable": [list(row) for row in self.crosstable],
            "crosstable_intervals": [
                [_listed(pair) for pair in row] for row in self.crosstable_intervals
            ],
            "seats": [seat.to_dict() for seat in self.seats],
        }


def summarize(
    results: Iterable[UnitResult],
    entrants: Sequence[str],
    *,
    format: str,
    seed: int,
    resamples: int = 1000,
) -> Summary:
    """Standings and crosstable of a tournament's results, whose seatings number the
    ``entrants``. Intervals come from ``resamples`` bootstrap resamples of the deal groups drawn
    from ``seed`` (none when ``resamples`` is 0); a resample without an entrant adds nothing to
    that entrant's intervals. The summary depends neither on the order of
    ``results`` nor on think times. Raises ``ValueError`` on malformed results."""
    if format not in FORMATS:
        raise ValueError(f"unknown format {format!r}: expected one of {', '.join(FORMATS)}")
    if resamples < 0:
        raise ValueError(f"resamples must not be negative, not {resamples}")
    ordered = sorted(results, key=lambda result: result.unit)
    for previous, result in pairwise(ordered):
        if previous.unit == result.unit:
            raise ValueError(f"unit {result.unit!r} appears more than once")
    count = len(entrants)
    for result in ordered:
        _check_result(result, count)

    totals = _Totals(count)
    scale = _Scale(ordered)
    groups: dict[tuple[int, int], Counter[_Key]] = {}
    for result in ordered:
        totals.add(result)
        _add_terms(groups.setdefault((result.table, result.group), Counter()), result, scale)
    keys = sorted(groups)
    played = [entrant for entrant in range(count) if totals.units[entrant]]
    local = {entrant: index for index, entrant in enumerate(played)}

    # The full-data fit, then the same fit on every resample of the deal groups.
    packed = _Packed([groups[key] for key in keys])
    full = packed.totals(range(len(keys)))
    anchor = _fit(*packed.choices(full, local), SUMMARY_PRIOR)
    ratings = dict(zip(played, elo(anchor), strict=True))
    rating_samples: dict[int, list[float]] = {entrant: [] for entrant in played}
    score_samples: dict[int, list[float]] = {entrant: [] for entrant in played}
    pairs = [(a, b) for a in range(count) for b in range(a + 1, count) if totals.pair_units[a][b]]
    lead_samples: dict[tuple[int, int], list[float]] = {pair: [] for pair in pairs}
    seat_samples: list[list[float]] = [[] for _ in totals.seat_wins]
    next_samples: dict[int, list[float]] = {entrant: [] for entrant in played}
    for draw in _draws(len(keys), resamples, seed) if keys else ():
        sums = packed.totals(draw)
        for pair in pairs:
            met = sums[("met", pair)]
            if met:
                lead_samples[pair].append(sums[("lead", pair)] / met)
        for seat, samples in enumerate(seat_samples):
            seated = sums.get(("seated", seat), 0)
            if seated:
                samples.append(sums[("seat", seat)] / (scale.seat * seated))
        logs = _fit(*packed.choices(sums, local), SUMMARY_PRIOR, start=anchor)
        for entrant, rating in zip(played, elo(logs), strict=True):
            units = sums[("units", entrant)]
            if units:  # a resample without the entrant says nothing about it
                rating_samples[entrant].append(rating)
                score_samples[entrant].append(sums.get(("score", entrant), 0) / units)
            followed = sums.get(("followed", entrant), 0)
            if followed:
                next_samples[entrant].append(sums[("next", entrant)] / (scale.rest * followed))

    standings: list[Standing] = []
    for entrant, name in enumerate(entrants):
        units = totals.units[entrant]
        declared = totals.declared[entrant]
        standings.append(
            Standing(
                rank=0,
                entrant=entrant,
                name=name,
                units=units,
                rating=_rounded(ratings.get(entrant)),
                rating_interval=_rounded_pair(_interval(rating_samples.get(entrant, []))),
                mean_score=_rounded(totals.score[entrant] / units if units else None),
                score_interval=_rounded_pair(_interval(score_samples.get(entrant, []))),
                win_rate=_rounded(float(totals.wins[entrant] / units) if units else None),
                contracts=declared,
                contract_success=_rounded(totals.made[entrant] / declared if declared else None),
                average_contract=_rounded(
                    totals.contract[entrant] / declared if declared else None
                ),
                faults=tuple(zip(FAULT_STATUSES, totals.faults[entrant][1:], strict=True)),
                next_seat=_rounded(
                    full[("next", entrant)] / (scale.rest * full[("followed", entrant)])
                    if full.get(("followed", entrant))
                    else None
                ),
                next_seat_interval=_rounded_pair(_interval(next_samples.get(entrant, []))),
            )
        )
    standings.sort(key=_rank_key)
    ranked = tuple(attrs.evolve(standing, rank=rank) for rank, standing in enumerate(standings, 1))
    crosstable = tuple(
        tuple(
            _rounded(totals.pair_sum[a][b] / totals.pair_units[a][b])
            if totals.pair_units[a][b]
            else None
            for b in range(count)
        )
        for a in range(count)
    )
    lead_intervals = {pair: _rounded_pair(_interval(lead_samples[pair])) for pair in pairs}
    crosstable_intervals = tuple(
        tuple(
            lead_intervals.get((a, b))
            if a < b
            else _negated(lead_intervals.get((b, a)))
            if a > b
            else None
            for b in range(count)
        )
        for a in range(count)
    )
    return Summary(
        format=format,
        entrants=tuple(entrants),
        units=len(ordered),
        groups=len(keys),
        resamples=resamples,
        seed=seed,
        standings=ranked,
        crosstable=crosstable,
        crosstable_intervals=crosstable_intervals,
        seats=tuple(
            SeatEffect(
                seat=seat,
                units=units,
                advantage=_rounded(full[("seat", seat)] / (scale.seat * units)),
                advantage_interval=_rounded_pair(_interval(seat_samples[seat])),
                win_rate=_rounded(
                    float(sum(Fraction(won, winners) for winners, won in wins.items()) / units)
                ),
            )
            for seat, wins in enumerate(totals.seat_wins)
            for units in [full[("seated", seat)]]
        ),
    )


def _check_result(result: UnitResult, entrants: int) -> None:
    seats = len(result.seating)
    if any(
        len(values) != seats
        for values in (result.scores, result.places, result.statuses, result.faults)
    ):
        raise ValueError(f"unit {result.unit!r} does not give every seat one value of each kind")
    for entrant in result.seating:
        if not 0 <= entrant < entrants:
            raise ValueError(f"unit {result.unit!r} seats entrant {entrant}, not 0..{entrants - 1}")
    if len(set(result.seating)) != seats:
        raise ValueError(f"unit {result.unit!r} seats an entrant more than once")
    if any(len(counts) != len(STATUSES) for counts in result.faults):
        raise ValueError(f"unit {result.unit!r} does not count faults by {', '.join(STATUSES)}")
    if any(not 0 <= seat < seats for seat, _, _ in result.contracts):
        raise ValueError(f"unit {result.unit!r} has a contract declared from no seat")


def _ranking(result: UnitResult) -> list[list[int]]:
    """The unit's finishing order as tied groups of entrants, best first."""
    by_place: dict[int, list[int]] = {}
    for entrant, place in zip(result.seating, result.places, strict=True):
        by_place.setdefault(place, []).append(entrant)
    return [by_place[place] for place in sorted(by_place)]


class _Scale:
    """Whole-number multipliers for the seat and next-seat terms: a seat's score less the mean
    of its unit, times :attr:`seat`, and the next seat's score less the mean of the others,
    times :attr:`rest`, are integers whatever the size of the tables."""

    def __init__(self, results: Sequence[UnitResult]) -> None:
        sizes = {len(result.seating) for result in results}
        self.seat = math.lcm(*sizes)
        self.rest = math.lcm(*(size - 2 for size in sizes if size > 2))


def _add_terms(terms: Counter[_Key], result: UnitResult, scale: _Scale) -> None:
    """Add what one unit brings to its deal group's totals: the Plackett–Luce choice sets and
    winners, each entrant's units and score, and the seat and next-seat terms."""
    for choice_set, chosen in _choice_events(_ranking(result)):
        terms["set", choice_set] += 1
        terms["win", chosen] += 1
    for entrant, score in zip(result.seating, result.scores, strict=True):
        terms["units", entrant] += 1
        terms["score", entrant] += score
    for seat, entrant in enumerate(result.seating):
        for other_seat, other in enumerate(result.seating):
            if entrant < other:
                terms["met", (entrant, other)] += 1
                terms["lead", (entrant, other)] += result.scores[seat] - result.scores[other_seat]
    scores = result.scores
    seats = len(scores)
    total = sum(scores)
    share = scale.seat // seats
    for seat in range(seats):
        terms["seated", seat] += 1
        terms["seat", seat] += scale.seat * scores[seat] - share * total
    if seats > 2:
        share = scale.rest // (seats - 2)
        for seat, entrant in enumerate(result.seating):
            after = (seat + 1) % seats
            terms["followed", entrant] += 1
            terms["next", entrant] += (scale.rest + share) * scores[after] - share * (
                total - scores[seat]
            )


class _Packed:
    """Deal-group totals packed into one integer per group, each total in a bit field of its
    own (shifted to be non-negative), so that the totals of a resample are one sum of integers
    rather than one sum per total."""

    def __init__(self, groups: Sequence[Counter[_Key]]) -> None:
        keys = list(dict.fromkeys(key for terms in groups for key in terms))
        self._fields: list[tuple[_Key, int, int, int]] = []  # key, shift, mask, offset
        shift = 0
        for key in keys:
            values = [terms.get(key, 0) for terms in groups]
            low = min(values)
            width = ((max(values) - low) * len(groups)).bit_length()
            self._fields.append((key, shift, (1 << width) - 1, low))
            shift += width
        self._packed = [
            sum((terms.get(key, 0) - low) << shift for key, shift, _, low in self._fields)
            for terms in groups
        ]
        self._sets = sorted(key[1] for key in keys if key[0] == "set" and isinstance(key[1], tuple))

    def totals(self, draw: Sequence[int]) -> dict[_Key, int]:
        """Every total over the groups drawn (a group counting as often as it is drawn)."""
        total = sum(map(self._packed.__getitem__, draw))
        return {
            key: ((total >> shift) & mask) + len(draw) * offset
            for key, shift, mask, offset in self._fields
        }

    def choices(
        self, totals: dict[_Key, int], local: dict[int, int]
    ) -> tuple[list[float], list[tuple[_ChoiceSet, float]]]:
        """The aggregated choices in ``totals``, renumbering entrants by ``local``."""
        wins = [float(totals.get(("win", entrant), 0)) for entrant in local]
        sets = []
        for choice_set in self._sets:
            count = totals[("set", choice_set)]
            if count:
                sets.append((tuple(local[entrant] for entrant in choice_set), float(count)))
        return wins, sets


class _Totals:
    """Per-entrant and per-pair totals over all units."""

    def __init__(self, entrants: int) -> None:
        self.units = [0] * entrants
        self.score = [0] * entrants
        self.wins = [Fraction(0)] * entrants
        self.declared = [0] * entrants
        self.made = [0] * entrants
        self.contract = [0] * entrants
        self.faults = [[0] * len(STATUSES) for _ in range(entrants)]
        self.pair_sum = [[0] * entrants for _ in range(entrants)]
        self.pair_units = [[0] * entrants for _ in range(entrants)]
        self.seat_wins: list[Counter[int]] = []
        """Per seat, the units it won by the number of winners of the unit."""

    def add(self, result: UnitResult) -> None:
        seating = result.seating
        while len(self.seat_wins) < len(seating):
            self.seat_wins.append(Counter())
        winners = sum(1 for place in result.places if place == 1)
        for seat, entrant in enumerate(seating):
            self.units[entrant] += 1
            self.score[entrant] += result.scores[seat]
            if result.places[seat] == 1:
                self.wins[entrant] += Fraction(1, winners)
                self.seat_wins[seat][winners] += 1
            for status, count in enumerate(result.faults[seat]):
                self.faults[entrant][status] += count
            for other_seat, other in enumerate(seating):
                if other_seat != seat:
                    self.pair_sum[entrant][other] += result.scores[seat] - result.scores[other_seat]
                    self.pair_units[entrant][other] += 1
        for seat, amount, made in result.contracts:
            declarer = seating[seat]
            self.declared[declarer] += 1
            self.made[declarer] += made
            self.contract[declarer] += amount


def _rank_key(standing: Standing) -> tuple[bool, float, bool, float, str, int]:
    return (
        standing.rating is None,
        -(standing.rating or 0.0),
        standing.mean_score is None,
        -(standing.mean_score or 0.0),
        standing.name,
        standing.entrant,
    )


def _rounded(value: float | None) -> float | None:
    """``value`` to :data:`DIGITS` decimals, with no negative zero."""
    return None if value is None else round(value, DIGITS) + 0.0


def _rounded_pair(pair: tuple[float, float] | None) -> tuple[float, float] | None:
    if pair is None:
        return None
    return round(pair[0], DIGITS) + 0.0, round(pair[1], DIGITS) + 0.0


def _negated(pair: tuple[float, float] | None) -> tuple[float, float] | None:
    return None if pair is None else (-pair[1], -pair[0])


def _listed(pair: tuple[float, float] | None) -> list[float] | None:
    return None if pair is None else list(pair)
