"""The Thousand engine's modules moved from the top of ``thousand`` into ``thousand.classic``; every
path they had still imports, and gives the very module of the new path, so code written against
the old paths keeps working."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import thousand
from thousand.classic.old_paths import OldPaths, keep_old_paths
from thousand.common import notation

ROOT = Path(__file__).resolve().parent.parent
OLD_PATHS = (
    "actions", "bidding", "cards", "determinise", "engine", "inference", "layout", "marriages",
    "observation", "record", "redeals", "results", "rules", "sampling", "scoring", "seating",
    "spectator", "state", "talon", "tricks",
)  # fmt: skip
"""Every module that sat at the top of ``thousand`` before the move."""
DOCUMENTED = {
    "actions": (
        "Action", "Bid", "Concede", "Contract", "Discard", "Give", "Pass", "Play", "Take",
        "parse_action",
    ),
    "cards": ("DECK", "Card", "Rank", "Suit", "cards"),
    "determinise": ("Determiniser", "determinise"),
    "engine": ("new_deal", "new_match"),
    "layout": ("Layout",),
    "observation": ("Observation", "Trick", "observe"),
    "record": ("Record", "RecordedDeal", "dump_record", "load_record", "replay"),
    "results": ("DealResult", "MatchResult"),
    "rules": (
        "BarrelCapacity", "BarrelFallPenalty", "BoltCounting", "Concession", "Endgame",
        "MarriageDeclaration", "Redeal", "Rules", "Samosval", "SetAside", "Settlement", "Sitter",
    ),
    "redeals": ("ThrowIn",),
    "state": ("GameState", "Origin", "Phase"),
}  # fmt: skip
"""The names the reference documented in the old modules, each also exported by ``thousand``.
(The root's ``determinise``, for either game, is now defined in ``thousand.games``; the
determiniser's module still hands it out by that name.)"""


def run(code: str) -> list[str]:
    """What a fresh interpreter prints for ``code``."""
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


@pytest.mark.parametrize("name", OLD_PATHS)
def test_an_old_path_is_the_module_of_the_new(name: str) -> None:
    old = importlib.import_module(f"thousand.{name}")
    new = importlib.import_module(f"thousand.classic.{name}")
    assert old is new
    assert sys.modules[f"thousand.{name}"] is new
    assert new.__name__ == new.__spec__.name == f"thousand.classic.{name}"


def test_every_form_of_import_reaches_the_new_modules() -> None:
    import thousand.rules
    from thousand.rules import Rules

    import thousand.classic.rules
    from thousand import rules, tricks
    from thousand.classic import tricks as new_tricks

    assert rules is thousand.rules is thousand.classic.rules
    assert Rules is thousand.classic.rules.Rules is thousand.Rules
    assert tricks is new_tricks
    assert thousand.spectator is importlib.import_module("thousand.classic.spectator")


@pytest.mark.parametrize(
    "first", ["thousand.classic.tricks", "thousand.tricks"], ids=["new first", "old first"]
)
def test_an_old_path_needs_no_import_before_it(first: str) -> None:
    """In a fresh interpreter, whichever path is imported first, both give one module, whose
    functions are reached through the old path."""
    second = "thousand.tricks" if first == "thousand.classic.tricks" else "thousand.classic.tricks"
    printed = run(
        f"import sys, {first}, {second}; import thousand.tricks; "
        "print(sys.modules['thousand.tricks'] is sys.modules['thousand.classic.tricks'], "
        "thousand.tricks.tricks_won.__module__)"
    )
    assert printed == ["True", "thousand.classic.tricks"]


@pytest.mark.parametrize(("module", "name"), [(m, n) for m, ns in DOCUMENTED.items() for n in ns])
def test_the_names_documented_before_still_resolve(module: str, name: str) -> None:
    value = getattr(importlib.import_module(f"thousand.{module}"), name)
    assert value is getattr(thousand, name)
    assert value is getattr(importlib.import_module(f"thousand.classic.{module}"), name)
    namespace: dict[str, object] = {}
    exec(f"from thousand.{module} import {name}", namespace)  # as code written before did
    assert namespace[name] is value


def test_the_root_determinise_serves_both_games() -> None:
    from thousand.games import determinise

    assert thousand.determinise is determinise
    assert thousand.Determiniser is importlib.import_module("thousand.determinise").Determiniser


def test_the_determinisers_module_still_hands_out_determinise_and_nothing_more() -> None:
    """``thousand.classic.determinise`` gives the root ``determinise`` by that name, as it did
    when it defined it; a name it lacks raises the usual ``AttributeError``."""
    from thousand.games import determinise

    module = importlib.import_module("thousand.classic.determinise")
    assert module.determinise is determinise
    namespace: dict[str, object] = {}
    exec("from thousand.classic.determinise import determinise", namespace)
    assert namespace["determinise"] is determinise
    with pytest.raises(AttributeError) as error:
        _ = module.determiniser
    assert str(error.value) == (
        "module 'thousand.classic.determinise' has no attribute 'determiniser'"
    )
    assert not hasattr(module, "determiniser")


def test_the_shared_notation_keeps_its_old_names() -> None:
    """What 1000? borrowed from Thousand's actions is shared from ``thousand.common``, and
    Thousand's actions still offer it."""
    old = importlib.import_module("thousand.actions")
    assert (old.Pass, old.HIDDEN, old.whole_number) == (
        notation.Pass, notation.HIDDEN, notation.whole_number
    )  # fmt: skip
    assert thousand.Pass is thousand.bluff.Pass is notation.Pass


@pytest.mark.parametrize("name", ["nothing", "old_paths", "classic_rules", "climb"])
def test_only_the_modules_that_moved_have_old_paths(name: str) -> None:
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(f"thousand.{name}")


def test_the_old_paths_are_found_by_one_finder() -> None:
    keep_old_paths()
    assert sum(isinstance(finder, OldPaths) for finder in sys.meta_path) == 1
