"""``thousand check-bot``: play a bot against random opponents and collect every fault it makes."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import attrs

from thousand import BotLimits, Fault, Outcome, Rules, bluff, play
from thousand.common.text import printable_lines
from thousand.games import BLUFF, THOUSAND, game_named
from thousand.table.sandbox import Isolation, SandboxOptions

__all__ = ["GAMES", "CheckReport", "check_bot", "traceback_lines"]

GAMES: dict[str, Callable[[], Rules | bluff.Rules]] = {
    game.key: game.default_rules for game in (THOUSAND, BLUFF)
}
"""The games a bot is checked in, each with the rules it is checked under."""


@attrs.frozen
class CheckReport:
    """How a bot fared in one game."""

    game: str
    played: int
    """How many deals (Thousand) or games (1000?) the bot sat at."""
    decisions: int
    faults: tuple[Fault, ...]

    def line(self) -> str:
        """The check's first line: ``Thousand: 304 decisions in 41 deals, 0 faults``."""
        unit = "deal" if game_named(self.game).has_deals else game_named(self.game).unit
        return (
            f"{game_named(self.game).name}: {_counted(self.decisions, 'decision')} in "
            f"{_counted(self.played, unit)}, {_counted(len(self.faults), 'fault')}"
        )


def _counted(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def check_bot(
    spec: str,
    game: str,
    *,
    decisions: int,
    seed: int,
    time_limit: float | None,
    isolate: Isolation | bool | str,
    log_dir: str | None,
    sandbox: SandboxOptions | None = None,
    limits: BotLimits | None = None,
    on_match: Callable[[Outcome], None] = lambda outcome: None,
) -> CheckReport:
    """Play single deals of Thousand, or games of 1000?, with the bot in every seat in turn
    against random bots, the driver playing for it after each fault, until it has taken
    ``decisions`` decisions."""
    rules = GAMES[game]()
    taken = 0
    played = 0
    faults: list[Fault] = []
    for match_seed, seat in _seatings(seed, rules.players):
        if taken >= decisions:
            break
        players = ["random"] * rules.players
        players[seat] = spec
        outcome = play(
            players,
            rules,
            seed=match_seed,
            single_deal=game_named(game).has_deals,
            time_limit=time_limit,
            on_fault="substitute",
            isolate=isolate,
            sandbox=sandbox,
            log_dir=log_dir,
            limits=limits,
        )
        played += 1
        taken += outcome.decisions[seat]
        faults.extend(fault for fault in outcome.faults if fault.seat == seat)
        on_match(outcome)
        if taken == 0 and outcome.substitutions[seat]:
            break  # it failed before its first decision and will not be asked again
    return CheckReport(game, played, taken, tuple(faults))


def traceback_lines(fault: Fault, shown: set[str]) -> list[str]:
    """The bot's traceback of a fault, indented under it: whole the first time it is shown
    (``shown`` holds those already shown), then a line that refers to it."""
    if not fault.traceback:
        return []
    if fault.traceback in shown:
        return ["    with the same traceback as above"]
    shown.add(fault.traceback)
    return printable_lines(fault.traceback, "    ")


def _seatings(seed: int, seats: int) -> Iterator[tuple[int, int]]:
    number = 0
    while True:
        yield seed + number, number % seats
        number += 1
