"""What the driver does once rather than at every match or answer, which a tournament of thousands
of single deals pays for otherwise: a bot spec is looked up once, a slow bot is waited for without
polling, the process kept last plays next, a batch is played seating by seating, and a bot's log
gets a match's header only when the bot writes something in that match."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path
from typing import Any

import pytest

import thousand
from tests.test_external import RUSSIAN
from thousand import Status
from thousand.table import driver, external, specs
from thousand.table.sessions import stop_sessions
from tournament.runner import units
from tournament.runner.schedule import Config, entrants_of
from tournament.runner.units import BotLogs, Played, play_batch


@pytest.fixture(autouse=True)
def fresh_sessions() -> Any:
    """Each test starts and ends with no kept process."""
    stop_sessions()
    yield
    stop_sessions()


def bot_file(folder: Path, body: str) -> str:
    """A file ``bot.py`` in ``folder`` whose class ``Bot`` acts by ``body``; its spec."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "bot.py").write_text(
        textwrap.dedent(
            f"""
            import time
            from thousand import SeatedPlayer

            class Bot(SeatedPlayer):
                def act(self, observation):
                    {body}
            """
        )
    )
    return "bot.py:Bot"


def test_a_spec_is_looked_up_once_for_match_after_match(monkeypatch: pytest.MonkeyPatch) -> None:
    """Three matches of the same specs load each spec once."""
    looked_up: list[str] = []
    real = specs.load_player

    def counted(spec: str, **options: Any) -> Any:
        looked_up.append(spec)
        return real(spec, **options)

    monkeypatch.setattr(driver, "load_player", counted)
    driver._factory.cache_clear()
    for seed in range(3):
        thousand.play(["greedy", "random", "random"], RUSSIAN, seed=seed, single_deal=True)
    assert sorted(looked_up) == ["greedy", "random"]


def test_a_spec_relative_to_the_folder_is_looked_up_in_each_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same relative spec from two folders names two bots: here one that raises, then one
    that plays."""
    spec = bot_file(tmp_path / "raises", "raise RuntimeError('no')")
    assert bot_file(tmp_path / "plays", "return observation.legal_actions[0]") == spec
    outcomes = []
    for folder in ("raises", "plays"):
        monkeypatch.chdir(tmp_path / folder)
        outcomes.append(thousand.play([spec, "random", "random"], RUSSIAN, seed=1))
    assert [outcome.statuses[0] for outcome in outcomes] == [Status.ERROR, Status.OK]


def test_a_slow_bot_is_waited_for_without_polling(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once polling for a bot's answer missed it, the driver sleeps until the next answers come
    instead of polling for each: a bot slower than the poll would only have it burn a core."""
    monkeypatch.chdir(tmp_path)
    spec = bot_file(tmp_path, "time.sleep(0.02); return observation.legal_actions[0]")
    monkeypatch.setattr(external, "SPIN", 0.005)
    events: list[str] = []
    read = os.read

    def noted_read(fd: int, size: int) -> bytes:
        try:
            return read(fd, size)
        except BlockingIOError:
            events.append("poll")
            raise

    reply = external.ExternalPlayer._reply

    def noted_reply(player: external.ExternalPlayer, deadline: float, what: str) -> Any:
        answer = reply(player, deadline, what)
        events.append("answer")
        return answer

    monkeypatch.setattr(os, "read", noted_read)
    monkeypatch.setattr(external.ExternalPlayer, "_reply", noted_reply)
    outcome = thousand.play(
        [spec, "random", "random"], RUSSIAN, seed=2, single_deal=True, isolate="process",
        log_dir=str(tmp_path / "logs"),
    )  # fmt: skip
    assert outcome.statuses == (Status.OK,) * 3
    waits = " ".join(events).split("answer")[:-1]  # what came before each answer
    assert len(waits) > 5
    assert 1 <= sum("poll" in wait for wait in waits) <= 2  # the ready's, the first decision's


def test_the_process_kept_last_plays_the_next_match(tmp_path: Path) -> None:
    """Of the idle processes that may play a match, the one kept last is given it (its memory is
    the likeliest to be still in the processor's caches)."""
    spec = f"{Path(__file__).parent / 'bots' / 'session_bots.py'}:Counted"
    for seed in (5, 5, 6, 7):  # the second seed 5 needs a second process
        thousand.play(
            [spec, "random", "random"], RUSSIAN, seed=seed, single_deal=True, isolate="process",
            log_dir=str(tmp_path),
        )  # fmt: skip
    (log,) = tmp_path.glob("*-seat0.log")
    text = log.read_text()
    pids = [int(line.split()[2]) for line in text.splitlines() if line.startswith("counted pid")]
    assert len(pids) == 4
    assert pids[1] != pids[0]
    assert pids[2:] == [pids[1], pids[1]]


def test_a_log_gets_a_match_header_only_when_the_bot_writes(tmp_path: Path) -> None:
    """A match where the bot writes nothing adds nothing to its log; one where it writes opens
    its output with the header naming the seat and the game."""
    spec = f"{Path(__file__).parent / 'bots' / 'session_bots.py'}"
    quiet, counted = f"{spec}:Quiet", f"{spec}:Counted"
    logs = tmp_path / "logs"
    for bot in (quiet, counted):
        thousand.play(
            [bot, "random", "random"], RUSSIAN, seed=1, single_deal=True, isolate="process",
            log_dir=str(logs),
        )  # fmt: skip
    quiet_log, counted_log = sorted(logs.glob("*-seat0.log"), key=lambda log: "Counted" in log.name)
    assert quiet_log.read_text() == ""
    assert counted_log.read_text().startswith(f"--- {counted}: seat 0 of a thousand match\n")


def test_a_batch_is_played_seating_by_seating_and_answered_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker plays a batch's units grouped by seating (a kept process then plays match after
    match in a row) and hands the results back in the batch's order."""
    config = Config(
        game="thousand", rules=RUSSIAN.to_dict(), players=3, format="deals", per_table=4,
        entrants=entrants_of(["greedy", "random", "random"]), seed=1,
    )  # fmt: skip
    batch = list(config.units())[:12]
    played: list[str] = []

    def play_unit(config: Config, unit: Any, keep_records: bool, logs: BotLogs) -> Any:
        played.append(unit.name)
        return unit.name

    monkeypatch.setattr(units, "play_unit", play_unit)
    results: list[Played] = play_batch(config, batch, False, BotLogs(""))
    assert results == [unit.name for unit in batch]  # type: ignore[comparison-overlap]
    seatings = [next(u for u in batch if u.name == name).seating for name in played]
    assert seatings == sorted(seatings)
    assert len(set(seatings)) > 1
    assert played != [unit.name for unit in batch]
