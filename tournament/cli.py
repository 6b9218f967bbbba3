"""The ``thousand`` command line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import attrs
import typer

from thousand import Rules, RulesError, ThousandError
from tournament.demo import describe, random_match

app = typer.Typer(
    name="thousand",
    help="The card game Thousand (Тысяча, Tysiąc): rules, matches and bot tournaments.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def fail(message: str) -> typer.Exit:
    """Print a one-line error and return the exit to raise."""
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code=2)


def load_rules(spec: str) -> Rules:
    """A preset name, or the path of a JSON file of rules fields (optionally with "preset")."""
    if spec in Rules.preset_names():
        return Rules.preset(spec)
    path = Path(spec)
    if not path.is_file():
        names = ", ".join(Rules.preset_names())
        raise RulesError(f"'{spec}' is neither a preset ({names}) nor a rules JSON file")
    try:
        return Rules.from_json(path.read_text(encoding="utf-8"))
    except RulesError as error:
        raise RulesError(f"{spec}: {error}") from None


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
        str | None, typer.Argument(help="Show only this preset (or rules JSON file).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the rules as JSON.")] = False,
) -> None:
    """List the rules presets and every field of each."""
    try:
        chosen = (
            {preset: load_rules(preset)}
            if preset
            else {name: Rules.preset(name) for name in Rules.preset_names()}
        )
    except ThousandError as error:
        raise fail(str(error)) from None
    if as_json:
        typer.echo(json.dumps({name: value.to_dict() for name, value in chosen.items()}, indent=2))
        return
    names = list(chosen)
    fields = [field.name for field in attrs.fields(Rules)]
    table = [["field", *names]]
    for field in fields:
        table.append([field, *(str(chosen[name].to_dict()[field]).lower() for name in names)])
    widths = [max(len(row[column]) for row in table) for column in range(len(table[0]))]
    for row in table:
        typer.echo(
            "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        )


@app.command()
def tournament(
    rules_spec: RulesOption = "russian",
    matches: Annotated[int, typer.Option("--matches", "-n", min=1, help="Matches to play.")] = 1,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the first match.")] = 1,
) -> None:
    """Play matches between random players and print their results.

    The players pick random legal actions, bidding and fixing contracts at the minimum.

    Match i uses seed SEED+i for its deals and choices, so every run is reproducible.
    """
    try:
        chosen = load_rules(rules_spec)
    except ThousandError as error:
        raise fail(str(error)) from None
    wins = [0.0] * chosen.players
    for number in range(matches):
        result = random_match(chosen, seed + number)
        for seat in result.winners:
            wins[seat] += 1 / len(result.winners)
        typer.echo(f"match {number + 1} (seed {seed + number}): {describe(result)}")
    summary = ", ".join(f"seat {seat} {count:g}" for seat, count in enumerate(wins))
    typer.echo(f"wins over {matches} match{'es' if matches > 1 else ''}: {summary}")


def main() -> None:
    """Run the command line."""
    app()
