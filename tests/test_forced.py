"""Forced decisions: a player that sets ``skip_forced`` (a program that says ``"forced": false``
in its ready) is not asked for a decision with a single legal action; the driver plays it, and
the match is the one the player would have played had it been asked."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

import thousand
from thousand import Rules, SeatedPlayer, bluff
from thousand.bots.greedy import GreedyPlayer
from thousand.games import game_of
from thousand.table.external import ExternalPlayer, serve_command
from thousand.table.sessions import stop_sessions

RULES: list[Rules | bluff.Rules] = [
    Rules.preset("russian"),
    Rules.preset("polish-2p"),
    Rules.preset("russian-4"),
    bluff.Rules(players=3),
]


class FirstLegal(SeatedPlayer):
    """Plays the first legal action and keeps how many legal actions each decision had."""

    def __init__(self, skip_forced: bool) -> None:
        super().__init__()
        self.skip_forced = skip_forced
        self.choices: list[int] = []

    def act(self, observation: Any) -> object:
        self.choices.append(len(observation.legal_actions))
        return observation.legal_actions[0]


@pytest.mark.parametrize("rules", RULES, ids=lambda rules: f"{game_of(rules).name}-{rules.players}")
def test_a_player_skipping_forced_decisions_is_asked_for_choices_only(
    rules: Rules | bluff.Rules,
) -> None:
    """Asked or not for its forced decisions, a bot plays the same match; skipping them, it is
    asked only where it has a choice, and the outcome counts the decisions it was asked for."""
    forced = 0
    for seed in range(3):
        asked = [FirstLegal(skip_forced=False) for _ in range(rules.players)]
        skipping = [FirstLegal(skip_forced=True) for _ in range(rules.players)]
        every = thousand.play(asked, rules, seed=seed)
        chosen = thousand.play(skipping, rules, seed=seed)
        assert chosen.record == every.record
        for seat, (all_of_them, choices) in enumerate(zip(asked, skipping, strict=True)):
            forced += all_of_them.choices.count(1)
            assert choices.choices == [count for count in all_of_them.choices if count > 1]
            assert chosen.decisions[seat] == len(choices.choices)
            assert every.decisions[seat] == len(all_of_them.choices)
    if isinstance(rules, Rules):  # a Thousand deal has forced decisions (its last trick)
        assert forced > 0


def test_greedy_skips_forced_decisions_and_plays_as_if_asked() -> None:
    """The built-in greedy draws nothing at a forced decision, so it skips them: its matches are
    those it plays when asked for every decision."""
    assert GreedyPlayer.skip_forced
    rules = Rules.preset("russian")

    class AskedGreedy(GreedyPlayer):
        skip_forced = False

    for seed in range(3):
        skipping = thousand.play(["greedy", "greedy", "random"], rules, seed=seed)
        asked = thousand.play([AskedGreedy(), AskedGreedy(), "random"], rules, seed=seed)
        assert skipping.record == asked.record
        assert sum(skipping.decisions[:2]) < sum(asked.decisions[:2])


CHOOSER = """
import json, sys
skip = sys.argv[1] == "skip"
observation = {}
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        reply = {"type": "ready", "protocol": 2, "updates": True}
        if skip:
            reply["forced"] = False
    elif message["type"] == "act":
        if "observation" in message:
            observation = message["observation"]
        else:
            observation.update(message["update"])
        legal = observation["legal_actions"]
        sys.stderr.write(json.dumps(len(legal)) + "\\n")
        sys.stderr.flush()
        reply = {"type": "action", "action": legal[0]}
    else:
        continue
    sys.stdout.write(json.dumps(reply) + "\\n")
    sys.stdout.flush()
"""


@pytest.mark.parametrize("skip", [True, False], ids=["forced-false", "asked"])
def test_a_program_saying_forced_false_is_sent_choices_only(tmp_path: Path, skip: bool) -> None:
    """A program whose ready says ``"forced": false`` is sent no decision with a single legal
    action; one that does not say so is sent them all; both play the match a bot in the
    driver's process choosing the same way plays."""
    program = tmp_path / "chooser.py"
    program.write_text(CHOOSER)
    rules = Rules.preset("russian")
    command = f"cmd:{sys.executable} {program} {'skip' if skip else 'ask'}"
    logs = tmp_path / "logs"
    outcome = thousand.play([command, "random", "random"], rules, seed=4, log_dir=str(logs))
    stop_sessions()
    assert outcome.faults == ()
    (log,) = logs.iterdir()
    counts = [json.loads(line) for line in log.read_text().splitlines()[1:]]
    assert len(counts) == outcome.decisions[0] > 10
    assert (min(counts) > 1) is skip
    in_process = thousand.play([FirstLegal(skip_forced=skip), "random", "random"], rules, seed=4)
    assert in_process.record == outcome.record


@pytest.mark.parametrize("skips", [True, False])
def test_a_served_bot_says_whether_it_skips_forced_decisions(tmp_path: Path, skips: bool) -> None:
    """``thousand.serve`` tells the driver in its ready what the bot's ``skip_forced`` says."""
    (tmp_path / "bot.py").write_text(
        "from thousand import SeatedPlayer\n"
        "class Bot(SeatedPlayer):\n"
        f"    skip_forced = {skips}\n"
        "    def act(self, observation):\n"
        "        return observation.legal_actions[0]\n"
    )
    player = ExternalPlayer(serve_command(f"{tmp_path / 'bot.py'}:Bot"), log_dir=str(tmp_path))
    player.start(0, Rules.preset("russian"), random.Random(1))
    try:
        assert player.skip_forced is skips
    finally:
        player.close()
