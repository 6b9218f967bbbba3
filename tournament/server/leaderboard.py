"""The leaderboard of a pool: Plackett–Luce ratings fitted to every finished group's games (each
game ranks its bots by place), on the Elo-like scale of ``thousand tournament``, with 95%
bootstrap intervals over the groups."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from tournament.runner.ratings import elo, interval, plackett_luce, resample_draws
from tournament.server.store import PlayedGame

__all__ = ["RESAMPLES", "Standing", "standings"]

RESAMPLES = 200
"""Resamples of the groups behind each interval."""


@attrs.frozen
class Standing:
    """A bot's line on the leaderboard."""

    bot: str
    rating: float
    interval: tuple[float, float] | None
    """The 95% interval of the rating, ``None`` until there is enough to resample."""
    groups: int
    games: int
    faults: int
    """Games in which the bot was at fault (any status but ``ok``)."""

    def to_dict(self) -> dict[str, object]:
        return {
            "bot": self.bot,
            "rating": round(self.rating, 1),
            "interval": None if self.interval is None else [round(end, 1) for end in self.interval],
            "groups": self.groups,
            "games": self.games,
            "faults": self.faults,
        }


def standings(groups: Sequence[Sequence[PlayedGame]], seed: int = 0) -> list[Standing]:
    """Every bot of the groups, best rated first."""
    names = sorted({bot for group in groups for game in group for bot in game.seats})
    if not names:
        return []
    ratings = _ratings(groups, names)
    samples: dict[str, list[float]] = {name: [] for name in names}
    if len(groups) > 1:
        for draw in resample_draws(len(groups), RESAMPLES, seed):
            drawn = [groups[index] for index in draw]
            present = sorted({bot for group in drawn for game in group for bot in game.seats})
            for name, rating in zip(present, _ratings(drawn, present), strict=True):
                samples[name].append(rating)
    counts = {name: [0, 0, 0] for name in names}
    for group in groups:
        for name in {bot for game in group for bot in game.seats}:
            counts[name][0] += 1
        for game in group:
            for name, status in zip(game.seats, game.statuses, strict=True):
                counts[name][1] += 1
                counts[name][2] += status != "ok"
    lines = [
        Standing(name, rating, interval(samples[name]), *counts[name])
        for name, rating in zip(names, ratings, strict=True)
    ]
    return sorted(lines, key=lambda line: (-line.rating, line.bot))


def _ratings(groups: Sequence[Sequence[PlayedGame]], names: list[str]) -> list[float]:
    """The bots' ratings, in the order of ``names``, fitted to every game of ``groups``."""
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
    return elo(plackett_luce(rankings, len(names)))
