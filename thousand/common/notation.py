"""What the action notation of both games shares: the pass, the mark of a card not seen, and
the numbers that notation reads.

    >>> str(Pass()), HIDDEN
    ('pass', '??')
"""

from __future__ import annotations

import attrs

__all__ = ["HIDDEN", "MAX_DIGITS", "Pass", "whole_number"]

HIDDEN = "??"
"""How a card the observer may not see is written, as in ``give ?? 1``."""

MAX_DIGITS = 9
"""The longest number notation reads: no amount, seat or musik comes near a billion."""


@attrs.frozen
class Pass:
    """Leave the auction for good (Thousand); draw a card instead of playing (1000?)."""

    def __str__(self) -> str:
        return "pass"


def whole_number(word: str) -> int | None:
    """``word`` as a number when it is 1 to 9 ASCII digits, else ``None``.

    ``str.isdigit`` and ``int`` also take other scripts' digits (``"²"``, ``"٣"``) and numbers
    thousands of digits long; notation takes neither.

    Examples:
        >>> whole_number("125"), whole_number("²"), whole_number("٣٣"), whole_number("-5")
        (125, None, None, None)
    """
    if 1 <= len(word) <= MAX_DIGITS and word.isascii() and word.isdigit():
        return int(word)
    return None
