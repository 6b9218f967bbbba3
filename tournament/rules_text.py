"""The tables ``thousand rules`` prints: every field of the Thousand presets and of the 1000?
rules."""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from thousand import Rules, bluff
from thousand.common.text import table_lines
from thousand.games import BLUFF

__all__ = ["bluff_lines", "deck_summary", "thousand_lines"]


def deck_summary(deck: Sequence[bluff.Card]) -> str:
    """A 1000? deck in a few words: runs of single number cards, then repeated cards.

    >>> deck_summary(bluff.DEFAULT_DECK)
    '01-50 and 6 x 1000 (56 cards)'
    >>> deck_summary(bluff.cards("03 05 06 07 16 16 1000"))
    '03, 05-07, 2 x 16 and 1000 (7 cards)'
    """
    counts = Counter(deck)
    runs: list[list[bluff.Card]] = []
    for card in sorted(counts, key=lambda card: (card.is_thousand, card.value, card.label)):
        last = runs[-1][-1] if runs else None
        if (
            last is not None
            and counts[card] == counts[last] == 1
            and not card.is_thousand
            and card.value == last.value + 1
            and len(card.label) == len(last.label)
        ):
            runs[-1].append(card)
        else:
            runs.append([card])
    parts = [
        f"{run[0]}-{run[-1]}"
        if len(run) > 1
        else (f"{counts[run[0]]} x {run[0]}" if counts[run[0]] > 1 else str(run[0]))
        for run in runs
    ]
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"{listed} ({len(deck)} cards)"


def _shown(value: Any) -> str:
    """A field's value as the rules files write it."""
    return str(value.value if isinstance(value, enum.Enum) else value).lower()


def thousand_lines(chosen: Mapping[str, Rules]) -> list[str]:
    """A table with a column per Thousand rules set and a row per field."""
    names = list(chosen)
    table = [["field", *names]]
    for field in attrs.fields(Rules):
        table.append([field.name, *(_shown(getattr(chosen[name], field.name)) for name in names)])
    return table_lines(table)


def bluff_lines(rules: bluff.Rules) -> list[str]:
    """The 1000? section: a title, then each rules field and its value."""
    values: dict[str, Any] = rules.to_dict()
    values["deck"] = deck_summary(rules.deck)
    table = [["field", "default"], *([name, str(value)] for name, value in values.items())]
    return [BLUFF.name, *table_lines(table)]
