"""The ladder server: bots connect to it from anywhere and play rated games around the clock.

An optional part of the package (``python -m pip install ".[server]"`` in a checkout of
thousand): neither the library nor the rest of the program imports it. Its parts, from the
database up: :mod:`~tournament.server.store` (the bots, their hashed tokens and the finished
groups, in SQLite or PostgreSQL), :mod:`~tournament.server.protocol` (what a bot may send),
:mod:`~tournament.server.lobby` (the connected bots and the questions their games await),
:mod:`~tournament.server.groups` (a group's games, over the steppable match),
:mod:`~tournament.server.matchmaking` (who plays whom, and the check games),
:mod:`~tournament.server.leaderboard` (the ratings), :mod:`~tournament.server.pages` and
:mod:`~tournament.server.app` (the web application). :mod:`~tournament.server.client` is
``thousand connect``, on the bot author's side.
"""
