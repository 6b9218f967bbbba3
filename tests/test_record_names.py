"""Records name their players: the names go through JSON exactly, records without them still
load, malformed names are refused in one line, the driver, `thousand match`, `thousand play`
and the tournament write them, and `thousand replay` shows them, in text and as a web page."""

from __future__ import annotations

import html
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import thousand
from tests.test_cli import installed_command
from tests.test_html_replay import embedded_data
from tests.test_tournament import one_line_error
from thousand import GameState, Record, RecordError, Rules, bluff, new_deal
from thousand.common.record_io import MAX_NAME
from thousand.frontends.html_replay import html_page
from thousand.frontends.narration import joined, replay_lines
from tournament.cli import app

runner = CliRunner()
SAVED = Path(__file__).resolve().parent / "saved_records"
RUSSIAN = Rules.preset("russian")
NAMES = ("greedy", "pimc(steps=50)", "you")


def finished_deal(seed: int = 3) -> GameState:
    """A single Russian deal played to its end, always the first legal action."""
    state = new_deal(RUSSIAN, seed=seed)
    while not state.is_over:
        state = state.apply(state.legal_actions()[0])
    return state


def bluff_game(seed: int = 2) -> bluff.State:
    state = bluff.new_game(bluff.Rules(players=3), seed=seed)
    while state.result is None:
        state = state.apply(state.legal_actions()[0])
    return state


def run(
    *arguments: str, stdin: str = "", cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """The installed program, as a person runs it."""
    return subprocess.run(
        [*installed_command(), *arguments],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=cwd,
    )


# The record ----------------------------------------------------------------------------------


def test_a_thousand_record_keeps_its_players_names_through_json() -> None:
    state = finished_deal()
    record = Record.from_state(state, NAMES)
    assert record.players == NAMES
    data = json.loads(record.to_json())
    assert list(data)[:3] == ["format", "version", "players"]
    assert data["players"] == list(NAMES)
    again = Record.from_json(record.to_json())
    assert again.players == NAMES
    assert again.to_json() == record.to_json()
    assert thousand.replay(again) == state


def test_a_thousand_record_writes_non_ascii_names_as_written() -> None:
    """The JSON text of a record holds its players' names in their own letters, not escaped."""
    names = ("Пётр", "Ünïcödé 🂡", "you")
    text = Record.from_state(finished_deal(), names).to_json()
    assert '"players": ["Пётр", "Ünïcödé 🂡", "you"]' in text
    assert "\\u" not in text


def test_a_1000_record_keeps_its_players_names_through_json() -> None:
    state = bluff_game()
    names = ("random", "cmd:./my bot", "Ünïcödé 🂡")
    record = bluff.Record.from_state(state, names)
    again = bluff.Record.from_json(record.to_json())
    assert again.players == names
    assert json.loads(record.to_json())["players"] == list(names)
    assert bluff.replay(again) == state


def test_names_take_no_part_in_equality() -> None:
    """Records are equal when they replay the same game, whoever played it."""
    state = finished_deal()
    named = Record.from_state(state, NAMES)
    assert named == Record.from_state(state) == Record.from_state(state, ["a", "b", "c"])
    assert hash(named) == hash(Record.from_state(state))


def test_a_record_without_names_writes_none_and_reads_as_none() -> None:
    record = Record.from_state(finished_deal())
    assert record.players is None
    assert "players" not in json.loads(record.to_json())
    data = json.loads(record.to_json())
    data["players"] = None
    assert Record.from_dict(data).players is None


@pytest.mark.parametrize("path", sorted(SAVED.glob("*.json")), ids=lambda path: path.stem)
def test_records_saved_before_names_were_kept_load_without_names(path: Path) -> None:
    if path.stem.startswith("bluff"):
        record: Any = bluff.load_record(path)
        assert bluff.replay(record).result is not None
    else:
        record = thousand.load_record(path)
        assert thousand.replay(record).is_over
    assert record.players is None
    seats = [f"seat {seat}" for seat in range(record.rules.players)]
    assert replay_lines(record)[0].endswith(": " + joined(seats))


def test_saved_named_records_load_replay_and_are_written_again_the_same() -> None:
    """Records saved with names (by `thousand play` and `thousand match`) keep loading."""
    path = SAVED / "named" / "thousand-play-deal.json"
    record = thousand.load_record(path)
    assert record.players == ("greedy", "you", "pimc(steps=20)")
    assert thousand.replay(record).is_over
    assert record.to_json() == path.read_text(encoding="utf-8")
    path = SAVED / "named" / "bluff-match.json"
    game = bluff.load_record(path)
    assert game.players == ("greedy", "random", "random")
    assert bluff.replay(game).result is not None
    assert game.to_json() == path.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ("greedy", "players: expected a list"),
        (["greedy", "random"], "players: expected 3 names, one per seat, not 2"),
        (["greedy", "random", "a", "b"], "expected 3 names, one per seat, not 4"),
        (["greedy", 5, "random"], "players: seat 1: a name is text, not a number"),
        (["greedy", "random", None], "seat 2: a name is text, not null"),
        ([True, "random", "x"], "seat 0: a name is text, not true or false"),
        (["greedy", ["x"], "x"], "seat 1: a name is text, not a list or an object"),
        (["greedy", {"a": 1}, "x"], "seat 1: a name is text, not a list or an object"),
        (["", "random", "x"], f"seat 0: a name has 1 to {MAX_NAME} characters, not 0"),
        (["x" * 100_000, "random", "x"], f"1 to {MAX_NAME} characters, not 100000"),
    ],
)
def test_malformed_names_are_refused_in_one_line(
    tmp_path: Path, players: Any, message: str
) -> None:
    data = json.loads(Record.from_state(finished_deal()).to_json())
    data["players"] = players
    with pytest.raises(RecordError, match=message.replace("(", r"\(")):
        Record.from_dict(data)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    one_line_error(result.output, message)
    assert len(result.output) < 300


def test_a_malformed_1000_name_is_refused() -> None:
    data = json.loads(bluff.Record.from_state(bluff_game(), ["a", "b", "c"]).to_json())
    data["players"][2] = 7
    with pytest.raises(RecordError, match="players: seat 2: a name is text, not a number"):
        bluff.Record.from_dict(data)


def test_names_longer_than_the_limit_are_cut_when_a_record_is_made() -> None:
    long = "cmd:" + "x" * 1000
    record = thousand.play(["greedy", "random", long], RUSSIAN, seed=1, single_deal=True).record
    assert record.players == ("greedy", "random", long[:MAX_NAME])
    assert Record.from_json(record.to_json()).players == record.players


# Who writes them ------------------------------------------------------------------------------


class FirstLegal:
    """A player object: always the first legal action."""

    def act(self, observation: Any) -> Any:
        return observation.legal_actions[0]


def test_the_driver_names_each_seat_by_its_spec_or_its_class() -> None:
    outcome = thousand.play(["random", FirstLegal(), "random"], RUSSIAN, seed=2, single_deal=True)
    # The outcome tells the two randoms apart; the record keeps the specs as given.
    assert outcome.players == ("random", "FirstLegal", "random#2")
    assert outcome.record.players == ("random", "FirstLegal", "random")
    again = thousand.Outcome.from_dict(json.loads(json.dumps(outcome.to_dict())))
    assert again.record.players == outcome.record.players
    game = thousand.play(["greedy", "random"], bluff.Rules(players=2), seed=2)
    assert game.record.players == ("greedy", "random")


def test_a_forfeited_match_keeps_its_names() -> None:
    class Broken(FirstLegal):
        def act(self, observation: Any) -> Any:
            raise ValueError("broken")

    outcome = thousand.play(["greedy", Broken(), "greedy"], RUSSIAN, seed=2)
    assert outcome.forfeited == 1
    assert outcome.record.players == ("greedy", "Broken", "greedy")


def test_match_record_names_the_bots(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    specs = ["greedy", "random", "pimc(steps=20)"]
    result = runner.invoke(app, ["match", *specs, "--deal", "--seed", "4", "--record", str(path)])
    assert result.exit_code == 0, result.output
    assert thousand.load_record(path).players == tuple(specs)
    arguments = ["match", "--game", "bluff", "random", "greedy", "--seed", "4"]
    done = run(*arguments, "--record", "b.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert bluff.load_record(tmp_path / "b.json").players == ("random", "greedy")


def test_play_record_calls_the_person_you(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    arguments = ["play", "--deal", "--seed", "7", "--vs", "greedy", "--vs", "random", "--seat", "1"]
    result = runner.invoke(app, [*arguments, "--pace", "0", "--record", str(path)], input="quit\n")
    assert result.exit_code == 130, result.output
    assert thousand.load_record(path).players == ("greedy", "you", "random")
    # The installed program, fed by a pipe, plays a whole 1000? game to its end.
    arguments = ["play", "--game", "bluff", "--seed", "3", "--pace", "0"]
    done = run(*arguments, "--record", "b.json", stdin="1\n" * 400, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    record = bluff.load_record(tmp_path / "b.json")
    assert record.players == ("you", "greedy", "greedy", "greedy")
    assert bluff.replay(record).result is not None


def test_tournament_records_name_the_entrants_as_the_standings_do(tmp_path: Path) -> None:
    out = tmp_path / "out"
    arguments = ["tournament", "random", "random", "greedy", "--deals", "1", "--seed", "1"]
    arguments += ["--workers", "1", "--records", "--no-report"]
    result = runner.invoke(app, [*arguments, "--out", str(out)])
    assert result.exit_code == 0, result.output
    entrants = ["random", "random#2", "greedy"]
    for line in (out / "journal.jsonl").read_text(encoding="utf-8").splitlines():
        unit = json.loads(line)
        record = thousand.load_record(out / "records" / f"{unit['unit']}.json")
        assert record.players == tuple(entrants[entrant] for entrant in unit["seating"])


# The replay ----------------------------------------------------------------------------------


def opening(output: str) -> list[str]:
    """The lines before the first deal, each line wrapped at the terminal's width made whole
    again."""
    lines: list[str] = []
    for line in output.split("\n\n")[0].splitlines():
        if line.startswith("    "):
            lines[-1] += " " + line.strip()
        else:
            lines.append(line)
    return lines


def named_record(tmp_path: Path, names: tuple[str, ...] = NAMES, seed: int = 3) -> Path:
    path = tmp_path / "named.json"
    path.write_text(Record.from_state(finished_deal(seed), names).to_json(), encoding="utf-8")
    return path


def test_replay_calls_the_seats_by_their_players(tmp_path: Path) -> None:
    path = named_record(tmp_path)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert opening(result.output) == [
        "Thousand (russian rules), a single deal: greedy (seat 0), pimc (seat 1: pimc(steps=50)) "
        "and you (seat 2)"
    ]
    assert "Deal 1, dealt by greedy" in lines
    assert "  pimc holds: " in result.output
    # Every card shown, the person who played reads their own game in the second person.
    assert "  You hold: " in result.output
    assert "you holds" not in result.output
    assert "seat 1" not in "\n".join(lines[1:])


def test_replay_as_one_seat_calls_the_person_human(tmp_path: Path) -> None:
    path = named_record(tmp_path)
    result = runner.invoke(app, ["replay", str(path), "--seat", "0"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert opening(result.output) == [
        "Thousand (russian rules), a single deal: greedy (seat 0), pimc (seat 1: pimc(steps=50)) "
        "and human (seat 2: you)",
        "As seen by greedy: the cards others held stay hidden.",
    ]
    assert "  You hold: " in result.output
    assert "  Scores: you 0, pimc 0, human 0" in lines
    as_person = runner.invoke(app, ["replay", str(path), "--seat", "2"])
    assert opening(as_person.output)[1] == "As seen by you: the cards others held stay hidden."
    assert "  Scores: greedy 0, pimc 0, you 0" in as_person.output.splitlines()


def test_the_same_bot_twice_is_lettered_as_in_the_game(tmp_path: Path) -> None:
    path = named_record(tmp_path, ("greedy", "greedy", "mybot.py:MyBot"))
    output = runner.invoke(app, ["replay", str(path)]).output
    assert opening(output)[0].endswith(
        "greedy A (seat 0), greedy B (seat 1) and MyBot (seat 2: mybot.py:MyBot)"
    )
    assert "  Scores: greedy A 0, greedy B 0, MyBot 0" in output.splitlines()


HOSTILE = ("\x1b]0;PWNED\x07", "a\nb", "<script>alert(1)</script>")


def test_control_characters_in_names_are_shown_as_question_marks(tmp_path: Path) -> None:
    path = named_record(tmp_path, HOSTILE)
    assert thousand.load_record(path).players == HOSTILE
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output
    assert "\x07" not in result.output
    assert "?]0;PWNED? (seat 0), a?b (seat 1)" in opening(result.output)[0]


def test_the_installed_program_replays_with_the_names(tmp_path: Path) -> None:
    path = named_record(tmp_path, ("greedy", "random", "you"))
    done = run("replay", str(path), "--seat", "1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:2] == [
        "Thousand (russian rules), a single deal: greedy (seat 0), random (seat 1) and human "
        "(seat 2: you)",
        "As seen by random: the cards others held stay hidden.",
    ]
    assert done.stdout.splitlines() == replay_lines(thousand.load_record(path), viewer=1)


def test_the_web_page_names_the_players_as_the_text_does(tmp_path: Path) -> None:
    path = named_record(tmp_path)
    page = tmp_path / "page.html"
    result = runner.invoke(app, ["replay", str(path), "--html", str(page)])
    assert result.exit_code == 0, result.output
    text = page.read_text(encoding="utf-8")
    shown = opening(runner.invoke(app, ["replay", str(path)]).output)[0]
    assert f'<p class="summary">{html.escape(shown)}</p>' in text
    data = embedded_data(text)
    assert data["names"] == ["greedy", "pimc", "you"]
    assert data["frames"][0]["d"].startswith("Deal 1, dealt by greedy\nScores: greedy 0")
    assert any(frame["d"].startswith("You ") for frame in data["frames"])


def test_the_web_page_escapes_names_and_shows_control_characters_as_question_marks(
    tmp_path: Path,
) -> None:
    record = Record.from_state(finished_deal(), HOSTILE)
    page = html_page(record)
    assert "\x1b" not in page
    assert "\x07" not in page
    assert "<script>alert" not in page
    assert embedded_data(page)["names"] == ["?]0;PWNED?", "a?b", "<script>alert"]
    done = run("replay", str(named_record(tmp_path, HOSTILE)), "--html", "page.html", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "page.html").read_text(encoding="utf-8") == page


def test_a_1000_replay_names_its_players() -> None:
    record = bluff.Record.from_state(bluff_game(), ["random", "greedy", "random"])
    first = replay_lines(record)[0]
    assert first == "1000? for 3 players: random A (seat 0), greedy (seat 1) and random B (seat 2)"
    assert embedded_data(html_page(record))["names"] == ["random A", "greedy", "random B"]
