"""A tournament's report: pictures and one self-contained web page, drawn from the folder the
tournament is kept in, finished or still running.

Everything is recomputed from the journal: the standings over the complete groups (the ones
the tournament's own summary counts once it ends), the standings as the groups accumulated,
every bot's score in each unit, and the sequential test's ratio group by group, read from the
same stream the run read. The pictures need matplotlib (the ``plots`` extra); the figures do
not.
"""

from __future__ import annotations

import base64
import html
import json
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import attrs

from thousand.common.files import make_folder
from thousand.common.text import printable
from thousand.table.sandbox import Isolation
from tournament.runner.display import (
    about_line,
    head_to_head_table,
    interval_lines,
    next_seat_table,
    scale_lines,
    seats_table,
    sprt_lines,
    standings_table,
    unit_word,
)
from tournament.runner.journal import (
    JOURNAL,
    Journal,
    TournamentDirError,
    read_json,
    read_results,
    write_text,
)
from tournament.runner.ladder import anchored_ladder
from tournament.runner.run import SUMMARY, summary_document
from tournament.runner.schedule import Config
from tournament.runner.sprt import GroupLeads, SequentialTest, SprtOutcome
from tournament.runner.summary import Anchor, Summary, summarize
from tournament.runner.unit_results import UnitResult
from tournament.runner.verify import saved_anchor

__all__ = [
    "PLOTS",
    "REPORT",
    "Checkpoint",
    "Picture",
    "PicturesUnavailable",
    "Report",
    "build_report",
    "report_page",
    "write_report",
]

PLOTS = "plots"
"""The folder of the pictures, in the tournament's folder."""
REPORT = "report.html"
CHECKPOINTS = 15
"""At most this many points on the rating picture."""
CHECKPOINT_RESAMPLES = 200
"""Bootstrap resamples at each checkpoint before the last: enough for a band, and quick."""
HINT = "for pictures and report.html, install matplotlib: python -m pip install matplotlib"


class PicturesUnavailable(ValueError):
    """matplotlib, which draws the pictures, is not installed or does not load."""


@attrs.frozen
class Picture:
    """One picture of the report: its PNG file, its title and how to read it."""

    path: Path
    title: str
    about: str


@attrs.frozen
class Checkpoint:
    """The standings counting the first groups of every table, as far as they were played."""

    per_table: int
    """Deals, matches or games per table counted."""
    summary: Summary


@attrs.frozen
class Report:
    """What the report shows of a tournament."""

    config: Config
    summary: Summary
    """The standings over the groups counted: the complete ones, or those the test read."""
    finished: int
    """Units in the journal."""
    history: tuple[Checkpoint, ...]
    """The standings as the groups accumulated, the last being :attr:`summary`."""
    scores: tuple[tuple[int, ...], ...]
    """Per entrant, its score in every unit counted, in the order of the units' names."""
    trace: tuple[float, ...]
    """With a sequential test, its log-likelihood ratio after each group it read."""

    @property
    def scheduled(self) -> int:
        """Units in the whole schedule."""
        return len(self.config.units())

    @property
    def decided(self) -> bool:
        """Whether the tournament's sequential test reached a verdict (and so stopped it)."""
        return self.summary.sprt is not None and self.summary.sprt.verdict.accepted is not None


def build_report(
    directory: Path, *, summary: Summary | None = None, anchor: Anchor | None = None
) -> Report:
    """The report of the tournament kept in ``directory``, whose journal is read without being
    changed. ``summary``, when the run has just computed it, is used as it is; otherwise the
    standings are computed again, with the ``anchor`` kept in ``summary.json`` if none is given,
    and must come out as that file holds them. Raises :class:`TournamentDirError` for a folder
    that holds no tournament, a damaged or edited file, or no complete group yet."""
    if not directory.is_dir():
        raise TournamentDirError(f"{directory}: no such folder")
    config = Journal.saved_config(directory)
    results = read_results(directory, config)
    names = [entrant.name for entrant in config.entrants]
    trace, outcome = _sequential_test(config, results.values())
    counted = _counted(config, results.values(), outcome)
    if not counted:
        raise TournamentDirError(f"{directory}: no group of the tournament is finished yet")
    saved = None if summary is not None or anchor is not None else _saved_summary(directory)
    if saved is not None:
        anchor = _saved_anchor(directory, saved, names)
    if summary is None:
        summary = summarize(counted, names, format=config.format, seed=config.seed, anchor=anchor)
        summary = attrs.evolve(summary, sprt=outcome)
    if saved is not None:
        _check_summary(directory, saved, summary_document(config, summary))
    scores: list[list[int]] = [[] for _ in names]
    for result in sorted(counted, key=lambda result: result.unit):
        for entrant, score in zip(result.seating, result.scores, strict=True):
            scores[entrant].append(score)
    return Report(
        config=config,
        summary=summary,
        finished=len(results),
        history=_history(config, counted, summary, anchor),
        scores=tuple(tuple(values) for values in scores),
        trace=trace,
    )


def _sequential_test(
    config: Config, results: Iterable[UnitResult]
) -> tuple[tuple[float, ...], SprtOutcome | None]:
    """The test's ratio after each group it read, and where it stands, as the run read it."""
    if config.sprt is None:
        return (), None
    test = SequentialTest(config.sprt)
    leads = GroupLeads(group_size=config.group_size, tables=len(config.tables()))
    trace = []
    for lead in leads.add(results):
        trace.append(test.add(lead).llr)
        if test.verdict.accepted is not None:
            break
    return tuple(trace), SprtOutcome(config.sprt, test.verdict)


def _counted(
    config: Config, results: Iterable[UnitResult], outcome: SprtOutcome | None
) -> list[UnitResult]:
    """The units of the complete groups (with a test, of the groups it read), as the run's own
    summary counts them."""
    units = list(results)
    sizes = Counter((result.table, result.group) for result in units)
    read = math.inf if outcome is None else outcome.verdict.observations
    return [
        result
        for result in units
        if sizes[result.table, result.group] == config.group_size and result.group < read
    ]


def _history(
    config: Config,
    counted: Sequence[UnitResult],
    summary: Summary,
    anchor: Anchor | None,
) -> tuple[Checkpoint, ...]:
    """The standings counting the first groups of every table, at up to :data:`CHECKPOINTS`
    evenly spaced numbers of groups, the last being ``summary``; a checkpoint before every
    anchored bot has played is left out."""
    groups = 1 + max(result.group for result in counted)
    steps = min(groups, CHECKPOINTS)
    ends = sorted({math.ceil(groups * step / steps) for step in range(1, steps + 1)})
    size = 1 if config.format == "deals" else config.group_size
    names = [entrant.name for entrant in config.entrants]
    anchored = {names.index(name) for name, _ in anchor or ()}
    history = []
    for end in ends[:-1]:
        chosen = [result for result in counted if result.group < end]
        seated = {entrant for result in chosen for entrant in result.seating}
        if not anchored <= seated:
            continue
        early = summarize(
            chosen,
            names,
            format=config.format,
            seed=config.seed,
            resamples=CHECKPOINT_RESAMPLES,
            anchor=anchor,
        )
        history.append(Checkpoint(end * size, early))
    history.append(Checkpoint(groups * size, summary))
    return tuple(history)


def _saved_summary(directory: Path) -> dict[str, Any] | None:
    """What ``summary.json`` holds, when the tournament has one (once it has finished)."""
    path = directory / SUMMARY
    if not path.exists():
        return None
    try:
        document = read_json(path)
    except ValueError as error:
        raise TournamentDirError(f"{path} cannot be read: {error}") from None
    if not isinstance(document, dict):
        raise TournamentDirError(f"{path} cannot be read: it holds no JSON object")
    return document


def _saved_anchor(directory: Path, saved: dict[str, Any], names: Sequence[str]) -> Anchor | None:
    """The anchor a finished tournament was rated with, as ``summary.json`` keeps it."""
    try:
        return saved_anchor(saved.get("anchor"), names)
    except ValueError as error:
        raise TournamentDirError(f"{directory / SUMMARY} cannot be read: {error}") from None


def _check_summary(directory: Path, saved: dict[str, Any], document: dict[str, Any]) -> None:
    """Refuse a ``summary.json`` that says other than its journal: every figure of it is
    computed again, the same way, from the journal."""
    expected = json.loads(json.dumps(document))
    for key in sorted(set(expected) | set(saved)):
        if key not in saved or json.dumps(saved[key], sort_keys=True) != json.dumps(
            expected.get(key), sort_keys=True
        ):
            raise TournamentDirError(
                f"{directory / SUMMARY}, field {key!r}, does not agree with {JOURNAL}: "
                "it was changed or damaged (delete it to draw the report without it)"
            )


def write_report(
    directory: Path, *, summary: Summary | None = None, anchor: Anchor | None = None
) -> Path:
    """Draw the pictures of the tournament kept in ``directory`` into its ``plots`` folder and
    write ``report.html`` beside them; the page's path. Raises :class:`PicturesUnavailable`
    without matplotlib (before reading anything), and what :func:`build_report` raises."""
    try:
        from tournament.runner import plots
    except ImportError as error:
        library = (error.name or "").split(".")[0]
        if library in ("thousand", "tournament"):
            raise
        if isinstance(error, ModuleNotFoundError) and library in ("matplotlib", "numpy"):
            raise PicturesUnavailable(HINT) from None
        # Installed but not loadable: a broken install, or no memory left to map it.
        raise PicturesUnavailable(
            f"the pictures and report.html cannot be drawn: matplotlib did not load ({error})"
        ) from None
    report = build_report(directory, summary=summary, anchor=anchor)
    folder = make_folder(directory / PLOTS)
    pictures = plots.draw(report, folder)
    page = directory / REPORT
    write_text(page, report_page(report, pictures))
    return page


def report_page(report: Report, pictures: Sequence[Picture]) -> str:
    """The report as one web page that needs nothing else: the standings, the pictures
    (embedded), the other tables and the configuration."""
    config, summary = report.config, report.summary
    unit = unit_word(config)
    ladder = anchored_ladder(config, summary.anchor)
    if report.finished >= report.scheduled:
        status = f"Finished: all {report.scheduled} units played."
    elif report.decided:
        status = f"Finished when the test decided, after {report.finished} units."
    else:
        status = (
            f"Still running: {report.finished} of {report.scheduled} units played so far; "
            f"the figures count the {summary.units} units of the groups complete."
        )
    parts = [
        f"<h1>{_text(about_line(config))}</h1>",
        f"<p>{_text(status)}</p>",
        *(f"<p>{_text(line)}</p>" for line in sprt_lines(config, summary, unit)),
        "<h2>Standings</h2>",
        _table(standings_table(config, summary, ladder), "standings"),
        *(
            f"<p>{_text(line)}</p>"
            for line in [
                "± is half the width of a 95% interval.",
                *interval_lines(config, summary),
                *scale_lines(config, summary, ladder),
            ]
        ),
    ]
    for picture in pictures:
        data = base64.b64encode(picture.path.read_bytes()).decode("ascii")
        parts.append(
            f'<figure><img src="data:image/png;base64,{data}" alt="{_text(picture.title)}">'
            f"<figcaption><b>{_text(picture.title)}.</b> {_text(picture.about)}"
            "</figcaption></figure>"
        )
    sections = [
        ("Head to head, on the units both played", head_to_head_table(summary, unit)),
        ("Seats, against the mean of the table", seats_table(config, summary, unit)),
        ("The bot in the seat after each bot", next_seat_table(summary, unit)),
        ("Configuration", _configuration(config)),
        ("Rules", [["rule", "value"], *_rules(config)]),
    ]
    for title, rows in sections:
        if len(rows) > 1:
            parts.extend([f"<h2>{_text(title)}</h2>", _table(rows, "")])
    return _PAGE.format(title=_text(about_line(config)), body="\n".join(parts))


def _configuration(config: Config) -> list[list[str]]:
    """What was asked for, as rows: everything that decides the results."""
    game = config.game_value()
    rows = [["setting", "value"], ["game", game.title]]
    rows.extend(
        [f"bot {number}", f"{entrant.name}: {entrant.spec}"]
        for number, entrant in enumerate(config.entrants, 1)
    )
    per_table = "deals" if config.format == "deals" else game.units
    rows.extend(
        [
            ["seats per table", str(config.players)],
            ["tables", str(len(config.tables()))],
            [
                "format",
                "single deals, each under every seating"
                if config.format == "deals"
                else f"whole {game.units}, in groups of {config.group_size} on the same cards",
            ],
            [f"{per_table} per table", str(config.per_table)],
            ["seed", str(config.seed)],
        ]
    )
    optional = [
        ("gauntlet", config.gauntlet),
        ("time limit", None if config.time_limit is None else f"{config.time_limit:g} s"),
        ("time quota", None if config.time_quota is None else f"{config.time_quota:g} s"),
        ("sequential test (H0,H1)", None if config.sprt is None else str(config.sprt)),
    ]
    rows.extend([name, value] for name, value in optional if value is not None)
    rows.extend(
        [
            ["on a fault", config.on_fault],
            ["bots not built in", _isolation(config)],
        ]
    )
    return rows


ISOLATION_WORDS = {
    Isolation.SANDBOX: "sandboxed",
    Isolation.PROCESS: "each match in a process of its own",
    Isolation.NONE: "in the tournament's processes",
}
"""How the report tells where a bot that is not built in played."""


def _isolation(config: Config) -> str:
    """Where the bots that are not built in played, and what the sandbox let them reach."""
    said = ISOLATION_WORDS[config.isolate]
    if config.isolate is not Isolation.SANDBOX:
        return said
    reach = [f"reading {path}" for path in config.bot_readable]
    if config.bot_network:
        reach.append("with the network")
    return f"{said}, {', '.join(reach)}" if reach else said


def _rules(config: Config) -> list[list[str]]:
    """Every field of the rules, as rows."""
    return [
        [name, value if isinstance(value, str) else json.dumps(value)]
        for name, value in sorted(config.rules.items())
    ]


def _text(text: str) -> str:
    """Text for the page: escaped for HTML, and every control character (a bot's name may
    hold escape codes) shown as ``?``."""
    return html.escape(printable(text))


def _table(rows: Sequence[Sequence[str]], name: str) -> str:
    """Rows of cells as an HTML table, the first row its header, every cell escaped and its
    control characters shown as ``?``."""
    head = "".join(f"<th>{_text(cell)}</th>" for cell in rows[0])
    body = "".join(
        "<tr>" + "".join(f"<td>{_text(cell)}</td>" for cell in row) + "</tr>" for row in rows[1:]
    )
    ident = f' id="{name}"' if name else ""
    return f"<table{ident}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
body {{ font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 60em;
  padding: 0 1em; color: #222; background: #fff; }}
h1 {{ font-size: 1.3em; }}
h2 {{ font-size: 1.1em; margin-top: 2em; border-bottom: 1px solid #ddd; }}
table {{ border-collapse: collapse; font-variant-numeric: tabular-nums; }}
th, td {{ padding: 0.2em 0.8em; text-align: left; border-bottom: 1px solid #eee; }}
th {{ border-bottom: 1px solid #999; }}
figure {{ margin: 2em 0; }}
img {{ max-width: 100%; height: auto; }}
figcaption {{ max-width: 45em; color: #444; }}
</style>
</head>
<body>
{body}
</body>
</html>
"""
