"""A game between a person at the terminal and bots: the bots' actions are told one at a time as
the person's seat sees them, and the record is saved at the end, or when the person stops."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, cast

import attrs

from thousand import Outcome, Rules, bluff, play
from thousand.common.files import write_file
from thousand.common.record_io import named
from thousand.frontends.faces import short_names
from thousand.frontends.human import TerminalPlayer
from thousand.frontends.narration import (
    PERSON,
    bluff_event,
    bluff_start,
    thousand_event,
    thousand_start,
)
from thousand.games import BLUFF, THOUSAND, AnyGame, AnyRecord, AnyState, Game, game_of
from thousand.games import ActionT as A
from thousand.games import ObservationT as O
from thousand.games import RecordT as Rec
from thousand.games import RulesT as R
from thousand.games import StateT as S
from thousand.table.sandbox import Isolation, SandboxOptions

__all__ = ["PlayedGame", "play_at_terminal", "seat_names"]


@attrs.frozen
class PlayedGame:
    """How a game at the terminal ended: its outcome, or ``None`` when the person stopped it."""

    outcome: Outcome | None
    record_path: Path
    names: tuple[str, ...]
    """Each seat's name as the game showed it (``you`` for the person)."""


TELLERS: dict[
    AnyGame,
    tuple[
        Callable[[Any, Sequence[str], int, bool], list[str]],
        Callable[[Any, Any, Sequence[str], int, bool], list[str]],
    ],
] = {
    THOUSAND: (thousand_start, thousand_event),
    BLUFF: (
        lambda state, names, seat, colour: bluff_start(state, names, seat),
        lambda before, after, names, seat, colour: bluff_event(before, after, names, seat),
    ),
}
"""How each game's start and actions are told to the person (1000? has no coloured suits)."""


def seat_names(specs: Sequence[str], seat: int) -> list[str]:
    """A name per seat: ``you`` for the person, the bots by their spec (``greedy A``,
    ``greedy B`` when a spec comes twice), in seat order; ``specs`` are the bots in seat order
    without the person."""
    names = short_names(specs)
    names.insert(seat, PERSON)
    return names


def play_at_terminal(
    rules: Rules | bluff.Rules,
    bots: Sequence[str],
    seat: int,
    seed: int,
    record_path: Path,
    *,
    single_deal: bool = False,
    read: Callable[[str], str] = input,
    write: Callable[[str], object] = print,
    pace: float = 0.5,
    colour: bool = False,
    sleep: Callable[[float], object] = time.sleep,
    isolate: Isolation = Isolation.NONE,
    sandbox: SandboxOptions | None = None,
) -> PlayedGame:
    """Seat the person at ``seat`` and ``bots`` (specs, in seat order) around them; play, telling
    every action as the person sees it (a bot's after ``pace`` seconds); save the record to
    ``record_path`` when the game ends or is stopped (Ctrl-C, ``quit`` or the end of input).
    The bots that are not built in run as ``isolate`` and ``sandbox`` say."""
    names = seat_names(bots, seat)
    person = TerminalPlayer(names, read=read, write=write, colour=colour)
    players: list[Any] = list(bots)
    players.insert(seat, person)
    tell_start, tell_event = TELLERS[game_of(rules)]
    latest: AnyState | None = None

    def watch(state: AnyState) -> None:
        nonlocal latest
        before, latest = latest, state
        if before is None:
            lines = tell_start(state, names, seat, colour)
        else:
            if before.player != seat:
                sleep(pace)
            lines = tell_event(before, state, names, seat, colour)
        for line in lines:
            write(line)

    # The record names the bots by their specs and the person as "you".
    recorded = [*bots[:seat], PERSON, *bots[seat:]]
    try:
        outcome = play(
            players,
            rules,
            seed=seed,
            single_deal=single_deal,
            watch=watch,
            isolate=isolate,
            sandbox=sandbox,
        )
    except KeyboardInterrupt:
        assert latest is not None  # the watcher sees the first state before any bot acts
        record = _record(latest, recorded)
        write_file(record_path, record.to_json())
        return PlayedGame(None, record_path, tuple(names))
    kept = named(recorded, len(recorded))
    outcome = attrs.evolve(outcome, record=attrs.evolve(outcome.record, players=kept))
    write_file(record_path, outcome.record.to_json())
    return PlayedGame(outcome, record_path, tuple(names))


def _record(state: AnyState, players: Sequence[str]) -> AnyRecord:
    """The record of the game that led to ``state``, its seats named ``players``."""

    def recorded(game: Game[S, O, A, R, Rec]) -> Rec:
        return game.record(cast("S", state), players)  # the game of this very state

    return game_of(state).handle(recorded)
