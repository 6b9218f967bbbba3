"""Tournaments on Ray: the same results as local workers, across a resume that switches backend,
and a one-line error without Ray."""

from __future__ import annotations

import importlib.util
import json
import logging
import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.test_progress import without_progress
from tournament.cli import app
from tournament.runner.backends import Backend, InlineBackend, ProcessBackend
from tournament.runner.options import Options, configure
from tournament.runner.run import SUMMARY, run_tournament
from tournament.runner.schedule import Config, Unit
from tournament.runner.units import BotLogs, Played

HAS_RAY = importlib.util.find_spec("ray") is not None
needs_ray = pytest.mark.skipif(not HAS_RAY, reason="the ray extra is not installed")


@pytest.fixture(scope="module")
def ray_instance(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One local Ray instance with two CPUs for the module's tests; its workers see the marker
    file of the DiesOnce bot, whose path is returned."""
    ray = pytest.importorskip("ray", reason="the ray extra is not installed")
    marker = tmp_path_factory.mktemp("ray") / "already-died"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("THOUSAND_TEST_MARKER", str(marker))
        ray.init(
            num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR
        )
        yield marker
        ray.shutdown()


def small(game: str = "thousand") -> Config:
    """A small tournament with a misbehaving bot among the built-in ones."""
    specs = ("greedy", "random", "tests/bots/python_bots.py:Flaky")
    if game == "thousand":
        return configure(Options(specs=specs, deals=12, seed=5))
    return configure(Options(specs=(*specs, "random"), game="bluff", games=24, seed=5))


@pytest.mark.slow
@needs_ray
@pytest.mark.parametrize("game", ["thousand", "bluff"])
def test_ray_gives_the_local_summary(game: str, tmp_path: Path, ray_instance: Path) -> None:
    """The same tournament on Ray and on local workers writes byte-identical summaries, faults
    included."""
    from tournament.runner.ray_backend import RayBackend

    config = small(game)
    run_tournament(config, workers=2, out=tmp_path / "local", backend=ProcessBackend(2))
    run_tournament(config, workers=2, out=tmp_path / "ray", backend=RayBackend(workers=2))
    local = (tmp_path / "local" / SUMMARY).read_bytes()
    assert (tmp_path / "ray" / SUMMARY).read_bytes() == local
    standings = {row["name"]: row for row in json.loads(local)["standings"]}
    assert standings["tests/bots/python_bots.py:Flaky"]["faults"]["error"] > 0


@pytest.mark.slow
@needs_ray
def test_a_sequential_test_on_ray_decides_as_locally(ray_instance: Path) -> None:
    """With --sprt the run stops at the same group with the same figures on Ray as inline."""
    from tournament.runner.ray_backend import RayBackend
    from tournament.runner.sprt import Hypotheses

    config = configure(
        Options(specs=("greedy", "random", "random"), deals=300, seed=4, sprt=Hypotheses(0, 40))
    )
    inline = run_tournament(config)
    on_ray = run_tournament(config, workers=2, backend=RayBackend(workers=2))
    assert inline.sprt is not None
    assert inline.sprt.verdict.accepted == "H1"
    assert on_ray.to_dict() == inline.to_dict()


@pytest.mark.slow
@needs_ray
def test_ray_takes_batches_only_as_it_plays_them(ray_instance: Path) -> None:
    """Ray is handed a few batches per CPU at a time: stopped after the first result, it has
    taken only those from the schedule."""
    from tests.test_schedule import taken_for_a_first_result
    from tournament.runner.backends import AHEAD
    from tournament.runner.ray_backend import RayBackend

    assert 2 * AHEAD <= taken_for_a_first_result(RayBackend(workers=2)) <= 4 * AHEAD


@pytest.mark.slow
@needs_ray
@pytest.mark.parametrize("start_on_ray", [False, True], ids=["local-then-ray", "ray-then-local"])
def test_a_resume_may_switch_backend(
    start_on_ray: bool, tmp_path: Path, ray_instance: Path
) -> None:
    """Stopped halfway on one backend and resumed on the other, a tournament ends with the
    summary of an uninterrupted run."""
    from tournament.runner.ray_backend import RayBackend

    config = small()
    run_tournament(config, out=tmp_path / "whole")
    first: Backend = Stopping(RayBackend(workers=2) if start_on_ray else InlineBackend(), 3)
    then: Backend = ProcessBackend(2) if start_on_ray else RayBackend(workers=2)
    with pytest.raises(KeyboardInterrupt):
        run_tournament(config, out=tmp_path / "switched", backend=first)
    assert not (tmp_path / "switched" / SUMMARY).exists()
    run_tournament(config, out=tmp_path / "switched", resume=True, backend=then)
    expected = (tmp_path / "whole" / SUMMARY).read_bytes()
    assert (tmp_path / "switched" / SUMMARY).read_bytes() == expected


class Stopping:
    """A backend interrupted after a few batches, as by Ctrl-C or a killed process."""

    largest_batch = 8

    def __init__(self, inner: Backend, batches: int) -> None:
        self.inner = inner
        self.batches = batches

    def run(
        self,
        config: Config,
        batches: Iterable[Sequence[Unit]],
        keep_records: bool,
        logs: BotLogs,
    ) -> Iterator[list[Played]]:
        for number, played in enumerate(self.inner.run(config, batches, keep_records, logs)):
            if number == self.batches:
                raise KeyboardInterrupt
            yield played


@pytest.mark.slow
@needs_ray
def test_the_command_line_runs_on_ray(tmp_path: Path) -> None:
    """thousand tournament --backend ray starts a local instance and prints the standings that
    the local backend prints."""
    runner = CliRunner()
    arguments = ["tournament", "greedy", "random", "random", "--deals", "4", "--workers", "2"]
    arguments += ["--seed", "1"]
    on_ray = runner.invoke(app, [*arguments, "--backend", "ray"])
    local = runner.invoke(app, arguments)
    assert on_ray.exit_code == 0, on_ray.output
    assert on_ray.stdout == local.stdout


def test_ray_backend_without_ray_is_a_one_line_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without Ray installed, --backend ray says how to install it, in one line."""
    monkeypatch.setitem(sys.modules, "ray", None)
    result = CliRunner().invoke(
        app, ["tournament", "--deals", "2", "--seed", "1", "--backend", "ray"]
    )
    assert result.exit_code == 2
    assert result.output.strip() == (
        "error: --backend ray needs Ray: install it with python -m pip install ray"
    )


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--backend", "spark"], "--backend must be local or ray, not 'spark'"),
        (["--ray-address", "10.0.0.1:6379"], "--ray-address goes with --backend ray"),
    ],
)
def test_bad_backend_options(arguments: list[str], message: str) -> None:
    """An unknown backend, or a Ray address without Ray, is a one-line error."""
    result = CliRunner().invoke(app, ["tournament", "--deals", "2", *arguments])
    assert result.exit_code == 2
    assert result.output.strip() == f"error: {message}"


@pytest.mark.slow
@needs_ray
def test_a_batch_lost_with_its_worker_is_played_again(tmp_path: Path, ray_instance: Path) -> None:
    """A worker process that dies in the middle of a batch loses nothing: Ray plays the batch
    again, and the summary is the one of a run where nothing died. (The bot that kills its
    process runs in the worker's, not isolated.)"""
    from tournament.runner.ray_backend import RayBackend

    config = configure(Options(specs=("tests/bots/python_bots.py:DiesOnce", "random"),
                               rules="polish-2p", deals=6, seed=2, isolate=False))  # fmt: skip
    marker = ray_instance
    marker.write_text("")
    run_tournament(config, out=tmp_path / "calm")
    marker.unlink()
    run_tournament(config, out=tmp_path / "died", backend=RayBackend(workers=2))
    assert marker.read_text() == "died once\n"
    expected = (tmp_path / "calm" / SUMMARY).read_bytes()
    assert (tmp_path / "died" / SUMMARY).read_bytes() == expected


@pytest.mark.slow
@needs_ray
def test_a_fault_under_the_raise_policy_is_one_line_on_ray() -> None:
    """--on-fault raise stops a tournament on Ray with the same one line as on local workers,
    not Ray's traceback."""
    arguments = ["tournament", "tests/bots/python_bots.py:Flaky", "random", "random"]
    arguments += ["--deals", "2", "--on-fault", "raise", "--backend", "ray", "--workers", "2"]
    arguments += ["--seed", "1"]
    result = CliRunner().invoke(app, arguments)
    assert result.exit_code == 2
    (line,) = without_progress(result.stderr).strip().splitlines()
    assert line.startswith("error: unit t0-d")
    assert "tests/bots/python_bots.py:Flaky in seat" in line
    assert "raised RuntimeError: flaky bot tripped (at " in line
    assert re.search(r"python_bots\.py, line \d+, in act\)$", line)
