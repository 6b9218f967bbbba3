"""The rating numerics: Plackett–Luce ratings from finishing orders on an Elo-like scale, and
bootstrap intervals over groups, with a fast sum of whole-number totals over each resample.

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
from itertools import repeat, starmap
from typing import TypeVar

__all__ = [
    "ChoiceSet",
    "GroupSums",
    "bootstrap",
    "choice_events",
    "elo",
    "fit_choices",
    "interval",
    "plackett_luce",
    "resample_draws",
]

T = TypeVar("T")

ELO_CENTRE = 1500.0
ELO_FACTOR = 400 / math.log(10)

ChoiceSet = tuple[int, ...]
"""The entrants one Plackett–Luce choice was made among, in increasing order."""


# Plackett–Luce

MAX_ITERATIONS = 200
"""Iterations after which a fit that has not converged is given up as broken: with its Newton
steps it converges in at most a dozen on every data set of the test suite."""


def plackett_luce(
    rankings: Iterable[Sequence[Sequence[int]]],
    entrants: int,
    *,
    prior: float = 1.0,
    tolerance: float = 1e-10,
    max_iterations: int = MAX_ITERATIONS,
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
    events: Counter[tuple[ChoiceSet, int]] = Counter()
    seen = [False] * entrants
    for number, ranking in enumerate(rankings):
        members = [entrant for group in ranking for entrant in group]
        for entrant in members:
            if not 0 <= entrant < entrants:
                raise ValueError(f"ranking {number} names entrant {entrant}, not 0..{entrants - 1}")
            seen[entrant] = True
        if len(set(members)) != len(members):
            raise ValueError(f"ranking {number} names an entrant more than once: {ranking!r}")
        events.update(choice_events(ranking))
    missing = [entrant for entrant in range(entrants) if not seen[entrant]]
    if missing:
        raise ValueError(f"entrant {missing[0]} is in no ranking, so it cannot be rated")
    if entrants == 1:
        return [0.0]
    if prior == 0:
        _check_mle_exists(entrants, events)
    wins, sets = _aggregate(entrants, events)
    return _centred(fit_choices(wins, sets, prior, tolerance, max_iterations))


def elo(log_strengths: Sequence[float]) -> list[float]:
    """Log-strengths on an Elo-like scale: centred on 1500, 400 points for a strength ratio of
    10, so that rating differences read like chess ratings."""
    if not log_strengths:
        return []
    mean = math.fsum(log_strengths) / len(log_strengths)
    return [ELO_CENTRE + ELO_FACTOR * (value - mean) for value in log_strengths]


def choice_events(ranking: Sequence[Sequence[int]]) -> Iterator[tuple[ChoiceSet, int]]:
    """The choices a ranking stands for, as (choice set, chosen entrant)."""
    below: list[int] = []
    for group in reversed(ranking):
        if below:
            for entrant in group:
                yield tuple(sorted([entrant, *below])), entrant
        below.extend(group)


def _aggregate(
    entrants: int, events: Counter[tuple[ChoiceSet, int]]
) -> tuple[list[float], list[tuple[ChoiceSet, float]]]:
    """What the MM algorithm needs from the choices: how often each entrant was chosen, and how
    often each choice set came up (in a fixed order, so that fits are reproducible)."""
    wins = [0.0] * entrants
    sets: Counter[ChoiceSet] = Counter()
    for (choice_set, chosen), count in events.items():
        wins[chosen] += count
        sets[choice_set] += count
    return wins, [(choice_set, float(sets[choice_set])) for choice_set in sorted(sets)]


def _check_mle_exists(entrants: int, events: Counter[tuple[ChoiceSet, int]]) -> None:
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
    # Each entrant joins the frontier once: as many rounds as entrants empty it.
    for _ in graph:
        if not frontier:
            break
        for neighbour in graph[frontier.pop()]:
            if neighbour not in reached:
                reached.add(neighbour)
                frontier.append(neighbour)
    return reached


def fit_choices(
    wins: Sequence[float],
    sets: Sequence[tuple[ChoiceSet, float]],
    prior: float,
    tolerance: float = 1e-10,
    max_iterations: int = MAX_ITERATIONS,
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
    sets: Sequence[tuple[ChoiceSet, float]],
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
    sets: Sequence[tuple[ChoiceSet, float]],
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
    for draw in resample_draws(len(groups), resamples, seed):
        value = statistic([groups[index] for index in draw])
        if value is not None:
            values.append(value)
    return interval(values)


def resample_draws(count: int, resamples: int, seed: int) -> Iterator[list[int]]:
    """The indices of each resample of ``count`` groups: :func:`bootstrap` and the tournament
    summary draw the same ones."""
    rng = random.Random(seed)
    scale = float(count)
    for _ in range(resamples):
        # rng.choices(range(count), k=count), computed in C: floor(random() * count) each
        yield list(map(int, map(scale.__mul__, starmap(rng.random, repeat((), count)))))


def interval(values: list[float]) -> tuple[float, float] | None:
    """The 95% interval of ``values`` (2.5th and 97.5th percentiles); None when empty."""
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


class GroupSums:
    """Whole-number totals of each group, summed over any draw of the groups (a group counting
    as often as it is drawn). Thousands of resamples sum the same totals, so each group's are
    packed into one integer, each total in a bit field of its own shifted to be non-negative: a
    draw's sums are then one sum of integers rather than one sum per total."""

    def __init__(self, groups: Sequence[Sequence[int]]) -> None:
        self._fields: list[tuple[int, int, int]] = []
        """Per total: its shift, its mask and the offset that made it non-negative."""
        shift = 0
        for values in zip(*groups, strict=True):
            low = min(values)
            width = ((max(values) - low) * len(groups)).bit_length()
            self._fields.append((shift, (1 << width) - 1, low))
            shift += width
        self._packed = [
            sum(
                (value - low) << shift
                for value, (shift, _, low) in zip(group, self._fields, strict=True)
            )
            for group in groups
        ]

    def sums(self, draw: Sequence[int]) -> list[int]:
        """Each total summed over the groups numbered in ``draw``."""
        total = sum(map(self._packed.__getitem__, draw))
        count = len(draw)
        return [((total >> shift) & mask) + count * low for shift, mask, low in self._fields]
