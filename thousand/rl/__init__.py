"""Thousand and 1000? for learning: a fixed numbering of every action (:mod:`thousand.rl.codec`)
and a fixed-size numeric encoding of a seat's observation (:mod:`thousand.rl.encoding`).

Needs the ``rl`` extra (``python -m pip install "thousand[rl]"``), which brings numpy.
"""
