"""The ``thousand`` command line."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import attrs
import typer

from thousand import Rules, RulesError, ThousandError, bluff
from tournament.demo import describe, random_match

BLUFF = "1000?"
"""The name under which ``thousand rules`` shows the 1000? rules."""

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


def load_rules(spec: str, *, also: str = "") -> Rules:
    """A preset name, or the path of a JSON file of rules fields (optionally with "preset").
    ``also`` names further accepted words in the error message."""
    if spec in Rules.preset_names():
        return Rules.preset(spec)
    path = Path(spec)
    if not path.is_file():
        names = ", ".join(Rules.preset_names())
        raise RulesError(f"'{spec}' is neither a preset ({names}){also} nor a rules JSON file")
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


def deck_summary(deck: Sequence[bluff.Card]) -> str:
    """A 1000? deck in a few words: runs of single number cards, then repeated cards.

    >>> deck_summary(bluff.DEFAULT_DECK)
    '01-50 and 6 x 1000 (56 cards)'
    >>> deck_summary(bluff.cards("03 05 06 07 16 16 1000"))
    '03, 05-07, 2 x 16 and 1000 (7 cards)'
    """
    counts = Counter(deck)
    runs: list[list[bluff.Card]] = []
    for card in sorted(counts, key=lambda card: (card.is_thousand, card.value, card.label)):
        last = runs[-1][-1] if runs else None
        if (
            last is not None
            and counts[card] == counts[last] == 1
            and not card.is_thousand
            and card.value == last.value + 1
            and len(card.label) == len(last.label)
        ):
            runs[-1].append(card)
        else:
            runs.append([card])
    parts = [
        f"{run[0]}-{run[-1]}"
        if len(run) > 1
        else (f"{counts[run[0]]} x {run[0]}" if counts[run[0]] > 1 else str(run[0]))
        for run in runs
    ]
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"{listed} ({len(deck)} cards)"


def table_lines(rows: Sequence[Sequence[str]]) -> list[str]:
    """Rows of cells as left-aligned columns."""
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    return [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]


def thousand_lines(chosen: Mapping[str, Rules]) -> list[str]:
    """A table with a column per Thousand rules set and a row per field."""
    names = list(chosen)
    table = [["field", *names]]
    for field in attrs.fields(Rules):
        table.append(
            [field.name, *(str(chosen[name].to_dict()[field.name]).lower() for name in names)]
        )
    return table_lines(table)


def bluff_lines(rules: bluff.Rules) -> list[str]:
    """The 1000? section: a title, then each rules field and its value."""
    values: dict[str, Any] = rules.to_dict()
    values["deck"] = deck_summary(rules.deck)
    table = [["field", "default"], *([name, str(value)] for name, value in values.items())]
    return [BLUFF, *table_lines(table)]


@app.command()
def rules(
    preset: Annotated[
        str | None,
        typer.Argument(help="Show only this preset, this rules JSON file, or '1000?'."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the rules as JSON.")] = False,
) -> None:
    """List the Thousand presets and the 1000? rules, with every field of each."""
    with_bluff = preset is None or preset == BLUFF
    try:
        if preset is None:
            chosen = {name: Rules.preset(name) for name in Rules.preset_names()}
        elif preset == BLUFF:
            chosen = {}
        else:
            chosen = {preset: load_rules(preset, also=f", '{BLUFF}'")}
    except ThousandError as error:
        raise fail(str(error)) from None
    if as_json:
        data = {name: value.to_dict() for name, value in chosen.items()}
        if with_bluff:
            data[BLUFF] = bluff.Rules().to_dict()
        typer.echo(json.dumps(data, indent=2))
        return
    sections = [thousand_lines(chosen)] if chosen else []
    if with_bluff:
        sections.append(bluff_lines(bluff.Rules()))
    typer.echo("\n\n".join("\n".join(lines) for lines in sections))


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
