"""The ``thousand ladder`` command: a bot rated on the reference scale of the built-in bots."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from thousand.errors import ThousandError

if TYPE_CHECKING:
    from tournament.runner.summary import Anchor

from tournament.cli.app import (
    app,
    bot_logs,
    bounded,
    byte_size,
    check_folder,
    draw_report,
    fail,
    isolation,
    ladder_bots,
    rated_line,
    readable,
    reported,
    seed_line,
)
from tournament.cli.options import (
    BotLogLimitOption,
    BotNetworkOption,
    BotReadOption,
    LogDirOption,
    NoIsolateOption,
    PlayersOption,
    SandboxByDefaultOption,
    WorkersOption,
)


@app.command()
def ladder(
    bot: Annotated[
        str | None,
        typer.Argument(
            metavar="[BOT]",
            help="The bot to rate, as a bot spec. Without one, the reference ratings are listed.",
            show_default=False,
        ),
    ] = None,
    game: Annotated[
        str | None, typer.Option("--game", "-g", help="thousand (default), or bluff (1000?).")
    ] = None,
    rules_spec: Annotated[
        str | None,
        typer.Option("--rules", "-r", help="A preset or a rules JSON file (default russian)."),
    ] = None,
    players: PlayersOption = None,
    deals: Annotated[
        str | None,
        typer.Option("--deals", metavar="N", help="Deals per table (default: as the ladder's)."),
    ] = None,
    games: Annotated[
        str | None,
        typer.Option("--games", metavar="N", help="Whole matches or games per table instead."),
    ] = None,
    seed: Annotated[
        str | None,
        typer.Option("--seed", metavar="S", help="Seeds every deal and bot (default: drawn)."),
    ] = None,
    workers: WorkersOption = None,
    rungs: Annotated[
        str | None,
        typer.Option(
            "--rungs",
            metavar="BOT,BOT",
            help="Play only these bots of the ladder (default: all of them).",
        ),
    ] = None,
    isolate: SandboxByDefaultOption = None,
    no_isolate: NoIsolateOption = False,
    bot_network: BotNetworkOption = False,
    bot_read: BotReadOption = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Keep the games and the results here.")
    ] = None,
    log_dir: LogDirOption = None,
    bot_log_limit: BotLogLimitOption = None,
    resume: Annotated[
        Path | None, typer.Option("--resume", help="Continue the rating kept in this folder.")
    ] = None,
    calibrate: Annotated[
        bool,
        typer.Option(
            "--calibrate",
            help="Measure the reference ratings again: a round robin of the ladder's bots, "
            "greedy fixed at 1500, compared with the ratings shipped.",
        ),
    ] = False,
    write: Annotated[
        Path | None,
        typer.Option("--write", help="With --calibrate: save the ratings measured in this file."),
    ] = None,
) -> None:
    """Rate a bot on the reference scale, where the built-in bots have fixed ratings.

    The bot plays every table it can make with the ladder's bots (random, greedy, and pimc and
    ismcts at 250 and 1000 steps), every deal under every seating; its rating is read with the
    ladder's bots held, on average, at their reference ratings, so it means the same on any
    machine and any day. Without a bot, the reference ratings are listed."""
    import attrs

    from tournament.runner.display import ladder_lines, print_standings
    from tournament.runner.journal import Journal
    from tournament.runner.ladder import (
        FIXED,
        RUNGS,
        ladder_anchor,
        ladder_for,
        load_ladders,
        measured_ladder,
        save_ladder,
    )
    from tournament.runner.options import Options, configure
    from tournament.runner.progress import ProgressDisplay
    from tournament.runner.run import run_tournament

    if bot is None and not calibrate and resume is not None:
        # A kept rating says itself which it was: a bot's gauntlet, or a calibration.
        try:
            kept = Journal.saved_config(resume)
        except (ThousandError, ValueError, OSError) as error:
            raise fail(str(error)) from None
        bot = kept.entrants[0].spec if kept.gauntlet is not None else None
        calibrate = bot is None
    if bot is None and not calibrate:
        if write is not None or rungs is not None:
            raise fail("--write and --rungs go with a bot to rate or with --calibrate")
        typer.echo("\n".join(ladder_lines(load_ladders().values())))
        return
    if bot is not None and calibrate:
        raise fail("--calibrate measures the ladder itself: give no bot with it")
    if write is not None and not calibrate:
        raise fail("--write goes with --calibrate")
    if write is not None:
        check_folder(write, "the ratings")
    shown = ProgressDisplay()
    with reported(shown, resume or out, "ladder"), bot_logs(log_dir, resume or out) as logs:
        log_cap = byte_size(bot_log_limit, "--bot-log-limit")
        if out is not None and resume is not None:
            raise ValueError("give --out for a new rating or --resume for a kept one")
        saved = Journal.saved_config(resume) if resume is not None else None
        if saved is not None and rungs is None:
            # Resumed as it was started: with the ladder's bots it was started with.
            played = [entrant.spec for entrant in saved.entrants[0 if bot is None else 1 :]]
            chosen = tuple(spec for spec in RUNGS if spec in played)
        else:
            chosen = ladder_bots(rungs, RUNGS)
        if bot is None and FIXED[0] not in chosen:
            raise ValueError(f"--calibrate needs {FIXED[0]}, whose rating is fixed")
        specs = chosen if bot is None else (bot, *chosen)
        options = Options(
            specs=specs,
            game=game,
            rules=rules_spec,
            players=bounded(players, "--players", int, 2),
            deals=bounded(deals, "--deals", int, 1),
            games=bounded(games, "--games", int, 1),
            seed=bounded(seed, "--seed", int, 0),
            gauntlet=bot,
            isolate=isolation(isolate, no_isolate),
            bot_network=bot_network or None,
            bot_readable=readable(bot_read),
        )
        processes = bounded(workers, "--workers", int, 1)
        config = configure(options, saved)
        reference = ladder_for(config)
        if reference is None and bot is not None:
            raise ValueError(
                "no reference ratings were measured for these rules and this table size; "
                "thousand ladder lists the ones there are"
            )
        if saved is None and options.deals is None and options.games is None and reference:
            config = attrs.evolve(config, format=reference.format, per_table=reference.per_table)
        if bot is None:
            anchor: Anchor | None = (FIXED,)
        else:
            assert reference is not None
            anchor = ladder_anchor(config, reference, skip=(bot,))
        if saved is None and options.seed is None:
            shown.heading = seed_line(config.seed)
        shown.follow(config)
        try:
            summary = run_tournament(
                config,
                workers=processes or os.cpu_count() or 1,
                out=resume or out,
                resume=resume is not None,
                log_dir=logs,
                bot_log_limit=log_cap,
                progress=shown,
                on_results=shown.add,
                anchor=anchor,
            )
        finally:
            shown.stop()
        if bot is None:
            measured = measured_ladder(config, summary)
            found = ladder_lines([measured], against=reference)
            if write is not None:
                save_ladder(write, measured)
                found.append(f"ratings saved to {write}")
        else:
            assert reference is not None
            found = [rated_line(config, summary, reference)]
    print_standings(config, summary, sys.stdout, reference if bot is not None else None)
    typer.echo("\n" + "\n".join(found))
    if (folder := resume or out) is not None:
        draw_report(folder, summary, anchor)
