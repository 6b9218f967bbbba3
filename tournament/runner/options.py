"""From command-line options to a tournament configuration, for a new tournament or one being
resumed (where any option given must agree with the saved configuration)."""

from __future__ import annotations

import itertools
import json
import os
import secrets
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

from thousand import Rules, RulesError, bluff, load_player
from thousand.games import BLUFF, GAMES, THOUSAND, AnyGame, AnyRules, game_named
from thousand.table.sandbox import Isolation, SandboxOptions
from tournament.runner.balanced_seatings import seatings
from tournament.runner.schedule import Config, entrants_of
from tournament.runner.sprt import Hypotheses

__all__ = [
    "DEFAULT_BOTS",
    "DEFAULT_PER_TABLE",
    "Options",
    "configure",
    "game_name",
    "load_rules",
    "rules_for",
    "sandbox_for",
]

DEFAULT_BOTS = ("greedy", "random", "random")
"""The entrants when none are given: the built-in bots, random twice to fill a table of three
(and random again for each further seat the rules ask for)."""
"""The Thousand preset for each number of seats when only ``--players`` is given."""
DEFAULT_PER_TABLE = {"deals": 4000, "games": 30}
"""Deals or games per table when not given (games: at least this many, in whole groups)."""


@attrs.frozen
class Options:
    """What the command line said; ``None`` where an option was not given."""

    specs: tuple[str, ...] = ()
    game: str | None = None
    rules: str | None = None
    players: int | None = None
    deals: int | None = None
    games: int | None = None
    seed: int | None = None
    gauntlet: str | None = None
    time_limit: float | None = None
    time_quota: float | None = None
    on_fault: str | None = None
    isolate: Isolation | bool | str | None = None
    """As ``isolate`` of :func:`thousand.play`; by default the sandbox."""
    bot_network: bool | None = None
    bot_readable: tuple[str, ...] | None = None
    sprt: Hypotheses | None = None


def configure(options: Options, saved: Config | None = None) -> Config:
    """The configuration the options describe; on resume, the saved one, checked against every
    option given. Raises ``ValueError`` (or a library error) with a one-line reason.

    Without a seed, a random 63-bit one is drawn: a seed a bot could guess (a small or a
    published one) lets it work out every deal's cards from what it is given."""
    if saved is not None:
        return _agree(options, saved)
    game = game_name(options.game or THOUSAND.key)
    if options.deals is not None and options.games is not None:
        raise ValueError("give --deals or --games, not both")
    specs = options.specs or DEFAULT_BOTS
    isolate = Isolation.of(True if options.isolate is None else options.isolate)
    sandbox = sandbox_for(isolate, bool(options.bot_network), options.bot_readable or ())
    for spec in dict.fromkeys(specs):
        load_player(spec, isolate=isolate, sandbox=sandbox)
    rules = rules_for(game, options.rules, options.players, len(specs))
    if not options.specs and len(specs) < rules.players:
        specs = (*specs, *["random"] * (rules.players - len(specs)))
    if options.sprt is not None and 2 <= len(specs) < rules.players:
        # NEW BASE at a larger table: the baselines fill the other seats, copied in turn.
        extra = itertools.islice(itertools.cycle(specs[1:]), rules.players - len(specs))
        specs = (*specs, *extra)
    if options.games is not None:
        format_, per_table = "games", options.games
    elif options.deals is not None:
        format_, per_table = "deals", options.deals
    else:
        format_ = "deals" if game_named(game).has_deals else "games"
        per_table = DEFAULT_PER_TABLE[format_]
        if format_ == "games":
            size = len(seatings(rules.players))
            per_table = -(-per_table // size) * size
    return Config(
        game=game,
        rules=rules.to_dict(),
        entrants=entrants_of(specs),
        players=rules.players,
        format=format_,
        per_table=per_table,
        seed=secrets.randbits(63) if options.seed is None else options.seed,
        gauntlet=options.gauntlet or (entrants_of(specs)[0].name if options.sprt else None),
        time_limit=options.time_limit,
        time_quota=options.time_quota,
        on_fault=options.on_fault or "forfeit",
        isolate=isolate,
        bot_network=sandbox.network,
        bot_readable=sandbox.readable,
        sprt=options.sprt,
    )


def sandbox_for(isolate: Isolation, network: bool, readable: Sequence[str]) -> SandboxOptions:
    """What sandboxed bots may reach, as ``--bot-network`` and ``--bot-read`` say; refused
    when the bots are not to be sandboxed, where these options would do nothing."""
    if isolate is not Isolation.SANDBOX and (network or readable):
        fix = "add --isolate" if isolate is Isolation.NONE else f"not --isolate {isolate.value}"
        raise ValueError(f"--bot-network and --bot-read are for sandboxed bots: {fix}")
    return SandboxOptions(readable, network=network)


def game_name(game: str) -> str:
    """The game named on the command line: ``thousand``, or ``bluff`` (also spelt ``1000?``)."""
    try:
        return game_named(game).key
    except ValueError:
        keys = " or ".join(known.key for known in GAMES)
        raise ValueError(f"--game must be {keys}, not {game!r}") from None


def rules_for(game: str, spec: str | None, players: int | None, entrants: int) -> AnyRules:
    """The rules a preset or rules file names (by default Russian: ``russian-4`` for four seats,
    two-player Polish for two; or 1000? for the entrants, at most four), seating ``players``
    when given."""
    return _RULES_FOR[game_named(game)](spec, players, entrants)


def _bluff_rules(spec: str | None, players: int | None, entrants: int) -> bluff.Rules:
    if spec is None:
        return BLUFF.default_rules(players or min(4, entrants))
    chosen = bluff.Rules.from_json(_read(spec, "a 1000? rules JSON file"))
    if players is not None and players != chosen.players:
        return attrs.evolve(chosen, players=players)
    return chosen


def _thousand_rules(spec: str | None, players: int | None, entrants: int) -> Rules:
    if spec is None:
        return THOUSAND.default_rules(players)
    chosen = load_rules(spec)
    if players is not None and players != chosen.players:
        fitting = [name for name in Rules.preset_names() if Rules.preset(name).players == players]
        hint = f" (presets for {players}: {', '.join(fitting)})" if fitting else ""
        raise RulesError(f"{spec} is played by {chosen.players} players, not {players}{hint}")
    return chosen


_RULES_FOR: dict[AnyGame, Callable[[str | None, int | None, int], AnyRules]] = {
    THOUSAND: _thousand_rules,
    BLUFF: _bluff_rules,
}
"""How each game's rules are chosen from the command line."""


def load_rules(spec: str, *, also: str = "") -> Rules:
    """A preset name, or the path of a JSON file of rules fields (optionally with "preset").
    ``also`` names further accepted words in the error message."""
    if spec in Rules.preset_names():
        return Rules.preset(spec)
    if not Path(spec).exists() and not _path_like(spec):
        names = ", ".join(Rules.preset_names())
        raise RulesError(f"'{spec}' is neither a preset ({names}){also} nor a rules JSON file")
    text = _read(spec, "a rules JSON file")
    try:
        return Rules.from_json(text)
    except RulesError as error:
        raise RulesError(f"{spec}: {error}") from None


def _read(spec: str, what: str) -> str:
    """The text of the file ``spec`` names; a missing, unreadable or non-UTF-8 file is a
    ``RulesError`` naming it."""
    path = Path(spec)
    if path.is_dir():
        raise RulesError(f"{spec} is a folder, not {what}")
    if not path.exists() and _path_like(spec):
        raise RulesError(f"{spec}: no such file")
    if not path.is_file():
        raise RulesError(f"'{spec}' is not {what}")
    try:
        return path.read_text(encoding="utf-8")
    except OSError as error:
        raise RulesError(f"{spec} cannot be read: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise RulesError(f"{spec} is not UTF-8 text (byte {error.start} cannot be read)") from None


def _path_like(spec: str) -> bool:
    """Whether ``spec`` can only be meant as a file: a JSON file's name, or a path."""
    return spec.lower().endswith(".json") or "/" in spec or os.sep in spec


def _agree(options: Options, saved: Config) -> Config:
    """The saved configuration, if every option given agrees with it."""
    given: dict[str, Any] = {
        "bots": list(options.specs) or None,
        "--game": options.game,
        "--players": options.players,
        "--deals": options.deals,
        "--games": options.games,
        "--seed": options.seed,
        "--gauntlet": options.gauntlet,
        "--time-limit": options.time_limit,
        "--time-quota": options.time_quota,
        "--on-fault": options.on_fault,
        "--isolate": None if options.isolate is None else Isolation.of(options.isolate).value,
        "--bot-network": options.bot_network,
        "--bot-read": None
        if options.bot_readable is None
        else list(SandboxOptions(options.bot_readable).readable),
        "--sprt": options.sprt,
    }
    held: dict[str, Any] = {
        "bots": [entrant.spec for entrant in saved.entrants],
        "--game": saved.game,
        "--players": saved.players,
        "--deals": saved.per_table if saved.format == "deals" else None,
        "--games": saved.per_table if saved.format == "games" else None,
        "--seed": saved.seed,
        "--gauntlet": saved.gauntlet,
        "--time-limit": saved.time_limit,
        "--time-quota": saved.time_quota,
        "--on-fault": saved.on_fault,
        "--isolate": saved.isolate.value,
        "--bot-network": saved.bot_network,
        "--bot-read": list(saved.bot_readable),
        "--sprt": saved.sprt,
    }
    if options.game is not None:
        given["--game"] = game_name(options.game)
    for name, value in given.items():
        if value is not None and value != held[name]:
            raise ValueError(
                f"the tournament being resumed was started with {name} {_show(held[name])}, "
                f"not {_show(value)}; resume it without changing its options"
            )
    if options.rules is not None:
        rules = rules_for(saved.game, options.rules, saved.players, len(saved.entrants))
        if json.dumps(rules.to_dict(), sort_keys=True) != saved.rules_json:
            raise ValueError(
                "the tournament being resumed was started with other rules than "
                f"{options.rules}; resume it without changing its options"
            )
    return saved


def _show(value: Any) -> str:
    if isinstance(value, list):
        return " ".join(value) or "nothing"
    if isinstance(value, bool):
        return "on" if value else "off"
    return "none" if value is None else str(value)
