"""The ``thousand`` program: its commands' group, the options of the program itself, and
what the commands share: one-line errors, reading options, the bot logs, the lines they print."""

from __future__ import annotations

import contextlib
import math
import os
import re
import shlex
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from typer.core import TyperGroup

import thousand
from thousand.common.text import printable
from thousand.errors import ThousandError
from thousand.table.sandbox import Isolation

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


class Commands(TyperGroup):
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
    cls=Commands,
    help="The card game Thousand (Тысяча, Tysiąc): rules, matches and bot tournaments.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def show_version(wanted: bool) -> None:
    """Print the version of thousand (``thousand.__version__``, which the package's metadata
    takes too) and stop."""
    if wanted:
        typer.echo(f"thousand {thousand.__version__}")
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

    if not on_ray(name, address):
        return None
    return RayBackend(address, workers or os.cpu_count() or 1)


def on_ray(backend: str, address: str | None) -> bool:
    """Whether ``--backend`` names Ray (else local processes), checked with ``--ray-address``."""
    if backend not in ("local", "ray"):
        raise ValueError(f"--backend must be local or ray, not {backend!r}")
    if address is not None and backend != "ray":
        raise ValueError("--ray-address goes with --backend ray")
    return backend == "ray"


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
    from tournament.runner.options import game_name

    try:
        return game_name(game)
    except ValueError as error:
        raise fail(str(error)) from None


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


def main() -> None:
    """Run the command line."""
    app()
