"""The ``thousand check-bot`` command: a bot tried against every rule of fair play."""

from __future__ import annotations

import functools
import json
from typing import Annotated

import typer

from thousand.common.text import printable
from thousand.errors import ThousandError
from thousand.table.sandbox import Isolation
from tournament.cli.app import (
    app,
    bot_limits,
    bot_logs,
    fail,
    isolation,
    readable,
    supported_games,
)
from tournament.cli.options import (
    BotLogLimitOption,
    BotNetworkOption,
    BotReadOption,
    IsolateOption,
    LogDirOption,
    NoIsolateOption,
    SeedOption,
)


@app.command("check-bot")
def check_bot_command(
    spec: Annotated[str, typer.Argument(help="The bot to check, as a bot spec.")],
    game: Annotated[
        str | None,
        typer.Option("--game", "-g", help="Check in this game only: thousand or bluff."),
    ] = None,
    decisions: Annotated[
        int, typer.Option("--decisions", "-n", min=1, help="Decisions to ask per game.")
    ] = 300,
    seed: SeedOption = 1,
    time_limit: Annotated[
        float,
        typer.Option("--time-limit", min=0.001, help="Seconds the bot may take per decision."),
    ] = 1.0,
    isolate: IsolateOption = None,
    no_isolate: NoIsolateOption = False,
    bot_network: BotNetworkOption = False,
    bot_read: BotReadOption = None,
    log_dir: LogDirOption = None,
    bot_log_limit: BotLogLimitOption = None,
) -> None:
    """Play a bot against random opponents in both games and report every fault it makes.

    A bot with a games attribute, such as games = ("thousand",), is checked in those games
    only (with --isolate, give --game instead). Exits with status 1 when the bot made any
    fault.
    """
    from thousand import load_player
    from tournament.checkbot import GAMES as CHECK_GAMES
    from tournament.checkbot import check_bot, traceback_lines
    from tournament.runner.options import game_name, sandbox_for

    try:
        limits = bot_limits(bot_log_limit)
        mode = isolation(isolate, no_isolate) or Isolation.NONE
        walls = sandbox_for(mode, bot_network, readable(bot_read) or ())
        if game is not None:
            games = [game_name(game)]
        elif mode is not Isolation.NONE:
            load_player(spec, isolate=mode, sandbox=walls)
            games = list(CHECK_GAMES)
        else:
            games = supported_games(spec)
        check = functools.partial(
            check_bot,
            spec,
            decisions=decisions,
            seed=seed,
            time_limit=time_limit,
            isolate=mode,
            sandbox=walls,
            limits=limits,
        )
        with bot_logs(log_dir) as logs:
            reports = [check(name, log_dir=logs) for name in games]
    except (ThousandError, ValueError) as error:
        raise fail(str(error)) from None
    faults = 0
    shown: set[str] = set()
    for report in reports:
        typer.echo(report.line())
        for fault in report.faults:
            typer.echo(f"  {fault.status} at decision {fault.decision}: {printable(fault.detail)}")
            for line in traceback_lines(fault, shown):
                typer.echo(line)
            typer.echo(
                f"    it was shown: {json.dumps(fault.observation.to_dict(with_rules=False))}"
            )
        faults += len(report.faults)
    if faults:
        raise typer.Exit(code=1)
    typer.echo(f"{printable(spec)}: no faults")
