"""The pictures of a tournament's report, drawn with matplotlib (the ``plots`` extra): the
ratings as the tournament went on, each bot's scores, the head-to-head leads and the sequential
test.

Each picture is a figure of its own on the Agg canvas, with no pyplot and no global state
changed, and is saved without a date or a version, so that the same tournament gives the same
files. Only :func:`tournament.runner.report.write_report` imports this module.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from pathlib import Path

import matplotlib
import numpy
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, PercentFormatter

from thousand.common.files import write_file
from thousand.common.text import printable
from tournament.runner.display import unit_word
from tournament.runner.report import Picture, Report
from tournament.runner.sprt import MIN_OBSERVATIONS
from tournament.runner.summary import MIN_GROUPS, Standing, Summary

__all__ = ["draw"]

DPI = 100
WIDTH = 7.5
"""Inches: 750 pixels at :data:`DPI`."""
LABEL = 28
"""The most characters of a bot's name a picture shows."""
LEADS = matplotlib.colormaps["RdBu"].with_extremes(bad="#eeeeee")
"""Red for a row bot behind, blue for one ahead; grey where two bots never met."""


def draw(report: Report, folder: Path) -> list[Picture]:
    """Draw every picture the report has data for into ``folder``, in the page's order."""
    unit = unit_word(report.config)
    with matplotlib.rc_context(
        {
            "text.parse_math": False,  # a bot's name is text, even with dollar signs in it
            "font.size": 9,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "axes.titlesize": 10,
            "axes.titlelocation": "left",
        }
    ):
        pictures = [
            _ratings(report, folder / "ratings.png", unit),
            _scores(report, folder / "scores.png", unit),
            _leads(report, folder / "head-to-head.png", unit),
        ]
        if report.trace:
            pictures.append(_sequential_test(report, folder / "sprt.png", unit))
    return pictures


def _ratings(report: Report, path: Path, unit: str) -> Picture:
    figure = _figure(4.2)
    axes = figure.add_subplot()
    for standing in report.summary.standings:
        points = [
            (checkpoint.per_table, found.rating, found.rating_interval)
            for checkpoint in report.history
            for found in [_standing(checkpoint.summary, standing.entrant)]
            if found.rating is not None
        ]
        if not points:
            continue
        colour = _colour(standing.entrant)
        band = [(count, found) for count, _, found in points if found is not None]
        axes.fill_between(
            [count for count, _ in band],
            [low for _, (low, _) in band],
            [high for _, (_, high) in band],
            color=colour,
            alpha=0.15,
            linewidth=0,
        )
        axes.plot(
            [count for count, _, _ in points],
            [rating for _, rating, _ in points],
            color=colour,
            marker="o",
            markersize=3,
            label=_label(standing.name),
        )
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel(f"{unit}s per table counted")
    axes.set_ylabel("rating")
    axes.set_title("Rating as the tournament went on, with its 95% interval")
    axes.grid(alpha=0.3)
    axes.legend(frameon=False, fontsize=8)
    return _save(
        figure,
        path,
        "Ratings as the tournament went on",
        f"Each bot's rating counting the first {unit}s of every table, and the band of its 95% "
        f"interval (none before {MIN_GROUPS} groups of {unit}s). The bands narrow as the "
        "tournament goes on; where two bands stop overlapping, the order between the two bots is "
        "no longer the luck of the cards.",
    )


def _scores(report: Report, path: Path, unit: str) -> Picture:
    standings = [standing for standing in report.summary.standings if standing.units]
    figure = _figure(0.9 + 0.95 * len(standings))
    rows: list[Axes] = list(figure.subplots(len(standings), 1, sharex=True, squeeze=False)[:, 0])
    edges = _bins([score for scores in report.scores for score in scores])
    for axes, standing in zip(rows, standings, strict=True):
        scores = report.scores[standing.entrant]
        axes.hist(
            scores,
            bins=edges,
            weights=[1 / len(scores)] * len(scores),
            color=_colour(standing.entrant),
        )
        mean = sum(scores) / len(scores)
        axes.axvline(0, color="#999999", linewidth=0.8, linestyle=":")
        axes.axvline(mean, color="black", linewidth=1)
        axes.set_title(
            f"{_label(standing.name)}: mean {mean:+.1f} over {len(scores)} {unit}s", pad=2
        )
        axes.yaxis.set_major_formatter(PercentFormatter(1, decimals=0))
        axes.tick_params(labelsize=7)
    rows[-1].xaxis.set_major_locator(MaxNLocator(integer=True, steps=[1, 2, 5, 10]))
    rows[-1].set_xlabel(f"score per {unit}")
    return _save(
        figure,
        path,
        f"Scores per {unit}",
        f"For each bot, the share of its {unit}s that ended with each score; the black line is "
        "its mean, the dotted line 0. A wide spread means luck weighs more in each "
        f"{unit}, and more {unit}s are needed to tell the bots apart.",
    )


def _leads(report: Report, path: Path, unit: str) -> Picture:
    summary = report.summary
    order = [standing.entrant for standing in summary.standings]
    names = [_label(summary.entrants[entrant]) for entrant in order]
    leads = numpy.array(
        [[_number(summary.crosstable[row][column]) for column in order] for row in order]
    )
    largest = numpy.nanmax(numpy.abs(leads)) if not numpy.isnan(leads).all() else 1.0
    height = max(3.6, 1.8 + 0.6 * len(order))
    figure = _figure(height, width=min(WIDTH, height + 2.4))
    axes = figure.add_subplot()
    image = axes.imshow(leads, cmap=LEADS, vmin=-largest or -1, vmax=largest or 1)
    for row, first in enumerate(order):
        for column, second in enumerate(order):
            lead = summary.crosstable[first][second]
            if lead is None:
                continue
            sure = _excludes_zero(summary.crosstable_intervals[first][second])
            axes.text(
                column,
                row,
                f"{lead:+.1f}",
                ha="center",
                va="center",
                fontsize=8,
                fontweight="bold" if sure else "normal",
                color="white" if abs(lead) > 0.6 * largest else "black",
            )
    axes.set_xticks(range(len(names)), names, rotation=30, ha="right")
    axes.set_yticks(range(len(names)), names)
    axes.spines[:].set_visible(False)
    axes.set_title(f"Lead per {unit} of the row bot over the column bot", loc="center")
    figure.colorbar(image, ax=axes, shrink=0.8, label=f"points per {unit}")
    return _save(
        figure,
        path,
        "Head to head",
        f"Each cell is the row bot's mean score less the column bot's, per {unit}, over the "
        f"{unit}s both played; blue where the row bot is ahead. Bold figures are leads whose "
        "95% interval excludes 0: more than the luck of the cards. Bots are in the order of "
        "the standings.",
    )


def _sequential_test(report: Report, path: Path, unit: str) -> Picture:
    outcome = report.summary.sprt
    assert outcome is not None
    hypotheses, verdict = outcome.hypotheses, outcome.verdict
    figure = _figure(3.8)
    axes = figure.add_subplot()
    groups = range(1, len(report.trace) + 1)
    axes.plot(groups, report.trace, color=_colour(0), marker="o", markersize=2.5)
    axes.axhline(hypotheses.upper, color="#2a7f2a", linestyle="--", label="accept H1")
    axes.axhline(hypotheses.lower, color="#b22222", linestyle="--", label="accept H0")
    axes.axhline(0, color="#999999", linewidth=0.8, linestyle=":")
    axes.axvspan(
        0,
        min(MIN_OBSERVATIONS, len(report.trace)),
        color="#000000",
        alpha=0.05,
        linewidth=0,
        label=f"no verdict before {MIN_OBSERVATIONS} groups",
    )
    new = _label(report.config.entrants[0].name)
    decided = (
        f"{verdict.accepted} accepted after {verdict.observations} groups"
        if verdict.accepted is not None
        else f"no decision after {verdict.observations} groups"
    )
    axes.set_title(
        f"{new}'s lead per {unit}, H0 {hypotheses.h0:+g} against H1 {hypotheses.h1:+g}: {decided}"
    )
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel("groups read")
    axes.set_ylabel("log-likelihood ratio")
    axes.grid(alpha=0.3)
    axes.legend(frameon=False, fontsize=8)
    return _save(
        figure,
        path,
        "The sequential test",
        "The log-likelihood ratio of H1 against H0 after each group of the first bot's "
        "tables, and the two bounds: the test stops at the first bound reached, but never "
        f"before {MIN_OBSERVATIONS} groups (the shaded part).",
    )


def _figure(height: float, width: float = WIDTH) -> Figure:
    figure = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def _save(figure: Figure, path: Path, title: str, about: str) -> Picture:
    """Save a figure as a PNG without a date or the software's version, and describe it."""
    image = io.BytesIO()
    figure.savefig(image, format="png", dpi=DPI, metadata={"Software": None})
    write_file(path, image.getvalue())
    return Picture(path, title, about)


def _colour(entrant: int) -> str:
    """One colour per bot, by its number, the same in every picture (matplotlib's ten)."""
    return f"C{entrant % 10}"


def _label(name: str) -> str:
    """A bot's name short enough for a legend or an axis, control characters shown as ``?``: a
    long spec (a path to a file) keeps its start and its end."""
    name = printable(name)
    return name if len(name) <= LABEL else f"{name[: LABEL // 2 - 1]}…{name[-(LABEL // 2) :]}"


def _standing(summary: Summary, entrant: int) -> Standing:
    return next(standing for standing in summary.standings if standing.entrant == entrant)


def _number(value: float | None) -> float:
    return math.nan if value is None else value


def _excludes_zero(interval: tuple[float, float] | None) -> bool:
    return interval is not None and (interval[0] > 0 or interval[1] < 0)


def _bins(scores: Sequence[int]) -> list[float]:
    """Bin edges for whole-number scores: each bin a whole number of the scores' common step
    (scores go by 5 or 10 in Thousand), at most about 40 bins, centred on the scores."""
    low, high = min(scores), max(scores)
    step = math.gcd(*(score - low for score in scores)) or 1
    width = step * max(1, math.ceil((high - low) / step / 40))
    count = math.floor((high - low) / width + 0.5) + 1
    return [low - width / 2 + width * index for index in range(count + 1)]
