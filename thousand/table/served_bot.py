"""Serve a Python bot over the external bot protocol: ``python -m thousand.serve SPEC``.

A Python bot served this way is an external program like any other. Isolated bots
(:mod:`thousand.table.isolation`) are served by the same code. The bot receives the same
observations and the same generator as it would in the driver's process, so a match plays out
identically either way. One process serves match after match (a session): each with a fresh
player, so that only what the bot's module keeps (a loaded model) is shared between them.
"""

from __future__ import annotations

import functools
import json
import random
import sys
from collections.abc import Callable
from typing import IO, Any, cast

from thousand.common import knowledge
from thousand.common.config import load_json
from thousand.common.view import View
from thousand.errors import ThousandError
from thousand.games import ActionT as A
from thousand.games import Game, game_named
from thousand.games import ObservationT as O
from thousand.games import RecordT as Rec
from thousand.games import RulesT as R
from thousand.games import StateT as S
from thousand.players import Player, SeatedPlayer
from thousand.table.external import PROTOCOL
from thousand.table.match import Outcome, describe_failure
from thousand.table.specs import load_player
from thousand.table.tracebacks import formatted

__all__ = ["main", "serve", "serve_player", "spec_maker"]

SPOKEN = (1, PROTOCOL)
"""The versions of the protocol served: a driver speaking 1 ends the session after one match."""


def serve(spec: str, incoming: IO[str], outgoing: IO[str]) -> None:
    """Answer the driver's messages on ``incoming`` until it closes, a fresh player of the bot
    ``spec`` for each match (see :func:`spec_maker`)."""
    serve_player(spec_maker(spec), spec, incoming, outgoing)


def spec_maker(spec: str) -> Callable[[], object]:
    """What makes a fresh player of the bot ``spec`` for each match: the spec is loaded at the
    first call (again at the next while it fails to load)."""
    factory = functools.cache(lambda: load_player(spec))
    return lambda: factory()()


def serve_player(
    make: Callable[[], object], name: str, incoming: IO[str], outgoing: IO[str]
) -> None:
    """Answer the driver's messages with a player ``make`` returns for each match, from the
    first hello until ``incoming`` ends."""
    line = incoming.readline() or "null"
    while line:
        _serve_match(line, make, name, incoming, outgoing)
        line = incoming.readline()


def _serve_match(
    line: str, make: Callable[[], object], name: str, incoming: IO[str], outgoing: IO[str]
) -> None:
    """Serve the match that the hello ``line`` opens."""
    hello = load_json(line, ThousandError, "the hello message is")
    if not isinstance(hello, dict) or hello.get("type") != "hello":
        raise ThousandError(f"expected a hello message, got {hello!r}")
    if hello.get("protocol") not in SPOKEN:
        raise ThousandError(f"protocol version {hello.get('protocol')} is not {PROTOCOL}")
    game_named(hello["game"]).handle(
        lambda game: _serve(game, make, name, hello, incoming, outgoing)
    )


def _serve(
    game: Game[S, O, A, R, Rec],
    make: Callable[[], object],
    name: str,
    hello: dict[str, Any],
    incoming: IO[str],
    outgoing: IO[str],
) -> None:
    """:func:`serve_player` once the game is known."""
    rules = _rules_read(game, hello["rules"])
    if "random_seed" in hello:
        rng = random.Random(int(hello["random_seed"]))
    else:
        rng = random.Random()
        version, internal, gauss = hello["random_state"]
        rng.setstate((version, tuple(internal), gauss))
    try:
        # The spec names a bot of this game: it is handed this game's observations.
        player = cast("Player[O]", make())
        start = getattr(player, "start", None)
        if start is not None:
            start(int(hello["seat"]), rules, rng)
    except Exception as error:
        _send(outgoing, _error(error))
        return
    end = getattr(player, "end", None)
    if getattr(type(player), "end", None) is SeatedPlayer.end:
        end = None  # it does nothing with the outcome, which is then not sent
    ready = {
        "type": "ready",
        "name": name,
        "protocol": PROTOCOL,
        "updates": True,
        "knowledge": knowledge.form(cast("type[View]", game.observation_type)),
    }
    forced = getattr(player, "skip_forced", False) is not True
    _send(outgoing, {**ready, "outcome": end is not None, "forced": forced})
    observation: O | None = None
    history: list[Any] = []
    reader = knowledge.Reader(game.observation_type, rules)
    for line in incoming:
        message = load_json(line, ThousandError, "the driver's message is")
        if message["type"] == "end":
            if end is not None:
                try:
                    end(Outcome.from_dict(message["outcome"]))
                except Exception as error:  # the match is over: only its log tells
                    _error(error)
            return
        update = message.get("update")
        if "known" in message:
            observation = reader.read(message)
        elif update is not None and observation is not None:
            if "history" in update:
                history = history[: message["history_kept"]] + update["history"]
                update["history"] = history
            observation = cast("O", observation.updated(update))  # a view of the same type
        else:
            history = message["observation"]["history"]
            observation = game.observation_from_dict(message["observation"], rules)
        try:
            action = player.act(observation)
        except Exception as error:
            _send(outgoing, _error(error))
            continue
        if not isinstance(action, game.action_types):
            # Sent so that the driver refuses it, as it would refuse it in its own process.
            action = f"{_show(action)} is not an action"
        _send(outgoing, {"type": "action", "action": str(action)})


_LAST_RULES: list[tuple[object, Any]] = []
"""The rules of the last hello, as sent and as read: a session's matches mostly share them."""


def _rules_read(game: Game[S, O, A, R, Rec], data: Any) -> R:
    """The hello's rules of ``game``, read again only when they differ from the last ones."""
    if _LAST_RULES and _LAST_RULES[0][0] == (game.name, data):
        return cast(R, _LAST_RULES[0][1])
    rules = game.rules_from_dict(data)
    _LAST_RULES[:] = [((game.name, data), rules)]
    return rules


def _error(error: Exception) -> dict[str, Any]:
    """The error answer for what the bot raised, with its traceback, which also goes to the
    bot's error output and so to its log."""
    text = formatted(error)
    sys.stderr.write(text)
    sys.stderr.flush()
    return {"type": "error", "message": describe_failure(error), "traceback": text}


def _show(value: object) -> str:
    try:
        return repr(value)[:60]
    except Exception:
        return type(value).__name__


_ENCODE = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode


def _send(outgoing: IO[str], message: dict[str, Any]) -> None:
    outgoing.write(_ENCODE(message) + "\n")
    outgoing.flush()


def main() -> None:
    """Serve the bot named on the command line over stdin and stdout."""
    if len(sys.argv) != 2:
        sys.exit("usage: python -m thousand.serve SPEC")
    protocol_output = sys.stdout
    sys.stdout = sys.stderr  # a bot's own prints go to the log, not into the protocol
    serve(sys.argv[1], sys.stdin, protocol_output)
