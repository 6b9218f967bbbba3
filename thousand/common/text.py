"""Plain text shared by everything the project shows or writes as text: the command line's
outputs, the tournament's tables, CSV files and report, and the front-ends."""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["printable", "printable_lines", "table_lines"]

_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    r"""``text`` with every control character (C0, DEL, C1, so ESC, tabs and line breaks too)
    shown as ``?``: names and specs come from files and bots, and must not drive the terminal.

    >>> printable("evil\x1b[2J bot\n")
    'evil?[2J bot?'
    """
    return _CONTROL.sub("?", text)


def printable_lines(text: str, indent: str = "") -> list[str]:
    """Text of several lines (a bot's traceback) as lines, each indented, with its control
    characters shown as ``?``."""
    return [indent + printable(line) for line in text.splitlines()]


def table_lines(rows: Sequence[Sequence[str]]) -> list[str]:
    """Rows of cells as left-aligned columns, control characters shown as ``?``."""
    rows = [[printable(cell) for cell in row] for row in rows]
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    return [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]
