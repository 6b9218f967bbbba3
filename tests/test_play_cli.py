"""`thousand play` driven through a pseudo-terminal, as a person would play it: whole games typed
in, wrong input answered with hints, cards typed in every accepted form, Ctrl-C saving the game
so far; and `thousand play` errors through typer's runner."""

from __future__ import annotations

import codecs
import os
import pty
import re
import select
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

import thousand
from tests.test_cli import installed_command
from thousand import bluff
from thousand.games import record_from_json
from tournament.cli import app

PROMPT = "> "
MENU_ENTRY = re.compile(r"(\d+)\. (.+?)(?=\s{2,}\d+\. |$)")
THOUSAND_CARD = re.compile(
    r"^play (10|[9JQKA])([♠♣♦♥])( and declare .*)?$|^give (10|[9JQKA])([♠♣♦♥]) to"
)
BLUFF_FACE_UP = re.compile(r"^play \[(\d+)\] face up$")
ANSI = re.compile(r"\x1b\[[0-9;]*m")
SUIT_LETTERS = {"♠": "S", "♣": "C", "♦": "D", "♥": "H"}


class Terminal:
    """A program running on a pseudo-terminal: what it printed, and typing into it."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        environment = dict(os.environ, NO_COLOR="1", COLUMNS="100", TERM="dumb")
        pid, fd = pty.fork()
        if pid == 0:  # pragma: no cover - the child process
            os.chdir(cwd)
            os.execvpe(args[0], args, environment)
        self.pid = pid
        self.fd = fd
        self.output = ""
        self.raw = ""
        """What the program printed, decoded but with its control sequences still in."""
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.seen = 0
        self.status: int | None = None

    def read_until(self, done: Callable[[str], bool], timeout: float = 60.0) -> str:
        """Read until ``done`` holds for the output since the last call (or the program ends);
        return that new output."""
        deadline = time.monotonic() + timeout
        while not done(self.output[self.seen :]):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"timed out; the program printed:\n{self.output[-3000:]}")
            ready, _, _ = select.select([self.fd], [], [], remaining)
            if not ready:
                continue
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                break
            # A character or a control sequence may be split between two reads: decode as a
            # stream, and clean the whole text each time.
            self.raw += self.decoder.decode(chunk)
            self.output = ANSI.sub("", self.raw).replace("\r", "")
        new = self.output[self.seen :]
        self.seen = len(self.output)
        return new

    def next_prompt(self) -> str | None:
        """The output up to the next question, or ``None`` when the program ended instead."""
        new = self.read_until(lambda text: text.endswith(PROMPT))
        return new if new.endswith(PROMPT) else None

    def type(self, text: str) -> None:
        os.write(self.fd, text.encode() + b"\n")

    def interrupt(self, patience: float = 5.0) -> None:
        """Press Ctrl-C, and again while the program has not ended after ``patience`` seconds, as
        a person would: a Ctrl-C pressed the instant the prompt appears can reach the line
        editor before it waits for input, and is then lost (a race of readline, not the game's)."""
        for _ in range(3):
            os.write(self.fd, b"\x03")
            try:
                self.read_until(lambda text: False, patience)
            except AssertionError:
                continue
            return

    def wait(self, timeout: float = 60.0) -> int:
        """The program's exit code, once it ends (its output read to the end)."""
        self.read_until(lambda text: False, timeout)
        deadline = time.monotonic() + timeout
        while self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
            elif time.monotonic() > deadline:
                os.kill(self.pid, signal.SIGKILL)
                raise AssertionError("the program did not end")
            else:
                time.sleep(0.02)
        os.close(self.fd)
        return self.status


def choices(screen: str) -> dict[int, str]:
    """The numbered choices of the last menu on the screen."""
    menu = screen.rsplit("Your choices:", 1)[-1]
    found: dict[int, str] = {}
    for line in menu.splitlines():
        for number, text in MENU_ENTRY.findall(line.strip()):
            found[int(number)] = text.strip()
    return found


def typed_card(rank: str, suit: str, form: int) -> str:
    """A card in one of the accepted forms: KH, 10h, k♥."""
    letter = SUIT_LETTERS[suit]
    if form == 0:
        return ("T" if rank == "10" else rank) + letter
    if form == 1:
        return rank.lower() + letter.lower()
    return rank.lower() + suit


def play_thousand(terminal: Terminal) -> set[int]:
    """Answer every question of a Thousand game: a card in a new form each time when one is
    asked, otherwise the first choice by number; returns the card forms used."""
    forms: set[int] = set()
    turn = 0
    while (screen := terminal.next_prompt()) is not None:
        offered = choices(screen)
        assert offered, screen
        cards = [THOUSAND_CARD.match(text) for text in offered.values()]
        plain = [match for match in cards if match is not None and not match.group(3)]
        if plain:
            match = plain[0]
            rank, suit = (match.group(1), match.group(2)) if match.group(1) else match.group(4, 5)
            form = turn % 3
            forms.add(form)
            terminal.type(
                typed_card(rank, suit, form) + (" -" if _declarable(offered, match) else "")
            )
        else:
            terminal.type("1")
        turn += 1
    return forms


def _declarable(offered: dict[int, str], match: re.Match[str]) -> bool:
    """Whether the card can also be led declaring (then '-' keeps it a plain lead)."""
    card = match.group(0).split(" and ")[0]
    return any(text.startswith(card + " and declare") for text in offered.values())


def start(tmp_path: Path, *options: str) -> tuple[Terminal, Path]:
    record = tmp_path / "game.json"
    terminal = Terminal(
        [*installed_command(), "play", "--pace", "0", "--record", str(record), *options], tmp_path
    )
    return terminal, record


@pytest.mark.slow
def test_a_whole_thousand_deal_typed_in(tmp_path: Path) -> None:
    terminal, record_path = start(
        tmp_path, "--deal", "--seed", "7", "--vs", "greedy", "--vs", "random"
    )
    first = terminal.next_prompt()
    assert first is not None
    assert "Your hand:" in first
    assert "Your choices:" in first
    terminal.type("nonsense")
    hint = terminal.next_prompt()
    assert hint is not None
    assert "'nonsense' is not one of your choices" in hint
    terminal.type("?")
    help_screen = terminal.next_prompt()
    assert help_screen is not None
    assert "a card to play, give or lay aside: KH, 10h, k♥" in help_screen
    terminal.type("ZZ")
    assert "is not one of your choices" in (terminal.next_prompt() or "")
    terminal.type("1")
    forms = play_thousand(terminal)
    assert terminal.wait() == 0, terminal.output[-2000:]
    assert forms == {0, 1, 2}
    assert "Traceback" not in terminal.output
    assert f"The record is saved in {record_path}" in terminal.output
    record = thousand.load_record(record_path)
    final = thousand.replay(record)
    assert final.is_over
    result = final.result
    assert isinstance(result, thousand.DealResult)
    for seat, name in enumerate(["you", "greedy", "random"]):
        assert re.search(rf"\b{seat}\s+{name}\s+{result.deal_scores[seat]}\b", terminal.output)
    # The bots' actions were told as they came.
    assert re.search(r"^  greedy (passes|bids|plays)", terminal.output, re.MULTILINE)
    assert re.search(r"^  random (passes|bids|plays)", terminal.output, re.MULTILINE)


def test_a_whole_1000_game_typed_in(tmp_path: Path) -> None:
    terminal, record_path = start(
        tmp_path, "--game", "bluff", "--seed", "3", "--vs", "greedy", "--vs", "greedy"
    )
    first = terminal.next_prompt()
    assert first is not None
    assert "Draw pile:" in first
    terminal.type("99x")
    assert "is not one of your choices" in (terminal.next_prompt() or "")
    terminal.type("?")
    assert "hide 06 to play it face down" in (terminal.next_prompt() or "")
    labels = 0
    terminal.type("1")
    while (screen := terminal.next_prompt()) is not None:
        offered = choices(screen)
        face_up = [BLUFF_FACE_UP.match(text) for text in offered.values()]
        playable = [match.group(1) for match in face_up if match is not None]
        if playable:
            terminal.type(playable[0])
            labels += 1
        elif "believe the face-down card" in offered.values():
            terminal.type("believe")
        elif "pass and draw a card" in offered.values() and len(offered) > 1:
            terminal.type("draw")
        else:
            terminal.type("1")
    assert terminal.wait() == 0, terminal.output[-2000:]
    assert labels > 0
    assert "Traceback" not in terminal.output
    record = bluff.load_record(record_path)
    final = bluff.replay(record)
    assert final.is_over
    assert final.result is not None
    assert final.result.winners


@pytest.mark.slow
@pytest.mark.parametrize("game", ["thousand", "bluff"])
def test_ctrl_c_saves_a_record_of_the_game_so_far(tmp_path: Path, game: str) -> None:
    terminal, record_path = start(tmp_path, "--game", game, "--seed", "5")
    for _ in range(4):
        assert terminal.next_prompt() is not None
        terminal.type("1")
    assert terminal.next_prompt() is not None
    terminal.interrupt()
    assert terminal.wait() == 130
    assert "Traceback" not in terminal.output
    assert f"The game so far is saved in {record_path}" in terminal.output
    record = record_from_json(record_path.read_text(encoding="utf-8"))
    final = bluff.replay(record) if isinstance(record, bluff.Record) else thousand.replay(record)
    assert not final.is_over
    # The person answered four questions before stopping: their answers are in the record.
    if isinstance(record, bluff.Record):
        seats = [seat for seat, _ in record.actions]
    else:
        seats = [seat for deal in record.deals for seat, _ in deal.actions]
    assert seats.count(0) == 4


runner = CliRunner()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--game", "chess"], "--game must be thousand or bluff"),
        (["--rules", "czech"], "'czech' is neither a preset"),
        (["--vs", "nosuchbot"], "nosuchbot"),
        (["--seat", "3"], "--seat must be 0 to 2"),
        (["--vs", "greedy", "--rules", "russian"], "russian is played by 3 players, not 2"),
        (["--record", "no/such/folder/game.json"], "cannot save the record in no/such/folder"),
    ],
)
def test_play_refuses_bad_options_in_one_line(options: list[str], message: str) -> None:
    result = runner.invoke(app, ["play", *options])
    assert result.exit_code == 2
    assert message in result.output
    assert result.output.count("\n") == 1


@pytest.mark.slow
def test_the_session_in_the_docs_is_what_the_program_prints(tmp_path: Path) -> None:
    """docs/play.md shows a real session: typing its answers gives its text, and the replay
    shown after it is what `thousand replay` prints of that session's record."""
    doc = (Path(__file__).parents[1] / "docs" / "play.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- answers: (.*?) -->", doc)
    assert found is not None
    answers = found.group(1).split(" | ")
    session = doc.split("```text\n$ thousand play", 1)[1].split("```", 1)[0]
    options, _, printed = session.partition("\n")
    terminal = Terminal([*installed_command(), "play", *options.split()], tmp_path)
    for answer in answers:
        assert terminal.next_prompt() is not None
        terminal.type(answer)
    assert terminal.wait() == 130
    position = 0
    for part in printed.split("…\n"):
        at = terminal.output.find(part, position)
        assert at >= 0, f"not printed:\n{part}\nthe program printed:\n{terminal.output}"
        position = at + len(part)
    replay = doc.split("```text\n$ thousand replay ", 1)[1].split("```", 1)[0]
    arguments, _, shown = replay.partition("\n")
    name, *options_after = arguments.split()
    result = runner.invoke(app, ["replay", str(tmp_path / name), *options_after])
    assert result.exit_code == 0
    assert result.output == shown


@pytest.mark.slow
def test_ctrl_c_while_the_bots_play_saves_the_game_so_far(tmp_path: Path) -> None:
    """Ctrl-C while the bots' actions are being shown (here, ten minutes apart) ends the game
    without waiting out the pause, and saves the record."""
    record_path = tmp_path / "game.json"
    terminal = Terminal(
        [
            *installed_command(),
            "play",
            "--seed",
            "5",
            "--pace",
            "600",
            "--record",
            str(record_path),
        ],
        tmp_path,
    )
    screen = terminal.next_prompt()
    assert screen is not None
    terminal.type("1")
    terminal.read_until(lambda text: "You pass" in text)
    os.write(terminal.fd, b"\x03")
    # Were the pause waited out, the program would outlast the wait's own timeout.
    assert terminal.wait() == 130
    assert f"The game so far is saved in {record_path}" in terminal.output
    record = thousand.load_record(record_path)
    replayed = thousand.replay(record)
    assert not replayed.is_over
    assert [seat for seat, _ in record.deals[0].actions].count(0) == 1
