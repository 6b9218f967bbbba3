"""Serve a Python bot over the external bot protocol: ``python -m thousand.table.serve SPEC``.

A Python bot served this way is an external program like any other. Isolated bots
(:mod:`thousand.table.isolation`) are served by the same code. The bot receives the same
observations, the same generator and the same outcome as it would in the driver's process, so
a match plays out identically either way.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from typing import IO, Any

from thousand.common.config import load_json
from thousand.errors import ThousandError
from thousand.games import ActionT as A
from thousand.games import Game, game_named
from thousand.games import ObservationT as O
from thousand.games import RecordT as Rec
from thousand.games import RulesT as R
from thousand.games import StateT as S
from thousand.table.driver import Outcome, describe_failure
from thousand.table.external import PROTOCOL
from thousand.table.players import SeatedPlayer
from thousand.table.specs import load_player
from thousand.table.tracebacks import formatted

__all__ = ["main", "serve", "serve_player"]


def serve(spec: str, incoming: IO[str], outgoing: IO[str]) -> None:
    """Answer the driver's messages on ``incoming`` until the end of the match."""
    serve_player(lambda: load_player(spec)(), spec, incoming, outgoing)


def serve_player(
    make: Callable[[], object], name: str, incoming: IO[str], outgoing: IO[str]
) -> None:
    """Answer the driver's messages with the player ``make`` returns, once hello has come."""
    hello = load_json(incoming.readline() or "null", ThousandError, "the hello message is")
    if not isinstance(hello, dict) or hello.get("type") != "hello":
        raise ThousandError(f"expected a hello message, got {hello!r}")
    if hello.get("protocol") != PROTOCOL:
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
    rules = game.rules_from_dict(hello["rules"])
    rng = random.Random()
    version, internal, gauss = hello["random_state"]
    rng.setstate((version, tuple(internal), gauss))
    try:
        player: Any = make()
        start = getattr(player, "start", None)
        if start is not None:
            start(int(hello["seat"]), rules, rng)
    except Exception as error:
        _send(outgoing, _error(error))
        return
    _send(outgoing, {"type": "ready", "name": name})
    for line in incoming:
        message = load_json(line, ThousandError, "the driver's message is")
        if message["type"] == "end":
            end = getattr(player, "end", None)
            if end is not None and getattr(type(player), "end", None) is not SeatedPlayer.end:
                end(Outcome.from_dict(message["outcome"]))  # read only for an end that uses it
            return
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


def _send(outgoing: IO[str], message: dict[str, Any]) -> None:
    outgoing.write(json.dumps(message, separators=(",", ":")) + "\n")
    outgoing.flush()


def main() -> None:
    """Serve the bot named on the command line over stdin and stdout."""
    if len(sys.argv) != 2:
        sys.exit("usage: python -m thousand.table.serve SPEC")
    protocol_output = sys.stdout
    sys.stdout = sys.stderr  # a bot's own prints go to the log, not into the protocol
    serve(sys.argv[1], sys.stdin, protocol_output)


if __name__ == "__main__":
    main()
