"""The speed benchmarks keep working: their interleaved timing, and the ratio mode end to end
(tiny budgets; no speed is asserted)."""

from __future__ import annotations

import ast
import fnmatch
import itertools
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

from interleave import Meter, interleaved  # noqa: E402
from mutation import (  # noqa: E402
    KEPT,
    disagrees,
    keep_results,
    known_equivalent,
    restore_results,
)
from reference import reference_deals  # noqa: E402


def sleeping_units(pause: float):
    """Units of 3 decisions that each take ``pause`` seconds."""
    while True:
        time.sleep(pause)
        yield 3


def test_interleaved_meters_take_turns_and_count_whole_units():
    fast, slow = Meter(sleeping_units(0.001)), Meter(sleeping_units(0.004))
    interleaved([fast, slow], seconds=0.1, slice_seconds=0.02)
    assert fast.decisions == 3 * fast.finished
    assert slow.decisions == 3 * slow.finished
    # five turns each, a turn lasting at least its slice
    assert fast.seconds >= 0.1
    assert slow.seconds >= 0.1
    assert fast.finished > slow.finished >= 5
    assert fast.speed > slow.speed


def test_reference_deals_are_whole_deals():
    """A three-player deal takes at least two passes, two gifts, a contract and 24 cards: never
    fewer than 29 decisions; the same seed plays the same deals."""
    decisions = list(itertools.islice(reference_deals(seed=7), 50))
    assert min(decisions) >= 29
    assert decisions == list(itertools.islice(reference_deals(seed=7), 50))


def test_ratio_mode_runs_end_to_end():
    command = [sys.executable, str(BENCHMARKS / "engine.py"), "--ratio", "--seconds", "0.1"]
    command += ["--rounds", "1", "--game", "russian", "--game", "1000?-2"]
    result = subprocess.run(command, capture_output=True, text=True, check=False, cwd=BENCHMARKS)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["game", "decisions/s", "reference/s", "ratio"]
    rows = {line.split()[0]: line.split() for line in lines[1:]}
    assert set(rows) == {"russian", "1000?-2"}
    assert all(0 < float(row[3]) < 10 for row in rows.values())


def test_startup_compares_two_checkouts_end_to_end():
    """The start-up benchmark times each command for both checkouts (here the same one twice)
    and gives one share per command."""
    root = BENCHMARKS.parent
    command = [sys.executable, str(BENCHMARKS / "startup.py"), "--runs", "1"]
    command += ["--against", str(root)]
    result = subprocess.run(command, capture_output=True, text=True, check=False, cwd=BENCHMARKS)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    rows = {line[:22].strip(): line[22:].split() for line in lines[1:6]}
    assert set(rows) == {
        "nothing",
        "import thousand",
        "first game",
        "thousand --help",
        "-X importtime",
    }
    assert set(map(len, rows.values())) == {2}
    shares = [line.split()[-1] for line in lines if line.endswith("%")]
    assert len(shares) == 4


def test_world_search_runs_end_to_end(tmp_path: Path) -> None:
    """The world search checks every seat of a four-seat preset (the seat sitting out among
    them) and of 1000?, finds no observation without a world, and writes no failure."""
    failures = tmp_path / "failures.jsonl"
    command = [sys.executable, str(BENCHMARKS / "world_search.py"), "--observations", "40"]
    command += ["--game", "russian-4", "--game", "1000?", "--failures", str(failures)]
    result = subprocess.run(command, capture_output=True, text=True, check=False, cwd=BENCHMARKS)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    roles = {line.split()[-3] for line in lines if line.startswith("russian-4 ")}
    assert {"auction", "declarer", "defender", "sitter"} <= roles
    totals = {line.split()[0]: line.split() for line in lines[lines.index("") + 2 :]}
    assert set(totals) == {"russian-4", "1000?"}
    assert all(int(row[1]) >= 40 and row[2] == "0" for row in totals.values())
    assert failures.read_text() == ""


def test_the_server_workers_benchmark_runs_end_to_end():
    """The comparison of a reference bot in the server's process and on a worker prints one
    line per bot, with both times and their ratio."""
    command = [sys.executable, str(BENCHMARKS / "server_workers.py"), "--seconds", "0.05"]
    command += ["--rounds", "1", "--bot", "random"]
    result = subprocess.run(command, capture_output=True, text=True, check=False, cwd=BENCHMARKS)
    assert result.returncode == 0, result.stderr
    header, line = result.stdout.splitlines()
    assert header.split()[:3] == ["bot", "server", "µs"]
    name, here, away, ratio, processor = line.split()
    assert name == "random"
    assert float(here) > 0
    assert float(away) > 0
    assert float(ratio) > 0
    assert float(processor) >= 0


def test_the_table_load_benchmark_runs_end_to_end():
    """A tiny load of casual tables: people make tables, play, and the figures are printed,
    with no error sent to them and nothing lost."""
    command = [sys.executable, str(BENCHMARKS / "table_load.py"), "--tables", "2"]
    command += ["--seconds", "2", "--warmup", "1", "--think", "0.05"]
    result = subprocess.run(
        command, capture_output=True, text=True, check=False, cwd=BENCHMARKS, timeout=300
    )
    assert result.returncode == 0, result.stderr
    figures = {
        line.rsplit(None, 1)[0].strip(): line.rsplit(None, 1)[1]
        for line in result.stdout.splitlines()
    }
    assert figures["tables played at once"] == "2"
    assert float(figures["moves/s"].replace(",", "")) > 0
    assert figures["errors sent to people"] == "0"
    assert figures["connections lost"] == "0"


def test_the_inference_benchmark_scores_every_predictor():
    """Each predictor of where the unseen cards are (the learned model's worlds among them) gets
    a log-likelihood (below 0) and a share of right guesses over the same cards."""
    command = [sys.executable, str(BENCHMARKS / "inference.py"), "--deals", "2", "--worlds", "5"]
    result = subprocess.run(command, capture_output=True, text=True, check=False, cwd=BENCHMARKS)
    assert result.returncode == 0, result.stderr
    rows = {line.split()[0]: line.split() for line in result.stdout.splitlines()[1:5]}
    assert set(rows) == {"uniform", "deductions", "search", "learned"}
    assert len({row[3] for row in rows.values()}) == 1
    for row in rows.values():
        assert float(row[1]) < 0
        assert 0 < float(row[2].rstrip("%")) <= 100


def test_the_inference_benchmark_scores_the_bluffs_of_1000():
    """In 1000?, whether a face-down card is a bluff is scored by the base rate, by the worlds
    and by the learned model, over the same cards."""
    command = [sys.executable, str(BENCHMARKS / "inference.py"), "--rules", "bluff"]
    command += ["--deals", "2", "--worlds", "5"]
    result = subprocess.run(command, capture_output=True, text=True, check=False, cwd=BENCHMARKS)
    assert result.returncode == 0, result.stderr
    rows = {line.split()[0]: line.split() for line in result.stdout.splitlines()[1:4]}
    assert set(rows) == {"base-rate", "deductions", "learned"}
    assert len({row[3] for row in rows.values()}) == 1
    assert all(float(row[1]) < 0 for row in rows.values())


def test_the_reading_bound_tells_the_search_the_true_deal():
    """The told search's only world is the deal as it stands, in the phases it is told, and its
    bids owe nothing to the learned estimate there; in the others it draws, weighs and bids as
    the search does."""
    import random

    from reading_bound import ToldSearch, Truth

    from thousand import Rules
    from thousand.classic.engine import new_deal
    from thousand.classic.state import Phase

    truth = Truth()
    state = new_deal(Rules.preset("russian"), seed=5, dealer=0)
    truth.watch(state)
    observation = state.observation(state.player)
    rng = random.Random(1)
    told = ToldSearch(truth, frozenset({Phase.AUCTION}))
    assert told.worlds(observation)(rng) is state
    assert told.weighing(observation)(state) == 1.0
    choices = observation.legal_actions[:2]
    assert told.prior(observation, choices, None) is None
    untold = ToldSearch(truth, frozenset({Phase.PLAY}))
    drawn = untold.worlds(observation)(rng)
    assert drawn.hand_masks[state.player] == state.hand_masks[state.player]
    assert drawn.hand_masks != state.hand_masks
    assert untold.prior(observation, choices, None) is not None


def test_the_reading_bound_measures_against_greedy_in_the_same_seat():
    """``greedy`` measured against itself leads by exactly nothing, in every seat of the deal."""
    command = [sys.executable, str(BENCHMARKS / "reading_bound.py"), "--deals", "1"]
    command += ["--bots", "greedy,told-all"]
    result = subprocess.run(command, capture_output=True, text=True, check=False, cwd=BENCHMARKS)
    assert result.returncode == 0, result.stderr
    rows = {line.split()[0]: line.split() for line in result.stdout.splitlines()[3:5]}
    assert rows["greedy"][1:] == ["+0.0", "±", "0.0", "+0.0", "±", "0.0"]
    assert set(rows) == {"greedy", "told-all"}


def test_the_listed_equivalent_mutants_name_functions_of_the_mutated_modules(tmp_path):
    """Every mutant docs/contributing.md lists as equivalent is read in full from the table's
    three ways of naming one, and names a function or method of a module mutmut changes."""
    tomllib = pytest.importorskip("tomllib")
    root = BENCHMARKS.parent
    guide = tmp_path / "guide.md"
    guide.write_text(
        "### Mutants known to be equivalent\n\n| mutant | change | why |\n|---|---|---|\n"
        "| `thousand.classic.a.x_f__mutmut_2`, `_5`; `xǁCǁm__mutmut_1` | c | w |\n"
        "\n### Next\n\n| `thousand.classic.b.x_g__mutmut_1` | c | w |\n"
    )
    assert known_equivalent(guide) == {
        "thousand.classic.a.x_f__mutmut_2",
        "thousand.classic.a.x_f__mutmut_5",
        "thousand.classic.a.xǁCǁm__mutmut_1",
    }
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mutmut"]
    listed = known_equivalent(root / "docs" / "contributing.md")
    assert len(listed) > 50
    for name in listed:
        module, _, mangled = name.rpartition(".")
        path = f"{module.replace('.', '/')}.py"
        assert any(fnmatch.fnmatch(path, pattern) for pattern in config["only_mutate"]), name
        function = mangled.rpartition("__mutmut_")[0]
        owner, _, method = function[1:].strip("ǁ").rpartition("ǁ")
        tree = ast.parse((root / path).read_text(encoding="utf-8"))
        scope = tree.body
        if owner:
            [found] = [node for node in scope if getattr(node, "name", None) == owner]
            scope = found.body
        else:
            method = method.removeprefix("_")
        defined = {node.name for node in scope if isinstance(node, ast.FunctionDef)}
        assert method in defined, name


def test_the_verdicts_kept_go_back_where_mutmut_reads_them(tmp_path: Path) -> None:
    """The whole run's verdicts written to the kept file come back as mutmut's own results in a
    fresh folder: each function's hash and each checked mutant's exit code (those not checked,
    or whose test process was killed, stay unchecked, unless the run ended by itself); a folder
    holding results already, and a file of another mutmut, give none; a folder whose verdicts
    differ from the file's is told."""
    work = tmp_path / "mutants"
    codes = {
        "thousand.classic.cards.x_f__mutmut_1": 1,
        "thousand.classic.cards.x_f__mutmut_2": None,
        "thousand.classic.cards.x_f__mutmut_3": 0,
        "thousand.classic.cards.xǁCǁm__mutmut_1": 36,
        "thousand.classic.cards.xǁCǁm__mutmut_2": None,
        "thousand.classic.cards.xǁCǁm__mutmut_3": -9,
    }
    digests = {"x_f": "aa11", "xǁCǁm": "bb22", "x_none": "cc33"}
    meta = work / "thousand" / "classic" / "cards.py.meta"
    meta.parent.mkdir(parents=True)
    held = {
        "exit_code_by_key": codes,
        "hash_by_function_name": digests,
        "type_check_error_by_key": {},
        "durations_by_key": {"thousand.classic.cards.x_f__mutmut_1": 0.5},
        "estimated_durations_by_key": {},
    }
    meta.write_text(json.dumps(held), encoding="utf-8")
    kept = tmp_path / "kept.json"
    assert keep_results(kept, work) == 3
    lines = kept.read_text(encoding="utf-8").splitlines()
    assert '    "x_f": "aa11 1,,0",' in lines
    fresh = tmp_path / "fresh"
    assert restore_results(kept, fresh) == 3
    restored = json.loads((fresh / "thousand" / "classic" / "cards.py.meta").read_text())
    assert restored["hash_by_function_name"] == digests
    checked = {name: code for name, code in codes.items() if code not in (None, -9)}
    given = restored["exit_code_by_key"]
    assert {name: code for name, code in given.items() if code is not None} == checked
    assert set(given) <= set(codes)
    assert restore_results(kept, work) == 0
    assert not disagrees(kept, work)
    with_crashes = tmp_path / "with_crashes.json"
    assert keep_results(with_crashes, work, crashes=True) == 4
    assert '    "xǁCǁm": "bb22 36,,-9"' in with_crashes.read_text(encoding="utf-8").splitlines()
    assert not disagrees(with_crashes, work)
    assert restore_results(with_crashes, tmp_path / "fresh_with_crashes") == 4
    assert not disagrees(kept, fresh)
    assert not disagrees(kept, tmp_path / "empty")
    held["exit_code_by_key"]["thousand.classic.cards.x_f__mutmut_2"] = 1
    meta.write_text(json.dumps(held), encoding="utf-8")
    assert disagrees(kept, work)
    document = json.loads(kept.read_text(encoding="utf-8"))
    kept.write_text(json.dumps({**document, "mutmut": "0.1"}), encoding="utf-8")
    assert restore_results(kept, tmp_path / "other") == 0


def test_the_verdicts_kept_in_the_repository_name_mutated_modules() -> None:
    """The kept file, when there is one, holds results only of the files mutmut mutates."""
    tomllib = pytest.importorskip("tomllib")
    root = BENCHMARKS.parent
    if not (root / KEPT).is_file():
        pytest.skip("no verdicts kept")
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mutmut"]
    document = json.loads((root / KEPT).read_text(encoding="utf-8"))
    assert document["format"] == 1
    for path in document["files"]:
        assert any(fnmatch.fnmatch(path, pattern) for pattern in config["only_mutate"]), path
        assert (root / path).is_file(), path
