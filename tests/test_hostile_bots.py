"""Bots that cheat or try to break a run: look-alike actions are illegal and never reach the
record, a bot's ``sys.exit()`` or own ``KeyboardInterrupt`` is its fault, and a bot that cannot
start stops a tournament in one line before any game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import thousand
from thousand import IllegalActionError, Rules, Status, bluff, parse_action
from thousand.classic.actions import ACTION_TYPES, Bid
from thousand.common.state_base import same_value
from tournament.cli import app
from tournament.runner.journal import Journal
from tournament.runner.unit_results import STATUSES, UnitResult

from .bots.cheating_bots import EqualBid, EqualBluffPlay, EqualPlay, EqualsAll
from .test_cli import run_installed

RUSSIAN = Rules.preset("russian")
BOTS = "tests/bots/cheating_bots.py"
ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()

GAMES: dict[str, tuple[Rules | bluff.Rules, bool]] = {
    "deal": (RUSSIAN, True),
    "match": (RUSSIAN, False),
    "bluff": (bluff.Rules(players=3), False),
}


def replayed(outcome: thousand.Outcome) -> Any:
    """The final state the outcome's record replays to."""
    if isinstance(outcome.record, bluff.Record):
        return bluff.replay(outcome.record)
    return thousand.replay(outcome.record)


def recorded_actions(outcome: thousand.Outcome) -> list[object]:
    """Every action of the outcome's record, in order."""
    if isinstance(outcome.record, bluff.Record):
        return [action for _, action in outcome.record.actions]
    return [action for deal in outcome.record.deals for _, action in deal.actions]


# Look-alike actions --------------------------------------------------------------------------


CHEATS = [
    (game, cheat)
    for game in GAMES
    for cheat in ("Cheat", "Flatterer", "HollowBid")
    if (game, cheat) != ("bluff", "HollowBid")  # a bid is no 1000? action
]


@pytest.mark.parametrize("policy", ["forfeit", "substitute"])
@pytest.mark.parametrize(("game", "cheat"), CHEATS)
def test_a_look_alike_action_is_illegal(game: str, cheat: str, policy: str) -> None:
    """An answer that only claims to equal a legal action is the cheat's illegal fault; nobody
    else is at fault, and the record holds only the engine's own actions and replays."""
    rules, single_deal = GAMES[game]
    players = ["random", f"{BOTS}:{cheat}", "random"]
    outcome = thousand.play(players, rules, seed=3, single_deal=single_deal, on_fault=policy)
    assert outcome.statuses == (Status.OK, Status.ILLEGAL, Status.OK)
    assert {fault.seat for fault in outcome.faults} == {1}
    if policy == "forfeit":
        assert outcome.forfeited == 1
        assert outcome.places[1] == 3
    else:
        assert outcome.result is not None
        assert replayed(outcome).result == outcome.result
    types = (*ACTION_TYPES, *bluff.actions.ACTION_TYPES)
    assert all(type(action) in types for action in recorded_actions(outcome))


def test_a_look_alike_bid_scores_nothing() -> None:
    """A bid of 990 that claims to equal the legal bids does not win the auction."""
    players = ["greedy", f"{BOTS}:Cheat", "greedy"]
    outcome = thousand.play(players, RUSSIAN, seed=1, single_deal=True, on_fault="substitute")
    assert isinstance(outcome.result, thousand.DealResult)
    assert outcome.result.bid < 990
    assert outcome.statuses[1] is Status.ILLEGAL


@pytest.mark.parametrize("look_alike", [EqualsAll(), EqualBid(990), Bid(EqualsAll())])  # type: ignore[arg-type]
def test_the_engine_refuses_look_alikes(look_alike: object) -> None:
    """GameState.apply and is_legal compare by exact type and value: no look-alike passes."""
    state = thousand.new_deal(RUSSIAN, seed=1)
    assert not state.is_legal(look_alike)
    with pytest.raises(IllegalActionError):
        state.apply(look_alike)  # type: ignore[arg-type]


def test_the_engine_refuses_a_look_alike_card_play() -> None:
    """A look-alike play of a card not in hand is refused in the trick play of both games."""
    state = thousand.new_deal(RUSSIAN, seed=1)
    while state.phase is not thousand.Phase.PLAY:
        state = state.apply(state.legal_actions()[0])
    with pytest.raises(IllegalActionError):
        state.apply(EqualPlay(thousand.Card.parse("AH")))
    game = bluff.new_game(bluff.Rules(players=3), seed=1)
    with pytest.raises(IllegalActionError):
        game.apply(EqualBluffPlay(bluff.Card("1000")))


def test_an_equal_action_built_by_hand_is_played_as_the_engines_own() -> None:
    """An action built by hand that equals a legal one is legal; the history keeps the engine's
    own instance."""
    state = thousand.new_deal(RUSSIAN, seed=1)
    by_hand = parse_action("pass")
    after = state.apply(by_hand)
    (own,) = [action for action in state.legal_actions() if same_value(action, by_hand)]
    assert after.actions[-1][1] is own


def test_a_fault_shows_what_the_bot_sent() -> None:
    """The fault reads as the bot's answer (``bid 9999``), with the reason it is illegal; an
    answer that is no action is shown by its repr."""
    outcome = thousand.play(
        ["random", f"{BOTS}:Overbidder", "random"], RUSSIAN, seed=1, single_deal=True
    )
    (fault,) = outcome.faults
    assert fault.detail.startswith("answered bid 9999, not one of its legal actions (")
    outcome = thousand.play(
        ["random", f"{BOTS}:Flatterer", "random"], RUSSIAN, seed=1, single_deal=True
    )
    assert outcome.faults[0].detail.startswith("answered EqualsAll(), not one of")


@pytest.mark.slow
def test_an_isolated_bot_s_fault_shows_what_it_sent() -> None:
    """An isolated bot's illegal answer is shown as the text it sent."""
    outcome = thousand.play(
        ["random", f"{BOTS}:Overbidder", "random"],
        RUSSIAN,
        seed=1,
        single_deal=True,
        isolate="process",
    )
    assert outcome.faults[0].detail.startswith("answered bid 9999, not one of")


# A bot that exits ----------------------------------------------------------------------------


@pytest.mark.parametrize("time_limit", [None, 5.0])
@pytest.mark.parametrize("game", list(GAMES))
def test_sys_exit_in_a_bot_is_its_error(game: str, time_limit: float | None) -> None:
    """``sys.exit()`` in a bot's act is that bot's error fault, not the end of the program."""
    rules, single_deal = GAMES[game]
    outcome = thousand.play(
        ["random", f"{BOTS}:LateExit", "random"],
        rules,
        seed=2,
        single_deal=single_deal,
        time_limit=time_limit,
        on_fault="substitute",
    )
    assert outcome.statuses == (Status.OK, Status.ERROR, Status.OK)
    assert "raised SystemExit" in outcome.faults[0].detail


def units_and_exit_faults(out: Path, bot: str = "LateExit") -> tuple[int, int, int]:
    """The units scheduled and journalled in a tournament folder, and the error faults of the
    entrant whose spec ends with ``:bot``."""
    config = Journal.saved_config(out)
    lines = (out / "journal.jsonl").read_text(encoding="utf-8").splitlines()
    results = [UnitResult.from_dict(json.loads(line)) for line in lines]
    finished = {result.unit: result for result in results}
    entrant = next(i for i, e in enumerate(config.entrants) if e.spec.endswith(f":{bot}"))
    errors = sum(
        result.faults[seat][STATUSES.index("error")]
        for result in finished.values()
        for seat, who in enumerate(result.seating)
        if who == entrant
    )
    return len(config.units()), len(finished), errors


TOURNAMENT = ["tournament", "greedy", "random", f"{BOTS}:LateExit", "--deals", "12"]


def test_a_tournament_with_a_bot_that_exits_completes(tmp_path: Path) -> None:
    """The tournament plays on past a bot's ``sys.exit()``: the journal is full, the bot has
    error faults, and the command succeeds."""
    arguments = [*TOURNAMENT, "--workers", "1", "--no-report"]
    result = runner.invoke(app, [*arguments, "--out", str(tmp_path / "t")])
    assert result.exit_code == 0, result.output
    scheduled, journalled, errors = units_and_exit_faults(tmp_path / "t")
    assert journalled == scheduled
    assert errors > 0


@pytest.mark.slow
def test_the_program_completes_a_tournament_with_a_bot_that_exits(tmp_path: Path) -> None:
    """The same through the installed program, with worker processes."""
    arguments = [*TOURNAMENT, "--workers", "2", "--no-report"]
    result = run_installed(*arguments, "--out", str(tmp_path / "t"), cwd=ROOT)
    assert result.returncode == 0, result.stderr
    scheduled, journalled, errors = units_and_exit_faults(tmp_path / "t")
    assert journalled == scheduled
    assert errors > 0


def test_a_tournament_in_process_with_a_bot_that_exits_at_its_end_completes(
    tmp_path: Path,
) -> None:
    """With --no-isolate, a bot calling ``sys.exit(0)`` in its end hook no longer ends the
    tournament silently: the exit is ignored, as whatever end raises is, and the tournament
    prints its standings and succeeds."""
    arguments = ["tournament", "greedy", "random", f"{BOTS}:ExitsAtEnd", "--deals", "4"]
    result = runner.invoke(app, [*arguments, "--no-isolate", "--workers", "1", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert f"{BOTS}:ExitsAtEnd" in result.stdout


@pytest.mark.slow
def test_the_program_completes_a_tournament_with_a_bot_that_exits_at_its_end() -> None:
    """The same through the installed program, with worker processes."""
    arguments = ["tournament", "greedy", "random", f"{BOTS}:ExitsAtEnd", "--deals", "4"]
    result = run_installed(*arguments, "--no-isolate", "--workers", "2", cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert f"{BOTS}:ExitsAtEnd" in result.stdout


def test_a_bot_that_raises_keyboard_interrupt_itself_is_at_fault(tmp_path: Path) -> None:
    """With --no-isolate, a KeyboardInterrupt a bot raises itself (no Ctrl-C was pressed) is its
    error fault: the tournament plays every unit and succeeds."""
    out = tmp_path / "t"
    spec = "tests/bots/python_bots.py:InterruptsItself"
    arguments = ["tournament", "greedy", "random", spec, "--deals", "4", "--no-report"]
    result = runner.invoke(app, [*arguments, "--no-isolate", "--workers", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    scheduled, journalled, errors = units_and_exit_faults(out, "InterruptsItself")
    assert journalled == scheduled
    assert errors > 0


# Bots that cannot start ----------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("isolate", [False, True])
def test_a_constructor_that_raises_is_a_fault_either_way(isolate: bool) -> None:
    """A bot whose constructor raises fails to start: an error fault, whether isolated or not."""
    outcome = thousand.play(
        ["random", f"{BOTS}:BrokenInit", "random"], RUSSIAN, seed=1, isolate=isolate
    )
    assert outcome.statuses == (Status.OK, Status.ERROR, Status.OK)
    assert outcome.forfeited == 1
    assert outcome.faults[0].detail.startswith("failed to start")
    if not isolate:
        assert "RuntimeError: no cards for me" in outcome.faults[0].detail


@pytest.mark.parametrize(
    ("spec", "reason"),
    [
        (f"{BOTS}:BrokenInit", "RuntimeError: no cards for me"),
        ("cmd:/nonexistent/prog", "could not start /nonexistent/prog"),
    ],
)
def test_a_tournament_stops_in_one_line_when_a_bot_cannot_start(
    spec: str, reason: str, tmp_path: Path
) -> None:
    """Every entrant is started once before the first game: one that cannot start stops the
    tournament with one line naming it, and no tournament folder is left behind."""
    out = tmp_path / "t"
    arguments = ["tournament", "greedy", "random", spec, "--deals", "12", "--out", str(out)]
    result = runner.invoke(app, arguments)
    assert result.exit_code == 2
    (line,) = result.output.strip().splitlines()
    assert line.startswith(f"error: bot '{spec}' cannot start: ")
    assert reason in line
    assert not out.exists()


def test_a_bot_that_interrupts_itself_when_made_stops_the_tournament_in_one_line() -> None:
    """With --no-isolate, a bot whose making raises KeyboardInterrupt itself (no Ctrl-C was
    pressed) cannot start: one line names it, as for any other exception."""
    spec = f"{BOTS}:InterruptedWhenMade"
    arguments = ["tournament", "greedy", "random", spec, "--deals", "2", "--no-isolate"]
    result = runner.invoke(app, arguments)
    assert result.exit_code == 2
    (line,) = result.output.strip().splitlines()
    assert line == f"error: bot '{spec}' cannot start: KeyboardInterrupt"


@pytest.mark.slow
def test_the_program_stops_in_one_line_when_a_program_cannot_start(tmp_path: Path) -> None:
    """The installed program, given a command that does not exist, stops in one line."""
    result = run_installed("tournament", "greedy", "random", "cmd:/nonexistent/prog", cwd=ROOT)
    assert result.returncode == 2
    (line,) = result.stderr.strip().splitlines() or result.stdout.strip().splitlines()
    assert line.startswith("error: bot 'cmd:/nonexistent/prog' cannot start: could not start")


def test_a_match_with_a_bot_that_cannot_be_made_reports_its_fault() -> None:
    """``thousand match`` reports a constructor's failure as the bot's fault, no traceback."""
    result = runner.invoke(app, ["match", "random", f"{BOTS}:BrokenInit", "random", "--deal"])
    assert result.exit_code == 0, result.output
    assert "RuntimeError: no cards for me" in result.output
    assert "Traceback" not in result.output
