"""The match driver: plays a match (or one Thousand deal) among any players, whatever they do.

Each decision, the player to act receives its observation and answers with an action. A player
that raises, runs out of time, or answers with anything but a legal action is at fault: the
fault is recorded with the observation it was given, and the fault policy decides what follows
(see :class:`FaultPolicy`).

    >>> import thousand
    >>> outcome = thousand.play(["greedy", "random", "random"], thousand.Rules.preset("russian"),
    ...                         seed=1, single_deal=True)
    >>> outcome.statuses
    (<Status.OK: 'ok'>, <Status.OK: 'ok'>, <Status.OK: 'ok'>)
    >>> thousand.replay(outcome.record).result == outcome.result
    True
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import random
import signal
import threading
import time
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any, Generic

import attrs

from thousand import bluff
from thousand.common.state_base import same_value
from thousand.errors import (
    BotFailure,
    BotSpecError,
    BotTimeout,
    IllegalActionError,
    SeatError,
)
from thousand.games import ActionT as A
from thousand.games import (
    AnyObservation,
    AnyRecord,
    AnyResult,
    AnyRules,
    AnyState,
    Game,
    game_named,
    game_of,
)
from thousand.games import ObservationT as O
from thousand.games import RecordT as Rec
from thousand.games import RulesT as R
from thousand.games import StateT as S
from thousand.layout import Layout
from thousand.table.faults import FaultPolicy, Status
from thousand.table.interrupts import Interrupts, noting_interrupts
from thousand.table.players import Player, PlayerError
from thousand.table.sandbox import Isolation, SandboxOptions
from thousand.table.specs import PlayerFactory, authors_code_here, load_player
from thousand.table.tracebacks import bot_traceback

if TYPE_CHECKING:
    from thousand.table.external import BotLimits

__all__ = ["Fault", "FaultPolicy", "Outcome", "Status", "play", "player_seed"]


@attrs.frozen
class Fault:
    """One fault of a player."""

    seat: int
    status: Status
    decision: int
    """How many actions of the match (all seats counted) came before this one."""
    detail: str
    """What went wrong, in a sentence."""
    observation: AnyObservation = attrs.field(eq=False, repr=False)
    """What the player had been shown."""
    traceback: str = attrs.field(default="", eq=False, repr=False)
    """When the player raised: its traceback, from its own first frame to its raise (sent by
    its process when it runs in one); else empty. Not part of the JSON form."""

    def __str__(self) -> str:
        return f"seat {self.seat} ({self.status}) at decision {self.decision}: {self.detail}"

    def to_dict(self) -> dict[str, Any]:
        """The fault as JSON data."""
        return {
            "seat": self.seat,
            "status": self.status.value,
            "decision": self.decision,
            "detail": self.detail,
            "observation": self.observation.to_dict(),
        }


@attrs.frozen
class Outcome:
    """What a match played by :func:`play` leaves behind."""

    rules: AnyRules
    players: tuple[str, ...]
    """A name for each seat's player."""
    record: AnyRecord
    """The record of everything played (up to the fault that ended a forfeited match), naming
    each seat's player by its spec (a player object by its class); the library's ``replay``
    rebuilds the final state from it."""
    result: AnyResult | None
    """The game's own result; ``None`` when a forfeit ended the match early (or for a bot in
    another process, told the outcome without the seed the result is replayed from)."""
    scores: tuple[int, ...]
    """Per seat: match scores (a match), deal scores (a single deal), or minus the cards left
    in hand (1000?, where a forfeiting player counts every card of the deck)."""
    places: tuple[int, ...]
    """Per seat, 1 for the best; tied seats share a place (1, 1, 3)."""
    statuses: tuple[Status, ...]
    """Per seat: ``ok``, or the status of its first fault."""
    faults: tuple[Fault, ...]
    forfeited: int | None
    """The seat that forfeited the match, if one did."""
    decisions: tuple[int, ...]
    """How many decisions each seat's player was asked for."""
    substitutions: tuple[int, ...]
    """How many actions the driver played for each seat."""
    think_time: tuple[float, ...] = attrs.field(eq=False)
    """Seconds each seat's player spent deciding."""

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats in first place."""
        return tuple(seat for seat, place in enumerate(self.places) if place == 1)

    def to_dict(self) -> dict[str, Any]:
        """The outcome as JSON data (the record in its own JSON form)."""
        return {
            "game": game_of(self.rules).name,
            "players": list(self.players),
            "scores": list(self.scores),
            "places": list(self.places),
            "statuses": [status.value for status in self.statuses],
            "faults": [fault.to_dict() for fault in self.faults],
            "forfeited": self.forfeited,
            "decisions": list(self.decisions),
            "substitutions": list(self.substitutions),
            "think_time": list(self.think_time),
            "record": self.record.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Outcome:
        """The outcome written by :meth:`to_dict`; ``result`` is rebuilt by replaying the record.
        A record without its seed, as bots in other processes are told it, cannot be replayed:
        it reads seed 0, and the result ``None``. Raises ``KeyError``, ``TypeError`` or
        ``ValueError`` on malformed data."""
        return game_named(data["game"]).handle(lambda game: cls._from_dict(game, data))

    @classmethod
    def _from_dict(cls, game: Game[S, O, A, R, Rec], data: dict[str, Any]) -> Outcome:
        withheld = "seed" not in data["record"]
        record = game.record_from_dict(
            {**data["record"], "seed": 0} if withheld else data["record"]
        )
        return cls(
            rules=record.rules,
            players=tuple(str(name) for name in data["players"]),
            record=record,
            result=None if withheld else game.result(game.replay(record)),
            scores=tuple(int(score) for score in data["scores"]),
            places=tuple(int(place) for place in data["places"]),
            statuses=tuple(Status(status) for status in data["statuses"]),
            faults=tuple(
                Fault(
                    int(fault["seat"]),
                    Status(fault["status"]),
                    int(fault["decision"]),
                    str(fault["detail"]),
                    game.observation_from_dict(fault["observation"]),
                )
                for fault in data["faults"]
            ),
            forfeited=None if data["forfeited"] is None else int(data["forfeited"]),
            decisions=tuple(int(count) for count in data["decisions"]),
            substitutions=tuple(int(count) for count in data["substitutions"]),
            think_time=tuple(float(seconds) for seconds in data["think_time"]),
        )


def play(
    players: Sequence[Player | str],
    rules: AnyRules,
    *,
    seed: int,
    single_deal: bool = False,
    layout: Layout | bluff.Layout | None = None,
    dealer: int | None = None,
    time_limit: float | None = None,
    time_quota: float | None = None,
    on_fault: FaultPolicy | str = FaultPolicy.FORFEIT,
    player_seeds: Sequence[int] | None = None,
    isolate: Isolation | bool | str = False,
    sandbox: SandboxOptions | None = None,
    log_dir: str | None = None,
    limits: BotLimits | None = None,
    watch: Callable[[AnyState], object] | None = None,
) -> Outcome:
    """Play one match of either game among ``players`` and return its :class:`Outcome`.

    Args:
        players: one per seat, in seat order: :class:`~thousand.Player` objects, or bot specs
            such as ``"greedy"`` or ``"cmd:./mybot"`` (see :func:`thousand.load_player`).
        rules: :class:`thousand.Rules` or :class:`thousand.bluff.Rules`; the game follows.
        seed: deals the cards (deal ``n`` of a Thousand match is
            ``Layout.from_seed(players, seed, n)``) and seeds each player's generator.
        single_deal: Thousand only: play one scored deal instead of a match to 1000.
        layout: the first deal's cards, instead of dealing them from the seed.
        dealer: the first dealer; by default drawn from the seed (seat 0 in a single deal).
        time_limit: seconds a player may take for one decision.
        time_quota: seconds a player may take over the whole match.
        on_fault: ``forfeit`` (the default), ``substitute`` or ``raise``; see
            :class:`FaultPolicy`.
        player_seeds: the seed of each seat's generator, instead of deriving them from ``seed``.
        isolate: how the bots given as specs that are not built in are kept from hidden
            state: ``sandbox`` (or ``True``), each walled in a process of its own that reaches
            no file of yours; ``process``, a Python bot in a process of its own; ``none`` (or
            ``False``, the default), a Python bot in this process (see
            :func:`thousand.load_player`).
        sandbox: what sandboxed bots may reach: more files to read, the network; never the
            folder of their logs.
        log_dir: the folder where the error output of bots in processes of their own is kept,
            each bot's files capped in all by ``limits.log`` (see :mod:`thousand.table.botlogs`);
            by default a fresh folder ``thousand-bots-*`` in the temporary directory for this
            match, which the fault of a bot that crashes names.
        limits: caps on external bots' memory, message lines and logs; by default
            :class:`~thousand.BotLimits` ``()``.
        watch: called with the starting state and then with the state after every action,
            whoever took it: for a display, or to keep the game so far when play is
            interrupted. It sees every card, so a player must not be given it.

    A player is at fault when it raises, exceeds ``time_limit`` or ``time_quota``, or answers
    with anything but one of ``observation.legal_actions``. In the main thread of a Unix
    process a Python bot is interrupted at its limit; elsewhere its time is checked when it
    answers.
    """
    from thousand.table.external import ExternalPlayer, share_log_folder

    game = game_of(rules)
    if len(players) != rules.players:
        raise SeatError(f"these rules seat {rules.players} players, but {len(players)} were given")
    policy = FaultPolicy(on_fault)

    def started(game: Game[S, O, A, R, Rec]) -> _Match[S, O, A, R, Rec]:
        own = game.own_rules(rules)
        state = game.start(own, seed=seed, layout=layout, dealer=dealer, single_deal=single_deal)
        return _Match(game, own, state, policy, time_limit, time_quota, seed, game.watcher(watch))

    match = game.handle(started)
    seeds = list(player_seeds) if player_seeds is not None else None
    if seeds is not None and len(seeds) != rules.players:
        raise SeatError(f"{len(seeds)} player seeds were given for {rules.players} seats")
    mode = Isolation.of(isolate)
    needed = any(_authors_code_here(entry, mode) for entry in players)
    with noting_interrupts(needed) as interrupts:
        match.interrupts = interrupts
        names, bots = _seat_players(players, mode, sandbox, log_dir, limits, interrupts)
        share_log_folder(bots)
        cards = _cards_of(game.name, seed, layout)
        for bot in bots:
            if isinstance(bot, ExternalPlayer):
                bot.deal = cards
        match.seat(bots, names)
        outcome: Outcome | None = None
        try:
            for seat, bot in enumerate(bots):
                own_seed = seeds[seat] if seeds is not None else player_seed(seed, seat)
                if isinstance(bot, ExternalPlayer):
                    bot.random_seed = own_seed
                match.start(seat, bot, random.Random(own_seed))
            outcome = match.run()
            return outcome
        finally:
            for bot in bots:
                interrupts.call_end(bot, outcome)


def _cards_of(game: str, seed: int, layout: object) -> frozenset[Hashable]:
    """What identifies the cards a match is dealt: its seed, and its first layout when given
    (later deals of a match come from the seed even then)."""
    cards: set[Hashable] = {(game, "seed", seed)}
    if layout is not None:
        cards.add((game, "layout", layout))
    return frozenset(cards)


def player_seed(seed: int, seat: int) -> int:
    """The seed of a seat's own generator in a match played with ``seed``."""
    digest = hashlib.blake2b(f"thousand player {seed} {seat}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def _seat_players(
    players: Sequence[Player | str],
    isolate: Isolation,
    sandbox: SandboxOptions | None,
    log_dir: str | None,
    limits: BotLimits | None,
    interrupts: Interrupts,
) -> tuple[tuple[str, ...], list[Player]]:
    """Each seat's player and its name: the spec it was given by, or its class's name."""
    names: list[str] = []
    bots: list[Player] = []
    try:
        for entry in players:
            if isinstance(entry, str):
                make = _factory(entry, isolate, sandbox, log_dir, limits, os.getcwd())
                bots.append(_made(make, interrupts))
                names.append(entry)
            else:
                bots.append(entry)
                names.append(type(entry).__name__)
    except BaseException:
        for bot in bots:
            interrupts.call_end(bot, None)
        raise
    return tuple(names), bots


@functools.lru_cache(maxsize=64)
def _factory(
    spec: str,
    isolate: Isolation,
    sandbox: SandboxOptions | None,
    log_dir: str | None,
    limits: BotLimits | None,
    folder: str,
) -> PlayerFactory:
    """What makes the player ``spec`` names (see :func:`thousand.load_player`), looked up once
    for match after match of the same bot, options and working ``folder`` (a spec may name a
    file relative to it): a tournament seats the same specs thousands of times."""
    return load_player(spec, isolate=isolate, sandbox=sandbox, log_dir=log_dir, limits=limits)


def _authors_code_here(entry: Player | str, isolate: Isolation) -> bool:
    """Whether the seat's player runs its author's code in this process, where a
    ``KeyboardInterrupt`` may be its own rather than Ctrl-C."""
    if isinstance(entry, str):
        return authors_code_here(entry, isolate=isolate)
    return not type(entry).__module__.startswith("thousand.")


def _made(make: Callable[[], Player], interrupts: Interrupts) -> Player:
    """A fresh player, or when its making fails (but for a spec error or the user's interrupt),
    a stand-in that fails the same way when the match starts: the failure is the seat's fault,
    as when isolated."""
    try:
        return make()
    except BotSpecError:
        raise
    except BaseException as error:
        if interrupts.users(error):
            raise
        return _Unmade(error)


class _Unmade:
    """The seat of a player whose making failed: it fails to start with the same error."""

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def start(self, seat: int, rules: AnyRules, rng: random.Random) -> None:
        """Fail as the making did."""
        raise self.error

    def act(self, observation: AnyObservation) -> object:
        """Never asked: a seat that failed to start is played for."""
        raise self.error


def _distinct(names: Sequence[str]) -> tuple[str, ...]:
    """The names, later copies of a name numbered ``name#2``, ``name#3``... (skipping numbers
    that are names already)."""
    taken = set(names)
    distinct: list[str] = []
    for name in names:
        if name in distinct:
            number = 2
            while f"{name}#{number}" in taken or f"{name}#{number}" in distinct:
                number += 1
            name = f"{name}#{number}"
        distinct.append(name)
    return tuple(distinct)


class _Alarm(BaseException):
    """Raised inside a Python bot that ran out of time (not an ``Exception``, so that a bot's
    own ``except Exception`` does not swallow it)."""


def _ring(signum: int, frame: object) -> None:
    raise _Alarm


class _Match(Generic[S, O, A, R, Rec]):
    """One match in progress: the state, the players and the bookkeeping of their faults."""

    def __init__(
        self,
        game: Game[S, O, A, R, Rec],
        rules: R,
        state: S,
        policy: FaultPolicy,
        time_limit: float | None,
        time_quota: float | None,
        seed: int,
        watch: Callable[[S], object] | None,
    ) -> None:
        self.game = game
        self.rules = rules
        self.state = state
        self.policy = policy
        self.time_limit = time_limit
        self.time_quota = time_quota
        self.seed = seed
        self.watch = watch
        self.bots: list[Player] = []
        self.starts_late: list[bool] = []
        """Per seat, whether its player tells the time a decision waited for it to start
        (``late_start``, a kept bot process's ready), which is not thinking."""
        self.seated: tuple[str, ...] = ()
        self.names: tuple[str, ...] = ()
        self.substitute_rng: random.Random | None = None
        self.faults: list[Fault] = []
        self.forfeited: int | None = None
        self.interrupts = Interrupts()
        """Tells the user's Ctrl-C from a bot's own ``KeyboardInterrupt`` (:func:`play` sets
        the one that notes SIGINT)."""

    def seat(self, bots: list[Player], names: tuple[str, ...]) -> None:
        """Seat the players under their names (kept as given for the record, told apart for the
        outcome); the watcher, if any, is shown the starting state."""
        seats = len(bots)
        self.bots = bots
        self.starts_late = [hasattr(bot, "late_start") for bot in bots]
        self.seated = names
        self.names = _distinct(names)
        self.gone = [False] * seats
        self.decisions = [0] * seats
        self.substitutions = [0] * seats
        self.think_time = [0.0] * seats
        if self.watch is not None:
            self.watch(self.state)

    def advance(self, state: S, action: A) -> S:
        """``state`` after ``action``, shown to the watcher if there is one."""
        state = state.apply(action)
        if self.watch is not None:
            self.watch(state)
        return state

    def start(self, seat: int, bot: Player, rng: random.Random) -> None:
        """Tell a player its seat; a player that fails here is played for all match long."""
        start = getattr(bot, "start", None)
        if start is None:
            return
        try:
            start(seat, self.rules, rng)
        except BaseException as error:
            if self.interrupts.users(error):
                raise
            self.gone[seat] = True
            detail = f"failed to start: {describe_failure(error)}"
            self.fault(self.state, seat, _status_of(error), detail, error=error)

    def run(self) -> Outcome:
        """Play until the game ends or a player forfeits."""
        if self.forfeited is None:
            if self.time_limit is None and self.time_quota is None:
                self.play(None)
            else:
                alarm = (
                    hasattr(signal, "setitimer")
                    and threading.current_thread() is threading.main_thread()
                )
                previous = signal.signal(signal.SIGALRM, _ring) if alarm else None
                try:
                    self.play(functools.partial(self.ask_timed, alarm=alarm))
                finally:
                    if alarm:
                        signal.setitimer(signal.ITIMER_REAL, 0)
                        signal.signal(signal.SIGALRM, previous)
        return self.outcome()

    def play(self, ask: Callable[[int, O], object] | None) -> None:
        """The play loop: each seat to act is asked with ``ask`` (which returns a
        :class:`_Failed` when the player fails to answer), or played for once it is gone.
        Without ``ask`` the loop asks the player itself, timing only its thinking: the usual
        case, and the one where the driver's own cost per decision shows most."""
        state = self.state
        observe = self.game.observe
        watch = self.watch
        gone = self.gone
        decisions = self.decisions
        bots = self.bots
        think_time = self.think_time
        clock = time.perf_counter
        skips_forced = [getattr(bot, "skip_forced", False) is True for bot in bots]
        starts_late = self.starts_late
        answer: object
        while (seat := state.player) >= 0:
            if gone[seat]:
                state = self.substitute(state, seat)
                continue
            if skips_forced[seat] and len(legal := state.legal_actions()) == 1:
                state = self.advance(state, legal[0])
                continue
            observation = observe(state, seat)
            decisions[seat] += 1
            if ask is None:
                began = clock()
                try:
                    answer = bots[seat].act(observation)
                except BaseException as error:
                    if self.interrupts.users(error):
                        raise
                    answer = _Failed(error)
                think_time[seat] += clock() - began
                if starts_late[seat]:
                    think_time[seat] -= getattr(bots[seat], "late_start", 0.0)
            else:
                answer = ask(seat, observation)
            if type(answer) is _Failed:
                state = self.handle_error(state, seat, observation, answer.error)
            else:
                # The answer is played as the engine's own legal action when the engine's one
                # legality check finds it among them, else it is the player's fault.
                try:
                    after = state.apply(answer)
                except IllegalActionError:
                    state = self.handle_illegal(state, seat, observation, answer)
                else:
                    state = after
                    if watch is not None:
                        watch(state)
                    continue
            if self.forfeited is not None:
                break
        self.state = state

    def ask_timed(self, seat: int, observation: O, alarm: bool) -> object:
        """The player's answer within its time, or a :class:`_Failed` holding why not."""
        allowed = float("inf") if self.time_limit is None else self.time_limit
        if self.time_quota is not None:
            allowed = min(allowed, self.time_quota - self.think_time[seat])
        bot = self.bots[seat]
        timed = getattr(bot, "act_within", None)
        began = time.perf_counter()
        answer: object
        try:
            if timed is not None:
                answer = timed(observation, allowed)
            elif alarm:
                try:
                    signal.setitimer(signal.ITIMER_REAL, allowed)
                    answer = bot.act(observation)
                finally:
                    signal.setitimer(signal.ITIMER_REAL, 0)
            else:
                answer = bot.act(observation)
        except _Alarm:
            answer = _Failed(BotTimeout(f"took more than {_seconds(allowed)}"))
        except BaseException as error:
            if self.interrupts.users(error):
                raise
            answer = _Failed(error)
        spent = time.perf_counter() - began
        if self.starts_late[seat]:
            spent -= getattr(bot, "late_start", 0.0)
        self.think_time[seat] += spent
        if spent > allowed and not isinstance(answer, _Failed):
            answer = _Failed(BotTimeout(f"took {_seconds(spent)}, more than {_seconds(allowed)}"))
        quota = self.time_quota
        if isinstance(answer, _Failed) and quota is not None and self.think_time[seat] >= quota:
            self.gone[seat] = True
            answer = _Failed(BotTimeout(f"used up its time quota of {_seconds(quota)}"))
        return answer

    def handle_error(self, state: S, seat: int, observation: O, error: BaseException) -> S:
        """A player that raised or ran out of time."""
        if isinstance(error, BotFailure) and error.fatal:
            self.gone[seat] = True
        self.fault(state, seat, _status_of(error), describe_failure(error), observation, error)
        return self.after_fault(state, seat)

    def handle_illegal(self, state: S, seat: int, observation: O, answer: object) -> S:
        """A player that answered with something that is not one of its legal actions."""
        shown, action = self.read_answer(answer)
        detail = f"answered {shown}, not one of its legal actions"
        if action is not None:
            try:
                state.apply(action)
            except IllegalActionError as error:
                detail += f" ({error.reason})"
        self.fault(state, seat, Status.ILLEGAL, detail, observation)
        return self.after_fault(state, seat)

    def read_answer(self, answer: object) -> tuple[str, A | None]:
        """What a player answered as a person reads it (an action's text, such as ``bid 9999``, or
        else its repr), and the game's own action when the answer is one, legal or not."""
        is_action = any(type(answer) is kind for kind in self.game.action_types)
        try:
            text = str(answer) if is_action else repr(answer)
        except BaseException as error:
            if self.interrupts.users(error):
                raise
            return f"a {type(answer).__name__} that cannot be shown", None
        action: A | None = None
        if is_action:
            with contextlib.suppress(ValueError):
                parsed = self.game.parse_action(text)
                action = parsed if same_value(parsed, answer) else None
        elif type(answer) is str:
            text += " (text, not an action)"
        return (text if len(text) <= 80 else text[:77] + "..."), action

    def fault(
        self,
        state: S,
        seat: int,
        status: Status,
        detail: str,
        observation: O | None = None,
        error: BaseException | None = None,
    ) -> None:
        """Record a fault made in ``state`` and apply the policy (all but the substitution);
        ``error`` is what the player raised, if it raised."""
        if observation is None:
            observation = self.game.seen_from(state, seat)
        shown = "" if error is None else bot_traceback(error)
        fault = Fault(seat, status, self.game.actions_played(state), detail, observation, shown)
        self.faults.append(fault)
        if self.policy is FaultPolicy.RAISE:
            raise PlayerError(fault) from error
        if self.policy is FaultPolicy.FORFEIT and self.forfeited is None:
            self.forfeited = seat

    def after_fault(self, state: S, seat: int) -> S:
        """The state after a fault: unchanged on a forfeit, else with a substitute action."""
        if self.forfeited is not None:
            return state
        return self.substitute(state, seat)

    def substitute(self, state: S, seat: int) -> S:
        """Play a random legal action for the seat."""
        self.substitutions[seat] += 1
        if self.substitute_rng is None:
            self.substitute_rng = random.Random(f"thousand substitute {self.seed}")
        return self.advance(state, self.substitute_rng.choice(state.legal_actions()))

    def outcome(self) -> Outcome:
        """The match's outcome as it stands."""
        state = self.state
        statuses = [Status.OK] * len(self.bots)
        for fault in reversed(self.faults):
            statuses[fault.seat] = fault.status
        scores, keys = self.game.standings(state, self.forfeited)
        ranks = [(seat != self.forfeited, *key) for seat, key in enumerate(keys)]
        return Outcome(
            rules=self.rules,
            players=self.names,
            record=self.game.record(state, self.seated),
            result=None if self.forfeited is not None else self.game.result(state),
            scores=scores,
            places=_places(ranks),
            statuses=tuple(statuses),
            faults=tuple(self.faults),
            forfeited=self.forfeited,
            decisions=tuple(self.decisions),
            substitutions=tuple(self.substitutions),
            think_time=tuple(self.think_time),
        )


@attrs.frozen
class _Failed:
    """A player's failure to answer, told apart from anything a player could return."""

    error: BaseException


def _places(keys: list[tuple[bool, bool, int]]) -> tuple[int, ...]:
    """Competition places from ranking keys: 1 plus the number of seats strictly ahead."""
    return tuple(1 + sum(other > key for other in keys) for key in keys)


def _status_of(error: BaseException) -> Status:
    """The status of a player that failed to answer: out of time, or in error."""
    return Status.TIMEOUT if isinstance(error, BotTimeout) else Status.ERROR


def describe_failure(error: BaseException) -> str:
    """A player's failure as its fault shows it, on one line: ``raised KeyError: 'x'``."""
    try:
        text = str(error) or type(error).__name__
    except Exception:
        text = type(error).__name__
    text = " / ".join(line.strip() for line in text.splitlines() if line.strip())
    if isinstance(error, BotFailure):
        return text
    return f"raised {type(error).__name__}: {text}"


def _seconds(value: float) -> str:
    return f"{value:.3f} s"
