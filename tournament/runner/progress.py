"""What a person sees while a tournament runs: the deals, matches or games played, the time
taken and left, the speed, the bot in the lead and, with a sequential test, where it stands.

On a terminal this is a ``rich`` display on the standard error, redrawn twice a second; anywhere
else (a pipe, a log file) it is one plain line at each tenth of the tournament (and one when a
sequential test decides), so that a log shows the same lines at the same points of every run.

The leader shown while it runs is the bot with the highest mean score per unit over the
duplicate groups finished so far, with a normal-approximation 95% interval over those groups;
the standings printed at the end (the Plackett–Luce rating, the bootstrap intervals) are what
counts.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Iterable
from typing import TextIO

import attrs
from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.progress_bar import ProgressBar
from rich.table import Table
from rich.text import Text

from thousand.common.text import printable
from tournament.runner.schedule import Config
from tournament.runner.sprt import Verdict
from tournament.runner.summary import MIN_GROUPS
from tournament.runner.unit_results import UnitResult

__all__ = ["Leader", "LeaderTally", "ProgressDisplay"]

Z95 = 1.96
"""The normal quantile of a two-sided 95% interval."""


@attrs.frozen
class Leader:
    """The bot with the highest mean score so far, and how sure that mean is."""

    name: str
    mean: float
    """Its mean score per unit over the complete groups it played."""
    half: float | None
    """Half the width of the 95% interval of the mean; ``None`` before
    :data:`~tournament.runner.summary.MIN_GROUPS` groups, or when every group gave one mean."""
    groups: int


class LeaderTally:
    """Each entrant's mean score per unit, kept up as units finish, with an interval that
    respects duplicate play: a group (one set of cards at one table, under every seating)
    counts once it is complete, as one observation per bot, the bot's mean over the group's
    units; the interval is the mean of these ± 1.96 standard deviations / √groups."""

    def __init__(self, names: Iterable[str], group_size: int) -> None:
        self.names = tuple(names)
        self.group_size = group_size
        self.open: dict[tuple[int, int], list[UnitResult]] = {}
        """The units of each group not complete yet, by table and group number."""
        self.groups = [0] * len(self.names)
        self.sums = [0.0] * len(self.names)
        self.squares = [0.0] * len(self.names)

    def add(self, results: Iterable[UnitResult]) -> None:
        """Take newly finished units (each once)."""
        for result in results:
            units = self.open.setdefault((result.table, result.group), [])
            units.append(result)
            if len(units) == self.group_size:
                del self.open[result.table, result.group]
                self._count(units)

    def _count(self, units: list[UnitResult]) -> None:
        totals: dict[int, float] = {}
        for unit in units:
            for entrant, score in zip(unit.seating, unit.scores, strict=True):
                totals[entrant] = totals.get(entrant, 0.0) + score
        for entrant, total in totals.items():
            # Every bot of a table plays every unit of its group, so it is the group's mean.
            mean = total / len(units)
            self.groups[entrant] += 1
            self.sums[entrant] += mean
            self.squares[entrant] += mean * mean

    def leader(self) -> Leader | None:
        """The entrant with the highest mean so far (the first given, on a tie); ``None``
        before any group is complete."""
        best: Leader | None = None
        for entrant, groups in enumerate(self.groups):
            if not groups:
                continue
            mean = self.sums[entrant] / groups
            if best is not None and mean <= best.mean:
                continue
            half = None
            if groups >= MIN_GROUPS:
                variance = max(self.squares[entrant] - groups * mean * mean, 0.0) / (groups - 1)
                half = Z95 * math.sqrt(variance / groups) or None
            best = Leader(self.names[entrant], mean, half, groups)
        return best


class ProgressDisplay:
    """Told the units done after every batch (and the finished units, and the test's verdict),
    it shows the tournament's progress on ``stream`` (the standard error by default). A
    ``heading`` (such as a seed drawn at random) is written once, before anything else,
    wherever the stream goes."""

    REDRAWS = 2
    """Redraws per second on a terminal."""
    LEADER_EVERY = 1.0
    """Seconds between two reckonings of the leader on a terminal."""

    def __init__(self, stream: TextIO | None = None, heading: str | None = None) -> None:
        self.stream = stream or sys.stderr
        self.terminal = self.stream.isatty()
        self.heading = heading
        self.words = "unit", "units"
        self.score = "score/unit"
        self.tally: LeaderTally | None = None
        self.done = 0
        self.total = 0
        self.first: int | None = None
        """The units already done at the first report (kept from a run that was resumed)."""
        self.began = 0.0
        self.tenth: int | None = None
        """The last tenth of the units reported in a plain line."""
        self.test = ""
        """The sequential test's standing."""
        self.decided = False
        """Whether the test has decided since the last plain line."""
        self.leader = ""
        self.reckoned = -math.inf
        self.live: Live | None = None

    def follow(self, config: Config) -> None:
        """Name the units as ``config`` plays them, and follow its entrants' scores."""
        self.words = config.unit_words()
        self.score = f"score/{self.words[0]}"
        names = (printable(entrant.name) for entrant in config.entrants)
        self.tally = LeaderTally(names, config.group_size)

    def add(self, results: Iterable[UnitResult]) -> None:
        """Take finished units, for the leader."""
        if self.tally is not None:
            self.tally.add(results)

    def show_verdict(self, verdict: Verdict) -> None:
        """Show a sequential test's standing from now on."""
        decided = f", {verdict.accepted} accepted" if verdict.accepted else ""
        self.test = f"SPRT {verdict.observations} groups, LLR {verdict.llr:+.2f}{decided}"
        self.decided = verdict.accepted is not None

    def __call__(self, done: int, total: int) -> None:
        self.done, self.total = done, total
        if self.heading is not None:
            self.stream.write(self.heading + "\n")
            self.stream.flush()
            self.heading = None
        now = time.monotonic()
        if self.first is None:
            self.first, self.began = done, now
        if self.terminal:
            if not self.leader or done >= total or now - self.reckoned >= self.LEADER_EVERY:
                self.leader, self.reckoned = self._leader(), now
            # Drawn from the first unit back, so that the redrawing thread starts after the
            # backend has started its worker processes.
            if self.live is None and done > self.first:
                self.live = Live(
                    self,
                    console=Console(file=self.stream, highlight=False),
                    refresh_per_second=self.REDRAWS,
                    redirect_stdout=False,
                    redirect_stderr=False,
                )
                self.live.start()
            return
        tenth = done * 10 // max(total, 1)
        if self.tenth is None:
            self.tenth = tenth
        elif tenth > self.tenth or self.decided:
            self.tenth, self.decided = tenth, False
            self.leader = self._leader()
            parts = [self._count(), *self._pace(now), self.leader, self.test]
            self.stream.write(", ".join(part for part in parts if part) + "\n")
            self.stream.flush()

    def stop(self) -> None:
        """End the display, drawn as it stands, so that what follows starts on a line of its
        own."""
        if self.live is not None:
            self.live.stop()
            self.live = None

    def __rich__(self) -> RenderableType:
        """The terminal display: a bar, then the figures (redrawn from another thread, it only
        reads what the reports left)."""
        figures = "  ".join([self._count(), *self._pace(time.monotonic())])
        line = Table.grid(padding=(0, 2))
        line.add_column(no_wrap=True)
        line.add_column(no_wrap=True, overflow="ellipsis")
        line.add_row(ProgressBar(total=max(self.total, 1), completed=self.done, width=20), figures)
        below = "  ".join(part for part in (self.leader, self.test) if part)
        return Group(line, Text(below, overflow="ellipsis", no_wrap=True)) if below else line

    def _count(self) -> str:
        return f"{self.done * 100 // max(self.total, 1)}% {self.done}/{self.total} {self.words[1]}"

    def _pace(self, now: float) -> list[str]:
        """The time taken, the speed and the time left."""
        elapsed = now - self.began
        played = self.done - (self.first or 0)
        pace = [f"{_clock(elapsed)} elapsed"]
        if played and elapsed > 0:
            speed = played / elapsed
            pace.append(f"{speed:,.0f} {self.words[1]}/s")
            if self.done < self.total:
                pace.append(f"ETA {_clock((self.total - self.done) / speed)}")
        return pace

    def _leader(self) -> str:
        leader = self.tally.leader() if self.tally is not None else None
        if leader is None:
            return ""
        half = "" if leader.half is None else f" ± {leader.half:.1f}"
        return f"leader {leader.name} {leader.mean:+.1f}{half} {self.score}"


def _clock(seconds: float) -> str:
    """Seconds as m:ss, or h:mm:ss from an hour."""
    minutes, second = divmod(int(seconds), 60)
    hours, minute = divmod(minutes, 60)
    return f"{hours}:{minute:02d}:{second:02d}" if hours else f"{minute}:{second:02d}"
