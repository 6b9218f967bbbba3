"""What a person sees of a finished tournament: the standings, the head-to-head leads and the
seats, as tables drawn by ``rich``: ruled and in colour on a terminal, plain aligned columns
(with no escape codes, never wrapped) anywhere else."""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from typing import TextIO

from rich import box
from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from thousand.common.text import printable
from thousand.games import game_named
from tournament.runner.ladder import (
    Ladder,
    Rung,
    ladder_anchor,
    ladder_for,
    rules_name,
    rung_difference,
    scale_title,
)
from tournament.runner.ratings import ELO_CENTRE
from tournament.runner.schedule import Config
from tournament.runner.summary import MIN_GROUPS, Summary

__all__ = [
    "about_line",
    "head_to_head_table",
    "interval_lines",
    "ladder_lines",
    "next_seat_table",
    "print_standings",
    "scale_lines",
    "seat_role",
    "seat_roles",
    "seats_table",
    "sprt_lines",
    "standings",
    "standings_lines",
    "standings_table",
    "unit_word",
]

LADDER = "ladder"
"""The header of the standings' column of reference ratings."""
PLAIN_WIDTH = 100_000
"""The width of the page plain output is laid out on: wide enough never to wrap a line."""


def print_standings(
    config: Config, summary: Summary, stream: TextIO, ladder: Ladder | None = None
) -> None:
    """Print the standings to ``stream``: styled tables on a terminal, plain lines elsewhere
    (``ladder``: the reference ladder the ratings are anchored on)."""
    if stream.isatty():
        shown = standings(config, summary, styled=True, ladder=ladder)
        _show(Console(file=stream, highlight=False), shown)
    else:
        stream.write("\n".join(standings_lines(config, summary, ladder)) + "\n")


def standings_lines(config: Config, summary: Summary, ladder: Ladder | None = None) -> list[str]:
    """The standings as plain text, one string per line."""
    return _plain(standings(config, summary, styled=False, ladder=ladder))


def _plain(sections: list[RenderableType]) -> list[str]:
    """Sections laid out as plain text (no escape codes, never wrapped), one string per line."""
    page = io.StringIO()
    console = Console(
        file=page,
        width=PLAIN_WIDTH,
        color_system=None,
        force_terminal=False,
        highlight=False,
    )
    _show(console, sections)
    return [line.rstrip() for line in page.getvalue().splitlines()]


def _show(console: Console, sections: list[RenderableType]) -> None:
    for section in sections:
        console.print(section)


def standings(
    config: Config, summary: Summary, *, styled: bool, ladder: Ladder | None = None
) -> list[RenderableType]:
    """The final standings as a table, with a line saying what was played and, when ratings
    are anchored, one saying on which scale (``ladder``: the reference ladder's); then the
    tables of the pairs, the seats and the seat after each bot (``styled`` for a terminal)."""
    unit = unit_word(config)
    first = "" if config.format == "deals" else " first"
    sections: list[RenderableType] = [
        Text(about_line(config), style="bold" if styled else ""),
        *(Text(printable(line)) for line in sprt_lines(config, summary, unit)),
        Text(""),
        _table(standings_table(config, summary, ladder), styled),
        Text(""),
        *(
            Text(line, style="dim" if styled else "")
            for line in [
                "± is half the width of a 95% interval.",
                *interval_lines(config, summary),
                *scale_lines(config, summary, ladder),
            ]
        ),
    ]
    for title, table in (
        ("Head to head, on the units both played:", head_to_head_table(summary, unit)),
        (
            f"Seats, against the mean of the table (seat 0 deals{first}; every bot holds every "
            "seat equally often):",
            seats_table(config, summary, unit),
        ),
        (
            "The bot in the seat after each bot, against the other bots at the table:",
            next_seat_table(summary, unit),
        ),
    ):
        if len(table) > 1:
            sections += [Text(""), Text(title, style="bold" if styled else ""), Text("")]
            sections.append(_table(table, styled))
    return sections


def unit_word(config: Config) -> str:
    """What one unit of the tournament is called: deal, match or game."""
    return config.unit_words()[0]


def about_line(config: Config) -> str:
    """What was played: the game, the bots, the tables, the units per table and the seed."""
    unit, units = config.unit_words()
    tables = len(config.tables())
    if config.format == "deals":
        played = "under every seating"
    else:
        played = f"in groups of {config.group_size} seatings on the same cards"
    return (
        f"{config.game_value().title}, {len(config.entrants)} bots, {tables} "
        f"table{'s' * (tables != 1)} of {config.players}, {config.per_table} "
        f"{unit if config.per_table == 1 else units} per table {played}, seed {config.seed}"
    )


def standings_table(
    config: Config, summary: Summary, ladder: Ladder | None = None
) -> list[list[str]]:
    """The standings as rows of cells, a header first, best bot first; ``ladder``, the ladder
    whose reference scale the ratings are on, adds each bot's rating on it."""
    game = config.game_value()
    header = ["rank", "bot", "rating", "±"]
    if ladder is not None:
        header.append(LADDER)
    header += [f"score/{unit_word(config)}", "±", "units"]
    specs = {entrant.name: entrant.spec for entrant in config.entrants}
    fixed = _fixed(summary)
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
            "fixed" if standing.name == fixed else _half(standing.rating_interval, "{:.0f}"),
        ]
        if ladder is not None:
            rung = ladder.rung(specs[standing.name])
            row.append("-" if rung is None else f"{rung.rating:.0f}")
        row += [
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
    return rows


def _table(rows: Sequence[Sequence[str]], styled: bool) -> Table:
    """Rows of cells, a header first, as a table; every cell is shown as it is (no markup),
    control characters as ``?``."""
    if styled:
        table = Table(
            box=box.SIMPLE_HEAD, show_edge=False, header_style="bold cyan", pad_edge=False
        )
    else:
        table = Table(box=None, pad_edge=False, show_edge=False)
    for header in rows[0]:
        table.add_column(Text(printable(header)), no_wrap=not styled)
    for row in rows[1:]:
        table.add_row(*(Text(printable(cell)) for cell in row))
    return table


def sprt_lines(config: Config, summary: Summary, unit: str) -> list[str]:
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


def _fixed(summary: Summary) -> str | None:
    """The bot whose rating is fixed: the one anchored alone."""
    anchor = summary.anchor
    return anchor[0][0] if anchor is not None and len(anchor) == 1 else None


def interval_lines(config: Config, summary: Summary) -> list[str]:
    """Why intervals show a dash, when some do: too few deal groups to give any (and the
    option that gives enough), or figures every resample gave one value."""
    if not summary.resamples or not summary.groups:
        return []
    lines = []
    if summary.groups < MIN_GROUPS:
        tables = len(config.tables())
        per_table = -(-MIN_GROUPS // tables)
        units = config.unit_words()[1]
        if config.format == "deals":
            group = "a deal played under every seating at one table"
            option = f"--deals {per_table}"
        else:
            group = "a set of cards played under every seating at one table"
            option = f"--games {per_table * config.group_size}"
        lines.append(
            f"No 95% intervals (-): an interval needs at least {MIN_GROUPS} groups of {units} "
            f"({group}), and these figures count {summary.groups}; {option} gives them."
        )
    elif _dashes(summary):
        lines.append(
            "A dash in place of an interval: every resample of the groups gave that figure "
            "the same value (each group ended the same way for it), so its luck is not measured."
        )
    return lines


def _dashes(summary: Summary) -> bool:
    """Whether a figure that exists has no interval (the fixed rating apart)."""
    fixed = _fixed(summary)
    figures = [(seat.advantage, seat.advantage_interval) for seat in summary.seats]
    for standing in summary.standings:
        if standing.name != fixed:
            figures.append((standing.rating, standing.rating_interval))
        figures.append((standing.mean_score, standing.score_interval))
        figures.append((standing.next_seat, standing.next_seat_interval))
    for leads, intervals in zip(summary.crosstable, summary.crosstable_intervals, strict=True):
        figures.extend(zip(leads, intervals, strict=True))
    return any(value is not None and found is None for value, found in figures)


def scale_lines(config: Config, summary: Summary, ladder: Ladder | None) -> list[str]:
    """Where the ratings are measured from: the reference scale and the bot (or bots) that
    fix it there, with what the ladder column is; one bot's given rating; or their mean, and
    then why the reference scale was not used."""
    anchor = summary.anchor
    if anchor is None:
        return [f"Ratings average {ELO_CENTRE:.0f}{_why_not_the_ladder(config)}."]
    names = _listing([printable(name) for name, _ in anchor])
    form = "{:g}" if ladder is None else "{:.0f}"
    ratings = _listing([form.format(rating) for _, rating in anchor])
    if ladder is None:
        if len(anchor) == 1:
            return [f"Ratings are measured from {names}, fixed at {ratings}."]
        return [f"Ratings are measured from {names}, held, on average, at {ratings}."]
    if len(anchor) == 1:
        fixed = f"fixed by {names} at {ratings}, its rating on the ladder"
    else:
        fixed = (
            f"fixed by {names} together: their ratings here average their ratings on the "
            f"ladder, {ratings}"
        )
    return [
        f"Ratings are on the reference scale of {ladder.title}, {fixed} (thousand ladder).",
        f"{LADDER}: the bot's own rating on the ladder, from a round robin of the ladder's "
        f"{len(ladder.rungs)} bots; here it played only this tournament's bots, so its rating "
        "here can differ.",
    ]


def _why_not_the_ladder(config: Config) -> str:
    """Why a tournament's ratings average 1500 rather than lying on the reference scale, as the
    end of a sentence (empty when it was asked for, the reference scale being there)."""
    name = rules_name(config.game, config.rules)
    if name is None:
        return ": reference ratings were measured under the presets only, not house rules"
    title = scale_title(config.game, name, config.players)
    reference = ladder_for(config)
    if reference is None:
        return f": no reference ratings were measured for {title} (thousand ladder lists them)"
    if ladder_anchor(config, reference) is None:
        return f": none of the bots is on the reference scale of {title}"
    return ""


def ladder_lines(ladders: Iterable[Ladder], against: Ladder | None = None) -> list[str]:
    """Each ladder's bots, strongest first, with their ratings and 95% intervals; ``against``
    (one ladder) adds the reference ratings of the same bots, the difference with its 95%
    margin, and whether the two measurements agree (the difference within its margin)."""
    sections: list[RenderableType] = []
    for ladder in ladders:
        header = ["bot", "rating", "95% interval"]
        if against is not None:
            header += ["reference", "95% interval", "difference", "agrees"]
        rows = [header]
        for rung in sorted(ladder.rungs, key=lambda rung: -rung.rating):
            row = [rung.bot, f"{rung.rating:.0f}", _rung_span(rung)]
            if against is not None:
                known = against.rung(rung.bot)
                if known is None:
                    row += ["-", "-", "-", "-"]
                else:
                    difference, margin = rung_difference(rung, known)
                    row += [
                        f"{known.rating:.0f}",
                        _rung_span(known),
                        f"{difference:+.0f} ± {margin:.0f}"
                        if margin
                        else f"{difference:+.0f}, fixed",
                        "yes" if abs(difference) <= margin else "no",
                    ]
            rows.append(row)
        unit = ladder.format[:-1]
        measured = (
            f"{ladder.per_table} {unit if ladder.per_table == 1 else ladder.format} per table, "
            f"seed {ladder.seed}"
        )
        if sections:
            sections.append(Text(""))
        sections += [Text(f"{ladder.title} ({measured}):"), Text(""), _table(rows, False)]
    return _plain(sections)


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


def seat_roles(config: Config) -> list[str]:
    """What each seat of the tournament's tables does in the first deal (seat 0 deals it). At
    a Thousand table of four one seat sits the deal out, and the bidding goes round the other
    three from the forehand, so the seats after the sitter move up a place."""
    players = config.players
    rules = config.rules_value()
    dealt = game_named(config.game).handle(lambda game: game.seats_dealt(game.own_rules(rules), 0))
    if len(dealt) == players:
        return [seat_role(config.game, seat, players) for seat in range(players)]
    roles = ["dealer, sits out" if seat == 0 else "sits out" for seat in range(players)]
    clockwise = [seat for seat in (*range(1, players), 0) if seat in dealt]
    for place, seat in enumerate(clockwise):
        roles[seat] = "dealer" if seat == 0 else ("forehand", "second hand", "third hand")[place]
    return roles


def seats_table(config: Config, summary: Summary, unit: str) -> list[list[str]]:
    """Each seat position's advantage, its mean score against the mean of its table, as rows
    with a header."""
    rows = [["seat", f"score/{unit}", "95% interval", "wins"]]
    roles = seat_roles(config)
    for seat in summary.seats:
        rows.append(
            [
                f"{seat.seat} {roles[seat.seat]}",
                _value(seat.advantage, "{:+.1f}"),
                _span(seat.advantage_interval),
                _value(seat.win_rate, "{:.0%}"),
            ]
        )
    return rows


def next_seat_table(summary: Summary, unit: str) -> list[list[str]]:
    """What each bot does to the bot in the seat after it, against the others at the table, as
    rows with a header."""
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
    return rows


def _span(interval: tuple[float, float] | None, form: str = "{:+.1f}") -> str:
    if interval is None:
        return "-"
    return f"{form.format(interval[0])} to {form.format(interval[1])}"


def head_to_head_table(summary: Summary, unit: str) -> list[list[str]]:
    """Each pair of bots that met, as rows with a header: how much the better one outscored
    the other per unit, with the 95% interval of that lead."""
    rows = [["bots", f"lead/{unit}", "95% interval"]]
    names = summary.entrants
    for a, row in enumerate(summary.crosstable):
        for b, lead in enumerate(row):
            interval = summary.crosstable_intervals[a][b]
            if lead is None or lead < 0 or (lead == 0 and a > b):
                continue
            rows.append([f"{names[a]} over {names[b]}", f"{lead:+.1f}", _span(interval)])
    return rows


def _half(interval: tuple[float, float] | None, form: str) -> str:
    if interval is None:
        return "-"
    return form.format((interval[1] - interval[0]) / 2)


def _value(value: float | None, form: str) -> str:
    return "-" if value is None else form.format(value)
