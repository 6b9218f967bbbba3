"""The summary of a tournament: standings with ratings, mean scores and their intervals, the
crosstable, and what each seat position is worth, from the results of its units.

Intervals come from the bootstrap over deal groups (the units of one table and one set of
cards, resampled together): each group's whole-number totals are gathered once in a
:class:`_GroupTotals`, and each resample sums them with
:class:`~tournament.runner.ratings.GroupSums`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

import attrs

from tournament.runner.ratings import (
    ChoiceSet,
    GroupSums,
    choice_events,
    elo,
    fit_choices,
    interval,
    resample_draws,
)
from tournament.runner.sprt import SprtOutcome
from tournament.runner.unit_results import STATUSES, UnitResult

__all__ = [
    "ANCHOR_LIMIT",
    "FORMATS",
    "MIN_GROUPS",
    "Anchor",
    "SeatEffect",
    "Standing",
    "Summary",
    "Tally",
    "check_anchor_rating",
    "summarize",
]

FORMATS = ("deals", "games")
"""The tournament formats :func:`summarize` accepts."""

FAULT_STATUSES = STATUSES[1:]
"""The statuses counted as faults in the standings (every status but ``ok``)."""

DIGITS = 6
"""Decimals kept in a summary, so that identical results give identical JSON."""
SUMMARY_PRIOR = 1.0
"""The prior :func:`summarize` rates with: one virtual win and loss per entrant."""
MIN_GROUPS = 4
"""The fewest deal groups a 95% interval is given from. Among the resamples of fewer groups,
the ones made of a single group repeated are drawn more often than one time in 40 (one in 27
with three groups, one in four with two), so the interval would only span the groups
themselves; with four, one time in 256."""
SAME = 1e-6
"""Resampled values closer than this are one value: the fits themselves agree far closer."""
ANCHOR_LIMIT = 10_000.0
"""An anchored rating lies between minus and plus this: far beyond any rating a tournament
gives, and small enough that a rating keeps the precision its differences need."""

Anchor = tuple[tuple[str, float], ...]
"""Entrants whose ratings are fixed, by name, each with its rating (see :func:`summarize`)."""
Pair = tuple[int, int]
"""Two entrants ``(a, b)`` with ``a < b``."""


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
    anchor: Anchor | None = None
    """The entrants whose ratings were fixed (on average), each with its rating; ``None``:
    ratings average 1500."""
    sprt: SprtOutcome | None = None
    """The sequential test, when the tournament ran one (the figures above then count the
    groups it read)."""

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
            **({} if self.anchor is None else {"anchor": dict(self.anchor)}),
            **({} if self.sprt is None else {"sprt": self.sprt.to_dict()}),
        }


def summarize(
    results: Iterable[UnitResult],
    entrants: Sequence[str],
    *,
    format: str,
    seed: int,
    resamples: int = 1000,
    anchor: Anchor | None = None,
) -> Summary:
    """Standings and crosstable of a tournament's results, whose seatings number the
    ``entrants``. Intervals come from ``resamples`` bootstrap resamples of the deal groups drawn
    from ``seed`` (none when ``resamples`` is 0); a resample without an entrant adds nothing to
    that entrant's intervals. The summary depends neither on the order of
    ``results`` nor on think times. Raises ``ValueError`` on malformed results.

    Ratings average 1500 unless ``anchor`` names entrants and the ratings they are given: every
    rating is then shifted by the same amount, in the fit and in each resample, so that the
    anchored entrants' ratings average their given ones (one anchored entrant gets its rating
    exactly, and the intervals measure each other entrant against it); an anchored rating
    must lie within ±:data:`ANCHOR_LIMIT`.

    An interval is ``None`` where none can be measured: with fewer than :data:`MIN_GROUPS`
    deal groups, or where every resample gives the figure the same value. The rating of a
    single anchored entrant is fixed: its interval is its rating, twice."""
    tally = Tally(len(entrants))
    tally.add(results)
    return tally.summary(entrants, format=format, seed=seed, resamples=resamples, anchor=anchor)


class Tally:
    """A tournament's results added up as they come, batch by batch, so that its summary can be
    drawn at any moment without going through every unit again: what a long tournament, or a
    ladder that never ends, keeps between two looks at its standings. The summary of a tally
    equals :func:`summarize` of the same units, in whatever order and batches they came."""

    def __init__(self, entrants: int) -> None:
        self.entrants = entrants
        self.units: set[str] = set()
        """The names of the units added."""
        self._totals = _Totals(entrants)
        self._groups: dict[tuple[int, int], _GroupTotals] = {}
        self._scale = _Scale(())
        self._seats = 0

    def add(self, results: Iterable[UnitResult]) -> None:
        """Add finished units. Raises ``ValueError``, adding none of them, when one is malformed
        or was added already."""
        batch = list(results)
        names = set(self.units)
        for result in batch:
            if result.unit in names:
                raise ValueError(f"unit {result.unit!r} appears more than once")
            names.add(result.unit)
            _check_result(result, self.entrants)
        self._make_room(batch)
        scale = self._scale
        for result in batch:
            self._totals.add(result)
            key = (result.table, result.group)
            group = self._groups.get(key)
            if group is None:
                group = self._groups[key] = _GroupTotals.empty(self.entrants, self._seats)
            group.add(result, scale)
        self.units = names

    def _make_room(self, batch: Sequence[UnitResult]) -> None:
        """Widen the totals for tables larger than any so far, and scale the seat terms up
        for table sizes not seen before (the scale of every size seen so far divides it)."""
        sizes = {len(result.seating) for result in batch}
        seats = max(sizes, default=0)
        if seats > self._seats:
            for group in self._groups.values():
                group.widen(seats)
            self._seats = seats
        scale = _Scale(sizes | self._scale.sizes)
        if scale.sizes != self._scale.sizes:
            for group in self._groups.values():
                group.rescale(scale.seat // self._scale.seat, scale.rest // self._scale.rest)
            self._scale = scale

    def summary(
        self,
        entrants: Sequence[str],
        *,
        format: str,
        seed: int,
        resamples: int = 1000,
        anchor: Anchor | None = None,
    ) -> Summary:
        """The summary of the units added so far, the entrants named by ``entrants`` (see
        :func:`summarize`)."""
        if format not in FORMATS:
            raise ValueError(f"unknown format {format!r}: expected one of {', '.join(FORMATS)}")
        if resamples < 0:
            raise ValueError(f"resamples must not be negative, not {resamples}")
        if len(entrants) != self.entrants:
            raise ValueError(f"{len(entrants)} names for {self.entrants} entrants")
        return _summary(
            self._totals, self._groups, self._scale, self._seats, len(self.units),
            entrants, format=format, seed=seed, resamples=resamples, anchor=anchor,
        )  # fmt: skip


def _summary(
    totals: _Totals,
    groups: dict[tuple[int, int], _GroupTotals],
    scale: _Scale,
    seats: int,
    units_count: int,
    entrants: Sequence[str],
    *,
    format: str,
    seed: int,
    resamples: int,
    anchor: Anchor | None,
) -> Summary:
    """The summary drawn from the totals of a :class:`Tally`."""
    count = len(entrants)
    keys = sorted(groups)
    played = [entrant for entrant in range(count) if totals.units[entrant]]
    local = {entrant: index for index, entrant in enumerate(played)}
    pinned = _pinned(anchor, entrants, played)

    # The full-data fit, then the same fit on every resample of the deal groups.
    layout = _Layout(count, seats, [groups[key] for key in keys])
    sums = GroupSums([layout.flat(groups[key]) for key in keys])
    full = layout.totals(sums.sums(range(len(keys)))) if keys else _GroupTotals.empty(count, seats)
    fitted = fit_choices(*full.choices(local), SUMMARY_PRIOR)
    ratings = dict(zip(played, _pin(elo(fitted), pinned), strict=True))
    rating_samples: dict[int, list[float]] = {entrant: [] for entrant in played}
    score_samples: dict[int, list[float]] = {entrant: [] for entrant in played}
    pairs = [(a, b) for a in range(count) for b in range(a + 1, count) if totals.pair_units[a][b]]
    lead_samples: dict[Pair, list[float]] = {pair: [] for pair in pairs}
    seat_samples: list[list[float]] = [[] for _ in totals.seat_wins]
    next_samples: dict[int, list[float]] = {entrant: [] for entrant in played}
    for draw in resample_draws(len(keys), resamples, seed) if keys else ():
        drawn = layout.totals(sums.sums(draw))
        for pair in pairs:
            met = drawn.met[pair]
            if met:
                lead_samples[pair].append(drawn.lead[pair] / met)
        for seat, samples in enumerate(seat_samples):
            seated = drawn.seated[seat]
            if seated:
                samples.append(drawn.seat_lead[seat] / (scale.seat * seated))
        logs = fit_choices(*drawn.choices(local), SUMMARY_PRIOR, start=fitted)
        for entrant, rating in zip(played, _pin(elo(logs), pinned), strict=True):
            units = drawn.units[entrant]
            if units:  # a resample without the entrant says nothing about it
                rating_samples[entrant].append(rating)
                score_samples[entrant].append(drawn.score[entrant] / units)
            followed = drawn.followed[entrant]
            if followed:
                next_samples[entrant].append(drawn.next_lead[entrant] / (scale.rest * followed))

    fixed = anchor[0][0] if anchor is not None and len(anchor) == 1 else None
    standings: list[Standing] = []
    for entrant, name in enumerate(entrants):
        units = totals.units[entrant]
        fitted_rating = _rounded(ratings.get(entrant))
        declared = totals.declared[entrant]
        followed = full.followed[entrant]
        standings.append(
            Standing(
                rank=0,
                entrant=entrant,
                name=name,
                units=units,
                rating=fitted_rating,
                rating_interval=(fitted_rating, fitted_rating)
                if fitted_rating is not None and name == fixed
                else _measured(rating_samples.get(entrant, []), len(keys)),
                mean_score=_rounded(totals.score[entrant] / units if units else None),
                score_interval=_measured(score_samples.get(entrant, []), len(keys)),
                win_rate=_rounded(float(totals.wins[entrant] / units) if units else None),
                contracts=declared,
                contract_success=_rounded(totals.made[entrant] / declared if declared else None),
                average_contract=_rounded(
                    totals.contract[entrant] / declared if declared else None
                ),
                faults=tuple(zip(FAULT_STATUSES, totals.faults[entrant][1:], strict=True)),
                next_seat=_rounded(
                    full.next_lead[entrant] / (scale.rest * followed) if followed else None
                ),
                next_seat_interval=_measured(next_samples.get(entrant, []), len(keys)),
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
    lead_intervals = {pair: _measured(lead_samples[pair], len(keys)) for pair in pairs}
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
        units=units_count,
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
                advantage=_rounded(full.seat_lead[seat] / (scale.seat * units)),
                advantage_interval=_measured(seat_samples[seat], len(keys)),
                win_rate=_rounded(
                    float(sum(Fraction(won, winners) for winners, won in wins.items()) / units)
                ),
            )
            for seat, wins in enumerate(totals.seat_wins)
            for units in [full.seated[seat]]
        ),
        anchor=anchor,
    )


def _pinned(
    anchor: Anchor | None, entrants: Sequence[str], played: Sequence[int]
) -> tuple[tuple[int, ...], float] | None:
    """The anchored entrants as positions among the entrants that played, with the mean of
    their given ratings; or a one-line error."""
    if anchor is None:
        return None
    if not anchor:
        raise ValueError("an anchor must name at least one bot")
    positions = []
    for name, rating in anchor:
        try:
            check_anchor_rating(rating)
        except ValueError as error:
            raise ValueError(f"the anchor {name}={rating:g}: {error}") from None
        if name not in entrants:
            raise ValueError(f"--anchor names {name!r}, which is not among {', '.join(entrants)}")
        entrant = entrants.index(name)
        if entrant not in played:
            raise ValueError(f"--anchor names {name!r}, which played no unit")
        positions.append(played.index(entrant))
    return tuple(positions), math.fsum(rating for _, rating in anchor) / len(anchor)


def check_anchor_rating(rating: float) -> None:
    """Refuse, in words a caller puts after the anchor, a rating that is not a number within
    ±:data:`ANCHOR_LIMIT` (NaN, an infinity, ``1e308``: every rating would come out equal)."""
    if not -ANCHOR_LIMIT <= rating <= ANCHOR_LIMIT:
        raise ValueError(
            f"an anchored rating must be a number from {-ANCHOR_LIMIT:.0f} to {ANCHOR_LIMIT:.0f}"
        )


def _pin(ratings: Sequence[float], pinned: tuple[tuple[int, ...], float] | None) -> list[float]:
    """Ratings shifted so that the anchored entrants' ratings average their given ones."""
    if pinned is None:
        return list(ratings)
    positions, rating = pinned
    shift = rating - math.fsum(ratings[position] for position in positions) / len(positions)
    return [value + shift for value in ratings]


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
    times :attr:`rest`, are integers whatever the size of the tables (of the ``sizes`` seen)."""

    def __init__(self, sizes: Iterable[int]) -> None:
        self.sizes = frozenset(sizes)
        self.seat = math.lcm(*self.sizes)
        self.rest = math.lcm(*(size - 2 for size in self.sizes if size > 2))


@attrs.define
class _GroupTotals:
    """The whole-number totals of some units (one deal group, or a resample of them) that the
    ratings and intervals are computed from. The seat and next-seat sums are scaled to whole
    numbers by a :class:`_Scale`."""

    choice_sets: Counter[ChoiceSet]
    """How often each Plackett–Luce choice set came up."""
    wins: list[int]
    """Per entrant: how often it was the one chosen."""
    units: list[int]
    """Per entrant: the units it played."""
    score: list[int]
    """Per entrant: the sum of its scores."""
    met: Counter[Pair]
    """Per pair at the same table: the units they played together."""
    lead: Counter[Pair]
    """Per pair ``(a, b)``: the sum of ``a``'s score less ``b``'s over those units."""
    seated: list[int]
    """Per seat: the units played with that seat."""
    seat_lead: list[int]
    """Per seat: the sum of its score less the mean of its unit (scaled)."""
    followed: list[int]
    """Per entrant: the units with a seat after it and another seat besides."""
    next_lead: list[int]
    """Per entrant: the sum of the next seat's score less the mean of the other seats
    (scaled)."""

    @classmethod
    def empty(cls, entrants: int, seats: int) -> _GroupTotals:
        return cls(
            Counter(),
            [0] * entrants,
            [0] * entrants,
            [0] * entrants,
            Counter(),
            Counter(),
            [0] * seats,
            [0] * seats,
            [0] * entrants,
            [0] * entrants,
        )

    def add(self, result: UnitResult, scale: _Scale) -> None:
        """Add what one unit brings: the choice sets and winners, each entrant's units and
        score, the pairs that met, and the seat and next-seat terms."""
        for choice_set, chosen in choice_events(_ranking(result)):
            self.choice_sets[choice_set] += 1
            self.wins[chosen] += 1
        scores = result.scores
        for entrant, score in zip(result.seating, scores, strict=True):
            self.units[entrant] += 1
            self.score[entrant] += score
        for seat, entrant in enumerate(result.seating):
            for other_seat, other in enumerate(result.seating):
                if entrant < other:
                    self.met[entrant, other] += 1
                    self.lead[entrant, other] += scores[seat] - scores[other_seat]
        seats = len(scores)
        total = sum(scores)
        share = scale.seat // seats
        for seat in range(seats):
            self.seated[seat] += 1
            self.seat_lead[seat] += scale.seat * scores[seat] - share * total
        if seats > 2:
            share = scale.rest // (seats - 2)
            for seat, entrant in enumerate(result.seating):
                after = (seat + 1) % seats
                self.followed[entrant] += 1
                self.next_lead[entrant] += (scale.rest + share) * scores[after] - share * (
                    total - scores[seat]
                )

    def widen(self, seats: int) -> None:
        """Make room for tables of ``seats``."""
        for per_seat in (self.seated, self.seat_lead):
            per_seat.extend([0] * (seats - len(per_seat)))

    def rescale(self, seat: int, rest: int) -> None:
        """Multiply the seat terms by ``seat`` and the next-seat terms by ``rest``: the scale
        grew by those factors."""
        self.seat_lead[:] = [value * seat for value in self.seat_lead]
        self.next_lead[:] = [value * rest for value in self.next_lead]

    def choices(self, local: dict[int, int]) -> tuple[list[float], list[tuple[ChoiceSet, float]]]:
        """The aggregated choices for :func:`~tournament.runner.ratings.fit_choices`, the
        entrants renumbered by ``local`` (the choice sets in increasing order)."""
        wins = [float(self.wins[entrant]) for entrant in local]
        sets = [
            (tuple(local[entrant] for entrant in choice_set), float(count))
            for choice_set, count in sorted(self.choice_sets.items())
            if count
        ]
        return wins, sets


class _Layout:
    """Where each total of a :class:`_GroupTotals` stands in a flat list of whole numbers, so
    that :class:`~tournament.runner.ratings.GroupSums` can sum them over resamples."""

    def __init__(self, entrants: int, seats: int, groups: Sequence[_GroupTotals]) -> None:
        self.entrants = entrants
        self.seats = seats
        self.choice_sets = sorted(
            {choice_set for group in groups for choice_set in group.choice_sets}
        )
        self.pairs = [(a, b) for a in range(entrants) for b in range(a + 1, entrants)]

    def flat(self, group: _GroupTotals) -> list[int]:
        """The group's totals as one list."""
        return [
            *(group.choice_sets[choice_set] for choice_set in self.choice_sets),
            *group.wins,
            *group.units,
            *group.score,
            *(group.met[pair] for pair in self.pairs),
            *(group.lead[pair] for pair in self.pairs),
            *group.seated,
            *group.seat_lead,
            *group.followed,
            *group.next_lead,
        ]

    def totals(self, values: Sequence[int]) -> _GroupTotals:
        """The totals a list made by :meth:`flat` (or a sum of such lists) stands for."""
        parts = iter(values)

        def take(count: int) -> list[int]:
            return [next(parts) for _ in range(count)]

        entrants, seats, pairs = self.entrants, self.seats, self.pairs
        return _GroupTotals(
            Counter(dict(zip(self.choice_sets, take(len(self.choice_sets)), strict=True))),
            take(entrants),
            take(entrants),
            take(entrants),
            Counter(dict(zip(pairs, take(len(pairs)), strict=True))),
            Counter(dict(zip(pairs, take(len(pairs)), strict=True))),
            take(seats),
            take(seats),
            take(entrants),
            take(entrants),
        )


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


def _measured(samples: list[float], groups: int) -> tuple[float, float] | None:
    """The 95% interval of a figure from its values in the resamples of ``groups`` deal
    groups, rounded; ``None`` where there is none: fewer than :data:`MIN_GROUPS` groups, or
    every resample giving the figure one value (each group ended the same way for it), which
    measures nothing of the luck of the cards."""
    if groups < MIN_GROUPS or not samples or max(samples) - min(samples) < SAME:
        return None
    low, high = interval(samples) or (math.nan, math.nan)
    return round(low, DIGITS) + 0.0, round(high, DIGITS) + 0.0


def _negated(pair: tuple[float, float] | None) -> tuple[float, float] | None:
    return None if pair is None else (-pair[1], -pair[0])


def _listed(pair: tuple[float, float] | None) -> list[float] | None:
    return None if pair is None else list(pair)
