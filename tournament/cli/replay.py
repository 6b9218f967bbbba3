"""The ``thousand replay`` command: a saved record told again, or drawn as a web page."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from thousand.common.files import write_file
from thousand.errors import ThousandError
from tournament.cli.app import (
    app,
    check_folder,
    fail,
)


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
    from thousand.frontends.html_replay import html_page
    from thousand.frontends.narration import replay_lines
    from thousand.games import record_from_json

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
