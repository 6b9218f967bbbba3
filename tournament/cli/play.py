"""The ``thousand play`` command: a person at the terminal against bots."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from thousand.errors import ThousandError
from thousand.players import PlayerError
from thousand.table.sandbox import Isolation
from tournament.cli.app import (
    app,
    check_folder,
    fail,
    game_name_or_fail,
    isolation,
    readable,
)
from tournament.cli.options import (
    BotNetworkOption,
    BotReadOption,
    DealOption,
    GameOption,
    IsolateOption,
    NoIsolateOption,
)


@app.command("play")
def play_command(
    game: GameOption = "thousand",
    rules_spec: Annotated[
        str | None,
        typer.Option(
            "--rules",
            "-r",
            help="A preset or a rules JSON file; by default russian (polish-2p with one "
            "opponent), and the standard 1000? rules.",
        ),
    ] = None,
    opponents: Annotated[
        list[str] | None,
        typer.Option(
            "--vs",
            metavar="BOT",
            help="An opponent, as a bot spec; repeat for each seat. Default: greedy in "
            "every other seat (three of them in 1000?).",
            show_default=False,
        ),
    ] = None,
    seat: Annotated[
        int, typer.Option("--seat", min=0, help="Your seat, counted clockwise from 0.")
    ] = 0,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", help="Seeds the cards and the bots; by default a new game each time."
        ),
    ] = None,
    deal: DealOption = False,
    record: Annotated[
        Path | None,
        typer.Option("--record", help="Where to save the record (default: a new file here)."),
    ] = None,
    pace: Annotated[
        float, typer.Option("--pace", min=0.0, help="Seconds between the bots' actions.")
    ] = 0.6,
    isolate: IsolateOption = None,
    no_isolate: NoIsolateOption = False,
    bot_network: BotNetworkOption = False,
    bot_read: BotReadOption = None,
) -> None:
    """Play against bots in the terminal.

    The table is shown as your seat sees it, with your choices numbered: type a number, a card
    (KH, 10h, k♥; 06 in 1000?) or ? for help. The record is saved at the end, or when you stop
    with quit or Ctrl-C.
    """
    import attrs

    from thousand import load_player
    from thousand.frontends.matchlog import standings_lines as final_standings
    from thousand.frontends.terminal_game import play_at_terminal
    from tournament.runner.options import rules_for, sandbox_for

    name = game_name_or_fail(game)
    try:
        specs = list(opponents or [])
        players = len(specs) + 1 if specs else None
        chosen = rules_for(name, rules_spec, players, 4)
        specs = specs or ["greedy"] * (chosen.players - 1)
        if seat >= chosen.players:
            raise ValueError(
                f"--seat must be 0 to {chosen.players - 1} for {chosen.players} players"
            )
        mode = isolation(isolate, no_isolate) or Isolation.NONE
        walls = sandbox_for(mode, bot_network, readable(bot_read) or ())
        for spec in specs:
            load_player(spec, isolate=mode, sandbox=walls)
    except (ThousandError, ValueError) as error:
        raise fail(str(error)) from None
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
    if record is None:
        record = Path(f"thousand-{name}-{time.strftime('%Y%m%d-%H%M%S')}-{seed}.json")
    check_folder(record, "the record")
    colour = sys.stdout.isatty() and "NO_COLOR" not in os.environ
    typer.echo(f"Seed {seed}. Type ? for help, quit or Ctrl-C to stop.")
    try:
        played = play_at_terminal(
            chosen,
            specs,
            seat,
            seed,
            record,
            single_deal=deal,
            pace=pace,
            colour=colour,
            isolate=mode,
            sandbox=walls,
        )
    except PlayerError as error:
        raise fail(f"a bot failed: {error}") from None
    except (ThousandError, OSError) as error:
        raise fail(str(error)) from None
    if played.outcome is None:
        typer.echo(f"\nStopped. The game so far is saved in {played.record_path}")
        typer.echo(f"Watch it again with: thousand replay {played.record_path}")
        raise typer.Exit(code=130)
    typer.echo("")
    typer.echo("\n".join(final_standings(attrs.evolve(played.outcome, players=played.names))))
    typer.echo(f"The record is saved in {played.record_path}")
    typer.echo(f"Watch it again with: thousand replay {played.record_path}")
