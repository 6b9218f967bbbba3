"""What the ladder server tells a connected bot: every frame of whole games is captured as sent,
and no frame sent to a seat before its game is over names a card that seat may not see."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

from tests.test_server import Running
from tests.test_server_games import FAST, finished, waited
from thousand import (
    DECK,
    Card,
    GameState,
    Give,
    Observation,
    Phase,
    Record,
    Rules,
    new_deal,
    replay,
)
from tournament.server.app import Settings
from tournament.server.store import PlayedGame, Store

BOT = "alpha"
GROUPS = 2
"""Whole groups the bot plays."""
GAMES_PER_GROUP = 6
"""A group of three bots: the same cards under each of the six seatings."""
FRAME_TYPES = {"welcome", "hello", "act", "end"}
"""What the server sends a bot that answers every question in time and sends nothing else."""
RATED = re.compile(r"(\d+)-(\d+)")
"""The id of a game of a rated group: the group's number and the game's."""


@attrs.frozen
class Frame:
    """One websocket frame received: the exact text sent, its type and its game."""

    text: str
    kind: str
    game_id: str | None


@attrs.frozen
class Played:
    """The frames the bot received, in order, and the rated groups it played to the end."""

    frames: tuple[Frame, ...]
    groups: tuple[tuple[str, list[PlayedGame]], ...]
    """Each whole group's number, as its games' ids spell it, with its games as the server kept
    them."""


def hidden_from(state: GameState, seat: int) -> set[Card]:
    """The cards ``seat`` may not see in ``state``: those in the other seats' hands, save the
    ones it gave them and the talon once shown to the table; and the talon while it lies face
    down, during the auction."""
    talon = set(state.layout.talon[0])
    auction = state.phase is Phase.AUCTION
    given = {
        action.card
        for actor, action in state.actions
        if actor == seat and isinstance(action, Give) and action.card is not None
    }
    others = {card for holder, hand in enumerate(state.hands) if holder != seat for card in hand}
    if auction:
        return others | talon
    return others - given - talon


def leaked(text: str, hidden: set[Card]) -> set[str]:
    """The cards of ``hidden`` that ``text`` names as a whole token (``9S`` in ``"9S"``,
    ``"play 9S"`` or ``"9S KH"``, never inside a longer word or number)."""
    return {str(card) for card in hidden if re.search(rf"\b{re.escape(str(card))}\b", text)}


def names_number(text: str, number: int) -> bool:
    """Whether ``text`` holds ``number`` as a whole number."""
    return re.search(rf"(?<![0-9]){number}(?![0-9])", text) is not None


def states_before_actions(record: dict[str, Any]) -> list[GameState]:
    """Replaying the record a game's end tells (without the seed that dealt it, so from the
    cards it dealt): the state before each of the game's actions, in order."""
    dealt = {**record, "seed": 0, "start_layout": record["deals"][0]["layout"]}
    states: list[GameState] = []
    replay(Record.from_dict(dealt), watch=states.append)
    return [state for state in states if not state.is_over]


def play_whole_groups(running: Running, token: str, url: str, seed: int) -> Played:
    """Log in with ``token`` and answer by the raw protocol (ready to each hello, a legal
    action drawn at random to each question), keeping the text of every frame received, until
    :data:`GROUPS` rated groups have ended all their games; then wait for the server to keep
    them."""
    rng = random.Random(seed)
    frames: list[Frame] = []
    ends: dict[str, int] = {}
    connection = running.connect()
    connection.send(json.dumps({"type": "login", "token": token}))
    while sum(count == GAMES_PER_GROUP for count in ends.values()) < GROUPS:
        text = connection.recv(timeout=30)
        assert isinstance(text, str)
        message = json.loads(text)
        game_id = message.get("game_id")
        frames.append(Frame(text, message["type"], game_id))
        if message["type"] == "hello":
            connection.send(json.dumps({"type": "ready", "game_id": game_id}))
        elif message["type"] == "act":
            action = rng.choice(message["observation"]["legal_actions"])
            connection.send(json.dumps({"type": "action", "game_id": game_id, "action": action}))
        elif message["type"] == "end" and (rated := RATED.fullmatch(game_id)):
            ends[rated[1]] = ends.get(rated[1], 0) + 1
    connection.close()
    whole = sorted(ends, key=int)
    assert all(ends[group] == GAMES_PER_GROUP for group in whole)
    waited(lambda: len(finished(url)) >= len(whole), seconds=30)
    kept = finished(url)[: len(whole)]
    return Played(tuple(frames), tuple(zip(whole, kept, strict=True)))


@pytest.fixture
def played(tmp_path: Path) -> Iterator[Played]:
    """A server on a fresh SQLite file playing Russian groups with its reference bots random
    and greedy, and the frames one bot connected to it received until it had played whole
    groups."""
    url = f"sqlite:///{tmp_path / 'server.db'}"
    store = Store(url, make=True)
    token = store.add_bot(BOT)
    store.close()
    running = Running(Settings(database=url, timing=FAST, pairing=0.05))
    try:
        yield play_whole_groups(running, token, url, seed=20260)
    finally:
        running.stop()


def test_no_frame_of_whole_games_names_a_card_its_seat_may_not_see(played: Played) -> None:
    """Every frame a connected bot receives until it has played whole rated groups, checked as
    the text sent. The frames are only one welcome, then hello, act and end. Each game the bot
    is asked to play, in a group or not, begins with its hello and ends with one end, after its
    last question, which tells the game's record without the seed that dealt it. Each question
    is the library's own observation of the bot's seat at the moment of that record where the
    seat acts, with the seat's hand; and neither the hello nor any question names, anywhere in
    its text, a card the seat may not see then (a card in another seat's hand that the seat
    neither gave nor saw in the talon, or the talon while face down). The library's observation
    is held to the same rule, so that the rule and the library agree on what a seat sees. The
    rated games are those the server kept, and no frame names the seed of a group's cards."""
    frames = played.frames
    assert frames[0].kind == "welcome"
    assert not leaked(frames[0].text, set(DECK))
    assert {frame.kind for frame in frames} <= FRAME_TYPES
    assert [frame.kind for frame in frames].count("welcome") == 1
    games: dict[str, list[Frame]] = {}
    for frame in frames[1:]:
        assert frame.game_id is not None, frame.text
        games.setdefault(frame.game_id, []).append(frame)
    questions_checked = 0
    for game_id, own in games.items():
        kinds = [frame.kind for frame in own]
        assert kinds[0] == "hello", game_id
        assert kinds[-1] == "end", game_id
        assert set(kinds[1:-1]) <= {"act"}, game_id
        seat = json.loads(own[0].text)["seat"]
        record = json.loads(own[-1].text)["outcome"]["record"]
        assert "seed" not in record
        assert record["players"][seat] == BOT
        states = states_before_actions(record)
        assert not leaked(own[0].text, hidden_from(states[0], seat)), game_id
        asked = [state for state in states if state.player == seat]
        assert len(own) - 2 == len(asked), game_id
        for frame, state in zip(own[1:-1], asked, strict=True):
            hidden = hidden_from(state, seat)
            expected = Observation.of_player(state, seat)
            assert list(expected.hand) == list(state.hands[seat])
            assert not leaked(json.dumps(expected.to_dict()), hidden)
            observation = json.loads(frame.text)["observation"]
            assert observation == expected.to_dict(with_rules=False), game_id
            assert observation["hand"] == [str(card) for card in state.hands[seat]]
            assert not leaked(frame.text, hidden), (game_id, frame.text)
            questions_checked += 1
    assert questions_checked >= GROUPS * GAMES_PER_GROUP
    assert len(played.groups) == GROUPS
    for group, kept in played.groups:
        assert len(kept) == GAMES_PER_GROUP
        for number, game in enumerate(kept):
            own = games[f"{group}-{number}"]
            told = json.loads(own[-1].text)["outcome"]["record"]
            assert told == {key: value for key, value in game.record.items() if key != "seed"}
            assert game.statuses == ("ok", "ok", "ok")
            assert json.loads(own[0].text)["seed"] != game.record["seed"]
    seeds = {kept[0].record["seed"] for _, kept in played.groups}
    for frame in frames:
        assert not any(names_number(frame.text, seed) for seed in seeds), frame.text


def test_the_checker_catches_a_leaked_card() -> None:
    """The check above can fail: a question that names a card of another seat's hand, in a
    list, in an action's text or in a layout's spaced text, is caught, and so is the talon
    named during the auction; a card's text inside a longer token is not taken for the card.
    The cards a seat gave, and the talon once shown, are not hidden from it."""
    rules = Rules.preset("russian")
    state = new_deal(rules, seed=7)
    seat = (state.player + 1) % rules.players
    other = next(holder for holder in range(rules.players) if holder != seat)
    theirs = state.hands[other][0]
    talon = state.layout.talon[0]
    observation = Observation.of_player(state, seat).to_dict(with_rules=False)
    question = {"type": "act", "game_id": "1-0", "observation": observation}
    hidden = hidden_from(state, seat)
    assert hidden == set(state.hands[other]) | set(state.hands[3 - seat - other]) | set(talon)
    assert not leaked(json.dumps(question), hidden)
    for planted in (
        {**observation, "hand": [*observation["hand"], str(theirs)]},
        {**observation, "history": [[other, f"play {theirs} marriage"]]},
        {**observation, "layout": {"hands": [f"9H {theirs} AS"]}},
        {**observation, "talon": [str(talon[0])]},
    ):
        assert leaked(json.dumps({**question, "observation": planted}), hidden)
    assert not leaked(json.dumps({"note": f"x{theirs}", "n": f"{theirs}2"}), hidden)
    rng = random.Random(3)
    while state.phase is Phase.AUCTION:
        state = state.apply(rng.choice(state.legal_actions()))
    while state.phase is Phase.EXCHANGE:
        state = state.apply(state.legal_actions()[0])
    declarer = state.declarer
    assert declarer is not None
    gifts = [action for _, action in state.actions if isinstance(action, Give)]
    assert gifts
    for gift in gifts:
        assert gift.card is not None
        assert gift.card not in hidden_from(state, declarer)
        assert gift.card in hidden_from(state, 3 - declarer - gift.to) | set(talon)
    for watcher in range(rules.players):
        assert not hidden_from(state, watcher) & set(talon)
        assert not hidden_from(state, watcher) & set(state.hands[watcher])
