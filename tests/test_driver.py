"""The match driver with players in this process: faults under each policy, statuses and scores,
determinism, outcomes as JSON, names, errors, and observations that survive a JSON round trip."""

from __future__ import annotations

import itertools
import json
import random
import signal
import threading
import time
from collections.abc import Callable
from typing import Any, NamedTuple

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import thousand
from thousand import (
    BotSpecError,
    Fault,
    Observation,
    Outcome,
    Pass,
    PlayerError,
    Rules,
    SeatedPlayer,
    SeatError,
    Status,
    bluff,
    observe,
    parse_action,
)
from thousand.bots import GreedyPlayer, RandomPlayer
from thousand.players import StopMatch
from thousand.table.driver import player_seed

from .strategies import PRESET_NAMES, VARIANTS, deals, playouts, presets, scaled, seeded_playout

RUSSIAN = Rules.preset("russian")
POLISH = Rules.preset("polish")
POLISH_2P = Rules.preset("polish-2p")
BLUFF = bluff.Rules(players=4)
FAULTY = 1
"""The seat of the misbehaving player in these tests."""


class Game(NamedTuple):
    """A kind of match to play: its rules, whether it is a single Thousand deal, and the
    decision of the faulty player at which it misbehaves (late enough to be mid-match)."""

    name: str
    rules: Rules | bluff.Rules
    single_deal: bool
    at: int


GAMES = [
    Game("match", RUSSIAN, False, 40),
    Game("deal", RUSSIAN, True, 2),
    Game("bluff", BLUFF, False, 3),
]


# Players -------------------------------------------------------------------------------------


class Probe(SeatedPlayer):
    """Plays random legal actions and remembers what it was given: observations, the state of
    its generator at the start, and what the end hook received."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[Any] = []
        self.ended: list[Outcome | None] = []
        self.start_state: object = None

    def start(self, seat: int, rules: Any, rng: random.Random) -> None:
        super().start(seat, rules, rng)
        self.start_state = rng.getstate()

    def act(self, observation: Any) -> object:
        self.seen.append(observation)
        return self.rng.choice(observation.legal_actions)

    def end(self, outcome: Outcome | None) -> None:
        self.ended.append(outcome)


class Misbehaving(Probe):
    """A probe that does ``misdeed`` at its decision ``at`` (counted from 0), and at every later
    one too when ``every``."""

    def __init__(self, misdeed: Callable[[Any], object], at: int, *, every: bool = False) -> None:
        super().__init__()
        self.misdeed = misdeed
        self.at = at
        self.every = every

    def act(self, observation: Any) -> object:
        self.seen.append(observation)
        decision = len(self.seen) - 1
        if decision == self.at or (self.every and decision > self.at):
            return self.misdeed(observation)
        return self.rng.choice(observation.legal_actions)


class FailsToStart(Probe):
    """A probe whose start hook raises."""

    def start(self, seat: int, rules: Any, rng: random.Random) -> None:
        raise OSError("no table for me")


def raises(observation: Any) -> object:
    raise RuntimeError("the bot broke")


def sleeps(observation: Any) -> object:
    time.sleep(5)
    return observation.legal_actions[0]


def illegal(observation: Any) -> object:
    """A well-formed action of the observed game that is not legal now."""
    candidates: list[object]
    if isinstance(observation, Observation):
        candidates = [Pass(), parse_action("play AS"), parse_action("take 1")]
    else:
        candidates = [bluff.Play(bluff.Card("77")), bluff.Challenge(), bluff.Believe()]
    return next(action for action in candidates if action not in observation.legal_actions)


class Misdeed(NamedTuple):
    act: Callable[[Any], object]
    status: Status
    options: dict[str, Any]
    detail: str
    """Text the fault's detail contains."""


MISDEEDS = {
    "raises": Misdeed(raises, Status.ERROR, {}, "raised RuntimeError: the bot broke"),
    # Interrupted at the limit: an answer that came late would say "took 5.0... s, more than".
    "sleeps": Misdeed(sleeps, Status.TIMEOUT, {"time_limit": 0.5}, "took more than 0.500 s"),
    "illegal": Misdeed(illegal, Status.ILLEGAL, {}, "not one of its legal actions"),
    "text": Misdeed(
        lambda observation: str(observation.legal_actions[0]),
        Status.ILLEGAL,
        {},
        "(text, not an action)",
    ),
    "number": Misdeed(lambda observation: 42, Status.ILLEGAL, {}, "answered 42,"),
    "none": Misdeed(lambda observation: None, Status.ILLEGAL, {}, "answered None,"),
    "list": Misdeed(lambda observation: [1, 2], Status.ILLEGAL, {}, "answered [1, 2],"),
}


# Helpers -------------------------------------------------------------------------------------


def lineup(game: Game, faulty: Any) -> list[Any]:
    """Random bots in every seat but the faulty one."""
    players: list[Any] = [RandomPlayer() for _ in range(game.rules.players)]
    players[FAULTY] = faulty
    return players


def run(game: Game, players: list[Any], seed: int = 2, **options: Any) -> Outcome:
    return thousand.play(players, game.rules, seed=seed, single_deal=game.single_deal, **options)


def final_state(outcome: Outcome) -> Any:
    """The state the outcome's record replays to."""
    if isinstance(outcome.record, bluff.Record):
        return bluff.replay(outcome.record)
    return thousand.replay(outcome.record)


def recorded_actions(record: Any) -> list[tuple[int, Any]]:
    """Every action of a record of either game, in order."""
    if isinstance(record, bluff.Record):
        return list(record.actions)
    return [pair for deal in record.deals for pair in deal.actions]


def actions_by_seat(record: Any, players: int) -> list[int]:
    counts = [0] * players
    for seat, _ in recorded_actions(record):
        counts[seat] += 1
    return counts


def expected_places(scores: tuple[int, ...], forfeited: int) -> tuple[int, ...]:
    """The forfeiting seat last; the others ranked by score, ties sharing a place."""
    others = [score for seat, score in enumerate(scores) if seat != forfeited]
    return tuple(
        len(scores) if seat == forfeited else 1 + sum(other > score for other in others)
        for seat, score in enumerate(scores)
    )


def forfeit_score(state: thousand.GameState, seat: int) -> int:
    """What a seat forfeiting a single deal in ``state`` scores: minus the larger of 120 and the
    contract, or its bid while it holds the highest bid."""
    stake = state.contract or 0
    if state.bidder == seat:
        stake = max(stake, state.bid)
    return -max(120, stake)


def json_round_trip(data: Any) -> Any:
    return json.loads(json.dumps(data))


# Faults under each policy --------------------------------------------------------------------


@pytest.mark.parametrize("misdeed", list(MISDEEDS))
@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_forfeit_ends_the_match_at_the_fault(game: Game, misdeed: str) -> None:
    """Under forfeit the match stops at the first fault, the faulty seat is ranked last with the
    forfeit score, and the fault holds the observation the bot was given."""
    spec = MISDEEDS[misdeed]
    bot = Misbehaving(spec.act, game.at)
    outcome = run(game, lineup(game, bot), **spec.options)
    players = game.rules.players
    assert outcome.forfeited == FAULTY
    assert outcome.result is None
    assert outcome.statuses == tuple(
        spec.status if seat == FAULTY else Status.OK for seat in range(players)
    )
    (fault,) = outcome.faults
    assert (fault.seat, fault.status) == (FAULTY, spec.status)
    assert spec.detail in fault.detail
    assert "\n" not in fault.detail
    assert fault.observation is bot.seen[game.at]
    assert outcome.decisions[FAULTY] == game.at + 1
    assert outcome.substitutions == (0,) * players
    assert bot.ended == [outcome]
    # The record stops right before the faulty decision.
    state = final_state(outcome)
    assert state.current_player == FAULTY
    assert fault.decision == len(recorded_actions(outcome.record))
    assert observe_any(state, FAULTY) == fault.observation
    if game.name == "deal":
        assert outcome.scores == tuple(
            forfeit_score(state, seat) if seat == FAULTY else 0 for seat in range(players)
        )
    elif game.name == "match":
        assert outcome.scores == state.scores
        assert any(outcome.scores), "the fault should come after some deals were scored"
    else:
        assert outcome.scores == tuple(
            -len(BLUFF.deck) if seat == FAULTY else -len(hand)
            for seat, hand in enumerate(state.hands)
        )
    assert outcome.places == expected_places(outcome.scores, FAULTY)
    assert outcome.winners == tuple(seat for seat in range(players) if outcome.places[seat] == 1)


def observe_any(state: Any, seat: int) -> Any:
    """The observation of a seat in a state of either game."""
    if isinstance(state, bluff.State):
        return bluff.observe(state, seat)
    return observe(state, seat)


@pytest.mark.slow
@pytest.mark.parametrize("misdeed", list(MISDEEDS))
@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_substitute_plays_on_after_a_fault(game: Game, misdeed: str) -> None:
    """Under substitute the match completes, the fault is recorded and counted, one action is
    played for the faulty seat, and the bot is asked again afterwards."""
    spec = MISDEEDS[misdeed]
    bot = Misbehaving(spec.act, game.at)
    outcome = run(game, lineup(game, bot), on_fault="substitute", **spec.options)
    players = game.rules.players
    state = final_state(outcome)
    assert state.is_over
    assert outcome.result is not None
    assert outcome.result == state.result
    assert outcome.forfeited is None
    assert outcome.statuses[FAULTY] is spec.status
    assert all(outcome.statuses[seat] is Status.OK for seat in range(players) if seat != FAULTY)
    (fault,) = outcome.faults
    assert (fault.seat, fault.status) == (FAULTY, spec.status)
    assert spec.detail in fault.detail
    assert fault.observation is bot.seen[game.at]
    assert outcome.substitutions == tuple(int(seat == FAULTY) for seat in range(players))
    # Every turn of every seat was asked of its bot, the faulty one included.
    assert outcome.decisions == tuple(actions_by_seat(outcome.record, players))
    assert len(bot.seen) == outcome.decisions[FAULTY] > game.at + 1
    assert bot.ended == [outcome]


@pytest.mark.parametrize("misdeed", list(MISDEEDS))
@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_raise_policy_raises_player_error(game: Game, misdeed: str) -> None:
    """Under raise the first fault raises PlayerError carrying the fault, and every player's end
    hook is told the match was interrupted."""
    spec = MISDEEDS[misdeed]
    bot = Misbehaving(spec.act, game.at)
    players = lineup(game, bot)
    players[0] = other = Probe()
    with pytest.raises(PlayerError) as caught:
        run(game, players, on_fault="raise", **spec.options)
    fault = caught.value.fault
    assert isinstance(fault, Fault)
    assert (fault.seat, fault.status) == (FAULTY, spec.status)
    assert spec.detail in fault.detail
    assert str(caught.value) == str(fault)
    assert fault.observation is bot.seen[game.at]
    assert bot.ended == [None]
    assert other.ended == [None]


def test_player_error_is_caused_by_the_bots_exception() -> None:
    """Under raise, the exception a bot raised is the PlayerError's cause, and the fault keeps
    its traceback from the bot's own frame to its raise, without the driver's frames."""
    game = GAMES[1]
    bot = Misbehaving(raises, game.at)
    with pytest.raises(PlayerError) as caught:
        run(game, lineup(game, bot), on_fault="raise")
    cause = caught.value.__cause__
    assert isinstance(cause, RuntimeError)
    assert str(cause) == "the bot broke"
    text = caught.value.fault.traceback
    line = raises.__code__.co_firstlineno + 1
    lines = text.splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert lines[1].startswith(f'  File "{__file__}", line ')  # Misbehaving.act, no driver
    assert lines[-3:] == [
        f'  File "{__file__}", line {line}, in raises',
        '    raise RuntimeError("the bot broke")',
        "RuntimeError: the bot broke",
    ]


def test_a_start_that_fails_is_the_cause_under_raise() -> None:
    """A failing start hook's exception is the PlayerError's cause, its traceback kept."""
    with pytest.raises(PlayerError) as caught:
        run(GAMES[0], lineup(GAMES[0], FailsToStart()), on_fault="raise")
    assert isinstance(caught.value.__cause__, OSError)
    start = FailsToStart.start.__code__.co_firstlineno + 1
    assert f'File "{__file__}", line {start}, in start' in caught.value.fault.traceback


def test_faults_keep_the_traceback_of_what_the_bot_raised() -> None:
    """Under the other policies too, each error fault keeps its traceback; an illegal answer
    has none."""
    game = GAMES[1]
    outcome = run(game, lineup(game, Misbehaving(raises, game.at)), on_fault="substitute")
    assert outcome.faults[0].traceback.endswith("RuntimeError: the bot broke\n")
    outcome = run(game, lineup(game, Misbehaving(illegal, game.at)), on_fault="substitute")
    assert outcome.faults[0].traceback == ""


class Clock:
    """A stand-in for the driver's clock, moved on by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        return self.now


@pytest.mark.parametrize("policy", ["forfeit", "substitute", "raise"])
def test_time_quota_is_enforced_over_the_match(
    policy: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot that spends its match quota bit by bit (30 s a decision by the driver's clock, here
    a stand-in, against a quota of 100 s) is given only what is left of its quota for each
    decision, times out on the fourth, and is not asked again once the quota is used up."""
    game = GAMES[1]
    clock = Clock()
    monkeypatch.setattr(thousand.table.driver, "time", clock)
    given: list[float] = []

    def slow(observation: Any) -> object:
        given.append(signal.getitimer(signal.ITIMER_REAL)[0])
        clock.now += 30.0
        return bot.rng.choice(observation.legal_actions)

    bot = Misbehaving(slow, 0, every=True)
    if policy == "raise":
        with pytest.raises(PlayerError) as caught:
            run(game, lineup(game, bot), time_quota=100.0, on_fault=policy)
        fault = caught.value.fault
        assert isinstance(fault, Fault)
        assert fault.status is Status.TIMEOUT
        assert fault.observation is bot.seen[-1]
        return
    outcome = run(game, lineup(game, bot), time_quota=100.0, on_fault=policy)
    assert outcome.statuses[FAULTY] is Status.TIMEOUT
    assert outcome.statuses.count(Status.OK) == 2
    first = outcome.faults[0]
    assert first.status is Status.TIMEOUT
    assert first.observation is bot.seen[-1]
    assert len(bot.seen) == 4
    # In the main thread, the alarm that interrupts a bot is set to what is left of the quota.
    assert given == pytest.approx([100.0, 70.0, 40.0, 10.0], abs=5)
    assert outcome.think_time[FAULTY] == 120.0
    if policy == "forfeit":
        assert outcome.forfeited == FAULTY
        assert len(outcome.faults) == 1
    else:
        assert outcome.result is not None
        assert len(outcome.faults) == 1
        assert "quota" in first.detail
        assert outcome.decisions[FAULTY] == len(bot.seen)
        assert outcome.substitutions[FAULTY] >= 1


def test_a_bot_still_thinking_when_its_quota_runs_out_is_interrupted() -> None:
    """In the main thread the driver does not wait for a bot past its quota."""
    woke: list[bool] = []

    def dreams(observation: Any) -> object:
        time.sleep(60)
        woke.append(True)
        return observation.legal_actions[0]

    outcome = run(GAMES[1], lineup(GAMES[1], Misbehaving(dreams, 0)), time_quota=0.1)
    assert outcome.statuses[FAULTY] is Status.TIMEOUT
    assert "used up its time quota of 0.100 s" in outcome.faults[0].detail
    assert woke == []


@pytest.mark.parametrize("policy", ["forfeit", "substitute"])
@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_a_player_whose_start_fails(game: Game, policy: str) -> None:
    """A player whose start hook raises is at fault before any decision: under forfeit the match
    ends unplayed, under substitute the driver plays every one of its turns."""
    bot = FailsToStart()
    outcome = run(game, lineup(game, bot), on_fault=policy)
    players = game.rules.players
    (fault,) = outcome.faults
    assert (fault.seat, fault.status, fault.decision) == (FAULTY, Status.ERROR, 0)
    assert fault.detail == "failed to start: raised OSError: no table for me"
    assert outcome.statuses[FAULTY] is Status.ERROR
    assert outcome.decisions[FAULTY] == 0
    assert bot.seen == []
    assert bot.ended == [outcome]
    if policy == "forfeit":
        assert outcome.forfeited == FAULTY
        assert recorded_actions(outcome.record) == []
        assert outcome.places[FAULTY] == players
    else:
        assert outcome.result is not None
        counts = actions_by_seat(outcome.record, players)
        assert outcome.substitutions[FAULTY] == counts[FAULTY] > 0
        assert outcome.decisions == tuple(0 if s == FAULTY else counts[s] for s in range(players))


def test_a_player_whose_start_fails_under_raise() -> None:
    """Under raise a failing start hook raises PlayerError before any decision."""
    game = GAMES[0]
    other = Probe()
    players = lineup(game, FailsToStart())
    players[2] = other
    with pytest.raises(PlayerError, match="failed to start") as caught:
        run(game, players, on_fault="raise")
    assert isinstance(caught.value.fault, Fault)
    assert caught.value.fault.seat == FAULTY
    assert other.seen == []
    assert other.ended == [None]


@pytest.mark.parametrize(
    ("rules", "seats"), [(RUSSIAN, (0, 1, 2)), (POLISH, (0, 1, 2)), (POLISH_2P, (0, 1))]
)
def test_forfeit_scores_of_a_single_deal(rules: Rules, seats: tuple[int, ...]) -> None:
    """A seat forfeiting a single deal at any point scores minus the larger of 120 and the
    contract (or its bid while it holds the highest bid); the others score 0 and share first
    place."""
    phases = set()
    stakes = set()
    for seat in seats:
        for at in range(12):
            bot = Misbehaving(raises, at)
            players: list[Any] = [GreedyPlayer() for _ in seats]
            players[seat] = bot
            outcome = thousand.play(players, rules, seed=at, single_deal=True)
            if outcome.forfeited is None:
                continue  # the deal ended before this bot's decision ``at``
            state = final_state(outcome)
            phases.add(state.phase)
            stakes.add(-forfeit_score(state, seat))
            assert outcome.scores == tuple(
                forfeit_score(state, seat) if other == seat else 0 for other in seats
            )
            assert outcome.places == tuple(len(seats) if other == seat else 1 for other in seats)
    assert {thousand.Phase.AUCTION, thousand.Phase.PLAY} <= phases
    assert len(stakes) > 1, "some forfeits should cost more than 120"


def test_statuses_report_the_first_fault_of_each_seat() -> None:
    """Under substitute every fault is recorded in order, and a seat's status is that of its
    first fault."""
    answers = iter(["illegal", "text"])

    def worse_and_worse(observation: Any) -> object:
        answer = next(answers, "raise")
        if answer == "illegal":
            return illegal(observation)
        if answer == "text":
            return "garbage"
        raise ValueError("now it raises")

    bot = Misbehaving(worse_and_worse, 1, every=True)
    outcome = run(GAMES[1], lineup(GAMES[1], bot), on_fault="substitute")
    statuses = [fault.status for fault in outcome.faults]
    assert statuses[:3] == [Status.ILLEGAL, Status.ILLEGAL, Status.ERROR]
    assert set(statuses[3:]) <= {Status.ERROR}
    assert outcome.statuses[FAULTY] is Status.ILLEGAL
    assert len(outcome.faults) == outcome.substitutions[FAULTY] == len(bot.seen) - 1
    assert [fault.observation for fault in outcome.faults] == bot.seen[1:]
    assert all(
        fault.observation is seen for fault, seen in zip(outcome.faults, bot.seen[1:], strict=True)
    )


def test_fault_decision_counts_the_actions_before_it() -> None:
    """Each fault's decision number is how many actions of the match came before it, for every
    fault of a match played on under substitute."""
    bot = Misbehaving(lambda observation: "garbage", 0, every=True)
    bot.misdeed = lambda observation: (
        "garbage" if len(bot.seen) % 3 == 1 else bot.rng.choice(observation.legal_actions)
    )
    outcome = run(GAMES[1], lineup(GAMES[1], bot), on_fault="substitute")
    assert len(outcome.faults) >= 2
    # In a single deal the history of an observation holds every action played before it.
    assert [fault.decision for fault in outcome.faults] == [
        len(fault.observation.history) for fault in outcome.faults
    ]


class _Unequal:
    """Garbage that cannot even be compared with an action."""

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("do not compare me")

    __hash__ = object.__hash__


class _Unhashable:
    """Garbage whose hash raises something other than TypeError."""

    def __hash__(self) -> int:
        raise RuntimeError("do not hash me")


class _Unprintable:
    """Garbage whose repr raises."""

    def __repr__(self) -> str:
        raise RuntimeError("do not show me")


@pytest.mark.parametrize("garbage", [_Unequal, _Unhashable, _Unprintable])
def test_hostile_garbage_is_an_illegal_answer(garbage: type) -> None:
    """An answer that raises when compared, hashed or shown is an illegal answer, not a crash of
    the driver."""
    bot = Misbehaving(lambda observation: garbage(), 0)
    outcome = run(GAMES[1], lineup(GAMES[1], bot))
    assert outcome.statuses[FAULTY] is Status.ILLEGAL


def test_a_bot_outside_the_main_thread_is_timed_when_it_answers() -> None:
    """Outside the main thread a slow bot is not interrupted, but its answer is refused as a
    timeout once it comes."""
    finished = []

    def slow(observation: Any) -> object:
        time.sleep(0.15)
        finished.append(True)
        return observation.legal_actions[0]

    bot = Misbehaving(slow, 0)
    results: list[Outcome] = []
    thread = threading.Thread(
        target=lambda: results.append(run(GAMES[1], lineup(GAMES[1], bot), time_limit=0.05))
    )
    thread.start()
    thread.join(10)
    (outcome,) = results
    assert finished == [True]
    assert outcome.statuses[FAULTY] is Status.TIMEOUT
    assert "more than 0.050 s" in outcome.faults[0].detail
    assert outcome.think_time[FAULTY] >= 0.15


def test_the_alarm_is_put_back_after_a_timed_match() -> None:
    """A timed match in the main thread leaves the SIGALRM handler and timer as it found them."""

    def handler(signum: int, frame: object) -> None:
        raise AssertionError("the driver's alarm leaked")

    previous = signal.signal(signal.SIGALRM, handler)
    try:
        outcome = run(GAMES[1], lineup(GAMES[1], Misbehaving(sleeps, 1)), time_limit=0.05)
        assert outcome.statuses[FAULTY] is Status.TIMEOUT
        assert signal.getsignal(signal.SIGALRM) is handler
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    finally:
        signal.signal(signal.SIGALRM, previous)


def test_a_quick_bot_under_a_time_limit_is_not_at_fault() -> None:
    """Bots well within the time limit and the quota play a whole match without fault."""
    outcome = run(GAMES[0], ["greedy", "random", "greedy"], time_limit=0.5, time_quota=30)
    assert outcome.statuses == (Status.OK,) * 3
    assert outcome.faults == ()
    assert outcome.result is not None


# Determinism ---------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("bot", ["random", "greedy"])
@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_same_seed_same_match(game: Game, bot: str) -> None:
    """The same seed and the same bots give the identical record and outcome, whether the bots
    are given as specs or as objects."""
    first = run(game, [bot] * game.rules.players, seed=11)
    second = run(game, [bot] * game.rules.players, seed=11)
    cls = thousand.bots.BUILTIN[bot]
    third = run(game, [cls() for _ in range(game.rules.players)], seed=11)
    assert first.record == second.record == third.record
    assert first.record.to_dict() == second.record.to_dict()
    assert first == second
    assert (first.scores, first.places, first.decisions) == (
        third.scores,
        third.places,
        third.decisions,
    )
    assert first.statuses == (Status.OK,) * game.rules.players


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_different_seeds_give_different_matches(game: Game) -> None:
    """Different seeds deal and play differently."""
    records = {json.dumps(run(game, ["random"] * game.rules.players, seed=seed).record.to_dict())
               for seed in range(4)}  # fmt: skip
    assert len(records) == 4


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_player_seeds_seed_each_players_generator(game: Game) -> None:
    """Each player's generator is seeded with player_seed(seed, seat), or with the given
    player_seeds; those change the play but not the cards dealt."""
    seats = game.rules.players
    probes = [Probe() for _ in range(seats)]
    default = run(game, probes, seed=5)
    for seat, probe in enumerate(probes):
        assert probe.start_state == random.Random(player_seed(5, seat)).getstate()
    assert len({player_seed(5, seat) for seat in range(seats)} | {player_seed(6, 0)}) == seats + 1
    own = [1000 + seat for seat in range(seats)]
    probes = [Probe() for _ in range(seats)]
    chosen = run(game, probes, seed=5, player_seeds=own)
    for seat, probe in enumerate(probes):
        assert probe.start_state == random.Random(own[seat]).getstate()
    again = run(game, [Probe() for _ in range(seats)], seed=5, player_seeds=own)
    assert chosen.record == again.record
    assert chosen.record != default.record
    assert default.record.seed == chosen.record.seed
    if isinstance(default.record, thousand.Record):
        assert isinstance(chosen.record, thousand.Record)
        assert default.record.deals[0].layout == chosen.record.deals[0].layout
    with pytest.raises(SeatError):
        run(game, ["random"] * seats, player_seeds=own[:-1])


@pytest.mark.slow
def test_substitutions_are_deterministic() -> None:
    """Actions played for a faulty seat come from the match seed: replaying the same faulty
    match gives the same record."""
    records = [
        run(GAMES[0], lineup(GAMES[0], FailsToStart()), on_fault="substitute").record
        for _ in range(2)
    ]
    assert records[0] == records[1]
    other = run(GAMES[0], lineup(GAMES[0], FailsToStart()), seed=8, on_fault="substitute")
    assert other.record != records[0]


# Hooks ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_end_hook_gets_the_outcome(game: Game) -> None:
    """Every player's end hook receives the outcome that play returns, and an end hook that
    raises is ignored."""

    class BadEnd(Probe):
        def end(self, outcome: Outcome | None) -> None:
            super().end(outcome)
            raise RuntimeError("end failed")

    probes = [BadEnd() if seat % 2 else Probe() for seat in range(game.rules.players)]
    outcome = run(game, probes)
    for probe in probes:
        assert len(probe.ended) == 1
        assert probe.ended[0] is outcome
    assert outcome.statuses == (Status.OK,) * game.rules.players


def ctrl_c(observation: Any) -> object:
    """Ctrl-C pressed while the bot thinks: a real SIGINT to this process."""
    signal.raise_signal(signal.SIGINT)
    raise AssertionError("SIGINT did not interrupt")


@pytest.mark.parametrize("timed", [False, True])
@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_ctrl_c_propagates_after_ending_with_none(game: Game, timed: bool) -> None:
    """Ctrl-C while a bot thinks mid-match is not the bot's fault: the KeyboardInterrupt
    propagates, after every player's end hook was called with None."""
    bot = Misbehaving(ctrl_c, game.at)
    players = lineup(game, bot)
    players[0] = other = Probe()
    options: dict[str, Any] = {"time_limit": 5.0} if timed else {}
    with pytest.raises(KeyboardInterrupt):
        run(game, players, on_fault="substitute", **options)
    assert len(bot.seen) == game.at + 1
    assert other.seen
    assert bot.ended == [None]
    assert other.ended == [None]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def interrupts_itself(observation: Any) -> object:
    raise KeyboardInterrupt


class InterruptsAtStart(Probe):
    """A probe that raises KeyboardInterrupt itself when the match starts."""

    def start(self, seat: int, rules: Any, rng: random.Random) -> None:
        super().start(seat, rules, rng)
        raise KeyboardInterrupt


@pytest.mark.parametrize("where", ["act", "timed act", "start"])
def test_a_bots_own_keyboard_interrupt_is_its_fault(where: str) -> None:
    """A KeyboardInterrupt that a bot raises itself, with no Ctrl-C pressed, is its error like
    any other exception: the match goes on without it."""
    game = GAMES[1]
    bot = InterruptsAtStart() if where == "start" else Misbehaving(interrupts_itself, game.at)
    options: dict[str, Any] = {"time_limit": 5.0} if where == "timed act" else {}
    outcome = run(game, lineup(game, bot), on_fault="substitute", **options)
    (fault,) = outcome.faults
    assert (fault.seat, fault.status) == (FAULTY, Status.ERROR)
    assert fault.detail.endswith("raised KeyboardInterrupt: KeyboardInterrupt")
    assert outcome.result is not None
    assert bot.ended == [outcome]


def test_a_bot_made_from_a_spec_that_interrupts_itself_fails_to_start() -> None:
    """A bot whose making raises KeyboardInterrupt (no Ctrl-C pressed) fails to start."""
    players = ["random", "tests.bots.cheating_bots:InterruptedWhenMade", "random"]
    outcome = run(GAMES[1], players)
    (fault,) = outcome.faults
    assert (fault.seat, fault.status, fault.decision) == (1, Status.ERROR, 0)
    assert fault.detail == "failed to start: raised KeyboardInterrupt: KeyboardInterrupt"


def test_a_bots_keyboard_interrupt_outside_the_main_thread_is_its_fault() -> None:
    """Outside the main thread, where no Ctrl-C can raise one, a KeyboardInterrupt from a bot is
    its fault."""
    game = GAMES[1]
    results: list[Outcome] = []
    bot = Misbehaving(interrupts_itself, game.at)
    thread = threading.Thread(target=lambda: results.append(run(game, lineup(game, bot))))
    thread.start()
    thread.join(30)
    (outcome,) = results
    assert outcome.statuses[FAULTY] is Status.ERROR
    assert outcome.forfeited == FAULTY


@pytest.mark.parametrize("error", [SystemExit, KeyboardInterrupt])
def test_an_exit_or_interrupt_in_end_is_ignored(error: type[BaseException]) -> None:
    """``sys.exit()`` or a KeyboardInterrupt raised by a bot's end hook is ignored, as every
    exception from end is: the outcome is returned, and the other bots are ended too."""

    class Leaves(Probe):
        def end(self, outcome: Outcome | None) -> None:
            super().end(outcome)
            raise error(0)

    game = GAMES[1]
    bot = Leaves()
    players = lineup(game, bot)
    players[2] = other = Probe()
    outcome = run(game, players)
    assert outcome.statuses == (Status.OK,) * 3
    assert bot.ended == [outcome]
    assert other.ended == [outcome]


def test_a_player_may_stop_the_match_for_its_user() -> None:
    """StopMatch (a person quitting at the terminal) stops the match as Ctrl-C does, after every
    player's end hook was called with None."""

    def quits(observation: Any) -> object:
        raise StopMatch

    game = GAMES[0]
    bot = Misbehaving(quits, game.at)
    players = lineup(game, bot)
    players[0] = other = Probe()
    with pytest.raises(StopMatch):
        run(game, players, on_fault="substitute")
    assert bot.ended == [None]
    assert other.ended == [None]


# Watching ------------------------------------------------------------------------------------


def _steps(states: list[Any]) -> list[tuple[int, Any]]:
    """The action between each watched state and the next, checked to be the one applied."""
    steps = []
    for before, after in itertools.pairwise(states):
        matches = [action for action in before.legal_actions() if before.apply(action) == after]
        assert len(matches) == 1
        steps.append((before.player, matches[0]))
    return steps


@pytest.mark.slow
@pytest.mark.parametrize("timed", [False, True])
@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_watch_sees_every_state_in_order(game: Game, timed: bool) -> None:
    """The watcher gets the start state, then the state after each action, substituted ones
    included: the record's actions are exactly the steps between them."""
    states: list[Any] = []
    bot = Misbehaving(illegal, 1)
    options: dict[str, Any] = {"time_limit": 5.0} if timed else {}
    outcome = run(game, lineup(game, bot), on_fault="substitute", watch=states.append, **options)
    assert outcome.substitutions[FAULTY] == 1
    assert states[-1].result == outcome.result
    assert _steps(states) == recorded_actions(outcome.record)


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_watch_keeps_the_game_so_far_when_interrupted(game: Game) -> None:
    """After Ctrl-C the last watched state records the game up to the interrupt, and that
    record replays."""
    states: list[Any] = []
    bot = Misbehaving(ctrl_c, game.at)
    with pytest.raises(KeyboardInterrupt):
        run(game, lineup(game, bot), watch=states.append)
    last = states[-1]
    assert last.player == FAULTY
    assert not last.is_over
    if isinstance(last, bluff.State):
        replayed: Any = bluff.replay(
            bluff.Record.from_json(bluff.Record.from_state(last).to_json())
        )
    else:
        replayed = thousand.replay(
            thousand.Record.from_json(thousand.Record.from_state(last).to_json())
        )
    assert replayed == last


# Outcomes ------------------------------------------------------------------------------------


OUTCOMES: dict[str, Callable[[], Outcome]] = {
    "match": lambda: run(GAMES[0], ["greedy", "random", "random"]),
    "deal": lambda: run(GAMES[1], ["greedy", "random", "greedy"]),
    "bluff": lambda: run(GAMES[2], ["random"] * 4),
    "forfeited": lambda: run(GAMES[0], lineup(GAMES[0], Misbehaving(raises, GAMES[0].at))),
    "forfeited-bluff": lambda: run(GAMES[2], lineup(GAMES[2], Misbehaving(illegal, 2))),
    "substituted": lambda: run(
        GAMES[1], lineup(GAMES[1], Misbehaving(illegal, 0, every=True)), on_fault="substitute"
    ),
}
"""Outcomes of every kind, made when a test asks for them."""


@pytest.mark.parametrize("kind", list(OUTCOMES))
def test_outcome_json_round_trip(kind: str) -> None:
    """Outcome.from_dict rebuilds an equal outcome from the JSON text of to_dict: record,
    result, faults with their observations, and think times included."""
    outcome = OUTCOMES[kind]()
    data = outcome.to_dict()
    text = json.dumps(data)
    again = Outcome.from_dict(json.loads(text))
    assert again == outcome
    assert again.record == outcome.record
    assert again.result == outcome.result
    assert again.think_time == outcome.think_time
    assert [fault.observation for fault in again.faults] == [
        fault.observation for fault in outcome.faults
    ]
    assert again.to_dict() == json_round_trip(data)
    assert data["game"] == ("1000?" if "bluff" in kind else "thousand")
    if kind.startswith("forfeited"):
        assert again.result is None
        assert again.forfeited == FAULTY
    if kind == "substituted":
        assert len(again.faults) > 1


def test_outcome_from_dict_refuses_unknown_games() -> None:
    """Outcome data naming no known game is refused with ValueError."""
    data = run(GAMES[2], ["random"] * 4).to_dict()
    data["game"] = "chess"
    with pytest.raises(ValueError, match="chess"):
        Outcome.from_dict(data)


def test_decisions_count_each_seats_turns() -> None:
    """Without faults, each seat is asked once per action it takes, and nothing is
    substituted."""
    for game in GAMES:
        outcome = run(game, ["random"] * game.rules.players)
        seats = game.rules.players
        assert outcome.decisions == tuple(actions_by_seat(outcome.record, seats))
        assert outcome.substitutions == (0,) * seats
        assert all(seconds >= 0 for seconds in outcome.think_time)


# Names and errors ----------------------------------------------------------------------------


def test_repeated_names_are_numbered() -> None:
    """Repeated specs and classes get numbered names in seat order; distinct ones keep theirs."""
    outcome = run(GAMES[1], ["random", "greedy", "random"])
    assert outcome.players == ("random", "greedy", "random#2")
    outcome = run(GAMES[2], ["random"] * 4)
    assert outcome.players == ("random", "random#2", "random#3", "random#4")
    outcome = run(GAMES[1], [RandomPlayer(), GreedyPlayer(), RandomPlayer()])
    assert outcome.players == ("RandomPlayer", "GreedyPlayer", "RandomPlayer#2")


@pytest.mark.parametrize(
    ("rules", "count"), [(RUSSIAN, 2), (RUSSIAN, 4), (POLISH_2P, 3), (BLUFF, 3), (BLUFF, 5)]
)
def test_wrong_number_of_players(rules: Any, count: int) -> None:
    """A lineup that does not fit the table raises SeatError, before any bot is started."""
    probes = [Probe() for _ in range(count)]
    with pytest.raises(SeatError, match=f"{rules.players} players"):
        thousand.play(probes, rules, seed=1)
    assert all(probe.ended == [] and probe.start_state is None for probe in probes)


@pytest.mark.parametrize("spec", ["nosuchbot", "", "random#2", "  "])
def test_unknown_spec(spec: str) -> None:
    """A spec naming no bot raises BotSpecError with a one-line message, and the players made
    before it are ended with None."""
    probe = Probe()
    with pytest.raises(BotSpecError) as caught:
        thousand.play([probe, spec, "random"], RUSSIAN, seed=1)
    message = str(caught.value)
    assert "\n" not in message
    assert message
    assert probe.ended == [None]


def test_other_bad_arguments() -> None:
    """A single deal of 1000? and an unknown fault policy are refused with ValueError."""
    with pytest.raises(ValueError, match="single_deal"):
        thousand.play(["random"] * 4, BLUFF, seed=1, single_deal=True)
    with pytest.raises(ValueError, match="explode"):
        thousand.play(["random"] * 3, RUSSIAN, seed=1, on_fault="explode")


# Observations through JSON -------------------------------------------------------------------


def check_round_trip(state: Any, seat: int) -> None:
    """A fresh (lazy) observation equals the one rebuilt from its JSON, with or without the
    rules, in both orders of comparison, with equal hashes and fields."""
    kind = bluff.Observation if isinstance(state, bluff.State) else Observation
    lazy = observe_any(state, seat)
    assert type(lazy) is kind
    data = json_round_trip(observe_any(state, seat).to_dict())
    assert data["rules"] == state.rules.to_dict()
    rebuilt = kind.from_dict(data)
    assert rebuilt == lazy
    assert observe_any(state, seat) == rebuilt
    assert hash(rebuilt) == hash(observe_any(state, seat))
    assert rebuilt.fields() == observe_any(state, seat).fields()
    bare = json_round_trip(observe_any(state, seat).to_dict(with_rules=False))
    assert "rules" not in bare
    assert kind.from_dict(bare, state.rules) == observe_any(state, seat)
    assert bare == {key: value for key, value in data.items() if key != "rules"}


@pytest.mark.parametrize("dealer", [1, 2])
def test_an_observation_written_before_four_seats_reads_as_today(dealer: int) -> None:
    """JSON from before four seats and house rules (no ``active``, ``sitter``,
    ``sitter_bonus``, ``bolts``, ``falls``, ``scored_deals``) reads as the same observation:
    every seat plays, clockwise from the one after the dealer, and nobody has fallen."""
    state = thousand.new_deal(RUSSIAN, seed=3, dealer=dealer)
    for seat in range(3):
        observation = state.observation(seat)
        data = json_round_trip(observation.to_dict())
        for name in ("active", "sitter", "sitter_bonus", "bolts", "falls", "scored_deals"):
            del data[name]
        older = Observation.from_dict(data)
        assert older.active == tuple((dealer + 1 + step) % 3 for step in range(3))
        assert older.falls == (0, 0, 0)
        assert older == observation


def test_data_of_only_the_fields_of_four_seats_is_refused_at_the_seat() -> None:
    """JSON holding the fields of four seats and house rules and nothing older is read as
    today's form, not an older one: the first field it lacks, the seat, is the ``KeyError``."""
    data = json_round_trip(thousand.new_deal(RUSSIAN, seed=3).observation(0).to_dict())
    names = ("active", "sitter", "sitter_bonus", "bolts", "falls", "scored_deals")
    later = {name: data[name] for name in names}
    with pytest.raises(KeyError) as error:
        Observation.from_dict(later, RUSSIAN)
    assert error.value.args == ("seat",)


@pytest.mark.parametrize("suit", ["", "SC", "CD", "s", "X", 0])
def test_an_observation_with_a_trump_that_is_no_suit_is_refused(suit: object) -> None:
    """Observation JSON whose trump is not one of S, C, D, H (or null, for none) is malformed:
    reading it raises ``ValueError``."""
    data = json_round_trip(thousand.new_deal(RUSSIAN, seed=3).observation(0).to_dict())
    data["trump"] = suit
    with pytest.raises(ValueError, match="is not a suit"):
        Observation.from_dict(data)


@pytest.mark.slow
@settings(max_examples=scaled(0.5))
@given(playouts(deals(presets())))
def test_thousand_deal_observations_survive_json(states: list[thousand.GameState]) -> None:
    """Observations of every seat through a whole deal of each preset equal their JSON round
    trip."""
    for state in states:
        for seat in range(state.rules.players):
            check_round_trip(state, seat)


@pytest.mark.slow
@settings(max_examples=scaled(0.25))
@given(st.sampled_from(sorted(VARIANTS)), st.integers(0, 2**32))
def test_thousand_match_observations_survive_json(variant: str, seed: int) -> None:
    """Observations through several deals of a match (scores, barrels, later dealers) of any
    configuration equal their JSON round trip."""
    start = thousand.new_match(VARIANTS[variant], seed=seed)
    states = seeded_playout(start, seed, max_actions=400)
    for state in states[::5]:
        for seat in range(state.rules.players):
            check_round_trip(state, seat)


def test_every_preset_is_covered() -> None:
    """The preset names the observation tests draw from are the library's presets."""
    assert Rules.preset_names() == PRESET_NAMES
    assert {RUSSIAN, POLISH, POLISH_2P} < {Rules.preset(name) for name in PRESET_NAMES}
    assert {Rules.preset(name).players for name in PRESET_NAMES} == {2, 3, 4}


@st.composite
def bluff_games(draw: st.DrawFn) -> bluff.State:
    """A new 1000? game: 2 to 6 seats, any reading of the decided rules, a seed and a dealer."""
    rules = bluff.Rules(
        players=draw(st.integers(2, 6)),
        challenge_restart=draw(st.sampled_from(bluff.ChallengeRestart)),
        empty_draw_pile=draw(st.sampled_from(bluff.EmptyDrawPile)),
        last_card_face_down=draw(st.sampled_from(bluff.LastCardFaceDown)),
    )
    seed = draw(st.integers(0, 2**32))
    return bluff.new_game(rules, seed=seed, dealer=draw(st.integers(0, rules.players - 1)))


@pytest.mark.slow
@settings(max_examples=scaled(0.25))
@given(bluff_games(), st.integers(0, 2**32))
def test_bluff_observations_survive_json(state: bluff.State, seed: int) -> None:
    """Observations of every seat through a whole 1000? game equal their JSON round trip."""
    rng = random.Random(seed)
    while True:
        for seat in range(state.rules.players):
            check_round_trip(state, seat)
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()))


def test_lazy_fields_are_computed_once() -> None:
    """A lazy observation keeps each field once read, and reading the fields in any order gives
    the same observation."""
    state = seeded_playout(thousand.new_deal(RUSSIAN, seed=3), 3, max_actions=20)[-1]
    forwards = observe(state, 0)
    first = forwards.hand
    assert forwards.hand is first
    backwards = observe(state, 0)
    values = {name: getattr(backwards, name) for name in reversed(Observation.FIELDS)}
    assert values == forwards.fields()
    assert backwards == forwards
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        forwards.hand = ()
