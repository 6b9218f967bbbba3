"""The ``thousand report`` command: the pictures and report of a kept tournament."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tournament.cli.app import (
    app,
    fail,
)


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
