"""Every script in ``examples/`` runs to completion and prints what it promises."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from thousand import MatchResult, bluff, load_record, replay

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))

EXPECTED: dict[str, list[str]] = {
    "random_match.py": ["russian rules, seed 1", "deal  dealer  declarer", "winner: seat"],
    "bluff_game.py": [
        "1000? for 4 players, seed 1",
        "climb  cards played (seat:card, [card] face down)  ->  how it ended",
        "    1  ",
        "winner: seat",
        "cards left: ",
    ],
    "ladder_rating.py": [
        "first-legal bot, random and greedy: 40 deals under every seating, seed 1",
        "on the reference scale of Thousand, russian rules, tables of 3",
        "greedy rates ",
        "its reference rating is 1500",
    ],
    "ladder_server.py": [
        "logged in as mybot",
        "leaderboard of thousand, russian rules:",
        "  greedy    1500.0  2 groups, 12 games",
        "  mybot    ",
    ],
    "learn_bluff.py": [
        "1000? for 2 against random: 300 games of training, seed 1",
        "wins before training: ",
        "wins after training: ",
    ],
    "house_rules.py": [
        "russian-4 with bolts, samosval, four nines and the third fall, seed 1",
        "deal  dealer  sits out  bonus  deal scores",
        "winner: seat ",
    ],
    "sampling_bot.py": [
        "sampling bot, 6 deals, 8 worlds per decision",
        "mean deal score: sampling bot ",
        "mean deal score: random bots ",
    ],
}
"""Text each example must print when run without arguments (or with :data:`SHORTENED`'s)."""
SHORTENED: dict[str, list[str]] = {"learn_bluff.py": ["--games", "300", "--evaluate", "100"]}
"""Arguments that make an example quicker in the suite."""


def run(script: Path, *args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run an example with this interpreter, the repository first on the import path, with
    ``stdin`` as its input."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, str(script), *args],
        input=stdin,
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_there_are_examples():
    """The examples folder is not empty, so the tests below check something."""
    assert "random_match.py" in [script.name for script in EXAMPLES]


@pytest.mark.slow
@pytest.mark.parametrize("script", EXAMPLES, ids=lambda script: script.name)
def test_example_runs(script, tmp_path):
    """Each example exits with status 0 and prints its expected text."""
    completed = run(script, *SHORTENED.get(script.name, []), cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr
    for text in EXPECTED.get(script.name, []):
        assert text in completed.stdout


def test_the_learning_example_learns_to_beat_random(tmp_path):
    """Even 300 games of training lift the policy's wins against random well above the half it
    starts from."""
    completed = run(
        ROOT / "examples" / "learn_bluff.py", *SHORTENED["learn_bluff.py"], cwd=tmp_path
    )
    assert completed.returncode == 0, completed.stderr
    rates = {
        line.split(": ")[0]: int(line.split(": ")[1].rstrip("%"))
        for line in completed.stdout.splitlines()
        if line.startswith("wins ")
    }
    assert 35 <= rates["wins before training"] <= 65
    assert rates["wins after training"] >= rates["wins before training"] + 15


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["russian", "polish", "polish-2p"])
def test_random_match_writes_a_record_that_replays(preset, tmp_path):
    """With --record the script writes a record that replays to the match it printed."""
    path = tmp_path / "match.json"
    completed = run(
        ROOT / "examples" / "random_match.py",
        preset,
        "--seed",
        "5",
        "--max-deals",
        "6",
        "--record",
        str(path),
        cwd=tmp_path,
    )
    assert completed.returncode == 0, completed.stderr
    assert f"{preset} rules, seed 5" in completed.stdout
    assert f"record written to {path}" in completed.stdout
    state = replay(load_record(path))
    assert isinstance(state.result, MatchResult)
    assert state.result.deals == 6
    rows = [line for line in completed.stdout.splitlines() if line[:4].strip().isdigit()]
    assert len(rows) == 6
    final = " / ".join(str(score) for score in state.result.scores)
    assert f"final scores: {final}" in completed.stdout


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 6])
def test_bluff_game_writes_a_record_that_replays(players, tmp_path):
    """bluff_game.py with --record writes a record that replays to the game it printed."""
    path = tmp_path / "game.json"
    completed = run(
        ROOT / "examples" / "bluff_game.py",
        "--players",
        str(players),
        "--seed",
        "3",
        "--record",
        str(path),
        cwd=tmp_path,
    )
    assert completed.returncode == 0, completed.stderr
    assert f"1000? for {players} players, seed 3" in completed.stdout
    assert f"record written to {path}" in completed.stdout
    state = bluff.replay(bluff.load_record(path))
    result = state.result
    assert result is not None
    assert state.rules.players == players
    winners = " and ".join(f"seat {seat}" for seat in result.winners)
    assert f": {winners} after {result.turns} actions" in completed.stdout
    sizes = " / ".join(str(size) for size in result.hand_sizes)
    assert f"cards left: {sizes}" in completed.stdout
    climbs = [line for line in completed.stdout.splitlines() if line[:5].strip().isdigit()]
    assert [int(line[:5]) for line in climbs] == list(range(1, len(climbs) + 1))
    assert "out of cards" in climbs[-1] or "turn limit" in climbs[-1]


def test_bluff_game_rejects_a_bad_player_count(tmp_path):
    """Seven players is a usage error naming the limit, not a traceback."""
    completed = run(ROOT / "examples" / "bluff_game.py", "--players", "7", cwd=tmp_path)
    assert completed.returncode == 2
    assert "'players' must be 2 to 6, not 7" in completed.stderr
    assert "Traceback" not in completed.stderr


def test_random_match_rejects_an_unknown_preset(tmp_path):
    """An unknown preset is a usage error (exit status 2), not a traceback."""
    completed = run(ROOT / "examples" / "random_match.py", "german", cwd=tmp_path)
    assert completed.returncode == 2
    assert "invalid choice" in completed.stderr


def test_external_bot_speaks_the_protocol(tmp_path):
    """The standard-library example bot answers a hello with ready and an act with one of the
    legal actions, and exits at the end of the match."""
    import json

    import thousand

    state = thousand.new_deal(thousand.Rules.preset("russian"), seed=2)
    seat = state.current_player
    observation = state.observation(seat).to_dict(with_rules=False)
    messages = [
        {"type": "hello", "protocol": 1, "game": "thousand", "seat": seat, "players": 3,
         "rules": state.rules.to_dict(), "seed": 5, "random_state": None},
        {"type": "act", "observation": observation},
        {"type": "end", "outcome": {}},
    ]  # fmt: skip
    completed = run(
        ROOT / "examples" / "external_bot.py",
        cwd=tmp_path,
        stdin="".join(json.dumps(message) + "\n" for message in messages),
    )
    assert completed.returncode == 0, completed.stderr
    ready, action = [json.loads(line) for line in completed.stdout.splitlines()]
    assert ready["type"] == "ready"
    assert action["type"] == "action"
    assert action["action"] in observation["legal_actions"]
    assert action["action"] == "pass"
