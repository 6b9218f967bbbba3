"""Bots at a table, for either game: the ``Player`` protocol, the driver that plays a match
(``thousand.play``), bots named by a spec, programs speaking JSON lines, Python bots isolated in
processes of their own, and serving a Python bot over the protocol."""
