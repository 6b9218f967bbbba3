"""The rating ladder: reference ratings of the built-in bots, one set per game, rules preset and
table size, so that ratings from any tournament can be put on one fixed scale.

The ladder's rungs are the built-in bots from weakest to strongest. Their ratings were measured
once by a round robin among them (``thousand ladder --calibrate``), with ``greedy`` fixed at
1500, and ship with the package as ``tournament/ladder.json``. A tournament that seats any of
the rungs under the same rules is anchored on one of them, held at its reference rating; a bot
rated against the ladder (``thousand ladder BOT``) is read with the rungs' ratings averaging
their reference ones.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import attrs

from thousand import Rules, bluff
from thousand.common.config import decode_json
from thousand.common.files import write_file
from thousand.games import BLUFF, THOUSAND, game_named
from tournament.runner.schedule import Config
from tournament.runner.summary import MIN_GROUPS, Anchor, Summary

__all__ = [
    "FIXED",
    "RUNGS",
    "Ladder",
    "Rung",
    "anchored_ladder",
    "ladder_anchor",
    "ladder_for",
    "ladder_key",
    "load_ladders",
    "measured_ladder",
    "reference_interval",
    "reference_scale",
    "rules_name",
    "rung_difference",
    "save_ladder",
    "scale_title",
]

RUNGS = (
    "random",
    "greedy",
    "pimc(steps=250)",
    "pimc(steps=1000)",
    "ismcts(steps=250)",
    "ismcts(steps=1000)",
)
"""The ladder's bots, as bot specs: the two plain bots and both search bots at two budgets."""
FIXED = ("greedy", 1500.0)
"""The rung whose rating is fixed when the ladder is measured: the scale's zero point."""
DATA = "ladder.json"
"""The reference ratings, shipped in the ``tournament`` package."""
STANDARD = "standard"
"""The name of 1000?'s rules, which have no presets but the standard ones."""


@attrs.frozen
class Rung:
    """One bot of the ladder and its reference rating, with its 95% interval."""

    bot: str
    rating: float
    interval: tuple[float, float]

    def to_dict(self) -> dict[str, Any]:
        return {"bot": self.bot, "rating": self.rating, "interval": list(self.interval)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rung:
        low, high = data["interval"]
        return cls(str(data["bot"]), float(data["rating"]), (float(low), float(high)))


@attrs.frozen
class Ladder:
    """The reference ratings of one game, rules preset and table size, and how they were
    measured (format, deals or games per table, seed), so they can be measured again."""

    game: str
    rules: str
    """A preset's name (Thousand), or ``standard`` (1000?)."""
    players: int
    format: str
    per_table: int
    seed: int
    rungs: tuple[Rung, ...]

    @property
    def key(self) -> str:
        return ladder_key(self.game, self.rules, self.players)

    @property
    def title(self) -> str:
        """The ladder named for a person: the game, its rules and the table."""
        return scale_title(self.game, self.rules, self.players)

    def rung(self, bot: str) -> Rung | None:
        """The rung of this bot spec, if it is one."""
        return next((rung for rung in self.rungs if rung.bot == bot), None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "rules": self.rules,
            "players": self.players,
            "format": self.format,
            "per_table": self.per_table,
            "seed": self.seed,
            "rungs": [rung.to_dict() for rung in self.rungs],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Ladder:
        return cls(
            game=str(data["game"]),
            rules=str(data["rules"]),
            players=int(data["players"]),
            format=str(data["format"]),
            per_table=int(data["per_table"]),
            seed=int(data["seed"]),
            rungs=tuple(Rung.from_dict(rung) for rung in data["rungs"]),
        )


def ladder_key(game: str, rules: str, players: int) -> str:
    """How a ladder is named in the data: ``thousand/russian/3``, ``bluff/standard/4``."""
    return f"{game}/{rules}/{players}"


def scale_title(game: str, rules: str, players: int) -> str:
    """A ladder's game, rules (a preset's name, or ``standard``) and table, named for a person:
    ``Thousand, russian rules, tables of 3``."""
    named = "the standard rules" if rules == STANDARD else f"{rules} rules"
    return f"{game_named(game).title}, {named}, tables of {players}"


def rules_name(game: str, rules: dict[str, Any]) -> str | None:
    """The preset these rules (as JSON data) are, ``standard`` for 1000?'s own rules with any
    number of players, or ``None`` for house rules (which have no ladder)."""
    named = _RULES_NAMES.get(game)
    return None if named is None else named(rules)


def _preset_name(rules: dict[str, Any]) -> str | None:
    return Rules.from_dict(rules).preset_name()


def _standard_name(rules: dict[str, Any]) -> str | None:
    own = bluff.Rules.from_dict(rules)
    return STANDARD if own == bluff.Rules(players=own.players) else None


_RULES_NAMES: dict[str, Callable[[dict[str, Any]], str | None]] = {
    THOUSAND.key: _preset_name,
    BLUFF.key: _standard_name,
}
"""Per game (by its key), how its rules are named on a ladder."""


def load_ladders(path: Path | None = None) -> dict[str, Ladder]:
    """The ladders in ``path`` (default: the ones shipped with the package), by key."""
    if path is None:
        text = resources.files("tournament").joinpath(DATA).read_text(encoding="utf-8")
    else:
        text = path.read_text(encoding="utf-8")
    ladders = (Ladder.from_dict(item) for item in decode_json(text)["ladders"])
    return {ladder.key: ladder for ladder in ladders}


def ladder_for(config: Config, ladders: dict[str, Ladder] | None = None) -> Ladder | None:
    """The ladder of this tournament's game, rules and table size, if one was measured."""
    name = rules_name(config.game, config.rules)
    if name is None:
        return None
    chosen = load_ladders() if ladders is None else ladders
    return chosen.get(ladder_key(config.game, name, config.players))


def ladder_anchor(config: Config, ladder: Ladder, skip: Sequence[str] = ()) -> Anchor | None:
    """Every entrant that is a rung of the ladder (by its spec), with the rung's reference
    rating; entrants named in ``skip`` are left free. ``None`` when no entrant is a rung."""
    anchor = tuple(
        (entrant.name, rung.rating)
        for entrant in config.entrants
        if entrant.name not in skip
        for rung in [ladder.rung(entrant.spec)]
        if rung is not None
    )
    return anchor or None


def reference_scale(config: Config) -> tuple[Anchor, Ladder] | None:
    """A tournament's default rating scale: one entrant that is a bot of its ladder, fixed at
    its reference rating, and that ladder; ``None`` with no ladder or none of its bots.

    The bot is the one whose reference rating is known best: ``greedy``, the ladder's own fixed
    point, when it plays (so it shows exactly the rating the ladder gives it), and otherwise
    the bot of the ladder with the narrowest reference interval (the first entrant of a tie)."""
    ladder = ladder_for(config)
    if ladder is None:
        return None
    rungs = [
        (entrant.name, rung)
        for entrant in config.entrants
        for rung in [ladder.rung(entrant.spec)]
        if rung is not None
    ]
    if not rungs:
        return None
    name, rung = min(rungs, key=lambda pair: _half(pair[1].interval))
    return ((name, rung.rating),), ladder


def anchored_ladder(config: Config, anchor: Anchor | None) -> Ladder | None:
    """The ladder whose reference scale ``anchor`` puts the ratings on: every anchored entrant
    a bot of the tournament's ladder held at its reference rating; ``None`` otherwise."""
    ladder = ladder_for(config)
    if ladder is None or not anchor:
        return None
    specs = {entrant.name: entrant.spec for entrant in config.entrants}
    for name, rating in anchor:
        rung = ladder.rung(specs.get(name, ""))
        if rung is None or rung.rating != rating:
            return None
    return ladder


def reference_interval(
    rating: float, interval: tuple[float, float], ladder: Ladder, anchored: Sequence[str]
) -> tuple[float, float]:
    """A rating's 95% interval widened by the uncertainty of the reference ratings it was
    anchored on (``anchored``: the anchored entrants' bot specs).

    The anchored entrants' reference ratings were measured together, so their errors may be
    correlated; the error of their mean is at most the mean of their errors, and that bound is
    added to each side of ``interval`` in quadrature."""
    halves = [
        (rung.interval[1] - rung.interval[0]) / 2 for rung in map(ladder.rung, anchored) if rung
    ]
    spread = math.fsum(halves) / len(halves) if halves else 0.0
    low, high = interval
    return rating - math.hypot(rating - low, spread), rating + math.hypot(high - rating, spread)


def rung_difference(measured: Rung, reference: Rung) -> tuple[float, float]:
    """How far a new measurement of a rung lies from its reference rating, and the 95% margin
    of that difference: the two intervals' half-widths added in quadrature, as for two
    independent measurements."""
    margin = math.hypot(_half(measured.interval), _half(reference.interval))
    return measured.rating - reference.rating, margin


def _half(interval: tuple[float, float]) -> float:
    return (interval[1] - interval[0]) / 2


def measured_ladder(config: Config, summary: Summary) -> Ladder:
    """The ladder a calibration tournament (a round robin of the rungs, ``FIXED`` anchored)
    measured: each rung's rating and interval."""
    name = rules_name(config.game, config.rules)
    if name is None:
        raise ValueError("a ladder is measured under a preset's rules, not house rules")
    by_name = {standing.name: standing for standing in summary.standings}
    rungs = []
    for entrant in config.entrants:
        standing = by_name[entrant.name]
        if standing.rating is None:
            raise ValueError(f"{entrant.name} played no unit, so it has no rating")
        if standing.rating_interval is None:
            raise ValueError(
                f"{entrant.name} has no 95% interval (fewer than {MIN_GROUPS} deal groups, or "
                "every group ended the same way for it): measure the ladder with more deals or "
                "games"
            )
        rungs.append(Rung(entrant.spec, _tenth(standing.rating), _tenths(standing.rating_interval)))
    return Ladder(
        game=config.game,
        rules=name,
        players=config.players,
        format=config.format,
        per_table=config.per_table,
        seed=config.seed,
        rungs=tuple(rungs),
    )


def save_ladder(path: Path, ladder: Ladder) -> None:
    """Put ``ladder`` in the data file ``path`` (created if missing), in place of any ladder of
    the same game, rules and table size; the ladders stay sorted by key."""
    ladders = load_ladders(path) if path.exists() else {}
    ladders[ladder.key] = ladder
    document = {"ladders": [ladders[key].to_dict() for key in sorted(ladders)]}
    write_file(path, json.dumps(document, indent=1) + "\n")


def _tenth(value: float) -> float:
    return math.floor(value * 10 + 0.5) / 10


def _tenths(pair: tuple[float, float]) -> tuple[float, float]:
    return _tenth(pair[0]), _tenth(pair[1])
