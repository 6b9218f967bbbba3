"""The ``thousand bots`` command: the bots that can be named."""

from __future__ import annotations

import typer

from thousand.common.text import table_lines
from tournament.cli.app import (
    app,
)


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
