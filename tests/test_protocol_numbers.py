"""Every number the bot protocol sends reaches a bot in JavaScript exactly, read by node's
``JSON.parse``, in both games."""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path
from typing import Any

import pytest

import thousand
from thousand import Rules, Status, bluff

ECHO_BOT = Path(__file__).resolve().parent / "bots" / "echo_bot.js"
NODE = shutil.which("node")
SAFE = 2**53


@pytest.mark.skipif(NODE is None, reason="node is not installed")
@pytest.mark.parametrize(
    ("rules", "single_deal"),
    [
        pytest.param(Rules.preset("russian"), True, id="thousand"),
        pytest.param(Rules.preset("russian-4"), True, id="thousand-4"),
        pytest.param(bluff.Rules(players=3), False, id="1000?"),
    ],
)
@pytest.mark.parametrize("seed", [1, 7, 2024])
def test_a_javascript_bot_reads_every_number_as_sent(
    tmp_path: Path, rules: Any, single_deal: bool, seed: int
) -> None:
    """node's JSON.parse reads the hello (its seed and generator state) and every observation
    exactly as the driver wrote them."""
    assert NODE is not None
    read = tmp_path / "read.jsonl"
    spec = "cmd:" + shlex.join([NODE, str(ECHO_BOT), str(read)])
    players = [spec] + ["random"] * (rules.players - 1)
    outcome = thousand.play(
        players, rules, seed=seed, single_deal=single_deal, log_dir=str(tmp_path)
    )
    assert outcome.statuses[0] is Status.OK, outcome.faults
    exchanged = [json.loads(line) for line in read.read_text().splitlines()]
    hello = json.loads(exchanged[0]["sent"])
    assert hello["type"] == "hello"
    assert 0 <= hello["seed"] < SAFE
    assert len(exchanged) == 1 + outcome.decisions[0] + 1  # the hello, each act, the end
    for message in exchanged:
        assert json.loads(message["read"]) == json.loads(message["sent"])
