"""The compact form of observations (:mod:`thousand.common.knowledge`): rebuilt by the served bot
from what changed, every observation equals the one the driver made, in both games and every
table size; the form is used only between the library's own driver and served bots that name
the same form, and it is smaller than the JSON updates."""

from __future__ import annotations

import json
import random
from typing import Any

import attrs
import pytest

import thousand
from thousand import Rules, SeatedPlayer, bluff
from thousand.classic.observation import Observation
from thousand.common import knowledge
from thousand.games import AnyObservation, game_of
from thousand.table.external import ExternalPlayer, update_message
from thousand.table.sessions import stop_sessions

RULES: list[Rules | bluff.Rules] = [
    *(Rules.preset(name) for name in Rules.preset_names()),
    bluff.Rules(players=3),
    bluff.Rules(players=5),
]


def every_view(rules: Rules | bluff.Rules, seed: int) -> list[list[AnyObservation]]:
    """Per seat, its view of every state of a match of random play (its decisions and the
    other seats' alike), up to 400 states: several deals."""
    game = game_of(rules)
    rng = random.Random(seed)
    state: Any = game.start(
        game.own_rules(rules), layout=None, dealer=None, seed=seed, single_deal=False
    )
    views: list[list[AnyObservation]] = [[] for _ in range(rules.players)]
    while True:
        for seat in range(rules.players):
            views[seat].append(game.seen_from(state, seat))
        if state.is_over or len(views[0]) == 400:
            return views
        state = state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("rules", RULES, ids=lambda rules: f"{game_of(rules).name}-{rules.players}")
def test_every_view_is_rebuilt_from_what_changed(rules: Rules | bluff.Rules) -> None:
    """Over matches (new deals, challenges that reveal old cards, the exchange), each
    seat's views rebuilt one after the other from their compact messages, through JSON, equal
    the driver's field for field, and their JSON data too; the messages are smaller than the
    JSON updates."""
    compact_bytes = update_bytes = 0
    for views in every_view(rules, 1):
        reader = knowledge.Reader(type(views[0]), views[0].rules)
        previous: AnyObservation | None = None
        told: dict[str, Any] | None = None
        for view in views:
            message = json.dumps(view.knowledge_since(previous))
            rebuilt = reader.read(json.loads(message))
            assert rebuilt == view
            data = view.to_dict()
            assert rebuilt.to_dict() == data
            if told is not None:
                compact_bytes += len(message)
                update_bytes += len(json.dumps(update_message(told, data)))
            previous, told = view, data
    assert compact_bytes < update_bytes


def test_only_what_changed_is_sent() -> None:
    """Between two views of one seat in a deal, only the parts that are other objects are sent;
    a history is sent as the actions added to it, and whole when a new deal begins."""
    views = every_view(Rules.preset("russian"), 3)[0]
    first, second = views[0], views[1]
    sent = first.knowledge_since(None)
    assert [index for index, _ in sent["known"]] == list(range(1, len(Observation.PARTS)))
    step = second.knowledge_since(first)
    parts = {Observation.PARTS[index].name: value for index, value in step["known"]}
    assert "scores" not in parts
    assert "rules" not in parts
    added = parts["history"]
    assert added[0] is False
    assert len(added[1]) == 1
    new_deal = next(index for index, view in enumerate(views) if view.deal_number == 1)
    step = views[new_deal + 1].knowledge_since(views[new_deal - 1])
    whole = {Observation.PARTS[index].name: value for index, value in step["known"]}["history"]
    assert whole[0] is True
    assert len(whole[1]) == 1


def test_the_form_changes_with_the_parts() -> None:
    """The form names the parts and how each is sent: a driver and a bot that read the parts
    otherwise never use it together."""
    assert knowledge.form(Observation) == knowledge.form(Observation)
    assert knowledge.form(Observation) != knowledge.form(bluff.Observation)

    class Reordered(Observation):
        PARTS = (Observation.PARTS[1], Observation.PARTS[0], *Observation.PARTS[2:])

    class Renamed(Observation):
        PARTS = (
            *Observation.PARTS[:-1],
            attrs.evolve(Observation.PARTS[-1], name="deals_scored"),
        )

    forms = {knowledge.form(kind) for kind in (Observation, Reordered, Renamed)}
    assert len(forms) == 3


def test_each_part_is_declared() -> None:
    """The parts declared are as many as a view holds, in both games."""
    for rules in RULES:
        game = game_of(rules)
        state: Any = game.start(
            game.own_rules(rules), layout=None, dealer=None, seed=1, single_deal=False
        )
        view = game.seen_from(state, 0)
        assert len(type(view).PARTS) == len(view.__dict__["_known"])


class Counting(SeatedPlayer):
    """Plays the first legal action."""

    def act(self, observation: Any) -> object:
        return observation.legal_actions[0]


def test_served_python_bots_are_sent_the_compact_form(tmp_path: Any) -> None:
    """An isolated Python bot names the form in its ready and is sent it; the match plays out
    as with the same bot in the driver's process."""
    sent: list[dict[str, Any]] = []
    original = ExternalPlayer._send

    def spy(self: ExternalPlayer, message: dict[str, Any], seconds: float) -> None:
        sent.append(message)
        original(self, message, seconds)

    rules = Rules.preset("russian")
    spec = f"{__file__}:Counting"
    ExternalPlayer._send = spy  # type: ignore[method-assign]
    try:
        isolated = thousand.play(
            [spec, "random", "random"], rules, seed=5, isolate="process", log_dir=str(tmp_path)
        )
    finally:
        ExternalPlayer._send = original  # type: ignore[method-assign]
        stop_sessions()
    trusted = thousand.play([Counting(), "random", "random"], rules, seed=5)
    assert isolated.record == trusted.record
    acts = [message for message in sent if message["type"] == "act"]
    assert acts
    assert all("known" in message and "observation" not in message for message in acts)
