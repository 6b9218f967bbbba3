"""The server's web pages, made from the same data as its JSON API: the leaderboard of every
pool, and a page per bot with its rating over time, its recent games and its faults. Every
name and value is escaped; a game's page is its replay (see ``app``)."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from tournament.server.leaderboard import Anchor, Standing, rating_history
from tournament.server.store import PlayedGame

__all__ = ["bot_page", "leaderboard_page", "replay_page"]

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; padding: 0 1em; }
table { border-collapse: collapse; margin-bottom: 2em; }
th, td { padding: 0.25em 0.75em; text-align: right; border-bottom: 1px solid #ddd; }
th:first-child, td:first-child { text-align: left; }
.note { color: #666; }
"""


def _page(title: str, body: str) -> str:
    return (
        f"<!doctype html><html lang=en><meta charset=utf-8><title>{html.escape(title)}</title>"
        f"<style>{_STYLE}</style><body><h1>{html.escape(title)}</h1>{body}</body></html>"
    )


def _interval(line: Standing) -> str:
    if line.interval is None:
        return "–"
    return f"{line.interval[0]:.0f} – {line.interval[1]:.0f}"


def _memory(line: Standing) -> str:
    """The bot's memory check: the places it gains in a group's later games, flagged when too
    many to be chance."""
    if line.memory is None:
        return "–"
    shown = f"{line.memory.gain:+.2f}"
    return f"<strong>{shown} flagged</strong>" if line.memory.flagged else shown


def leaderboard_page(boards: Sequence[tuple[str, str, list[Standing]]]) -> str:
    """The leaderboard of each pool, given as (game, preset, standings)."""
    parts = []
    for game, rules, lines in boards:
        rows = "".join(
            f"<tr><td><a href='/bots/{html.escape(line.bot)}'>{html.escape(line.bot)}</a>"
            f"{' (reference)' if line.reference else ''}"
            f"{' <span class=note>provisional</span>' if line.provisional else ''}</td>"
            f"<td>{line.rating:.0f}</td><td>{_interval(line)}</td><td>{line.groups}</td>"
            f"<td>{line.games}</td><td>{line.faults / line.games if line.games else 0:.1%}</td>"
            f"<td>{_memory(line)}</td></tr>"
            for line in lines
        )
        parts.append(
            f"<h2>{html.escape(game)}, {html.escape(rules)}</h2>"
            + (
                "<table><tr><th>bot</th><th>rating</th><th>95% interval</th><th>groups</th>"
                f"<th>games</th><th>faults</th><th>memory check</th></tr>{rows}</table>"
                if lines
                else "<p class=note>No group has finished yet.</p>"
            )
        )
    note = (
        "<p class=note>Ratings on the reference scale of <code>thousand ladder</code>. "
        "Memory check: the places a bot gains, on average, in a group's later games over its "
        "first (the cards are the same), flagged when too many to be chance. "
        "<a href='/api/leaderboard'>JSON</a>.</p>"
    )
    return _page("Leaderboard", note + "".join(parts))


def bot_page(
    name: str,
    pools: Sequence[tuple[str, str, dict[int, list[PlayedGame]], Anchor | None]],
) -> str:
    """A bot's page: for each pool (game, preset, its finished groups by number, its anchor),
    the bot's rating after the groups it played, its recent games and its faults."""
    parts = []
    for game, rules, numbered, anchor in pools:
        played = [
            (number, group)
            for number, group in numbered.items()
            if any(name in game_.seats for game_ in group)
        ]
        if not played:
            continue
        history = rating_history(list(numbered.values()), name, anchor)
        recent = "".join(
            f"<li><a href='/games/{label}-{number}'>{label}-{number}</a>: "
            f"{html.escape(', '.join(game_.seats))}; "
            f"scores {', '.join(str(score) for score in game_.scores)}</li>"
            for label, group in played[-5:][::-1]
            for number, game_ in enumerate(group)
        )
        faults = "".join(
            f"<li><a href='/games/{label}-{number}'>{label}-{number}</a>: "
            f"{html.escape(game_.statuses[game_.seats.index(name)])}</li>"
            for label, group in played
            for number, game_ in enumerate(group)
            if game_.statuses[game_.seats.index(name)] != "ok"
        )
        parts.append(
            f"<h2>{html.escape(game)}, {html.escape(rules)}</h2>"
            f"<p>{len(played)} groups.</p>{_picture(history)}"
            f"<h3>Recent games</h3><ul>{recent}</ul>"
            f"<h3>Faults</h3>{f'<ul>{faults}</ul>' if faults else '<p class=note>None.</p>'}"
        )
    body = "".join(parts) or "<p class=note>This bot has no finished group yet.</p>"
    return _page(f"Bot {name}", body)


def _picture(history: Sequence[float]) -> str:
    """The rating after each group, as a line drawn in SVG."""
    if len(history) < 2:
        return ""
    low, high = min(history) - 10, max(history) + 10
    width, height = 600, 200
    step = width / (len(history) - 1)
    points = " ".join(
        f"{index * step:.1f},{height - (value - low) / (high - low) * height:.1f}"
        for index, value in enumerate(history)
    )
    return (
        f"<svg width={width} height={height + 20} role=img aria-label='rating after each group'>"
        f"<polyline fill=none stroke='#36c' stroke-width=2 points='{points}'/>"
        f"<text x=0 y={height + 16} font-size=12>{history[0]:.0f}</text>"
        f"<text x={width - 40} y={height + 16} font-size=12>{history[-1]:.0f}</text></svg>"
    )


def replay_page(record: dict[str, Any], seats: Sequence[str], title: str) -> str:
    """A finished game's replay page, from the record the database keeps."""
    from thousand.frontends.html_replay import html_page
    from thousand.games import record_from_data

    return html_page(record_from_data(record), seats, title)
