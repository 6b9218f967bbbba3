"""The ``thousand train-bidding``, ``train-inference`` and ``train-bluffs`` commands: the search
bots' models, fitted to simulated games."""

from __future__ import annotations

import time
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
    from tournament.runner.options import load_rules

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


@app.command("train-inference")
def train_inference(
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
    deals: Annotated[
        int, typer.Option("--deals", min=1, help="Deals simulated for each model.")
    ] = 3000,
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Where to save the models (JSON).")
    ] = Path("card-places.json"),
) -> None:
    """Fit the models of where a seat's unseen cards lie to simulated deals and save them.

    pimc uses a file of its own with pimc(worlds=FILE); the shipped models come from the
    defaults."""
    from thousand import Rules
    from thousand.bots.card_places import CardPlacesModels, train
    from tournament.runner.options import load_rules

    check_folder(out, "the models")
    try:
        chosen = [load_rules(spec) for spec in rules_specs or Rules.preset_names()]
    except ThousandError as error:
        raise fail(str(error)) from None
    models = []
    for rules in chosen:
        began = time.perf_counter()
        model = train(rules, seed=seed, deals=deals)
        name = rules.preset_name() or "rules file"
        typer.echo(
            f"{name}: {deals} deals, {model.cards} cards placed, "
            f"in {time.perf_counter() - began:.0f} s"
        )
        models.append(model)
    try:
        write_file(out, CardPlacesModels(seed=seed, models=tuple(models)).to_json())
    except OSError as error:
        raise fail(f"cannot save the models in {out}: {error.strerror}") from None
    typer.echo(f"saved to {out}")


@app.command("train-bluffs")
def train_bluffs(
    players: Annotated[
        list[int] | None,
        typer.Option(
            "--players",
            "-p",
            min=2,
            max=6,
            help="A table size to train for; repeat for several (default: 2 to 6).",
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seeds the simulated games.")] = 1,
    games: Annotated[
        int, typer.Option("--games", min=1, help="Games of 1000? simulated for each model.")
    ] = 3000,
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Where to save the models (JSON).")
    ] = Path("bluffs.json"),
) -> None:
    """Fit the models of how often a face-down card of 1000? is a bluff to simulated games and
    save them.

    pimc uses a file of its own with pimc(worlds=FILE); the shipped models come from the
    defaults."""
    from thousand import bluff
    from thousand.bots.bluff_odds import BluffOddsModels, train

    check_folder(out, "the models")
    models = []
    for size in players or range(2, 7):
        began = time.perf_counter()
        model = train(bluff.Rules(players=size), seed=seed, games=games)
        typer.echo(
            f"{size} players: {games} games, {model.cards} face-down cards, "
            f"in {time.perf_counter() - began:.0f} s"
        )
        models.append(model)
    try:
        write_file(out, BluffOddsModels(seed=seed, models=tuple(models)).to_json())
    except OSError as error:
        raise fail(f"cannot save the models in {out}: {error.strerror}") from None
    typer.echo(f"saved to {out}")
