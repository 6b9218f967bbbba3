"""Tournaments that stop when the sequential test decides: early stopping, the figures of the
groups read, resumption, workers, the configuration kept, and the command line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from thousand import Rules
from tournament.cli import app
from tournament.runner.journal import CONFIG, JOURNAL
from tournament.runner.options import Options, configure
from tournament.runner.run import run_tournament
from tournament.runner.schedule import Config, entrants_of
from tournament.runner.sprt import MIN_OBSERVATIONS, Hypotheses

CAP = 300


def config(specs: list[str], h1: float = 20.0, seed: int = 3) -> Config:
    return Config(
        game="thousand",
        rules=Rules.preset("russian").to_dict(),
        entrants=entrants_of(specs),
        players=3,
        format="deals",
        per_table=CAP,
        seed=seed,
        gauntlet=entrants_of(specs)[0].name,
        sprt=Hypotheses(0, h1),
    )


def test_a_clearly_better_bot_is_accepted_early() -> None:
    """greedy against two random bots: H1 (+20 a deal) is accepted long before the cap, and the
    standings count exactly the groups the test read."""
    summary = run_tournament(config(["greedy", "random", "random"]))
    assert summary.sprt is not None
    verdict = summary.sprt.verdict
    assert verdict.accepted == "H1"
    assert MIN_OBSERVATIONS <= verdict.observations < CAP // 4
    assert summary.units == verdict.observations * 6
    assert summary.to_dict()["sprt"]["accepted"] == "H1"


def test_a_copy_of_itself_is_not_accepted_better() -> None:
    """random against two copies of itself never gets H1 (+20 a deal) accepted."""
    for seed in (1, 2, 3):
        summary = run_tournament(config(["random", "random", "random"], seed=seed))
        assert summary.sprt is not None
        assert summary.sprt.verdict.accepted != "H1"


def test_a_resumed_test_decides_at_the_same_group(tmp_path: Path) -> None:
    """A tournament stopped part way (its journal cut short) and resumed reaches the same
    decision at the same group, with the same figures, as one that ran through; so does one
    played on two workers."""
    chosen = config(["greedy", "random", "random"], h1=60.0, seed=11)
    whole = run_tournament(chosen, out=tmp_path / "whole")
    assert whole.sprt is not None
    assert whole.sprt.verdict.accepted is not None
    cut = tmp_path / "cut"
    shutil.copytree(tmp_path / "whole", cut)
    lines = (cut / JOURNAL).read_text(encoding="utf-8").splitlines(keepends=True)
    (cut / JOURNAL).write_text("".join(lines[: len(lines) // 3]), encoding="utf-8")
    resumed = run_tournament(chosen, out=cut, resume=True)
    assert resumed.to_dict() == whole.to_dict()
    assert run_tournament(chosen, workers=2).to_dict() == whole.to_dict()
    kept = json.loads((tmp_path / "whole" / CONFIG).read_text(encoding="utf-8"))
    assert kept["sprt"] == {"h0": 0, "h1": 60.0, "alpha": 0.05, "beta": 0.05}


def test_configurations_without_a_test_still_load() -> None:
    """A configuration kept before sequential tests existed has no 'sprt': it loads as none."""
    plain = config(["greedy", "random", "random"])
    data = plain.to_dict()
    del data["sprt"]
    assert Config.from_dict(data).sprt is None
    assert Config.from_dict(plain.to_dict()) == plain


def test_the_test_needs_the_first_bots_gauntlet() -> None:
    with pytest.raises(ValueError, match="gauntlet must be 'greedy'"):
        Config(
            game="thousand",
            rules=Rules.preset("russian").to_dict(),
            entrants=entrants_of(["greedy", "random", "random"]),
            players=3,
            format="deals",
            per_table=10,
            seed=1,
            sprt=Hypotheses(0, 10),
        )


def test_the_command_line_shows_the_verdict() -> None:
    runner = CliRunner()
    result = runner.invoke(
        app, ["tournament", "greedy", "random", "random", "--sprt", "0,20", "--seed", "3"]
    )
    assert result.exit_code == 0, result.output
    assert "SPRT: greedy's lead over the others in score/deal, H0 +0 against H1 +20" in (
        result.output
    )
    assert "H1 accepted after" in result.output


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--sprt", "20,0"], "error: --sprt needs H0 below H1, not 20,0"),
        (["--sprt", "x"], "error: --sprt takes two numbers H0,H1"),
        (["--alpha", "0.1"], "error: --alpha and --beta go with --sprt"),
        (["--sprt", "0,20", "--beta", "0.9"], "error: --beta must lie between 0 and 0.5"),
        (["--sprt", "0,20", "--alpha", "x"], "error: --alpha must be a number"),
    ],
)
def test_a_bad_test_is_refused_in_one_line(options: list[str], message: str) -> None:
    result = CliRunner().invoke(app, ["tournament", "greedy", "random", "random", *options])
    assert result.exit_code == 2
    assert result.output.startswith(message)
    assert len(result.output.strip().splitlines()) == 1


def test_new_and_one_baseline_fill_the_table_with_copies_of_the_baseline() -> None:
    """``NEW BASE`` at tables of three seats the baseline twice, as ``NEW BASE BASE`` would."""
    short = configure(Options(specs=("greedy", "random"), deals=50, seed=3, sprt=Hypotheses(0, 20)))
    full = configure(
        Options(specs=("greedy", "random", "random"), deals=50, seed=3, sprt=Hypotheses(0, 20))
    )
    assert short == full
    assert [entrant.name for entrant in short.entrants] == ["greedy", "random", "random#2"]
