"""What a person sees of a tournament: a progress bar while it runs, the standings at the end."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable
from typing import TextIO

from thousand.games import game_named
from tournament.runner.ladder import Ladder, Rung
from tournament.runner.schedule import Config
from tournament.runner.sprt import Verdict
from tournament.runner.summary import Summary
from tournament.text import table_lines

__all__ = ["ProgressBar", "ladder_lines", "scale_lines", "seat_role", "standings_lines"]


class ProgressBar:
    """A one-line bar with the units done and the time left, redrawn in place on a terminal and
    silent elsewhere; a ``heading`` (such as a seed drawn at random) is written once, before
    the first unit is played, wherever the stream goes."""

    WIDTH = 30

    def __init__(self, stream: TextIO | None = None, heading: str | None = None) -> None:
        self.stream = stream or sys.stderr
        self.active = self.stream.isatty()
        self.heading = heading
        self.began = time.monotonic()
        self.first: int | None = None
        self.drawn = 0.0
        self.done = 0
        self.total = 0
        self.test = ""
        """The sequential test's standing, shown after the time left."""

    def show_verdict(self, verdict: Verdict) -> None:
        """Show a sequential test's standing on the bar from now on."""
        decided = f", {verdict.accepted} accepted" if verdict.accepted else ""
        self.test = f"  SPRT {verdict.observations} groups, LLR {verdict.llr:+.2f}{decided}"

    def __call__(self, done: int, total: int) -> None:
        self.done, self.total = done, total
        if self.heading is not None:
            self.stream.write(self.heading + "\n")
            self.stream.flush()
            self.heading = None
        if not self.active:
            return
        now = time.monotonic()
        if self.first is None:
            self.first = done
        if done < total and now - self.drawn < 0.1:
            return
        self.drawn = now
        filled = self.WIDTH * done // max(total, 1)
        bar = "#" * filled + "." * (self.WIDTH - filled)
        played = done - self.first
        if played and done < total:
            left = (now - self.began) / played * (total - done)
            eta = f"ETA {int(left) // 60}:{int(left) % 60:02d}"
        else:
            eta = "done" if done >= total else "ETA --:--"
        self.stream.write(f"\r[{bar}] {done}/{total} units  {eta}{self.test} ")
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()

    def stop(self) -> None:
        """End a bar left part drawn, so that what follows starts on a line of its own."""
        if self.active and self.drawn and self.done < self.total:
            self.stream.write("\n")
            self.stream.flush()


def standings_lines(config: Config, summary: Summary, ladder: Ladder | None = None) -> list[str]:
    """The final standings as a table, with a line saying what was played and, when ratings
    are anchored, one saying on which scale (``ladder``: the reference ladder's)."""
    game = config.game_value()
    unit = "deal" if config.format == "deals" else game.unit
    header = ["rank", "bot", "rating", "±", f"score/{unit}", "±", "units"]
    if config.format == "games":
        header.append("wins")
    if game.has_contracts:
        header.append("contracts made")
    header.append("faults")
    rows = [header]
    for standing in summary.standings:
        row = [
            str(standing.rank),
            standing.name,
            _value(standing.rating, "{:.0f}"),
            _half(standing.rating_interval, "{:.0f}"),
            _value(standing.mean_score, "{:+.1f}"),
            _half(standing.score_interval, "{:.1f}"),
            str(standing.units),
        ]
        if config.format == "games":
            row.append(_value(standing.win_rate, "{:.0%}"))
        if game.has_contracts:
            made = standing.contract_success
            row.append("-" if made is None else f"{made:.0%} of {standing.contracts}")
        faults = [f"{count} {status}" for status, count in standing.faults if count]
        row.append(", ".join(faults) or "0")
        rows.append(row)
    tables = len(config.tables())
    if config.format == "deals":
        played = "under every seating"
    else:
        played = f"in groups of {config.group_size} seatings on the same cards"
    about = (
        f"{game.title}, {len(config.entrants)} bots, {tables} table{'s' * (tables != 1)} of "
        f"{config.players}, {config.per_table} {_plural(unit, config.per_table)} per table "
        f"{played}, seed {config.seed}"
    )
    return [
        about,
        *_sprt(config, summary, unit),
        "",
        *table_lines(rows),
        "",
        "± is half the width of a 95% interval.",
        *scale_lines(summary, ladder),
        *_head_to_head(summary, unit),
        *_seats(config, summary, unit),
        *_next_seats(summary, unit),
    ]


def _sprt(config: Config, summary: Summary, unit: str) -> list[str]:
    """The sequential test's verdict: what was tested, after how many groups, and the ratio
    against its bounds."""
    test = summary.sprt
    if test is None:
        return []
    hypotheses, verdict = test.hypotheses, test.verdict
    new = config.entrants[0].name
    tested = (
        f"SPRT: {new}'s lead over the others in score/{unit}, H0 {hypotheses.h0:+g} against "
        f"H1 {hypotheses.h1:+g} (alpha {hypotheses.alpha:g}, beta {hypotheses.beta:g})"
    )
    if verdict.accepted is None:
        decided = f"no decision after {verdict.observations} groups (the cap)"
    else:
        decided = f"{verdict.accepted} accepted after {verdict.observations} groups"
    ratio = (
        f"log-likelihood ratio {verdict.llr:+.2f}, bounds {hypotheses.lower:+.2f} and "
        f"{hypotheses.upper:+.2f}; the figures below count those groups"
    )
    return [tested, f"{decided}: {ratio}"]


def scale_lines(summary: Summary, ladder: Ladder | None) -> list[str]:
    """Where the ratings are measured from, when not from their mean."""
    if summary.anchor is None:
        return []
    if ladder is None and len(summary.anchor) == 1:
        ((name, rating),) = summary.anchor
        return [f"Ratings are measured from {name}, fixed at {rating:g}."]
    names = _listing([name for name, _ in summary.anchor])
    ratings = _listing([f"{rating:.0f}" for _, rating in summary.anchor])
    scale = "the reference scale" if ladder is None else f"the reference scale of {ladder.title}"
    held = (
        "held at its reference rating"
        if len(summary.anchor) == 1
        else ("held, on average, at their reference ratings")
    )
    return [f"Ratings are on {scale}: {names} {held}, {ratings} (thousand ladder)."]


def ladder_lines(ladders: Iterable[Ladder], against: Ladder | None = None) -> list[str]:
    """Each ladder's bots, strongest first, with their ratings and 95% intervals; ``against``
    (one ladder) adds the reference ratings of the same bots and whether the new rating falls
    within the reference interval."""
    lines: list[str] = []
    for ladder in ladders:
        header = ["bot", "rating", "95% interval"]
        if against is not None:
            header += ["reference", "95% interval", "within"]
        rows = [header]
        for rung in sorted(ladder.rungs, key=lambda rung: -rung.rating):
            row = [rung.bot, f"{rung.rating:.0f}", _rung_span(rung)]
            if against is not None:
                known = against.rung(rung.bot)
                if known is None:
                    row += ["-", "-", "-"]
                else:
                    inside = known.interval[0] <= rung.rating <= known.interval[1]
                    row += [
                        f"{known.rating:.0f}",
                        _rung_span(known),
                        "yes" if inside else "no",
                    ]
            rows.append(row)
        measured = (
            f"{ladder.per_table} {_plural(ladder.format[:-1], ladder.per_table)} per table, "
            f"seed {ladder.seed}"
        )
        if lines:
            lines.append("")
        lines += [f"{ladder.title} ({measured}):", "", *table_lines(rows)]
    return lines


def _rung_span(rung: Rung) -> str:
    """A rung's interval, or ``fixed`` for the rung the scale is measured from."""
    if rung.interval == (rung.rating, rung.rating):
        return "fixed"
    return _span(rung.interval, "{:.0f}")


def _listing(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def seat_role(game: str, seat: int, players: int) -> str:
    """What a seat does at a table of ``game`` (its key): seat 0 deals (first, in a whole match
    or game), and the bidding or the play starts from the seat after it."""
    return game_named(game).seat_role(seat, players)


def _seats(config: Config, summary: Summary, unit: str) -> list[str]:
    """Each seat position's advantage: its mean score against the mean of its table."""
    rows = [["seat", f"score/{unit}", "95% interval", "wins"]]
    for seat in summary.seats:
        rows.append(
            [
                f"{seat.seat} {seat_role(config.game, seat.seat, config.players)}",
                _value(seat.advantage, "{:+.1f}"),
                _span(seat.advantage_interval),
                _value(seat.win_rate, "{:.0%}"),
            ]
        )
    if len(rows) == 1:
        return []
    first = "" if config.format == "deals" else " first"
    return [
        "",
        f"Seats, against the mean of the table (seat 0 deals{first}; every bot holds every "
        "seat equally often):",
        "",
        *table_lines(rows),
    ]


def _next_seats(summary: Summary, unit: str) -> list[str]:
    """What each bot does to the bot in the seat after it, against the others at the table."""
    rows = [["bot", f"next seat/{unit}", "95% interval"]]
    for standing in summary.standings:
        if standing.next_seat is not None:
            rows.append(
                [
                    standing.name,
                    f"{standing.next_seat:+.1f}",
                    _span(standing.next_seat_interval),
                ]
            )
    if len(rows) == 1:
        return []
    return [
        "",
        "The bot in the seat after each bot, against the other bots at the table:",
        "",
        *table_lines(rows),
    ]


def _span(interval: tuple[float, float] | None, form: str = "{:+.1f}") -> str:
    if interval is None:
        return "-"
    return f"{form.format(interval[0])} to {form.format(interval[1])}"


def _head_to_head(summary: Summary, unit: str) -> list[str]:
    """Each pair of bots that met: how much the better one outscored the other per unit, with
    the 95% interval of that lead."""
    rows = [["bots", f"lead/{unit}", "95% interval"]]
    names = summary.entrants
    for a, row in enumerate(summary.crosstable):
        for b, lead in enumerate(row):
            interval = summary.crosstable_intervals[a][b]
            if lead is None or lead < 0 or (lead == 0 and a > b):
                continue
            rows.append([f"{names[a]} over {names[b]}", f"{lead:+.1f}", _span(interval)])
    if len(rows) == 1:
        return []
    return ["", "Head to head, on the units both played:", "", *table_lines(rows)]


def _plural(noun: str, count: int) -> str:
    if count == 1:
        return noun
    return noun + ("es" if noun.endswith("ch") else "s")


def _half(interval: tuple[float, float] | None, form: str) -> str:
    if interval is None:
        return "-"
    return form.format((interval[1] - interval[0]) / 2)


def _value(value: float | None, form: str) -> str:
    return "-" if value is None else form.format(value)
