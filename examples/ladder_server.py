"""A ladder server on this machine, and a bot that plays on it over the websocket protocol
itself (no library code on the bot's side: it reads the legal actions from the observation).

Starts ``thousand server`` in this process on a free port with a database in a temporary
folder, adds a bot, plays until the bot has finished two groups (twelve games against the
reference bots random and greedy), and prints the leaderboard. Needs the server extra:
``python -m pip install ".[server]"``.

    python examples/ladder_server.py
"""

from __future__ import annotations

import json
import random
import socket
import tempfile
import threading
import time
from pathlib import Path

import httpx
from websockets.sync.client import connect

from tournament.server.app import Settings, web_server
from tournament.server.store import Store


def play(address: str, token: str, groups: int) -> None:
    """Log in with ``token`` and answer every question with a random legal action until
    ``groups`` groups of six games are over."""
    rng = random.Random(1)
    with connect(address) as bot:
        bot.send(json.dumps({"type": "login", "token": token}))
        print("logged in as", json.loads(bot.recv())["bot"])
        ended = 0
        while ended < 6 * groups:
            message = json.loads(bot.recv())
            if message["type"] == "hello":
                bot.send(json.dumps({"type": "ready", "game_id": message["game_id"]}))
            elif message["type"] == "act":
                action = rng.choice(message["observation"]["legal_actions"])
                bot.send(
                    json.dumps({"type": "action", "game_id": message["game_id"], "action": action})
                )
            elif message["type"] == "end" and not message["game_id"].startswith("check"):
                ended += 1


def main() -> None:
    folder = Path(tempfile.mkdtemp())
    database = f"sqlite:///{folder / 'ladder.db'}"
    store = Store(database, make=True)
    token = store.add_bot("mybot")
    store.close()
    listening = socket.socket()
    listening.bind(("127.0.0.1", 0))
    port = listening.getsockname()[1]
    server = web_server(Settings(database=database, pairing=0.1), log_level="warning")
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    try:
        play(f"ws://127.0.0.1:{port}/bot", token, groups=2)
        board = httpx.get(f"http://127.0.0.1:{port}/api/leaderboard").json()
    finally:
        server.should_exit = True
        thread.join()
    print(f"leaderboard of {board['game']}, {board['rules']} rules:")
    for line in board["standings"]:
        played = f"{line['groups']} groups, {line['games']} games"
        print(f"  {line['bot']:<8} {line['rating']:7.1f}  {played}")


if __name__ == "__main__":
    main()
