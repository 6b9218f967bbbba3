"""The ladder server: bots connect to it from anywhere and play rated games around the clock.

An optional part of the package (``python -m pip install ".[server]"`` in a checkout of
thousand): neither the library nor the rest of the program imports it.
:mod:`~tournament.server.store` keeps the bots in a database (SQLite or PostgreSQL),
:mod:`~tournament.server.tokens` makes and checks their tokens,
:mod:`~tournament.server.protocol` says what a bot's connection may send, and
:mod:`~tournament.server.app` is the web application.
"""
