"""The ``thousand server`` command: run the ladder server, and look after its database and its
bots' tokens."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import attrs
import typer

from thousand.common.files import write_file
from thousand.common.text import table_lines
from thousand.errors import ThousandError
from tournament.cli.app import Commands, app, fail, isolation, on_ray
from tournament.cli.options import (
    BackendOption,
    NoIsolateOption,
    RayAddressOption,
    SandboxByDefaultOption,
)

if TYPE_CHECKING:
    from tournament.server.groups import Timing
    from tournament.server.store import Store

server_app = typer.Typer(
    cls=Commands,
    help="Run the ladder server, where bots connect from anywhere and play rated games, and "
    "people play each other and the bots at tables in the browser.",
    invoke_without_command=True,
    no_args_is_help=False,
)
app.add_typer(server_app, name="server")

Database = Annotated[
    str | None,
    typer.Option(
        "--db",
        metavar="URL",
        help="The database: sqlite:///FILE or postgresql://USER:PASSWORD@HOST/NAME "
        "(by default sqlite:///thousand-server.db, in the current folder).",
        show_default=False,
    ),
]
EXTRA = 'the server needs its extra: python -m pip install ".[server]" in a checkout of thousand'


@contextlib.contextmanager
def _server_errors() -> Iterator[None]:
    """The server's modules loaded, and its mistakes told in one line."""
    try:
        yield
    except ModuleNotFoundError as error:
        if error.name is not None and error.name.split(".")[0] in _EXTRA_MODULES:
            raise fail(EXTRA) from None
        raise
    except ValueError as error:
        raise fail(str(error)) from None


_EXTRA_MODULES = {"starlette", "uvicorn", "sqlalchemy", "alembic", "psycopg", "anyio", "websockets"}


@server_app.callback()
def server(
    context: typer.Context,
    host: Annotated[str, typer.Option(help="The address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="The port to listen on.", min=0, max=65535)] = 8000,
    db: Database = None,
    pool: Annotated[
        list[str] | None,
        typer.Option(
            metavar="PRESET",
            help="A Thousand preset, or bluff for 1000?, whose games are rated, a leaderboard "
            "each; repeat for more (default: russian).",
            show_default=False,
        ),
    ] = None,
    time_limit: Annotated[
        float, typer.Option(min=0.001, help="Seconds a connected bot may take for one decision.")
    ] = 10.0,
    time_bank: Annotated[
        float | None,
        typer.Option(
            min=0.001,
            help="Seconds a connected bot may take for all its decisions in a game (default: no "
            "bank).",
            show_default=False,
        ),
    ] = None,
    grace: Annotated[
        float,
        typer.Option(
            min=0.0, help="Seconds a bot that lost its connection has to come back to its game."
        ),
    ] = 30.0,
    reference: Annotated[
        list[str] | None,
        typer.Option(
            metavar="SPEC",
            help="A built-in bot to play as a reference bot on the workers, such as "
            "'ismcts(steps=250)' (random and greedy always play, in the server); repeat for "
            "more.",
            show_default=False,
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            "--workers", "-w", min=1, help="Worker processes (or Ray actors) for --reference bots."
        ),
    ] = 1,
    backend: BackendOption = "local",
    ray_address: RayAddressOption = None,
    spectator_delay: Annotated[
        int,
        typer.Option(
            min=0,
            metavar="ROUNDS",
            help="Rounds of moves (a trick, in Thousand's play) by which spectators of a table "
            "in the browser see its game late.",
        ),
    ] = 1,
    pool_time: Annotated[
        list[str] | None,
        typer.Option(
            metavar="PRESET=LIMIT[/BANK]",
            help="A pool's own --time-limit, and --time-bank after a slash: russian=5 or "
            "bluff=2/120; repeat for more pools.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Run the ladder server until Ctrl-C: bots connect to ws://HOST:PORT/bot with their
    tokens. An empty database is made; an older one must be migrated first."""
    if context.invoked_subcommand is not None:
        return
    with _server_errors():
        from tournament.runner.ray_backend import import_ray
        from tournament.server.app import Settings, serve
        from tournament.server.groups import Timing, pool_named
        from tournament.server.store import Store

        pools = tuple(dict.fromkeys(pool or ["russian"]))
        for name in pools:
            pool_named(name)
        timing = Timing(decision=time_limit, bank=time_bank, grace=grace)
        own = tuple(pool_timing_of(text, pools, timing) for text in pool_time or [])
        hosted = tuple(dict.fromkeys(reference or []))
        for spec in hosted:
            built_in_bot(spec)
        ray = on_ray(backend, ray_address)
        if ray:
            import_ray()
        Store(db, make=True).close()
        typer.echo(
            f"play in the browser at http://{host}:{port}/play; bots connect to "
            f"ws://{host}:{port}/bot with their tokens; the leaderboard is at "
            f"http://{host}:{port}/; Ctrl-C stops the server",
            err=True,
        )
        settings = Settings(
            database=db,
            pools=pools,
            timing=timing,
            pool_timing=own,
            hosted=hosted,
            workers=workers,
            ray=ray,
            ray_address=ray_address,
            spectator_delay=spectator_delay,
        )
        serve(settings, host, port)


def built_in_bot(spec: str) -> None:
    """Check that ``spec`` names a built-in bot (its options allowed), which can be a reference
    bot."""
    from thousand.bots import BUILTIN
    from thousand.table.specs import load_player
    from tournament.server.hosts import IN_SERVER

    name = spec.partition("(")[0].strip()
    if name not in BUILTIN:
        raise ValueError(f"--reference must name a built-in bot, not {spec!r}")
    if spec in IN_SERVER:
        raise ValueError(f"{spec} is a reference bot already, played in the server")
    load_player(spec)


def pool_timing_of(text: str, pools: tuple[str, ...], timing: Timing) -> tuple[str, Timing]:
    """A ``--pool-time`` given as ``PRESET=LIMIT[/BANK]``: the pool, and its limits (its grace and
    its time to start are the server's)."""
    name, _, limits = text.partition("=")
    limit, _, bank = limits.partition("/")
    if name not in pools:
        played = ", ".join(pools)
        raise ValueError(f"--pool-time names the pool {name!r}, which is not played ({played})")
    try:
        seconds = float(limit)
        banked = float(bank) if bank else None
    except ValueError:
        seconds = banked = float("nan")
    if not (seconds > 0 and (banked is None or banked > 0)) or seconds == float("inf"):
        raise ValueError(
            f"--pool-time must be PRESET=LIMIT or PRESET=LIMIT/BANK in seconds, not {text!r}"
        )
    return name, attrs.evolve(timing, decision=seconds, bank=banked)


@server_app.command()
def migrate(db: Database = None) -> None:
    """Make the database's tables, or bring an older database up to date."""
    with _server_errors():
        from tournament.server.store import database_url, shown_url
        from tournament.server.store import migrate as migrated

        before, now = migrated(db)
    where = shown_url(database_url(db))
    if before == now:
        typer.echo(f"{where} is at the current schema version, {now}")
    else:
        typer.echo(f"{where}: schema version {before or 'none'} -> {now}")


@contextlib.contextmanager
def _store(db: str | None) -> Iterator[Store]:
    with _server_errors():
        from tournament.server.store import Store

        store = Store(db, make=True)
        try:
            yield store
        finally:
            store.close()


@server_app.command("add-bot")
def add_bot(
    name: Annotated[str, typer.Argument(help="The bot's name on the server.")], db: Database = None
) -> None:
    """Add a bot and print its token, shown this once: the bot connects with it."""
    with _store(db) as store:
        token = store.add_bot(name)
    typer.echo(token)


@server_app.command("revoke-bot")
def revoke_bot(
    name: Annotated[str, typer.Argument(help="The bot's name.")], db: Database = None
) -> None:
    """Revoke a bot's token: it can no longer connect (its results are kept)."""
    with _store(db) as store:
        store.revoke_bot(name)
    typer.echo(
        f"{name}'s token is revoked; give it a new one with: thousand server rotate-token {name}"
    )


@server_app.command("rotate-token")
def rotate_token(
    name: Annotated[str, typer.Argument(help="The bot's name.")], db: Database = None
) -> None:
    """Give a bot a new token, which replaces its old one, and print it."""
    with _store(db) as store:
        token = store.rotate_token(name)
    typer.echo(token)


@server_app.command("bots")
def list_bots(db: Database = None) -> None:
    """List the server's bots."""
    with _store(db) as store:
        bots = store.bots()
    rows = [["bot", "added", "token"]]
    rows.extend(
        [bot.name, f"{bot.created:%Y-%m-%d %H:%M}", "revoked" if bot.revoked else "valid"]
        for bot in bots
    )
    typer.echo("\n".join(table_lines(rows)))


@app.command()
def connect(
    spec: Annotated[
        str,
        typer.Argument(
            help="The bot: a name, module:Class, path/to/file.py:Class or 'cmd:PROGRAM ARGS'."
        ),
    ],
    server_url: Annotated[
        str,
        typer.Option(
            "--server", metavar="URL", help="The server's bot address, ws://HOST:PORT/bot."
        ),
    ],
    token: Annotated[
        str,
        typer.Option(
            envvar="THOUSAND_TOKEN",
            help="The bot's token (or set THOUSAND_TOKEN: kept out of the shell's history).",
        ),
    ],
    games: Annotated[
        int, typer.Option(min=1, max=16, help="Groups of games the bot plays at once.")
    ] = 1,
    casual: Annotated[
        bool,
        typer.Option(
            "--casual", help="Also take seats at the tables where people play (never rated)."
        ),
    ] = False,
    isolate: SandboxByDefaultOption = None,
    no_isolate: NoIsolateOption = False,
) -> None:
    """Play a bot on a ladder server until Ctrl-C: the bot runs here, and connects out."""
    import asyncio

    with _server_errors():
        from thousand.table.sandbox import Isolation
        from thousand.table.specs import load_player
        from tournament.server.client import Refused, Replaced, play_for

        mode = isolation(isolate, no_isolate) or Isolation.SANDBOX
        try:
            make = load_player(spec, isolate=mode)
        except ThousandError as error:
            raise fail(str(error)) from None
        url = (
            server_url
            if server_url.rstrip("/").endswith("/bot")
            else server_url.rstrip("/") + "/bot"
        )

        def say(line: str) -> None:
            typer.echo(line, err=True)

        try:
            asyncio.run(play_for(make, url, token, games, say=say, casual=casual))
        except Refused as refused:
            raise fail(f"the server refused the bot: {refused}") from None
        except Replaced:
            raise fail("another connection with this bot's token took over") from None
        except KeyboardInterrupt:
            raise typer.Exit(130) from None


@server_app.command()
def export(
    folder: Annotated[Path, typer.Argument(help="The folder to write the records in.")],
    db: Database = None,
) -> None:
    """Write the record of every finished game as FOLDER/GROUP-NUMBER.json, which thousand
    replay reads; records already there are left as they are."""
    with _store(db) as store:
        games = store.every_game()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        written = 0
        for name, game in games:
            path = folder / f"{name}.json"
            if not path.exists():
                write_file(path, json.dumps(game.record, indent=1) + "\n")
                written += 1
    except OSError as error:
        raise fail(f"cannot write the records in {folder}: {error.strerror}") from None
    typer.echo(f"{written} new records in {folder} ({len(games)} games in all)")
