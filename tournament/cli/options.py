"""The options several commands take, declared once."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from thousand.table.sandbox import Isolation

BackendOption = Annotated[
    str,
    typer.Option(
        "--backend",
        metavar="[local|ray]",
        help="Where the workers run: processes of this machine, or ray for a Ray cluster.",
    ),
]
RayAddressOption = Annotated[
    str | None,
    typer.Option(
        "--ray-address", help="With --backend ray: the cluster (default: a local instance)."
    ),
]
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


DealOption = Annotated[
    bool, typer.Option("--deal", help="Thousand: play one deal instead of a match.")
]
ON_FAULT_HELP = "What a bot's fault leads to: forfeit (the default), substitute or raise."
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
