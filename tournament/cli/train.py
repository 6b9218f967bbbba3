"""The ``thousand train-bidding``, ``train-inference`` and ``train-bluffs`` commands: the search
bots' models, fitted to simulated games."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from thousand import Rules
from thousand.common.files import write_file
from thousand.errors import ThousandError
from tournament.cli.app import (
    app,
    check_folder,
    fail,
)

if TYPE_CHECKING:
    from thousand.bots.model_file import Model, ModelFile

M = TypeVar("M", bound="Model")

RulesOption = Annotated[
    list[str] | None,
    typer.Option(
        "--rules",
        "-r",
        metavar="RULES",
        help="A preset or a rules JSON file to train for; repeat for several "
        "(default: every preset).",
    ),
]
SeedOption = Annotated[int, typer.Option("--seed", help="Seeds the simulated games.")]
OutOption = Annotated[Path, typer.Option("--out", "-o", help="Where to save the models (JSON).")]


@app.command("train-bidding")
def train_bidding(
    rules_specs: RulesOption = None,
    seed: SeedOption = 1,
    decisions: Annotated[
        int, typer.Option("--decisions", min=26, help="Bid decisions simulated for each model.")
    ] = 40_000,
    out: OutOption = Path("bidding.json"),
) -> None:
    """Fit pimc's bidding models to simulated deals and save them.

    pimc uses a file of its own with pimc(bidding=FILE); the shipped models come from the
    defaults."""
    from thousand.bots.auction_value import AuctionValues
    from thousand.bots.search import train_bidding as fit

    check_folder(out, "the models")
    _train_and_save(
        out,
        [
            (_rules_name(rules), partial(fit, rules, seed=seed, decisions=decisions))
            for rules in _chosen_rules(rules_specs)
        ],
        lambda model: f"{decisions} decisions, worth {model.worlds:.0f} sampled deals",
        partial(AuctionValues, seed),
    )


@app.command("train-inference")
def train_inference(
    rules_specs: RulesOption = None,
    seed: SeedOption = 1,
    deals: Annotated[
        int, typer.Option("--deals", min=1, help="Deals simulated for each model.")
    ] = 3000,
    out: OutOption = Path("card-places.json"),
) -> None:
    """Fit the models of where a seat's unseen cards lie to simulated deals and save them.

    pimc uses a file of its own with pimc(worlds=FILE); the shipped models come from the
    defaults."""
    from thousand.bots.card_places import CardPlacesModels, train

    check_folder(out, "the models")
    _train_and_save(
        out,
        [
            (_rules_name(rules), partial(train, rules, seed=seed, deals=deals))
            for rules in _chosen_rules(rules_specs)
        ],
        lambda model: f"{deals} deals, {model.cards} cards placed",
        partial(CardPlacesModels, seed),
    )


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
    seed: SeedOption = 1,
    games: Annotated[
        int, typer.Option("--games", min=1, help="Games of 1000? simulated for each model.")
    ] = 3000,
    out: OutOption = Path("bluffs.json"),
) -> None:
    """Fit the 1000? models of how often a face-down card is a bluff and save them.

    pimc uses a file of its own with pimc(worlds=FILE); the shipped models come from the
    defaults."""
    from thousand import bluff
    from thousand.bots.bluff_odds import BluffOddsModels, train

    check_folder(out, "the models")
    _train_and_save(
        out,
        [
            (f"{size} players", partial(train, bluff.Rules(players=size), seed=seed, games=games))
            for size in players or range(2, 7)
        ],
        lambda model: f"{games} games, {model.cards} face-down cards",
        partial(BluffOddsModels, seed),
    )


def _train_and_save(
    out: Path,
    fits: Iterable[tuple[str, Callable[[], M]]],
    described: Callable[[M], str],
    saved: Callable[[tuple[M, ...]], ModelFile[M]],
) -> None:
    """Fit each model in turn, saying what it was fitted to and how long it took, then save
    them all in ``out``."""
    models = []
    for name, fit in fits:
        began = time.perf_counter()
        model = fit()
        typer.echo(f"{name}: {described(model)}, in {time.perf_counter() - began:.0f} s")
        models.append(model)
    try:
        write_file(out, saved(tuple(models)).to_json())
    except OSError as error:
        raise fail(f"cannot save the models in {out}: {error.strerror}") from None
    typer.echo(f"saved to {out}")


def _chosen_rules(specs: list[str] | None) -> list[Rules]:
    """The rules of each ``--rules`` given (presets or files), or every preset."""
    from tournament.runner.options import load_rules

    try:
        return [load_rules(spec) for spec in specs or Rules.preset_names()]
    except ThousandError as error:
        raise fail(str(error)) from None


def _rules_name(rules: Rules) -> str:
    return rules.preset_name() or "rules file"
