"""External bots: programs spoken to over JSON lines, well-behaved and hostile; what they are
told; that no process outlives its match, even when the driver is interrupted; isolation of
Python bots; and bot specs (modules, files, installed entry points, bad specs)."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import textwrap
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import attrs
import pytest

import thousand
from tests.bots.hostile_bot import STACK
from tests.support import knowable_cards, shown_talon
from thousand import (
    BotCrash,
    BotInfo,
    BotSpecError,
    Card,
    ExternalPlayer,
    Give,
    Outcome,
    PlayerError,
    Rules,
    Status,
    available_bots,
    bluff,
    load_player,
    observe,
    parse_action,
)
from thousand.bots import RandomPlayer
from thousand.table.driver import player_seed
from thousand.table.tracebacks import LONGEST, RemoteTraceback, received

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "tests" / "bots"
HOSTILE = BOTS / "hostile_bot.py"
PYTHON_BOTS = BOTS / "python_bots.py"
EXAMPLE = ROOT / "examples" / "external_bot.py"
RUSSIAN = Rules.preset("russian")
POLISH_2P = Rules.preset("polish-2p")
BLUFF = bluff.Rules(players=3)
LINUX = sys.platform.startswith("linux")
TIME_LIMIT = 0.4
"""Seconds per decision in matches with hostile bots that take too long: plenty for an honest
answer."""
CALM_LIMIT = 5.0
"""Seconds per decision where the bot's fault is not about time: an honest answer on a loaded
machine never comes near it."""


# Processes -----------------------------------------------------------------------------------


def alive(pid: int) -> bool:
    """Whether a process is running (a zombie waiting to be reaped counts as gone)."""
    stat = Path(f"/proc/{pid}/stat")
    if LINUX:
        try:
            state = stat.read_text().rpartition(")")[2].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return False
        return state not in ("Z", "X")
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def survivors(pids: list[int], within: float = 30.0) -> list[int]:
    """The processes still running once ``within`` seconds have passed (polled; returns as soon as
    none is)."""
    deadline = time.monotonic() + within
    while True:
        running = [pid for pid in pids if alive(pid)]
        if not running or time.monotonic() > deadline:
            return running
        time.sleep(0.02)


def marked_processes(marker: str) -> list[int]:
    """Running processes whose command line holds ``marker`` (Linux only; else empty)."""
    found: list[int] = []
    if not LINUX:
        return found
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if marker.encode() in cmdline and alive(int(entry.name)):
            found.append(int(entry.name))
    return found


def poll(condition: Any, within: float = 20.0) -> None:
    """Wait until ``condition()`` holds, failing after ``within`` seconds."""
    deadline = time.monotonic() + within
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"gave up waiting after {within} s")
        time.sleep(0.02)


class Hostile(NamedTuple):
    """A hostile bot program set up in a test's temporary directory."""

    spec: str
    pids: Path
    marker: str

    def pid_list(self, kind: str) -> list[int]:
        """The pids the bot wrote down: ``bot`` for itself, ``child`` for what it spawned."""
        if not self.pids.exists():
            return []
        return [
            int(line.split()[1])
            for line in self.pids.read_text().splitlines()
            if line.startswith(kind + " ")
        ]

    def all_pids(self) -> list[int]:
        return self.pid_list("bot") + self.pid_list("child")

    def misbehaved(self) -> bool:
        return self.pids.exists() and "misbehaving" in self.pids.read_text().split("\n")

    def assert_gone(self) -> None:
        """Neither the bot nor anything it spawned is still running (whatever is, is killed
        before the test fails)."""
        pids = self.all_pids()
        assert pids, "the bot never started"
        running = survivors(pids)
        running += [pid for pid in marked_processes(self.marker) if pid not in running]
        for pid in running:
            os.kill(pid, signal.SIGKILL)
        assert running == []


def hostile(tmp_path: Path, mode: str, *, after: int = 3, extra: tuple[str, ...] = ()) -> Hostile:
    marker = f"thousand-test-{uuid.uuid4().hex}"
    pids = tmp_path / f"pids-{marker}.txt"
    command = [sys.executable, str(HOSTILE), mode, "--after", str(after), "--pids", str(pids)]
    command += ["--marker", marker, *extra]
    return Hostile("cmd:" + shlex.join(command), pids, marker)


@pytest.fixture
def reap() -> Iterator[list[int]]:
    """Pids to kill after the test if they are still running (processes the test started)."""
    pids: list[int] = []
    yield pids
    for pid in pids:
        if alive(pid):
            os.kill(pid, signal.SIGKILL)


# Replaying what a seat saw -------------------------------------------------------------------


def states_before_turns(outcome: Outcome, seat: int) -> Iterator[Any]:
    """Each state, replayed from the outcome's record, in which ``seat`` was to act."""
    record = outcome.record
    if isinstance(record, bluff.Record):
        state: Any = bluff.new_game(
            record.rules, seed=record.seed, layout=record.layout, dealer=record.dealer
        )
        actions = list(record.actions)
    else:
        start = thousand.new_deal if record.single_deal else thousand.new_match
        state = start(
            record.rules,
            seed=record.seed,
            layout=record.start_layout,
            dealer=record.dealer,
            scores=record.scores,
        )
        actions = recorded_actions(record)
    for actor, action in actions:
        assert actor == state.current_player
        if actor == seat:
            yield state
        state = state.apply(action)


def recorded_actions(record: Any) -> list[tuple[int, Any]]:
    """Every action of a record of either game, in order."""
    if isinstance(record, bluff.Record):
        return list(record.actions)
    return [pair for deal in record.deals for pair in deal.actions]


def observe_any(state: Any, seat: int) -> Any:
    if isinstance(state, bluff.State):
        return bluff.observe(state, seat)
    return observe(state, seat)


def card_of(text: str) -> Card | None:
    return getattr(parse_action(text), "card", None)


def named_cards(data: dict[str, Any]) -> set[Card]:
    """Every card a Thousand observation (as JSON data) names anywhere."""
    named = {Card.parse(text) for text in data["hand"] + data["talon"] + data["set_aside"]}
    named |= {Card.parse(text) for text, _ in data["given"]}
    named |= {Card.parse(text) for _, text in data["trick"]}
    named |= {Card.parse(text) for trick in data["tricks"] for text in trick["cards"]}
    if data["received"] is not None:
        named.add(Card.parse(data["received"]))
    texts = [text for _, text in data["history"]] + data["legal_actions"]
    named |= {card for card in map(card_of, texts) if card is not None}
    return named


def check_secrets(state: thousand.GameState, seat: int, data: dict[str, Any]) -> None:
    """The observation names only cards the seat may know, and of the cards another seat holds
    only those it saw in the talon or gave that seat itself."""
    named = named_cards(data)
    assert named <= knowable_cards(state, seat)
    for other, hand in enumerate(state.hands):
        if other != seat:
            given = {
                action.card
                for actor, action in state.actions
                if actor == seat and isinstance(action, Give) and action.to == other
            }
            assert named & set(hand) <= given | shown_talon(state)


# The well-behaved example --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "others"),
    [(RUSSIAN, ["random", "greedy"]), (POLISH_2P, ["greedy"]), (BLUFF, ["greedy", "random"])],
    ids=["russian", "polish-2p", "1000?"],
)
def test_the_example_bot_plays_whole_matches(tmp_path: Path, rules: Any, others: list[str]) -> None:
    """The example external bot plays a whole match of either game without fault, and its
    process is stopped at the end."""
    example = ExternalPlayer([sys.executable, str(EXAMPLE)], log_dir=str(tmp_path))
    outcome = thousand.play([*others, example], rules, seed=4, time_limit=5)
    seat = len(others)
    assert outcome.statuses == (Status.OK,) * rules.players
    assert outcome.result is not None
    assert outcome.faults == ()
    assert outcome.decisions[seat] > 0
    assert outcome.substitutions == (0,) * rules.players
    assert example.process is None
    if isinstance(rules, Rules):
        # The example passes at every turn of an auction.
        bids = [
            action
            for actor, action in recorded_actions(outcome.record)
            if actor == seat and isinstance(action, thousand.Bid)
        ]
        assert bids == []


def test_the_example_bot_by_spec(tmp_path: Path) -> None:
    """A cmd: spec runs the example bot, named by its spec, with its log in log_dir."""
    spec = "cmd:" + shlex.join([sys.executable, str(EXAMPLE)])
    outcome = thousand.play(
        [spec, "random", spec], RUSSIAN, seed=2, single_deal=True, log_dir=str(tmp_path)
    )
    assert outcome.players == (spec, "random", spec + "#2")
    assert outcome.statuses == (Status.OK,) * 3
    assert list(tmp_path.glob("*.log"))


# Hostile programs ----------------------------------------------------------------------------


class Expected(NamedTuple):
    status: Status
    detail: str
    """Text the fault's detail holds."""
    fatal: bool
    """The program cannot be asked again (it is played for until the end)."""


HOSTILE_MODES = {
    "crash": Expected(Status.ERROR, "exited (exit code 3", True),
    "half-hang": Expected(
        Status.TIMEOUT, 'did not answer a decision in time (it wrote \'{"type": "action"', True
    ),
    "half-exit": Expected(Status.ERROR, 'after writing \'{"type": "action", "act\'', True),
    "silent": Expected(Status.TIMEOUT, "did not answer a decision in time", True),
    "garbage": Expected(Status.ERROR, "answered 'this is not JSON', which is not valid JSON", True),
    "wrong-message": Expected(Status.ERROR, "not an action message", True),
    "illegal": Expected(Status.ILLEGAL, "not one of its legal actions", False),
    "nonsense": Expected(Status.ILLEGAL, "'dance a jig' (text, not an action)", False),
    "error": Expected(Status.ERROR, "reported an error: 'something went wrong in here'", False),
    "traceback": Expected(Status.ERROR, "reported an error: 'out of ideas'", False),
    "spawn-hang": Expected(Status.TIMEOUT, "did not answer a decision in time", True),
}

SLOW_MODES = {"half-hang", "silent"}
"""Modes that cost a time limit and a grace period; played in one game only."""


def hostile_cases() -> list[Any]:
    cases = []
    for mode in HOSTILE_MODES:
        cases.append(pytest.param(mode, RUSSIAN, id=f"{mode}-thousand"))
        if mode not in SLOW_MODES:
            cases.append(pytest.param(mode, BLUFF, id=f"{mode}-1000?"))
    return cases


@pytest.mark.slow
@pytest.mark.parametrize(("mode", "rules"), hostile_cases())
def test_a_hostile_program_under_substitute(tmp_path: Path, mode: str, rules: Any) -> None:
    """Whatever the program does, the match completes with the right status and fault, the
    driver plays for it as needed, and no process it started is left running."""
    expected = HOSTILE_MODES[mode]
    bot = hostile(tmp_path, mode)
    seat = 1
    players = ["random"] * rules.players
    players[seat] = bot.spec
    outcome = thousand.play(
        players,
        rules,
        seed=3,
        time_limit=TIME_LIMIT if expected.status is Status.TIMEOUT else CALM_LIMIT,
        on_fault="substitute",
        log_dir=str(tmp_path / "logs"),
    )
    assert bot.misbehaved()
    assert outcome.result is not None
    assert outcome.forfeited is None
    assert outcome.statuses == tuple(
        expected.status if other == seat else Status.OK for other in range(rules.players)
    )
    fault = outcome.faults[0]
    assert (fault.seat, fault.status) == (seat, expected.status)
    assert expected.detail in fault.detail
    assert "\n" not in fault.detail
    assert fault.observation.seat == seat
    assert fault.observation.legal_actions
    turns = sum(actor == seat for actor, _ in recorded_actions(outcome.record))
    if expected.fatal:
        # Asked until it failed, then played for.
        assert len(outcome.faults) == 1
        assert outcome.decisions[seat] == 4
        assert outcome.substitutions[seat] == turns - 3
    else:
        assert outcome.decisions[seat] == turns
        assert outcome.substitutions[seat] == len(outcome.faults) == 1
    bot.assert_gone()


def test_the_traceback_a_program_sends_is_kept_cut_and_made_safe(tmp_path: Path) -> None:
    """The traceback field of an error answer is kept with the fault, its end only when it is
    long and its control characters shown as ``?``; under raise it is the cause of the cause of
    the PlayerError, so that Python shows it."""
    bot = hostile(tmp_path, "traceback")
    with pytest.raises(PlayerError) as caught:
        thousand.play(
            ["random", bot.spec, "random"], RUSSIAN, seed=3, on_fault="raise",
            log_dir=str(tmp_path),
        )  # fmt: skip
    text = caught.value.fault.traceback
    assert text.endswith("x\n" + STACK)
    assert text.startswith("... (")
    assert len(text) < LONGEST + 40
    assert not any(ord(char) < 32 and char != "\n" for char in text)
    crash = caught.value.__cause__
    assert isinstance(crash, BotCrash)
    assert str(crash) == "reported an error: 'out of ideas'"
    assert isinstance(crash.__cause__, RemoteTraceback)
    assert crash.__cause__.text == text
    bot.assert_gone()


def test_an_error_answer_without_a_traceback_keeps_none(tmp_path: Path) -> None:
    """An error answer without a traceback leaves the fault's empty."""
    bot = hostile(tmp_path, "error")
    outcome = thousand.play(["random", bot.spec, "random"], RUSSIAN, seed=3, log_dir=str(tmp_path))
    assert outcome.faults[0].traceback == ""


@pytest.mark.parametrize("value", [None, 42, ["File"], {"a": 1}, ""])
def test_a_traceback_that_is_not_text_is_ignored(value: object) -> None:
    """Only text is kept from an error answer's traceback field."""
    assert received(value) == ""


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["crash", "silent", "illegal", "spawn-hang", "half-exit"])
def test_a_hostile_program_under_forfeit(tmp_path: Path, mode: str) -> None:
    """Under forfeit the faulty program loses the match at its fault and is stopped."""
    expected = HOSTILE_MODES[mode]
    bot = hostile(tmp_path, mode, after=5)
    outcome = thousand.play(
        ["random", "random", bot.spec],
        RUSSIAN,
        seed=3,
        single_deal=True,
        time_limit=TIME_LIMIT,
        log_dir=str(tmp_path),
    )
    assert outcome.forfeited == 2
    assert outcome.result is None
    assert outcome.places == (1, 1, 3)
    assert outcome.scores[:2] == (0, 0)
    assert outcome.scores[2] <= -120
    (fault,) = outcome.faults
    assert (fault.seat, fault.status) == (2, expected.status)
    assert expected.detail in fault.detail
    assert outcome.decisions[2] == 6
    assert len(recorded_actions(outcome.record)) == fault.decision
    bot.assert_gone()


@pytest.mark.slow
def test_a_program_silent_at_the_hello(tmp_path: Path) -> None:
    """A program that never answers the hello fails to start with a timeout, is played for all
    match long, and is stopped."""
    bot = hostile(tmp_path, "silent-hello")
    outcome = thousand.play(
        [bot.spec, "random", "random"],
        RUSSIAN,
        seed=3,
        single_deal=True,
        on_fault="substitute",
        log_dir=str(tmp_path),
        limits=thousand.BotLimits(startup=0.5),
    )
    (fault,) = outcome.faults
    assert (fault.seat, fault.status, fault.decision) == (0, Status.TIMEOUT, 0)
    assert fault.detail.startswith("failed to start: did not answer the hello in time")
    assert outcome.decisions[0] == 0
    assert outcome.substitutions[0] > 0
    assert outcome.result is not None
    bot.assert_gone()


def test_a_program_that_cannot_be_started(tmp_path: Path) -> None:
    """A command that does not exist fails to start with an error, and the match is played
    without it."""
    missing = tmp_path / "no-such-bot"
    outcome = thousand.play(
        ["random", f"cmd:{missing} --flag", "random"],
        RUSSIAN,
        seed=3,
        single_deal=True,
        on_fault="substitute",
        log_dir=str(tmp_path),
    )
    (fault,) = outcome.faults
    assert (fault.seat, fault.status) == (1, Status.ERROR)
    assert f"failed to start: could not start {missing}" in fault.detail
    assert outcome.result is not None


def test_a_program_that_exits_before_the_hello(tmp_path: Path) -> None:
    """A program that exits at once fails to start with an error naming its exit code."""
    outcome = thousand.play(
        [f"cmd:{sys.executable} -c 'raise SystemExit(7)'", "random", "random"],
        RUSSIAN,
        seed=3,
        single_deal=True,
        log_dir=str(tmp_path),
    )
    (fault,) = outcome.faults
    assert fault.status is Status.ERROR
    assert "exit code 7" in fault.detail
    assert outcome.forfeited == 0


def test_the_programs_error_output_lands_in_its_log(tmp_path: Path) -> None:
    """What a program writes on stderr is appended to <log_dir>/<name>-seat<N>.log after a
    header naming the seat and game, and a crash's fault points at that log."""
    logs = tmp_path / "logs"
    bot = hostile(tmp_path, "ok")
    player = ExternalPlayer(shlex.split(bot.spec[4:]), name="stderr-bot", log_dir=str(logs))
    thousand.play(["random", player, "random"], RUSSIAN, seed=3, single_deal=True)
    assert player.log_path == logs / "stderr-bot-seat1.log"
    thousand.play([player, "random", "random"], BLUFF, seed=3)
    assert player.log_path == logs / "stderr-bot-seat0.log"
    first = (logs / "stderr-bot-seat1.log").read_text()
    second = (logs / "stderr-bot-seat0.log").read_text()
    assert first.startswith("--- stderr-bot: seat 1 of a thousand match\n")
    assert second.startswith("--- stderr-bot: seat 0 of a 1000? match\n")
    for text in (first, second):
        assert text.count(f"{bot.marker}: started in mode ok") == 1
        assert text.count(f"{bot.marker}: done after") == 1
    crashing = hostile(tmp_path, "crash", after=1)
    outcome = thousand.play(
        [crashing.spec, "random", "random"], RUSSIAN, seed=3, log_dir=str(logs), single_deal=True
    )
    (log,) = [path for path in logs.glob("*.log") if "stderr-bot" not in path.name]
    assert f"{crashing.marker}: started in mode crash" in log.read_text()
    assert f"its error output is in {log}" in outcome.faults[0].detail


# Interrupting the driver ---------------------------------------------------------------------

DRIVER = """
import signal, sys
import thousand

signal.signal(signal.SIGINT, signal.default_int_handler)
thousand.play(
    [sys.argv[1], "random", "random"], thousand.Rules.preset("russian"), seed=1,
    log_dir=sys.argv[2],
)
print("the match ended")
"""


def start_driver(tmp_path: Path, bot: Hostile) -> subprocess.Popen[bytes]:
    """A driver process playing a match against ``bot``, once the bot has started to hang."""
    script = tmp_path / "driver.py"
    script.write_text(DRIVER)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    driver = subprocess.Popen(
        [sys.executable, str(script), bot.spec, str(tmp_path / "logs")],
        stdout=subprocess.DEVNULL,
        stderr=(tmp_path / "driver.err").open("wb"),
        env=env,
    )
    poll(lambda: (bot.misbehaved() and len(bot.all_pids()) == 2) or driver.poll() is not None)
    assert driver.poll() is None, (tmp_path / "driver.err").read_text()
    return driver


@pytest.mark.slow
def test_interrupting_the_driver_stops_the_bot(tmp_path: Path, reap: list[int]) -> None:
    """SIGINT to a driver waiting on a hanging bot raises KeyboardInterrupt there, and the bot
    and its child are stopped before the driver exits."""
    bot = hostile(tmp_path, "spawn-hang", after=2)
    driver = start_driver(tmp_path, bot)
    reap.extend(bot.all_pids())
    driver.send_signal(signal.SIGINT)
    assert driver.wait(15) != 0
    assert "KeyboardInterrupt" in (tmp_path / "driver.err").read_text()
    bot.assert_gone()


@pytest.mark.skipif(not LINUX, reason="PR_SET_PDEATHSIG is Linux only")
def test_killing_the_driver_kills_the_bot(tmp_path: Path, reap: list[int]) -> None:
    """SIGKILL to the driver takes the bot process down with it (PR_SET_PDEATHSIG)."""
    bot = hostile(tmp_path, "spawn-hang", after=2)
    driver = start_driver(tmp_path, bot)
    reap.extend(bot.all_pids())
    driver.kill()
    driver.wait(15)
    assert survivors(bot.pid_list("bot")) == []


@pytest.mark.skipif(not LINUX, reason="PR_SET_PDEATHSIG is Linux only")
def test_killing_the_driver_kills_what_the_bot_started(tmp_path: Path, reap: list[int]) -> None:
    """SIGKILL to the driver also takes down the processes the bot started."""
    bot = hostile(tmp_path, "spawn-hang", after=2)
    driver = start_driver(tmp_path, bot)
    reap.extend(bot.all_pids())
    driver.kill()
    driver.wait(15)
    assert survivors(bot.all_pids()) == []


# What a program is told ----------------------------------------------------------------------


PROTOCOL_GAMES = [
    pytest.param(attrs.evolve(RUSSIAN, max_deals=6), False, id="russian-match"),
    pytest.param(RUSSIAN, True, id="russian-deal"),
    pytest.param(attrs.evolve(POLISH_2P, max_deals=6), False, id="polish-2p-match"),
    pytest.param(BLUFF, False, id="1000?"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "single_deal"), PROTOCOL_GAMES)
def test_what_a_program_is_told(tmp_path: Path, rules: Any, single_deal: bool) -> None:
    """The program gets a hello with the game, rules, seat, table size, protocol 2 and its
    generator's seed; each act carries exactly the observation of its seat in the state
    replayed from the record, naming no card it may not know; then the end with the outcome,
    but for the match's seed."""
    record = tmp_path / "messages.jsonl"
    bot = hostile(tmp_path, "ok", extra=("--record", str(record)))
    seat = 1
    players: list[Any] = ["greedy"] * rules.players
    players[seat] = bot.spec
    outcome = thousand.play(players, rules, seed=9, single_deal=single_deal, log_dir=str(tmp_path))
    assert outcome.statuses == (Status.OK,) * rules.players
    messages = [json.loads(line) for line in record.read_text().splitlines()]
    hello, *acts, end = messages
    game = "1000?" if isinstance(rules, bluff.Rules) else "thousand"
    assert hello["type"] == "hello"
    assert hello["protocol"] == 2
    assert (hello["game"], hello["seat"], hello["players"]) == (game, seat, rules.players)
    assert hello["rules"] == rules.to_dict()
    assert isinstance(hello["seed"], int)
    assert hello["random_seed"] == str(player_seed(9, seat))
    assert "random_state" not in hello
    assert all(message["type"] == "act" for message in acts)
    assert all(set(message) == {"type", "observation"} for message in acts)
    states = list(states_before_turns(outcome, seat))
    assert len(acts) == len(states) == outcome.decisions[seat]
    for message, state in zip(acts, states, strict=True):
        data = message["observation"]
        expected = observe_any(state, seat).to_dict(with_rules=False)
        assert data == json.loads(json.dumps(expected))
        if isinstance(state, thousand.GameState):
            check_secrets(state, seat, data)
        else:
            assert sorted(data["hand"]) == sorted(str(card) for card in state.hands[seat])
    told = json.loads(json.dumps(outcome.to_dict()))
    del told["record"]["seed"]
    assert end == {"type": "end", "outcome": told}
    bot.assert_gone()


# Isolation -----------------------------------------------------------------------------------


ISOLATED_LINEUPS = [
    pytest.param(RUSSIAN, ["random", "greedy", f"{PYTHON_BOTS}:Cautious"], id="thousand"),
    pytest.param(RUSSIAN, ["greedy", f"{PYTHON_BOTS}:Flaky", "random"], id="thousand-flaky"),
    pytest.param(BLUFF, [f"{PYTHON_BOTS}:Cautious", "greedy", "random"], id="1000?"),
    pytest.param(
        bluff.Rules(players=4), ["random", f"{PYTHON_BOTS}:Flaky", "greedy", "random"], id="flaky"
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "specs"), ISOLATED_LINEUPS)
def test_isolated_bots_play_as_in_process(tmp_path: Path, rules: Any, specs: list[str]) -> None:
    """Bots run in their own processes play exactly the match they play in this process: the
    same record, scores, statuses and faults."""
    options: dict[str, Any] = {"seed": 6, "on_fault": "substitute", "log_dir": str(tmp_path)}
    here = thousand.play(specs, rules, **options)
    isolated = thousand.play(specs, rules, isolate="process", **options)
    assert isolated.record == here.record
    assert isolated.players == here.players
    assert (isolated.scores, isolated.places, isolated.statuses, isolated.result) == (
        here.scores,
        here.places,
        here.statuses,
        here.result,
    )
    assert (isolated.decisions, isolated.substitutions) == (here.decisions, here.substitutions)
    # Faults are the same but for the wording of how the bot failed.
    assert [attrs.evolve(fault, detail="") for fault in isolated.faults] == [
        attrs.evolve(fault, detail="") for fault in here.faults
    ]
    assert [fault.observation for fault in isolated.faults] == [
        fault.observation for fault in here.faults
    ]
    if any("Flaky" in spec for spec in specs):
        (fault,) = isolated.faults
        assert fault.status is Status.ERROR
        assert "RuntimeError: flaky bot tripped" in fault.detail
        # The traceback the bot's process sent is the one it gives in this process.
        assert fault.traceback.endswith("RuntimeError: flaky bot tripped\n")
        assert fault.traceback == here.faults[0].traceback
    else:
        assert isolated == here
        assert isolated.statuses == (Status.OK,) * rules.players


@pytest.mark.slow
def test_an_isolated_bots_prints_go_to_its_log(tmp_path: Path) -> None:
    """An isolated Python bot's own prints land in its log, not in the protocol."""
    spec = f"{PYTHON_BOTS}:Chatty"
    outcome = thousand.play(
        [spec, "random", "random"], RUSSIAN, seed=2, single_deal=True, isolate="process",
        log_dir=str(tmp_path),
    )  # fmt: skip
    assert outcome.statuses == (Status.OK,) * 3
    logs = "".join(path.read_text() for path in tmp_path.glob("*.log"))
    assert logs.count("chatty-bot plays ") == outcome.decisions[0]


@pytest.mark.slow
def test_an_isolated_bot_answering_text_is_at_fault(tmp_path: Path) -> None:
    """A bot answering text instead of an action is at fault whether isolated or not."""
    spec = f"{PYTHON_BOTS}:Texter"
    options: dict[str, Any] = {"seed": 2, "single_deal": True, "log_dir": str(tmp_path)}
    here = thousand.play([spec, "random", "random"], RUSSIAN, **options)
    assert here.statuses[0] is Status.ILLEGAL
    isolated = thousand.play([spec, "random", "random"], RUSSIAN, isolate="process", **options)
    assert isolated.statuses[0] is Status.ILLEGAL


@pytest.mark.slow
def test_isolation_checks_the_spec_first() -> None:
    """An isolated spec is checked without running the bot's code in the driver: a missing file
    is refused with BotSpecError before any process starts, while a class missing from an
    existing file is found out in the bot's own process, as a fault."""
    with pytest.raises(BotSpecError, match="no file"):
        thousand.play(
            ["missing/bot.py:Bot", "random", "random"], RUSSIAN, seed=1, isolate="process"
        )
    outcome = thousand.play(
        [f"{PYTHON_BOTS}:Missing", "random", "random"], RUSSIAN, seed=1, isolate="process"
    )
    assert outcome.statuses[0] is Status.ERROR
    assert outcome.forfeited == 0


# Specs ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec",
    [
        "thousand.bots.random_player:RandomPlayer",
        "tests.bots.python_bots:Cautious",
        "tests.bots.python_bots:make_cautious",
        f"{PYTHON_BOTS}:Cautious",
        "tests/bots/python_bots.py:Cautious",
    ],
)
def test_python_specs(spec: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """module:Class, module:factory and file.py:Class specs make fresh players that play."""
    monkeypatch.chdir(ROOT)
    make = load_player(spec)
    first, second = make(), make()
    assert first is not second
    assert callable(first.act)
    outcome = thousand.play([spec, "random", spec], RUSSIAN, seed=1, single_deal=True)
    assert outcome.statuses == (Status.OK,) * 3
    assert outcome.players == (spec, "random", spec + "#2")


def test_a_file_spec_loads_the_file_once() -> None:
    """Two specs naming the same file share its module."""
    first = load_player(f"{PYTHON_BOTS}:Cautious")()
    second = load_player(f"{PYTHON_BOTS}:make_cautious")()
    assert type(first) is type(second)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


@pytest.fixture
def fake_distribution(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """An installed distribution ``fakebots 1.0`` declaring bots in the thousand.players group:
    one that works, one whose module is missing, and one taking a built-in name. Yields the
    name of the module it installs."""
    module = f"fakebots_{uuid.uuid4().hex[:8]}"
    write(
        tmp_path / f"{module}.py",
        '''
        """Bots of the fake distribution."""
        from thousand import SeatedPlayer


        class FakeBot(SeatedPlayer):
            """A fake installed bot that plays the first legal action.

            More text that is not the summary.
            """

            def act(self, observation):
                return observation.legal_actions[0]
        ''',
    )
    info = tmp_path / "fakebots-1.0.dist-info"
    write(info / "METADATA", "Metadata-Version: 2.1\nName: fakebots\nVersion: 1.0\n")
    write(
        info / "entry_points.txt",
        f"[thousand.players]\nfakebot = {module}:FakeBot\n"
        f"brokenbot = {module}_missing:Nothing\nrandom = {module}:FakeBot\n",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    yield module
    sys.modules.pop(module, None)


def test_installed_bots_are_listed(fake_distribution: str) -> None:
    """available_bots lists the built-ins, then installed bots with their distribution and
    summary, or why they cannot be used."""
    listed = available_bots()
    bots = {bot.name: bot for bot in reversed(listed)}
    names = [bot.name for bot in listed]
    assert names[:2] == ["random", "greedy"]
    summary = (RandomPlayer.__doc__ or "").splitlines()[0]
    assert bots["random"] == BotInfo("random", "built-in", summary)
    assert bots["fakebot"] == BotInfo(
        "fakebot", "fakebots 1.0", "A fake installed bot that plays the first legal action."
    )
    assert bots["brokenbot"].origin == "fakebots 1.0"
    assert bots["brokenbot"].summary.startswith("not usable: ModuleNotFoundError")
    shadowed = [bot for bot in listed if bot.name == "random"]
    assert len(shadowed) == 2
    assert shadowed[1].origin == "fakebots 1.0"
    assert shadowed[1].summary.startswith("not usable: the name is taken by the built-in bot")
    assert all("\n" not in bot.summary for bot in listed)


@pytest.mark.slow
def test_installed_bots_load_by_name(
    fake_distribution: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An installed bot is named by its entry point name, plays, and also plays isolated."""
    player = load_player("fakebot")()
    assert type(player).__name__ == "FakeBot"
    assert type(player).__module__ == fake_distribution
    assert isinstance(load_player("random")(), RandomPlayer)
    outcome = thousand.play(["fakebot", "random", "random"], RUSSIAN, seed=1, single_deal=True)
    assert outcome.statuses == (Status.OK,) * 3
    assert outcome.players[0] == "fakebot"
    with pytest.raises(BotSpecError) as caught:
        load_player("brokenbot")
    message = str(caught.value)
    assert "\n" not in message
    assert "'brokenbot'" in message
    assert "failed to load" in message
    # The bot's own process finds the distribution through PYTHONPATH.
    path = os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))
    monkeypatch.setenv("PYTHONPATH", path)
    isolated = thousand.play(
        ["fakebot", "random", "random"], RUSSIAN, seed=1, single_deal=True, isolate="process",
        log_dir=str(tmp_path),
    )  # fmt: skip
    assert isolated == outcome


def test_unknown_names_list_the_known_bots(fake_distribution: str) -> None:
    """A name that is no bot raises BotSpecError on one line listing the bots that exist."""
    with pytest.raises(BotSpecError) as caught:
        load_player("nosuchbot")
    message = str(caught.value)
    assert "\n" not in message
    assert "'nosuchbot'" in message
    assert "random, greedy" in message
    assert "fakebot" in message


BAD_FILES = {
    "raises.py": "raise ValueError('this bot cannot be loaded')\n",
    "syntax.py": "def broken(:\n",
    "imports.py": "import no_such_dependency_for_a_bot\n",
}


def bad_specs(tmp_path: Path) -> dict[str, tuple[str, str]]:
    """Bad specs and text their error message must hold."""
    for name, text in BAD_FILES.items():
        write(tmp_path / name, text)
    return {
        "missing file": (f"{tmp_path}/nowhere.py:Bot", "no file"),
        "missing class": (f"{PYTHON_BOTS}:Missing", "has no 'Missing'"),
        "missing module": ("no_such_module_for_bots:Bot", "cannot import no_such_module_for_bots"),
        "file raises": (f"{tmp_path}/raises.py:Bot", "ValueError: this bot cannot be loaded"),
        "syntax error": (f"{tmp_path}/syntax.py:Bot", "failed to load: SyntaxError"),
        "import error": (f"{tmp_path}/imports.py:Bot", "failed to load: ModuleNotFoundError"),
        "not callable": (f"{PYTHON_BOTS}:NOT_CALLABLE", "42 is not a class or a function"),
        "no act": (f"{PYTHON_BOTS}:NoAct", "NoAct has no act(observation) method"),
        "empty cmd": ("cmd:", "no command after 'cmd:'"),
        "blank cmd": ("cmd:   ", "no command after 'cmd:'"),
        "unsplittable cmd": ('cmd:bot "unclosed', "cannot split the command line"),
        "empty": ("", "empty bot spec"),
        "no class": ("tests.bots.python_bots:", "expected 'module:Class' or 'file.py:Class'"),
        "no module": (":Cautious", "expected 'module:Class' or 'file.py:Class'"),
        "unknown": ("nosuchbot", "no bot named 'nosuchbot'"),
    }


BAD_SPEC_CASES = [
    "missing file",
    "missing class",
    "missing module",
    "file raises",
    "syntax error",
    "import error",
    "not callable",
    "no act",
    "empty cmd",
    "blank cmd",
    "unsplittable cmd",
    "empty",
    "no class",
    "no module",
    "unknown",
]


@pytest.mark.parametrize("case", BAD_SPEC_CASES)
def test_bad_specs(case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A spec that names nothing usable raises BotSpecError with a one-line message naming the
    spec and the reason, both from load_player and from play."""
    monkeypatch.chdir(ROOT)
    cases = bad_specs(tmp_path)
    assert sorted(cases) == sorted(BAD_SPEC_CASES)
    spec, reason = cases[case]
    with pytest.raises(BotSpecError) as caught:
        load_player(spec)
    message = str(caught.value)
    assert "\n" not in message
    assert reason in message
    if spec.strip():
        assert repr(spec.strip()) in message
    with pytest.raises(BotSpecError):
        thousand.play([spec, "random", "random"], RUSSIAN, seed=1)


def test_a_factory_that_makes_no_player() -> None:
    """A callable that makes something without an act method is refused when it makes it."""
    make = load_player(f"{PYTHON_BOTS}:make_nothing")
    with pytest.raises(BotSpecError, match="which has no act method") as caught:
        make()
    assert "\n" not in str(caught.value)
    with pytest.raises(BotSpecError):
        thousand.play([f"{PYTHON_BOTS}:make_nothing", "random", "random"], RUSSIAN, seed=1)


def test_a_module_that_fails_to_import(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A module:Class spec whose module raises on import gives BotSpecError, as a file spec
    does."""
    module = f"badbot_{uuid.uuid4().hex[:8]}"
    write(tmp_path / f"{module}.py", "raise ValueError('broken module')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(BotSpecError, match="broken module"):
        load_player(f"{module}:Bot")


def test_a_multiline_loading_error_gives_one_line(tmp_path: Path) -> None:
    """A file whose loading fails with a multi-line message still gives a one-line error."""
    write(tmp_path / "multiline.py", "raise RuntimeError('first line\\nsecond line')\n")
    with pytest.raises(BotSpecError) as caught:
        load_player(f"{tmp_path}/multiline.py:Bot")
    assert "\n" not in str(caught.value)


def test_an_external_player_can_play_again_after_a_crash(tmp_path: Path) -> None:
    """The same ExternalPlayer object starts a fresh program for each match: after a match in
    which its program crashed, the next match plays normally."""
    crashing = hostile(tmp_path, "crash", after=1)
    player = ExternalPlayer(shlex.split(crashing.spec[4:]), name="again")
    first = thousand.play([player, "random", "random"], RUSSIAN, seed=3, on_fault="substitute")
    assert first.statuses[0] is Status.ERROR
    player.command = [sys.executable, str(EXAMPLE)]
    second = thousand.play([player, "random", "random"], RUSSIAN, seed=3, single_deal=True)
    assert second.statuses == (Status.OK, Status.OK, Status.OK)
