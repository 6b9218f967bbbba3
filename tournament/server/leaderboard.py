"""The leaderboard of a pool: Plackett–Luce ratings fitted to every finished group's games (each
game ranks its bots by place), with 95% bootstrap intervals over the groups, on the reference
scale of ``thousand ladder``: a reference bot that has a rung on the pool's ladder (``greedy``
first) is held at its reference rating, in the fit and in every resample, so that a rating on
the server means what it means on the ladder. A bot is provisional until it has played
:data:`PROVISIONAL` groups."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

import attrs

from tournament.runner.ratings import elo, interval, plackett_luce, resample_draws
from tournament.runner.summary import MIN_GROUPS
from tournament.server.store import PlayedGame

__all__ = [
    "MEMORY_GROUPS",
    "MEMORY_Z",
    "PROVISIONAL",
    "RESAMPLES",
    "Anchor",
    "MemoryCheck",
    "Standing",
    "memory_checks",
    "rating_history",
    "settled_ratings",
    "standings",
]

RESAMPLES = 200
"""Resamples of the groups behind each interval."""
PROVISIONAL = 10
"""Groups a bot plays before its rating is no longer provisional."""

Anchor = tuple[str, float]
"""A bot held at a rating: the reference scale's anchor."""

MEMORY_GROUPS = 20
"""Groups a bot plays before its memory check can flag it."""
MEMORY_Z = 4.0
"""Standard errors by which a bot's later games of a group must beat its first to be flagged:
an honest bot is flagged about once in 30,000 checks."""


@attrs.frozen
class MemoryCheck:
    """Whether a bot plays the same cards better once it has seen them.

    A group deals one set of cards under every seating, and the server cannot stop a connected
    bot from remembering them. It can measure what that would be worth: for each group, the
    bot's place in the group's first game less its mean place in the later ones. The seats are
    drawn at random, so for a bot that does not remember, that gain is zero on average, however
    strong the bot; one that uses the cards it saw gains places in the later games."""

    groups: int
    """Groups measured."""
    gain: float
    """Places gained, on average over the groups, in a group's later games over its first."""
    z: float | None
    """The gain in standard errors (``None`` with fewer than two groups)."""

    @property
    def flagged(self) -> bool:
        """Whether the gain is too large to be chance."""
        return self.groups >= MEMORY_GROUPS and self.z is not None and self.z >= MEMORY_Z

    def to_dict(self) -> dict[str, object]:
        return {
            "groups": self.groups,
            "gain": round(self.gain, 3),
            "z": None if self.z is None else round(self.z, 2),
            "flagged": self.flagged,
        }


def memory_checks(groups: Sequence[Sequence[PlayedGame]]) -> dict[str, MemoryCheck]:
    """The memory check of every bot over the ``groups``, each in the order it was played."""
    gains: dict[str, list[float]] = {}
    for group in groups:
        places: dict[str, list[int]] = {}
        for game in group:
            for bot, place in zip(game.seats, game.places, strict=True):
                places.setdefault(bot, []).append(place)
        for bot, own in places.items():
            if len(own) >= 2:
                gains.setdefault(bot, []).append(own[0] - statistics.fmean(own[1:]))
    return {bot: _checked(each) for bot, each in gains.items()}


def _checked(gains: list[float]) -> MemoryCheck:
    gain = statistics.fmean(gains)
    if len(gains) < 2:
        return MemoryCheck(len(gains), gain, None)
    error = statistics.stdev(gains) / math.sqrt(len(gains))
    z = gain / error if error > 0 else math.copysign(math.inf, gain) if gain else 0.0
    return MemoryCheck(len(gains), gain, max(-99.0, min(99.0, z)))


@attrs.frozen
class Standing:
    """A bot's line on the leaderboard."""

    bot: str
    rating: float
    interval: tuple[float, float] | None
    """The 95% interval of the rating, ``None`` until there are enough groups to resample."""
    groups: int
    games: int
    faults: int
    """Games in which the bot was at fault (any status but ``ok``)."""
    reference: bool = False
    """Whether the bot is a reference bot that plays in the server."""
    memory: MemoryCheck | None = None
    """Whether it plays the cards of a group better once it has seen them."""

    @property
    def provisional(self) -> bool:
        return self.groups < PROVISIONAL

    def to_dict(self) -> dict[str, object]:
        return {
            "bot": self.bot,
            "rating": round(self.rating, 1),
            "interval": None if self.interval is None else [round(end, 1) for end in self.interval],
            "groups": self.groups,
            "games": self.games,
            "faults": self.faults,
            "fault_rate": round(self.faults / self.games, 4) if self.games else 0.0,
            "provisional": self.provisional,
            "reference": self.reference,
            "memory_check": None if self.memory is None else self.memory.to_dict(),
        }


def standings(
    groups: Sequence[Sequence[PlayedGame]],
    anchor: Anchor | None = None,
    reference: Sequence[str] = (),
    seed: int = 0,
) -> list[Standing]:
    """Every bot of the groups, best rated first; with ``anchor``, on its scale. The intervals
    come from :data:`RESAMPLES` resamples of the groups, once there are ``MIN_GROUPS``."""
    names = sorted({bot for group in groups for game in group for bot in game.seats})
    if not names:
        return []
    ratings = _ratings(groups, names, anchor)
    samples: dict[str, list[float]] = {name: [] for name in names}
    if len(groups) >= MIN_GROUPS:
        for draw in resample_draws(len(groups), RESAMPLES, seed):
            drawn = [groups[index] for index in draw]
            present = sorted({bot for group in drawn for game in group for bot in game.seats})
            for name, rating in zip(present, _ratings(drawn, present, anchor), strict=True):
                samples[name].append(rating)
    memories = memory_checks(groups)
    counts = {name: [0, 0, 0] for name in names}
    for group in groups:
        for name in {bot for game in group for bot in game.seats}:
            counts[name][0] += 1
        for game in group:
            for name, status in zip(game.seats, game.statuses, strict=True):
                counts[name][1] += 1
                counts[name][2] += status != "ok"
    lines = [
        Standing(
            name,
            rating,
            interval(samples[name]),
            groups=counts[name][0],
            games=counts[name][1],
            faults=counts[name][2],
            reference=name in reference,
            memory=memories.get(name),
        )
        for name, rating in zip(names, ratings, strict=True)
    ]
    return sorted(lines, key=lambda line: (-line.rating, line.bot))


def _ratings(
    groups: Sequence[Sequence[PlayedGame]], names: list[str], anchor: Anchor | None
) -> list[float]:
    """The bots' ratings, in the order of ``names``, fitted to every game of ``groups``, the
    anchor (when it played) held at its rating."""
    number = {name: index for index, name in enumerate(names)}
    rankings = []
    for group in groups:
        for game in group:
            places = sorted(set(game.places))
            rankings.append(
                [
                    [
                        number[bot]
                        for bot, at in zip(game.seats, game.places, strict=True)
                        if at == place
                    ]
                    for place in places
                ]
            )
    ratings = elo(plackett_luce(rankings, len(names)))
    if anchor is not None and anchor[0] in number:
        shift = anchor[1] - ratings[number[anchor[0]]]
        ratings = [rating + shift for rating in ratings]
    return ratings


HISTORY_POINTS = 40
"""The most points of a rating's history: the ratings after that many evenly spread groups."""


def rating_history(
    groups: Sequence[Sequence[PlayedGame]], bot: str, anchor: Anchor | None = None
) -> list[float]:
    """The bot's rating after each of up to :data:`HISTORY_POINTS` evenly spread groups among
    those it played, each fitted to the groups finished by then."""
    ends = [index + 1 for index, group in enumerate(groups) if any(bot in g.seats for g in group)]
    if len(ends) > HISTORY_POINTS:
        ends = [
            ends[round(i * (len(ends) - 1) / (HISTORY_POINTS - 1))] for i in range(HISTORY_POINTS)
        ]
    history = []
    for end in ends:
        names = sorted({name for group in groups[:end] for game in group for name in game.seats})
        history.append(_ratings(groups[:end], names, anchor)[names.index(bot)])
    return history


def settled_ratings(
    groups: Sequence[Sequence[PlayedGame]], anchor: Anchor | None, reference: Sequence[str]
) -> dict[str, float]:
    """The ratings of the reference bots and of the bots no longer provisional, without their
    intervals (one fit, where the standings take hundreds)."""
    names = sorted({bot for group in groups for game in group for bot in game.seats})
    if not names:
        return {}
    played = dict.fromkeys(names, 0)
    for group in groups:
        for name in {bot for game in group for bot in game.seats}:
            played[name] += 1
    return {
        name: rating
        for name, rating in zip(names, _ratings(groups, names, anchor), strict=True)
        if name in reference or played[name] >= PROVISIONAL
    }
