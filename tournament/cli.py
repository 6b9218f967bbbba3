"""The ``thousand`` command line."""

from __future__ import annotations

import contextlib
import functools
import json
import math
import os
import re
import secrets
import shlex
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from typer.core import TyperGroup

from thousand.common.files import write_file
from thousand.errors import ThousandError
from thousand.table.faults import FaultPolicy
from thousand.table.players import PlayerError
from thousand.table.sandbox import Isolation
from tournament.text import printable, printable_lines, table_lines

# The engines, the bots and the runner load only in the commands that use them, so that
# "thousand --help" starts quickly.
if TYPE_CHECKING:
    from thousand.table.external import BotLimits
    from tournament.runner.backends import Backend
    from tournament.runner.ladder import Ladder
    from tournament.runner.progress import ProgressDisplay
    from tournament.runner.schedule import Config
    from tournament.runner.sprt import Hypotheses
    from tournament.runner.summary import Anchor, Summary

Number = TypeVar("Number", int, float)

_CLICK_ERROR: type[Exception] = next(
    kind for kind in typer.BadParameter.__mro__ if kind.__name__ == "ClickException"
)
"""The errors typer's parser raises for a mistyped command line (found through a public name,
as typer may bring its own copy of click)."""


class _Commands(TyperGroup):
    """The commands, their usage errors told in one line like every other error, and their flags
    shown in the help without a ``<bool>`` placeholder."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        with _one_line_usage_errors():
            return super().parse_args(ctx, _bare_isolate(args))

    def invoke(self, ctx: Any) -> Any:
        with _one_line_usage_errors():
            return super().invoke(ctx)

    def get_params(self, ctx: Any) -> list[Any]:
        return _bare_flags(super().get_params(ctx))

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            _bare_flags(command.get_params(ctx))
        return command


@contextlib.contextmanager
def _one_line_usage_errors() -> Iterator[None]:
    """A usage error (unknown command or option, bad value, missing argument) as one line with
    click's exit status, 2; the bare ``thousand`` still shows the help."""
    try:
        yield
    except _CLICK_ERROR as error:
        if type(error).__name__ == "NoArgsIsHelpError":
            raise
        usage: Any = error
        message = " ".join(usage.format_message().split()).rstrip(".")
        hint = f"; see {usage.ctx.command_path} --help" if getattr(usage, "ctx", None) else ""
        raise fail(message[:1].lower() + message[1:] + hint, usage.exit_code) from None


def _bare_isolate(args: list[str]) -> list[str]:
    """``--isolate`` given alone means the sandbox: it takes the word after it only when that
    word names an isolation, so that ``--isolate mybot.py:Bot`` still leaves the bot a bot."""
    kinds = {kind.value for kind in Isolation}
    given = list(args)
    for index, word in enumerate(given):
        if word == "--":
            break
        if word == "--isolate" and (index + 1 == len(given) or given[index + 1] not in kinds):
            given[index] = f"--isolate={Isolation.SANDBOX.value}"
    return given


PLACEHOLDERS = {"str": "TEXT", "int": "N", "float": "NUMBER", "Path": "PATH"}
"""The word the help shows for a value of each type whose option names no placeholder of its
own."""


def _bare_flags(params: list[Any]) -> list[Any]:
    """``params`` shown in the help without a typed placeholder such as ``<bool>`` or ``<str>``:
    a flag takes no value and shows none, another option shows a plain word, and an argument
    shows only its name."""
    for param in params:
        if getattr(param, "is_flag", False):
            param.metavar = ""
        elif param.param_type_name == "argument":
            param.display_type_rich = _no_type
        elif param.metavar is None:
            kind = param.bare_type()
            param.metavar = PLACEHOLDERS.get(kind, kind.upper())
    return params


def _no_type(ctx: Any) -> None:
    """An argument's type, as the help shows it beside its name: not at all."""
    return None


app = typer.Typer(
    name="thousand",
    cls=_Commands,
    help="The card game Thousand (Тысяча, Tysiąc): rules, matches and bot tournaments.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def show_version(wanted: bool) -> None:
    """Print the installed version of thousand and stop."""
    if wanted:
        import importlib.metadata

        typer.echo(f"thousand {importlib.metadata.version('thousand')}")
        raise typer.Exit()


@app.callback()
def options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=show_version, is_eager=True, help="Print the version and stop."
        ),
    ] = False,
) -> None:
    """The options of thousand itself, before the command."""


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print a one-line error and return the exit to raise."""
    typer.echo(f"error: {printable(message)}", err=True)
    return typer.Exit(code=code)


def check_folder(path: Path, what: str) -> None:
    """Fail before any work when ``path`` lies in a folder that does not exist, rather than
    after a whole match when ``what`` cannot be saved."""
    if not path.parent.is_dir():
        raise fail(f"cannot save {what} in {path.parent}: no such folder")


PlayersOption = Annotated[
    str | None, typer.Option("--players", "-k", metavar="N", help="Seats per table.")
]
WorkersOption = Annotated[
    str | None,
    typer.Option("--workers", "-w", metavar="N", help="Worker processes (default: the cores)."),
]
RulesOption = Annotated[
    str,
    typer.Option(
        "--rules",
        "-r",
        help="A preset (russian, polish, polish-2p) or a JSON file of rules fields.",
    ),
]


@app.command()
def rules(
    preset: Annotated[
        str | None,
        typer.Argument(help="Show only this preset, this rules JSON file, or '1000?'."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the rules as JSON.")] = False,
) -> None:
    """List the Thousand presets and the 1000? rules, with every field of each."""
    from thousand import Rules, bluff
    from thousand.games import BLUFF
    from tournament.rules_text import bluff_lines, thousand_lines
    from tournament.runner.setup import load_rules

    with_bluff = preset is None or preset == BLUFF.name
    try:
        if preset is None:
            chosen = {name: Rules.preset(name) for name in Rules.preset_names()}
        elif preset == BLUFF.name:
            chosen = {}
        else:
            chosen = {preset: load_rules(preset, also=f", '{BLUFF.name}'")}
    except ThousandError as error:
        raise fail(str(error)) from None
    if as_json:
        data = {name: value.to_dict() for name, value in chosen.items()}
        if with_bluff:
            data[BLUFF.name] = bluff.Rules().to_dict()
        typer.echo(json.dumps(data, indent=2))
        return
    sections = [thousand_lines(chosen)] if chosen else []
    if with_bluff:
        sections.append(bluff_lines(bluff.Rules()))
    typer.echo("\n\n".join("\n".join(lines) for lines in sections))


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
            help="What a bot's fault leads to: forfeit (the default), substitute or raise.",
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
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the summary as JSON instead of a table.")
    ] = False,
    log_dir: LogDirOption = None,
    bot_log_limit: BotLogLimitOption = None,
    backend: Annotated[
        str,
        typer.Option(
            "--backend",
            metavar="[local|ray]",
            help="local worker processes, or ray for a Ray cluster.",
        ),
    ] = "local",
    ray_address: Annotated[
        str | None,
        typer.Option(
            "--ray-address", help="With --backend ray: the cluster (default: a local instance)."
        ),
    ] = None,
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
    from tournament.runner.progress import ProgressDisplay
    from tournament.runner.run import run_tournament, summary_document
    from tournament.runner.setup import Options, configure

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
    if (kept := resume or out) is not None:
        draw_report(kept, summary, pinned)


def draw_report(folder: Path, summary: Summary, anchor: Anchor | None) -> None:
    """After a tournament kept in ``folder``: draw its pictures and report and say where, or
    say once how to get them."""
    from tournament.runner.report import PicturesUnavailable, write_report

    try:
        page = write_report(folder, summary=summary, anchor=anchor)
    except PicturesUnavailable as error:
        typer.echo(str(error), err=True)
        return
    except ValueError as error:
        raise fail(str(error)) from None
    except OSError as error:
        raise fail(f"cannot write the report in {folder}: {error.strerror}") from None
    except KeyboardInterrupt:
        where = shlex.quote(str(folder))
        typer.echo(f"stopped drawing the report; draw it with: thousand report {where}", err=True)
        raise typer.Exit(code=130) from None
    typer.echo(f"report: {page}", err=True)


@app.command()
def report(
    folder: Annotated[
        Path,
        typer.Argument(metavar="DIR", help="A tournament's folder, as given to --out."),
    ],
) -> None:
    """Draw a tournament's pictures and web page, report.html, finished or still running."""
    from tournament.runner.report import PLOTS, write_report

    try:
        page = write_report(folder)
    except ValueError as error:
        raise fail(str(error)) from None
    except OSError as error:
        raise fail(f"{error.filename or folder}: {error.strerror}") from None
    typer.echo(f"wrote {page} and the pictures in {folder / PLOTS}")


@app.command("train-bidding")
def train_bidding(
    rules_specs: Annotated[
        list[str] | None,
        typer.Option(
            "--rules",
            "-r",
            metavar="RULES",
            help="A preset or a rules JSON file to train for; repeat for several "
            "(default: every preset).",
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seeds the simulated deals.")] = 1,
    decisions: Annotated[
        int, typer.Option("--decisions", min=26, help="Bid decisions simulated for each model.")
    ] = 40_000,
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Where to save the models (JSON).")
    ] = Path("bidding.json"),
) -> None:
    """Fit pimc's bidding models to simulated deals and save them.

    pimc uses a file of its own with pimc(bidding=FILE); the shipped models come from the
    defaults."""
    from thousand import Rules
    from thousand.bots.auction_value import AuctionValues
    from thousand.bots.search import train_bidding as fit
    from tournament.runner.setup import load_rules

    check_folder(out, "the models")
    try:
        chosen = [load_rules(spec) for spec in rules_specs or Rules.preset_names()]
    except ThousandError as error:
        raise fail(str(error)) from None
    models = []
    for rules in chosen:
        began = time.perf_counter()
        model = fit(rules, seed=seed, decisions=decisions)
        name = rules.preset_name() or "rules file"
        typer.echo(
            f"{name}: {decisions} decisions in {time.perf_counter() - began:.0f} s, "
            f"worth {model.worlds:.0f} sampled deals"
        )
        models.append(model)
    try:
        write_file(out, AuctionValues(seed=seed, models=tuple(models)).to_json())
    except OSError as error:
        raise fail(f"cannot save the models in {out}: {error.strerror}") from None
    typer.echo(f"saved to {out}")


GameOption = Annotated[
    str,
    typer.Option("--game", "-g", help="thousand, or bluff for 1000?."),
]
SeedOption = Annotated[int, typer.Option("--seed", help="Seeds the cards and the bots.")]
TimeLimitOption = Annotated[
    float | None,
    typer.Option("--time-limit", min=0.001, help="Seconds a bot may take for one decision."),
]
ISOLATE_HELP = (
    "Keep bots that are not built in apart from the game: sandbox (--isolate alone) walls "
    "each in, away from your files and the network; process gives each its own process, "
    "which can still read your files; none runs them inside this program (default: {})."
)
IsolateOption = Annotated[
    Isolation | None,
    typer.Option(
        "--isolate", metavar="[MODE]", help=ISOLATE_HELP.format("none"), show_default=False
    ),
]
SandboxByDefaultOption = Annotated[
    Isolation | None,
    typer.Option(
        "--isolate", metavar="[MODE]", help=ISOLATE_HELP.format("sandbox"), show_default=False
    ),
]
NoIsolateOption = Annotated[
    bool,
    typer.Option("--no-isolate", help="Same as --isolate none: trust the bots' code."),
]
BotNetworkOption = Annotated[
    bool, typer.Option("--bot-network", help="Let sandboxed bots use the network.")
]
BotReadOption = Annotated[
    list[Path] | None,
    typer.Option(
        "--bot-read",
        metavar="PATH",
        help="A file or folder sandboxed bots may read besides their own folder (a model's "
        "data, say); repeat for more.",
        show_default=False,
    ),
]
LogDirOption = Annotated[
    str | None,
    typer.Option(
        "--log-dir",
        help="Where the error output of bots in processes of their own is kept (default: "
        "logs in the --out folder, or a fresh folder, named at the end).",
    ),
]
BotLogLimitOption = Annotated[
    str | None,
    typer.Option(
        "--bot-log-limit",
        metavar="SIZE",
        help="Bytes of error output each such bot may leave in the logs of the run, "
        "such as 512K, 16M (the default) or 1G.",
    ),
]


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
    from tournament.runner.progress import ProgressDisplay
    from tournament.runner.run import run_tournament
    from tournament.runner.setup import Options, configure

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


@app.command()
def bots() -> None:
    """List every bot that can be named by its name, and where it comes from."""
    from thousand import available_bots

    rows = [["bot", "from", "about"]]
    rows.extend([bot.name, bot.origin, bot.summary] for bot in available_bots())
    typer.echo("\n".join(table_lines(rows)))
    typer.echo(
        "\nAny bot can also be named as package.module:Class, path/to/file.py:Class, "
        "or cmd:<command> for an external program."
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
    deal: Annotated[
        bool, typer.Option("--deal", help="Thousand: play one deal instead of a match.")
    ] = False,
    time_limit: TimeLimitOption = None,
    on_fault: Annotated[
        FaultPolicy,
        typer.Option(
            "--on-fault",
            metavar="POLICY",
            help="What a bot's fault leads to: forfeit (the default), substitute or raise.",
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
    from thousand.table.external import SEED_BITS
    from tournament.frontends.matchlog import match_log
    from tournament.runner.setup import game_name, rules_for, sandbox_for

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
    deal: Annotated[
        bool, typer.Option("--deal", help="Thousand: play one deal instead of a match.")
    ] = False,
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
    from tournament.frontends.matchlog import standings_lines as final_standings
    from tournament.frontends.terminal_game import play_at_terminal
    from tournament.runner.setup import rules_for, sandbox_for

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


@app.command()
def replay(
    record_path: Annotated[
        Path, typer.Argument(metavar="RECORD", help="A match record (JSON) of either game.")
    ],
    seat: Annotated[
        int | None,
        typer.Option("--seat", min=0, help="Show only what this seat could see."),
    ] = None,
    html: Annotated[
        Path | None,
        typer.Option(
            "--html",
            help="Write one web page that steps through the match, all hands shown, "
            "instead of printing it.",
        ),
    ] = None,
) -> None:
    """Watch a recorded match again: deal by deal and trick by trick with the scores."""
    from thousand.common.record_io import read_text
    from thousand.games import record_from_json
    from tournament.frontends.html_replay import html_page
    from tournament.frontends.narration import replay_lines

    if html is not None:
        check_folder(html, "the page")
    try:
        loaded = record_from_json(read_text(record_path))
        if seat is not None and seat >= loaded.rules.players:
            raise ValueError(
                f"--seat must be 0 to {loaded.rules.players - 1}: "
                f"the record has {loaded.rules.players} players"
            )
        if html is not None:
            write_file(html, html_page(loaded))
            typer.echo(f"wrote {html}")
            return
        colour = sys.stdout.isatty() and "NO_COLOR" not in os.environ
        lines = replay_lines(loaded, viewer=seat, colour=colour)
    except (ThousandError, ValueError) as error:
        raise fail(f"{record_path}: {error}") from None
    except OSError as error:
        raise fail(f"cannot write {html}: {error.strerror}") from None
    typer.echo("\n".join(lines))


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
    from tournament.runner.setup import game_name, sandbox_for

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


def isolation(chosen: Isolation | None, off: bool) -> Isolation | None:
    """The isolation the command line asks for: ``--isolate``'s, or none with
    ``--no-isolate``; ``None`` when it says nothing."""
    if off and chosen is not None:
        raise ValueError("give --isolate or --no-isolate, not both")
    return Isolation.NONE if off else chosen


def readable(paths: list[Path] | None) -> tuple[str, ...] | None:
    """The ``--bot-read`` paths, absolute; ``None`` when there are none."""
    return tuple(os.path.abspath(path) for path in paths) if paths else None


def seed_line(seed: int) -> str:
    """The line naming a seed drawn at random, so that the run can be played again."""
    return f"seed {seed} (play it again with --seed {seed})"


def bounded(text: str | None, option: str, kind: type[Number], least: Number) -> Number | None:
    """A number option's value, refused in one line unless it is a number of ``kind`` of at
    least ``least``."""
    if text is None:
        return None
    try:
        value = kind(text)
    except ValueError:
        value = None
    if value is None or not value >= least:
        what = "a whole number" if kind is int else "a number"
        raise ValueError(f"{option} must be {what} of at least {least}, not {text}")
    return value


SIZES = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
"""The multiples a size may end with (binary: 1K is 1,024 bytes), an optional B or iB after."""


def byte_size(text: str | None, option: str) -> int | None:
    """A size option's bytes (``512K``, ``16M``, ``1G``, ``1000``), refused in one line unless it
    is a whole number of bytes, kibibytes, mebibytes or gibibytes (0 and up)."""
    if text is None:
        return None
    found = re.fullmatch(r"(\d{1,15}) ?([kmg]?)(?:i?b)?", text.strip().lower())
    if found is None:
        raise ValueError(f"{option} must be a size such as 512K, 16M or 1G, not {text!r}")
    return int(found[1]) * SIZES[found[2]]


def bot_limits(text: str | None) -> BotLimits:
    """The caps on bots in processes of their own, with ``--bot-log-limit``'s size."""
    from thousand import BotLimits

    size = byte_size(text, "--bot-log-limit")
    return BotLimits() if size is None else BotLimits(log=size)


@contextlib.contextmanager
def bot_logs(chosen: str | None, kept: Path | None = None) -> Iterator[str]:
    """The folder of a run's bot logs (see :func:`~thousand.table.botlogs.log_folder`): removed
    at the end if it was made fresh and no bot wrote there, and named on the standard error when
    the run ends without an error (whose message stays one line) if a bot did."""
    from thousand.table.botlogs import log_folder

    folder = log_folder(chosen, kept)
    before = _contents(folder)
    try:
        yield str(folder)
    finally:
        if not chosen and kept is None:
            with contextlib.suppress(OSError):
                folder.rmdir()
    if _contents(folder) != before:
        typer.echo(f"bot logs: {printable(str(folder))}", err=True)


def _contents(folder: Path) -> dict[str, int]:
    """The files of a folder (none when it is missing), with their sizes."""
    try:
        return {entry.name: entry.stat().st_size for entry in os.scandir(folder)}
    except OSError:
        return {}


def one_of(text: str | None, option: str, choices: Sequence[str]) -> str | None:
    """An option's value, refused in one line unless it is one of ``choices``."""
    if text is None or text in choices:
        return text
    listed = ", ".join(choices[:-1]) + " or " + choices[-1]
    raise ValueError(f"{option} must be {listed}, not {text!r}")


def sequential_test(text: str | None, alpha: str | None, beta: str | None) -> Hypotheses | None:
    """The ``--sprt`` test asked for, refused in one line when malformed."""
    from tournament.runner.sprt import parse_hypotheses

    if text is None:
        if alpha is not None or beta is not None:
            raise ValueError("--alpha and --beta go with --sprt")
        return None
    chosen_alpha = bounded(alpha, "--alpha", float, 0.0)
    chosen_beta = bounded(beta, "--beta", float, 0.0)
    return parse_hypotheses(
        text,
        0.05 if chosen_alpha is None else chosen_alpha,
        0.05 if chosen_beta is None else chosen_beta,
    )


def anchored(text: str) -> tuple[str, float]:
    """The ``--anchor`` bot and rating, refused in one line when malformed."""
    name, equals, value = text.rpartition("=")
    try:
        rating = float(value)
    except ValueError:
        rating = math.nan
    if not equals or not name or not math.isfinite(rating):
        raise ValueError(
            f"--anchor takes BOT=RATING, such as greedy=1500, or ladder or mean; not {text!r}"
        )
    from tournament.runner.summary import check_anchor_rating

    try:
        check_anchor_rating(rating)
    except ValueError as error:
        raise ValueError(f"--anchor {text}: {error}") from None
    return name, rating


def rating_scale(text: str | None, config: Config) -> tuple[Anchor | None, Ladder | None]:
    """Where ``--anchor`` measures ratings from, and the ladder when it is the reference scale.

    By default (and with ``ladder``) one entrant that is a bot of the reference ladder is held
    at its reference rating; with no ladder for these rules or no ladder bot among the
    entrants, the default falls back to ``mean`` (ratings average 1500). A bot given its own
    reference rating by hand is on the reference scale too."""
    from tournament.runner.ladder import RUNGS, anchored_ladder, ladder_for, reference_scale

    if text == "mean":
        return None, None
    if text is None or text == "ladder":
        scale = reference_scale(config)
        if scale is not None:
            return scale
        if text is None:
            return None, None
        if ladder_for(config) is None:
            raise ValueError(
                "--anchor ladder: no reference ratings were measured for these rules and this "
                "table size (thousand ladder lists them)"
            )
        raise ValueError(f"--anchor ladder needs one of the ladder's bots: {', '.join(RUNGS)}")
    name, rating = anchored(text)
    names = [entrant.name for entrant in config.entrants]
    if name not in names:
        raise ValueError(f"--anchor names {name!r}, which is not among {', '.join(names)}")
    anchor = ((name, rating),)
    return anchor, anchored_ladder(config, anchor)


def ladder_bots(text: str | None, known: Sequence[str]) -> tuple[str, ...]:
    """The ladder's bots named by ``--rungs`` (all of them by default), in the ladder's order."""
    if text is None:
        return tuple(known)
    named = [name.strip() for name in text.split(",") if name.strip()]
    for name in named:
        if name not in known:
            raise ValueError(f"--rungs: {name!r} is not on the ladder ({', '.join(known)})")
    if len(set(named)) < 2:
        raise ValueError("--rungs needs at least two of the ladder's bots")
    return tuple(spec for spec in known if spec in named)


def rated_line(config: Config, summary: Summary, ladder: Ladder) -> str:
    """What ``thousand ladder BOT`` found: the bot's rating on the reference scale, its interval
    (counting the uncertainty of the reference ratings too), and the ladder's bots either side."""
    from tournament.runner.ladder import reference_interval

    name = config.entrants[0].name
    standing = next(standing for standing in summary.standings if standing.name == name)
    if standing.rating is None:
        return f"{name} played no deal, so it has no rating"
    held = dict(summary.anchor or ())
    anchored = [entrant.spec for entrant in config.entrants if entrant.name in held]
    if standing.rating_interval is None:
        spread = "no 95% interval, as the line under the standings says"
    else:
        low, high = reference_interval(standing.rating, standing.rating_interval, ladder, anchored)
        spread = f"95% interval {low:.0f} to {high:.0f}"
    below = [rung for rung in ladder.rungs if rung.rating <= standing.rating]
    above = [rung for rung in ladder.rungs if rung.rating > standing.rating]
    near = []
    if below:
        best = max(below, key=lambda rung: rung.rating)
        near.append(f"above {best.bot} ({best.rating:.0f})")
    if above:
        next_up = min(above, key=lambda rung: rung.rating)
        near.append(f"below {next_up.bot} ({next_up.rating:.0f})")
    return (
        f"{name} rates {standing.rating:.0f} ({spread}) on the "
        f"reference scale of {ladder.title}: {' and '.join(near)}."
    )


@contextlib.contextmanager
def reported(shown: ProgressDisplay, folder: Path | None, command: str) -> Iterator[None]:
    """Play a tournament's units, its mistakes and failures turned into one-line errors and
    Ctrl-C into the line that says how far it got and how to go on."""
    try:
        yield
    except (ThousandError, ValueError) as error:
        raise fail(str(error)) from None
    except OSError as error:
        raise fail(f"{error.filename or 'the tournament folder'}: {error.strerror}") from None
    except KeyboardInterrupt:
        typer.echo(stopped_line(shown.done, shown.total, folder, command), err=True)
        raise typer.Exit(code=130) from None


def stopped_line(done: int, total: int, folder: Path | None, command: str = "tournament") -> str:
    """What a tournament stopped by Ctrl-C says: how far it got, and how to go on."""
    reached = f"after {done} of {total} units" if total else "before any unit was played"
    if folder is None:
        return f"stopped {reached}; nothing was kept (with --out a tournament can be resumed)"
    return (
        f"stopped {reached}; continue with: thousand {command} --resume {shlex.quote(str(folder))}"
    )


def choose_backend(name: str, address: str | None, workers: int | None) -> Backend | None:
    """The backend named on the command line; ``None`` for the local default."""
    from tournament.runner.ray_backend import RayBackend

    if name == "local":
        if address is not None:
            raise ValueError("--ray-address goes with --backend ray")
        return None
    if name == "ray":
        return RayBackend(address, workers or os.cpu_count() or 1)
    raise ValueError(f"--backend must be local or ray, not {name!r}")


def supported_games(spec: str) -> list[str]:
    """The games a bot declares it plays in its ``games`` attribute (both by default)."""
    from thousand import load_player
    from thousand.games import game_named
    from tournament.checkbot import GAMES as CHECK_GAMES

    make = load_player(spec)
    try:
        player = make()
    except KeyboardInterrupt:
        raise
    except BaseException:
        return list(CHECK_GAMES)  # it fails to start: the check reports that as its fault
    declared = getattr(player, "games", None)
    end = getattr(player, "end", None)
    if end is not None:
        end(None)
    if declared is None:
        return list(CHECK_GAMES)
    return [name for name in CHECK_GAMES if game_named(name).name in declared]


def game_name_or_fail(game: str) -> str:
    """The game named by ``--game``, or a one-line error."""
    from tournament.runner.setup import game_name

    try:
        return game_name(game)
    except ValueError as error:
        raise fail(str(error)) from None


def main() -> None:
    """Run the command line."""
    app()
