"""The ``thousand rules`` command: the rules of each preset, or of a rules file."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from thousand.errors import ThousandError
from tournament.cli.app import (
    app,
    fail,
)


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
    from tournament.runner.options import load_rules

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
