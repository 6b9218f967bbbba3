"""Plain-text layout shared by the command line's outputs."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["table_lines"]


def table_lines(rows: Sequence[Sequence[str]]) -> list[str]:
    """Rows of cells as left-aligned columns."""
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    return [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]
