"""Observation updates of the bot protocol: a program that asks for them is sent, after the
first observation of a match, only what changed; merged as docs/bot-protocol.md says, every
update gives back the whole observation, and ``thousand.serve`` rebuilds the very observation a
bot in the driver's process gets. A program may also do without the outcome in ``end``."""

from __future__ import annotations

import itertools
import json
import random
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest

import thousand
from thousand import Rules, SeatedPlayer, bluff
from thousand.games import AnyObservation, game_of
from thousand.table.external import ExternalPlayer, serve_command, update_message
from thousand.table.sessions import stop_sessions

PRESETS = ["russian", "polish-2p", "russian-4", "polish-4"]
# A match of random play would run to the presets' 400 deals; 30 deals show every kind of update.
RULES: list[Rules | bluff.Rules] = [
    *(attrs.evolve(Rules.preset(name), max_deals=30) for name in PRESETS),
    bluff.Rules(players=3),
    bluff.Rules(players=5),
]


class Recorder(SeatedPlayer):
    """Plays at random and keeps every observation it was given."""

    def __init__(self, seen: list[AnyObservation]) -> None:
        super().__init__()
        self.seen = seen

    def act(self, observation: Any) -> object:
        self.seen.append(observation)
        return self.rng.choice(observation.legal_actions)


def observations(rules: Rules | bluff.Rules, seed: int) -> list[list[AnyObservation]]:
    """Per seat, what it was shown at each of its decisions in a whole match of random play."""
    seen: list[list[AnyObservation]] = [[] for _ in range(rules.players)]
    thousand.play([Recorder(each) for each in seen], rules, seed=seed)
    return seen


def merged(observation: dict[str, Any], message: dict[str, Any]) -> dict[str, Any]:
    """The observation an ``act`` message gives a bot that holds ``observation``, merged as
    docs/bot-protocol.md tells a bot's author to."""
    if "observation" in message:
        return dict(message["observation"])
    update = message["update"]
    result = {**observation, **update}
    if "history" in update:
        result["history"] = observation["history"][: message["history_kept"]] + update["history"]
    return result


@pytest.mark.parametrize("rules", RULES, ids=lambda rules: f"{game_of(rules).name}-{rules.players}")
def test_merged_updates_give_every_observation_back(rules: Rules | bluff.Rules) -> None:
    """Over whole matches, for every seat: each update merged into the bot's last observation
    equals the whole observation, JSON for JSON, and the updates are a fraction of the whole."""
    whole_bytes = update_bytes = 0
    for seed in range(3):
        for seen in observations(rules, seed):
            held: dict[str, Any] = {}
            told: dict[str, Any] | None = None
            for observation in seen:
                data = observation.to_dict(with_rules=False)
                message = (
                    {"type": "act", "observation": data}
                    if told is None
                    else update_message(told, data)
                )
                held = merged(held, json.loads(json.dumps(message)))
                assert held == data
                told = data
                whole_bytes += len(json.dumps(data))
                update_bytes += len(json.dumps(message))
    assert update_bytes < whole_bytes / 2


def test_an_update_keeps_only_the_history_that_did_not_change() -> None:
    """A new deal's history, or an older entry seen anew (a 1000? card revealed by a
    challenge), is sent from the first entry that differs."""
    told = {"seat": 0, "history": [[1, "pass"], [2, "hide ??"], [0, "pass"]]}
    revealed = {"seat": 0, "history": [[1, "pass"], [2, "hide 17"], [0, "pass"], [1, "pass"]]}
    assert update_message(told, revealed) == {
        "type": "act",
        "update": {"history": [[2, "hide 17"], [0, "pass"], [1, "pass"]]},
        "history_kept": 1,
    }
    assert update_message(told, {"seat": 0, "history": []}) == {
        "type": "act",
        "update": {"history": []},
        "history_kept": 0,
    }
    grown = {"seat": 0, "history": [*told["history"], [1, "believe"]]}
    assert update_message(told, grown)["history_kept"] == 3
    assert update_message(told, dict(told)) == {"type": "act", "update": {}}


def test_a_challenge_changes_an_older_entry_of_the_history() -> None:
    """The case above happens in real play: some 1000? update keeps less history than the bot
    held."""
    shortened = 0
    for seed in range(6):
        for seen in observations(bluff.Rules(players=3), seed):
            for before, after in itertools.pairwise(seen):
                told, data = before.to_dict(), after.to_dict()
                message = update_message(told, data)
                shortened += message.get("history_kept", len(told["history"])) < len(
                    told["history"]
                )
    assert shortened > 0


@pytest.mark.parametrize("rules", RULES, ids=lambda rules: f"{game_of(rules).name}-{rules.players}")
def test_an_updated_observation_is_the_one_seen_in_process(rules: Rules | bluff.Rules) -> None:
    """Rebuilt field by field from updates, as ``thousand.serve`` does, each observation equals
    the one the driver made, and the one read whole from its JSON."""
    game = game_of(rules)
    for seen in observations(rules, 11):
        rebuilt: Any = None
        told: dict[str, Any] | None = None
        history: list[Any] = []
        for observation in seen:
            data = observation.to_dict(with_rules=False)
            if told is None:
                rebuilt = game.observation_from_dict(json.loads(json.dumps(data)), rules)
                history = data["history"]
            else:
                update = json.loads(json.dumps(update_message(told, data)))
                changes = update["update"]
                if "history" in changes:
                    history = history[: update["history_kept"]] + changes["history"]
                    changes["history"] = history
                rebuilt = rebuilt.updated(changes)
            assert rebuilt == observation
            assert rebuilt == game.observation_from_dict(data, rules)
            told = data


def test_an_update_naming_no_field_is_refused() -> None:
    """A field the observation does not have cannot be updated."""
    (seen, *_) = observations(Rules.preset("russian"), 1)
    with pytest.raises(KeyError):
        seen[0].updated({"cards_of_others": []})


LISTENER = """
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    sys.stderr.write(json.dumps(sorted(message)) + "\\n")
    sys.stderr.flush()
    if message["type"] == "hello":
        reply = {"type": "ready", "protocol": 2, "updates": True, "outcome": False}
    elif message["type"] == "act":
        if "observation" in message:
            legal = message["observation"]["legal_actions"]
        elif "legal_actions" in message["update"]:
            legal = message["update"]["legal_actions"]
        reply = {"type": "action", "action": legal[0]}
    else:
        continue
    sys.stdout.write(json.dumps(reply) + "\\n")
    sys.stdout.flush()
"""


def test_a_program_asking_for_updates_and_no_outcome_gets_them(tmp_path: Path) -> None:
    """A program whose ready asks for updates and no outcome is sent its first observation of a
    match whole, updates after, and an ``end`` without the outcome; the match plays as with a
    bot in the driver's process choosing the same way."""
    program = tmp_path / "listener.py"
    program.write_text(LISTENER)
    rules = Rules.preset("russian")
    outcome = thousand.play(
        [f"cmd:{sys.executable} {program}", "random", "random"],
        rules,
        seed=4,
        log_dir=str(tmp_path / "logs"),
    )
    assert outcome.faults == ()
    stop_sessions()  # the kept process's last words (on the end) reach its log as it stops
    (log,) = (tmp_path / "logs").iterdir()
    received = [json.loads(line) for line in log.read_text().splitlines()[1:]]
    assert received[0] == [
        "game", "players", "protocol", "random_seed", "rules", "seat", "seed", "type"
    ]  # fmt: skip
    acts = received[1:-1]
    assert acts[0] == ["observation", "type"]
    assert len(acts) > 20
    assert all("update" in keys for keys in acts[1:])
    assert received[-1] == ["type"]

    class FirstLegal(SeatedPlayer):
        def act(self, observation: Any) -> object:
            return observation.legal_actions[0]

    in_process = thousand.play([FirstLegal(), "random", "random"], rules, seed=4)
    assert in_process.record == outcome.record


@pytest.mark.parametrize("rules", RULES, ids=lambda rules: f"{game_of(rules).name}-{rules.players}")
def test_data_since_the_last_observation_is_the_whole_data(rules: Rules | bluff.Rules) -> None:
    """What the driver writes of an observation from the seat's last one (reusing what did not
    change) is exactly the observation's whole data, at every decision of whole matches."""
    for seed in range(4):
        for seen in observations(rules, seed):
            data = seen[0].to_dict(with_rules=False)
            for before, observation in itertools.pairwise(seen):
                data = observation.data_since(before, data)
                assert data == observation.to_dict(with_rules=False)


def play_decisions_of_seat_0() -> list[thousand.Observation]:
    """Seat 0's observations at its decisions in the play of a Russian deal (seed 3) where
    every seat takes its first legal action."""
    state = thousand.new_deal(Rules.preset("russian"), seed=3)
    seen = []
    while not state.is_over:
        if state.player == 0 and state.phase is thousand.Phase.PLAY:
            seen.append(state.observation(0))
        state = state.apply(state.legal_actions()[0])
    return seen


def test_data_since_takes_what_did_not_change_from_the_earlier_data() -> None:
    """Between two of a seat's decisions in the play, the match's facts are the earlier data's
    very values, and the history and finished tricks keep the earlier entries and add the new
    ones."""
    _, before, observation = play_decisions_of_seat_0()[:3]
    data = before.to_dict(with_rules=False)
    since = observation.data_since(before, data)
    assert since == observation.to_dict(with_rules=False)
    for name in ("scores", "barrel", "active", "bolts", "falls"):
        assert since[name] is data[name]
    assert len(since["history"]) == len(data["history"]) + 4
    kept = since["history"][: len(data["history"])]
    assert all(now is then for now, then in zip(kept, data["history"], strict=True))
    assert len(since["tricks"]) == len(data["tricks"]) + 1 == 2
    assert since["tricks"][0] is data["tricks"][0]


def test_data_since_a_view_it_cannot_compare_with_is_the_whole_data() -> None:
    """Since an observation rebuilt from its JSON (which holds no parts) or one of the other
    game, the data is the observation's whole data, without the rules."""
    before, observation = play_decisions_of_seat_0()[:2]
    rebuilt = thousand.Observation.from_dict(json.loads(json.dumps(before.to_dict())))
    other = bluff.new_game(bluff.Rules(players=3), seed=1)
    other_view = other.observation(other.player)
    whole = observation.to_dict(with_rules=False)
    assert "rules" not in whole
    for previous in (rebuilt, other_view):
        data = previous.to_dict(with_rules=False)
        assert observation.data_since(previous, data) == whole


DRAWER = """
import sys
class Drawer:
    def start(self, seat, rules, rng):
        print(f"drew {rng.random()!r}", file=sys.stderr)
    def act(self, observation):
        return observation.legal_actions[0]
"""


@pytest.mark.parametrize("seeded", [True, False], ids=["seed", "state"])
def test_a_served_bot_draws_from_the_generator_it_was_given(tmp_path: Path, seeded: bool) -> None:
    """The hello gives the seed of a generator the driver made from one (as ``thousand.play``
    does), else the generator's state: either way a served bot draws what it would in process."""
    (tmp_path / "drawer.py").write_text(DRAWER)
    player = ExternalPlayer(
        serve_command(f"{tmp_path / 'drawer.py'}:Drawer"), log_dir=str(tmp_path)
    )
    generator = random.Random(41)
    if seeded:
        player.random_seed = 41
    else:
        generator.random()  # no longer the generator the seed makes
    expected = random.Random()
    expected.setstate(generator.getstate())
    player.start(0, Rules.preset("russian"), generator)
    player.close()
    assert player.log_path is not None
    assert f"drew {expected.random()!r}" in player.log_path.read_text()
