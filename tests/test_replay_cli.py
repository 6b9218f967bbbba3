"""`thousand replay`: records of every preset and of 1000? told in the terminal with the result
the library's replay gives, only what one seat saw with --seat, a web page with --html, and
one-line errors for bad records and options."""

from __future__ import annotations

import subprocess
from pathlib import Path

import attrs
import pytest
from typer.testing import CliRunner

import thousand
from tests.test_cli import installed_command
from tests.test_narration import (
    BLUFF_FACE,
    THOUSAND_FACE,
    bluff_seen,
    deal_states,
    thousand_seen,
)
from thousand import Card, DealResult, MatchResult, Rules, bluff
from thousand.frontends.narration import replay_lines
from thousand.games import record_from_json
from tournament.cli import app

runner = CliRunner()

GAMES = [
    *((preset, False) for preset in Rules.preset_names()),
    *((preset, True) for preset in Rules.preset_names()),
    ("bluff", False),
]


def recorded(tmp_path: Path, game: str, single_deal: bool, seed: int = 4) -> Path:
    """A record of a game played by bots, saved to a file."""
    if game == "bluff":
        outcome = thousand.play(["greedy", "random", "greedy"], bluff.Rules(players=3), seed=seed)
    else:
        rules = Rules.preset(game)
        bots = ["greedy", "random", "greedy", "greedy"][: rules.players]
        outcome = thousand.play(bots, rules, seed=seed, single_deal=single_deal)
    path = tmp_path / "record.json"
    path.write_text(outcome.record.to_json(), encoding="utf-8")
    return path


def numbers_after(output: str, prefix: str) -> list[int]:
    line = next(line for line in output.splitlines() if line.startswith(prefix))
    return [int(word) for word in line[len(prefix) :].replace(",", " ").split()]


@pytest.mark.parametrize(("game", "single_deal"), GAMES)
def test_replay_ends_with_the_recorded_result(tmp_path: Path, game: str, single_deal: bool) -> None:
    path = recorded(tmp_path, game, single_deal)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    if game == "bluff":
        final = bluff.replay(bluff.load_record(path))
        assert final.result is not None
        assert numbers_after(result.output, "Cards left: ") == list(final.result.hand_sizes)
        return
    ended = thousand.replay(thousand.load_record(path)).result
    if single_deal:
        assert isinstance(ended, DealResult)
        assert numbers_after(result.output, "Deal scores: ") == list(ended.deal_scores)
        assert (
            "Trick 8:" in result.output
            or "Trick 10:" in result.output
            or "concede" in result.output
        )
    else:
        assert isinstance(ended, MatchResult)
        assert numbers_after(result.output, "Final scores: ") == list(ended.scores)
        assert "Deal 2, dealt by" in result.output


@pytest.mark.slow
@pytest.mark.parametrize(("game", "single_deal"), GAMES)
def test_replay_seat_shows_only_what_that_seat_saw(
    tmp_path: Path, game: str, single_deal: bool
) -> None:
    path = recorded(tmp_path, game, single_deal)
    full = runner.invoke(app, ["replay", str(path)]).output
    players = record_from_json(path.read_text(encoding="utf-8")).rules.players
    for seat in range(players):
        result = runner.invoke(app, ["replay", str(path), "--seat", str(seat)])
        assert result.exit_code == 0, result.output
        assert result.output.startswith(full.splitlines()[0])
        if game == "bluff":
            record = bluff.load_record(path)
            shown = set(BLUFF_FACE.findall(result.output))
            assert shown <= bluff_seen(record, seat)
            assert set(BLUFF_FACE.findall(full)) - shown
            continue
        thousand_record = thousand.load_record(path)
        seen = set().union(
            *(thousand_seen(states, seat) for states in deal_states(thousand_record))
        )
        shown_cards = {Card.parse(text) for text in THOUSAND_FACE.findall(result.output)}
        assert shown_cards <= seen
        assert result.output.splitlines() == replay_lines(thousand_record, viewer=seat)


def test_replay_of_a_game_stopped_half_way(tmp_path: Path) -> None:
    """A record cut short (as Ctrl-C leaves one) replays up to where it stops."""
    states: list[thousand.GameState] = []
    thousand.play(
        ["greedy", "random", "random"], Rules.preset("russian"), seed=2, watch=states.append
    )
    path = tmp_path / "cut.json"
    path.write_text(thousand.Record.from_state(states[40]).to_json(), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "The record stops here" in result.output


def test_replay_html_writes_one_page(tmp_path: Path) -> None:
    path = recorded(tmp_path, "russian", False)
    page = tmp_path / "match.html"
    result = runner.invoke(app, ["replay", str(path), "--html", str(page)])
    assert result.exit_code == 0, result.output
    assert result.output == f"wrote {page}\n"
    text = page.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    assert 'id="next"' in text


@pytest.mark.parametrize(
    ("content", "options", "message"),
    [
        (None, [], "cannot read"),
        ("not json", [], "the record is not valid JSON"),
        ('{"format": "chess"}', [], "not a Thousand record"),
        ("RECORD", ["--seat", "3"], "--seat must be 0 to 2"),
    ],
)
def test_replay_errors_in_one_line(
    tmp_path: Path, content: str | None, options: list[str], message: str
) -> None:
    path = tmp_path / "record.json"
    if content == "RECORD":
        path = recorded(tmp_path, "russian", True)
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path), *options])
    assert result.exit_code == 2
    assert message in result.output
    assert result.output.count("\n") == 1


@pytest.mark.slow
def test_installed_entry_point_replays_as_one_seat(tmp_path: Path) -> None:
    path = recorded(tmp_path, "polish", True)
    done = subprocess.run(
        [*installed_command(), "replay", str(path), "--seat", "1"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines == replay_lines(thousand.load_record(path), viewer=1)


def test_replay_of_a_match_with_thrown_in_deals(tmp_path: Path) -> None:
    rules = attrs.evolve(Rules.preset("russian-4"), redeal_weak_hand=35, max_deals=10)
    outcome = thousand.play(["greedy"] * 4, rules, seed=3)
    path = tmp_path / "record.json"
    path.write_text(outcome.record.to_json(), encoding="utf-8")
    final = thousand.replay(thousand.load_record(path))
    assert any(deal.thrown_in for deal in final.deals)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert result.output.count("The deal is thrown in: ") == sum(
        deal.thrown_in is not None for deal in final.deals
    )
    assert result.output.count(" sits out this deal.") == len(final.deals)
    assert numbers_after(result.output, "Final scores: ") == list(final.scores)
    page = tmp_path / "match.html"
    result = runner.invoke(app, ["replay", str(path), "--html", str(page)])
    assert result.exit_code == 0, result.output
    assert "The deal is thrown in: " in page.read_text(encoding="utf-8")
