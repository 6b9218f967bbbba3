"""The ``thousand match`` command: one match among bots, told as it goes."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Annotated

import typer

from thousand.common.files import write_file
from thousand.common.text import printable_lines
from thousand.errors import ThousandError
from thousand.players import PlayerError
from thousand.table.faults import FaultPolicy
from thousand.table.sandbox import Isolation
from tournament.cli.app import (
    app,
    bot_limits,
    bot_logs,
    check_folder,
    fail,
    isolation,
    readable,
    seed_line,
)
from tournament.cli.options import (
    ON_FAULT_HELP,
    BotLogLimitOption,
    BotNetworkOption,
    BotReadOption,
    DealOption,
    GameOption,
    IsolateOption,
    LogDirOption,
    NoIsolateOption,
    TimeLimitOption,
)


@app.command()
def match(
    specs: Annotated[
        list[str],
        typer.Argument(metavar="SPEC", help="One bot spec per seat, in seat order."),
    ],
    game: GameOption = "thousand",
    rules_spec: Annotated[
        str | None,
        typer.Option(
            "--rules",
            "-r",
            help="A preset or a rules JSON file; by default russian for 3 players, "
            "polish-2p for 2, russian-4 for 4, and the standard 1000? rules.",
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", help="Seeds the cards and the bots (default: drawn at random)."),
    ] = None,
    deal: DealOption = False,
    time_limit: TimeLimitOption = None,
    on_fault: Annotated[
        FaultPolicy,
        typer.Option(
            "--on-fault",
            metavar="POLICY",
            help=ON_FAULT_HELP,
        ),
    ] = FaultPolicy.FORFEIT,
    isolate: IsolateOption = None,
    no_isolate: NoIsolateOption = False,
    bot_network: BotNetworkOption = False,
    bot_read: BotReadOption = None,
    log_dir: LogDirOption = None,
    bot_log_limit: BotLogLimitOption = None,
    record: Annotated[
        Path | None, typer.Option("--record", help="Also save the match record to this file.")
    ] = None,
) -> None:
    """Play one match among the given bots and print it deal by deal, action by action."""
    from thousand import play
    from thousand.frontends.matchlog import match_log
    from thousand.table.external import SEED_BITS
    from tournament.runner.options import game_name, rules_for, sandbox_for

    if record is not None:
        check_folder(record, "the record")
    drawn = seed is None
    if seed is None:
        seed = secrets.randbits(SEED_BITS)  # a bot in JavaScript reads the record's seed exactly
    try:
        limits = bot_limits(bot_log_limit)
        mode = isolation(isolate, no_isolate) or Isolation.NONE
        walls = sandbox_for(mode, bot_network, readable(bot_read) or ())
        chosen = rules_for(game_name(game), rules_spec, len(specs), len(specs))
        with bot_logs(log_dir) as logs:
            outcome = play(
                specs,
                chosen,
                seed=seed,
                single_deal=deal,
                time_limit=time_limit,
                on_fault=on_fault,
                isolate=mode,
                sandbox=walls,
                log_dir=logs,
                limits=limits,
            )
    except PlayerError as error:
        if error.fault.traceback:
            typer.echo("\n".join(printable_lines(error.fault.traceback)), err=True)
        raise fail(f"a bot failed and --on-fault raise stops the match: {error}") from None
    except (ThousandError, ValueError) as error:
        raise fail(str(error)) from None
    if drawn:
        typer.echo(seed_line(seed))
    typer.echo("\n".join(match_log(outcome)))
    if record is not None:
        try:
            write_file(record, outcome.record.to_json())
        except OSError as error:
            raise fail(f"cannot save the record in {record}: {error.strerror}") from None
        typer.echo(f"record saved to {record}")
