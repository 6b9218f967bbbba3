"""The ``thousand tournament`` command: a tournament among bots, kept, resumed or tested."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from thousand.table.faults import FaultPolicy
from tournament.cli.app import (
    app,
    bot_logs,
    bounded,
    byte_size,
    choose_backend,
    draw_report,
    isolation,
    one_of,
    rating_scale,
    readable,
    reported,
    seed_line,
    sequential_test,
)
from tournament.cli.options import (
    ON_FAULT_HELP,
    BackendOption,
    BotLogLimitOption,
    BotNetworkOption,
    BotReadOption,
    LogDirOption,
    NoIsolateOption,
    PlayersOption,
    RayAddressOption,
    SandboxByDefaultOption,
    WorkersOption,
)


@app.command()
def tournament(
    specs: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="SPEC",
            help="The bots, as bot specs; a spec given twice fields two copies. "
            "Default: greedy random random.",
            show_default=False,
        ),
    ] = None,
    game: Annotated[
        str | None,
        typer.Option(
            "--game",
            "-g",
            metavar="GAME",
            help="thousand (default), or bluff (1000?).",
        ),
    ] = None,
    rules_spec: Annotated[
        str | None,
        typer.Option(
            "--rules",
            "-r",
            help="A preset or a rules JSON file (default russian; polish-2p for --players 2, "
            "russian-4 for 4; 1000?: 4 seats).",
        ),
    ] = None,
    players: PlayersOption = None,
    deals: Annotated[
        str | None,
        typer.Option(
            "--deals",
            metavar="N",
            help="Deals per table, each under every seating (default 4000).",
        ),
    ] = None,
    games: Annotated[
        str | None,
        typer.Option(
            "--games",
            metavar="N",
            help="Whole matches or games per table, in groups played under every seating.",
        ),
    ] = None,
    seed: Annotated[
        str | None,
        typer.Option(
            "--seed", metavar="S", help="Seeds every deal and bot (default: drawn at random)."
        ),
    ] = None,
    workers: WorkersOption = None,
    gauntlet: Annotated[
        str | None,
        typer.Option("--gauntlet", help="Play only the tables of this bot (by its name)."),
    ] = None,
    time_limit: Annotated[
        str | None,
        typer.Option("--time-limit", metavar="S", help="Seconds a bot may take for one decision."),
    ] = None,
    time_quota: Annotated[
        str | None,
        typer.Option("--time-quota", metavar="S", help="Seconds a bot may take per deal or match."),
    ] = None,
    on_fault: Annotated[
        str | None,
        typer.Option(
            "--on-fault",
            metavar="POLICY",
            help=ON_FAULT_HELP,
        ),
    ] = None,
    isolate: SandboxByDefaultOption = None,
    no_isolate: NoIsolateOption = False,
    bot_network: BotNetworkOption = False,
    bot_read: BotReadOption = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Keep the journal and the results here.")
    ] = None,
    resume: Annotated[
        Path | None, typer.Option("--resume", help="Continue the tournament kept in this folder.")
    ] = None,
    records: Annotated[
        bool, typer.Option("--records", help="With --out: keep every match record too.")
    ] = False,
    report: Annotated[
        bool,
        typer.Option(
            "--report/--no-report",
            help="With --out or --resume: draw the report and its pictures once the tournament "
            "ends (--no-report leaves them to 'thousand report').",
        ),
    ] = True,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the summary as JSON instead of a table.")
    ] = False,
    log_dir: LogDirOption = None,
    bot_log_limit: BotLogLimitOption = None,
    backend: BackendOption = "local",
    ray_address: RayAddressOption = None,
    sprt: Annotated[
        str | None,
        typer.Option(
            "--sprt",
            metavar="H0,H1",
            help="Test the first bot against the others, group by group, and stop once its "
            "lead per deal (or game) is shown to be H0 or H1; --deals or --games is the cap.",
        ),
    ] = None,
    alpha: Annotated[
        str | None,
        typer.Option("--alpha", metavar="P", help="With --sprt: the chance of a false H1 (0.05)."),
    ] = None,
    beta: Annotated[
        str | None,
        typer.Option("--beta", metavar="P", help="With --sprt: the chance of a false H0 (0.05)."),
    ] = None,
    anchor: Annotated[
        str | None,
        typer.Option(
            "--anchor",
            metavar="ANCHOR",
            help="Where ratings are measured from: 'ladder' (the default), the built-in bots "
            "held at their reference ratings when any plays; BOT=RATING, one bot given its "
            "rating; or 'mean', the ratings average 1500.",
        ),
    ] = None,
) -> None:
    """Rank bots: every table plays the same deals under every seating.

    Standings: each bot's rating and mean score with 95% intervals, then each pair's lead.

    A bot's options follow its name, as in "pimc(steps=4000)"."""
    from tournament.runner.display import print_standings
    from tournament.runner.journal import Journal
    from tournament.runner.options import Options, configure
    from tournament.runner.progress import ProgressDisplay
    from tournament.runner.run import run_tournament, summary_document

    shown = ProgressDisplay()
    with reported(shown, resume or out, "tournament"), bot_logs(log_dir, resume or out) as logs:
        options = Options(
            specs=tuple(specs or ()),
            game=game,
            rules=rules_spec,
            players=bounded(players, "--players", int, 2),
            deals=bounded(deals, "--deals", int, 1),
            games=bounded(games, "--games", int, 1),
            seed=bounded(seed, "--seed", int, 0),
            gauntlet=gauntlet,
            time_limit=bounded(time_limit, "--time-limit", float, 0.001),
            time_quota=bounded(time_quota, "--time-quota", float, 0.001),
            on_fault=one_of(on_fault, "--on-fault", [policy.value for policy in FaultPolicy]),
            isolate=isolation(isolate, no_isolate),
            bot_network=bot_network or None,
            bot_readable=readable(bot_read),
            sprt=sequential_test(sprt, alpha, beta),
        )
        processes = bounded(workers, "--workers", int, 1)
        log_cap = byte_size(bot_log_limit, "--bot-log-limit")
        if out is not None and resume is not None:
            raise ValueError("give --out for a new tournament or --resume for a kept one")
        if records and out is None and resume is None:
            raise ValueError("--records needs --out (where to keep them)")
        saved = Journal.saved_config(resume) if resume is not None else None
        config = configure(options, saved)
        pinned, ladder_used = rating_scale(anchor, config)
        chosen = choose_backend(backend, ray_address, processes)
        if saved is None and options.seed is None:
            shown.heading = seed_line(config.seed)
        shown.follow(config)
        try:
            summary = run_tournament(
                config,
                backend=chosen,
                workers=processes or os.cpu_count() or 1,
                out=resume or out,
                resume=resume is not None,
                keep_records=records,
                log_dir=logs,
                bot_log_limit=log_cap,
                progress=shown,
                on_verdict=shown.show_verdict,
                on_results=shown.add,
                anchor=pinned,
            )
        finally:
            shown.stop()
    if as_json:
        typer.echo(json.dumps(summary_document(config, summary), indent=2, sort_keys=True))
    else:
        print_standings(config, summary, sys.stdout, ladder_used)
    if (kept := resume or out) is not None and report:
        draw_report(kept, summary, pinned)
