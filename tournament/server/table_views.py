"""What a browser at a casual table is shown, as HTML fragments made on the server.

A seat's view is made from that seat's observation and nothing else: the table as the
terminal game draws it, and a button for each legal action when the seat is to act. A
spectator's view is made from the public table (:func:`thousand.frontends.screen.public_lines`),
which holds no hand. Once the game is over, every view shows its result and a link to its
replay. Every name is escaped.
"""

from __future__ import annotations

import html
import re
import time
from collections.abc import Sequence
from typing import Any

from thousand.frontends.screen import choice_text, public_lines, seat_lines
from thousand.games import game_of
from tournament.server.tables import CONNECTED, DIFFICULTIES, Table

__all__ = ["seat_view"]


def seat_view(table: Table, seat: int | None) -> str:
    """The view of ``seat`` (``None``: a spectator) at ``table`` now."""
    parts = [_header(table, seat)]
    match = table.match
    if match is None:
        parts.append(_waiting(table, seat))
    elif table.outcome is not None:
        parts.append(_result(table))
    elif seat is None:
        parts.append(_lines(public_lines(table.watched, table.names())))
    else:
        observation = game_of(table.rules).seen_from(match.state, seat)
        parts.append(_lines(seat_lines(observation, table.names())))
        if match.to_act == seat:
            parts.append(_actions(table, observation, seat))
    shown = table.watched if seat is None else None if match is None else match.state
    step = 0 if shown is None else game_of(table.rules).actions_played(shown)
    return (
        f"<section id=view data-version={table.version} data-status={table.status} "
        f"data-step={step}>" + "".join(parts) + "</section>"
    )


def _header(table: Table, seat: int | None) -> str:
    match = table.match
    to_act = match.to_act if match is not None and seat is not None else None
    rows = []
    for number, name in enumerate(table.names()):
        marks = []
        if number == seat:
            marks.append("you")
        if number == to_act:
            marks.append("to play")
        if number in table.away:
            marks.append("away")
        shown = f" ({', '.join(marks)})" if marks else ""
        rows.append(f"<li data-seat={number}>{html.escape(name)}{shown}</li>")
    clock = ""
    if table.deadline is not None and seat is not None:
        left = max(0, round(table.deadline - time.monotonic()))
        clock = f"<p class=clock data-deadline-in={left}>Time to play: {left} s</p>"
    return f"<h2>{html.escape(_title(table))}</h2><ol class=seats>{''.join(rows)}</ol>{clock}"


def _title(table: Table) -> str:
    game = game_of(table.rules)
    return f"{game.title}, {table.preset}" if game.has_deals else game.title


def _waiting(table: Table, seat: int | None) -> str:
    """The seats while the table fills: a form to take each empty one, or give it to a bot."""
    bots = "".join(
        f"<option value={level}>{level} ({spec.split('(')[0]})</option>"
        for level, spec in DIFFICULTIES.items()
    ) + "".join(
        f"<option value='{html.escape(CONNECTED + name, quote=True)}'>"
        f"{html.escape(name)} (connected)</option>"
        for name in table.casual()
    )
    rows = []
    for number, taken in enumerate(table.seats):
        if taken is not None:
            continue
        take = (
            "" if seat is not None else f"<button type=button data-sit={number}>Sit here</button>"
        )
        rows.append(
            f"<li>Seat {number + 1}: {take}"
            f"<select data-bot-for={number} aria-label='bot for seat {number + 1}'>{bots}</select>"
            f"<button type=button data-bot={number}>Give to a bot</button></li>"
        )
    return f"<p>The game starts when every seat is taken.</p><ul class=empty>{''.join(rows)}</ul>"


CARD = re.compile(r"(?:9|10|J|Q|K|A)[♠♣♦♥]|\[(?:\d{2,4}|\?\?)\]")
"""A card as the table's text shows it: ``10♥``, or 1000?'s ``[06]`` (``[??]`` face down)."""


def _shown(text: str) -> str:
    """``text`` escaped, each card in it drawn as a card (red for hearts and diamonds)."""

    def card(found: re.Match[str]) -> str:
        face = found.group(0)
        red = " red" if face[-1] in "♥♦" else ""
        return f"<span class='card{red}'>{face}</span>"

    return CARD.sub(card, html.escape(text))


def _lines(lines: Sequence[str]) -> str:
    return "<div class=table>" + "".join(f"<p>{_shown(line)}</p>" for line in lines) + "</div>"


def _actions(table: Table, observation: Any, seat: int) -> str:
    names = table.names()
    buttons = []
    for number, action in enumerate(observation.legal_actions):
        label = choice_text(observation, action, names)
        key = f"{number + 1}. " if number < 9 else ""
        buttons.append(
            f"<button type=button data-action='{html.escape(str(action), quote=True)}'>"
            f"{key}{_shown(label)}</button>"
        )
    return "<div class=actions role=group aria-label='your moves'>" + "".join(buttons) + "</div>"


def _result(table: Table) -> str:
    outcome = table.outcome
    assert outcome is not None
    names = table.names()
    rows = "".join(
        f"<li>{html.escape(name)}: {score} (place {place})</li>"
        for name, score, place in zip(names, outcome.scores, outcome.places, strict=True)
    )
    return (
        f"<p>The game is over.</p><ol class=result>{rows}</ol>"
        f"<p><a href='/tables/{table.id}/replay'>Replay the game, every card shown</a></p>"
    )
