"""A match you step: the host (a driver, a server, a test) asks who is to act, hands that seat
its observation however it likes, and submits the answer when it comes, with the seconds it took.

The match keeps the rules of fair play that :func:`thousand.play` applies: an answer that is not a
legal action, a failure the host reports, or an answer past the seat's time is a fault, recorded
with the observation the seat was given and followed as the fault policy says (forfeit,
substitute or raise). It reads no clock unless the host leaves it to, sends no signal and does no
input or output, so one process can hold thousands at once.

    >>> import thousand
    >>> match = thousand.start_match(thousand.Rules.preset("russian"), seed=1, single_deal=True)
    >>> while (seat := match.to_act) is not None:
    ...     _ = match.submit(seat, match.observation().legal_actions[0], elapsed=0.001)
    >>> match.outcome().statuses
    (<Status.OK: 'ok'>, <Status.OK: 'ok'>, <Status.OK: 'ok'>)
"""

from __future__ import annotations

import contextlib
import enum
import random
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeAlias, cast, overload

import attrs

from thousand import bluff
from thousand.classic.layout import Layout
from thousand.common.state_base import same_value
from thousand.errors import BotFailure, BotTimeout, IllegalActionError, SeatError, TurnError
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
from thousand.players import Player, PlayerError
from thousand.table.faults import FaultPolicy, Status
from thousand.table.interrupts import Interrupts
from thousand.table.tracebacks import bot_traceback

if TYPE_CHECKING:
    from thousand.classic.actions import Action
    from thousand.classic.observation import Observation
    from thousand.classic.record import Record
    from thousand.classic.rules import Rules
    from thousand.classic.state import GameState

__all__ = [
    "Fault",
    "Match",
    "Outcome",
    "Played",
    "Step",
    "describe_failure",
    "resume_match",
    "start_match",
    "thinking_time",
]


class Played(enum.Enum):
    """Who chose an action of a match."""

    ANSWER = "answer"
    """The seat itself."""
    FORCED = "forced"
    """The match, for a seat that skips its forced decisions: the only legal action."""
    SUBSTITUTE = "substitute"
    """The match, for a seat at fault or out of the match: a random legal action."""


@attrs.frozen
class Step(Generic[A]):
    """One action of a match as a listener is shown it (see :meth:`Match.listen`)."""

    number: int
    """How many actions of the match came before it."""
    seat: int
    """The seat that took it."""
    action: A
    """The action, as the listener's seat (or a spectator) sees it: a card it may not see is
    hidden (``give ?? 1``, ``discard ??``, ``hide ??``)."""
    played: Played
    """Who chose it."""


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


@overload
def start_match(
    rules: Rules,
    *,
    seed: int,
    names: Sequence[str] | None = ...,
    single_deal: bool = ...,
    layout: Layout | None = ...,
    dealer: int | None = ...,
    time_limit: float | None = ...,
    time_quota: float | None = ...,
    on_fault: FaultPolicy | str = ...,
    skip_forced: Sequence[bool] = ...,
    clock: Callable[[], float] | None = ...,
    watch: Callable[[GameState], object] | None = ...,
) -> Match[GameState, Observation, Action, Rules, Record]: ...


@overload
def start_match(
    rules: bluff.Rules,
    *,
    seed: int,
    names: Sequence[str] | None = ...,
    single_deal: bool = ...,
    layout: bluff.Layout | None = ...,
    dealer: int | None = ...,
    time_limit: float | None = ...,
    time_quota: float | None = ...,
    on_fault: FaultPolicy | str = ...,
    skip_forced: Sequence[bool] = ...,
    clock: Callable[[], float] | None = ...,
    watch: Callable[[bluff.State], object] | None = ...,
) -> Match[bluff.State, bluff.Observation, bluff.Action, bluff.Rules, bluff.Record]: ...


def start_match(
    rules: AnyRules,
    *,
    seed: int,
    names: Sequence[str] | None = None,
    single_deal: bool = False,
    layout: Layout | bluff.Layout | None = None,
    dealer: int | None = None,
    time_limit: float | None = None,
    time_quota: float | None = None,
    on_fault: FaultPolicy | str = FaultPolicy.FORFEIT,
    skip_forced: Sequence[bool] = (),
    clock: Callable[[], float] | None = None,
    watch: Callable[[GameState], object] | Callable[[bluff.State], object] | None = None,
) -> AnyMatch:
    """A match of either game, at its start, to be stepped (see :class:`Match`).

    Args:
        rules: :class:`thousand.Rules` or :class:`thousand.bluff.Rules`; the game follows.
        seed: deals the cards, as in :func:`thousand.play`; it also seeds the substitutes.
        names: a name for each seat's player, kept in the record (by default ``seat0``...).
        single_deal: Thousand only: one scored deal instead of a match to 1000.
        layout: the first deal's cards, instead of dealing them from the seed.
        dealer: the first dealer; by default drawn from the seed (seat 0 in a single deal).
        time_limit: seconds a seat may take for one decision.
        time_quota: seconds a seat may take over the whole match.
        on_fault: ``forfeit`` (the default), ``substitute`` or ``raise``; see
            :class:`~thousand.FaultPolicy`.
        skip_forced: per seat, whether it is spared its forced decisions (those with a single
            legal action), which the match then plays for it.
        clock: the seconds of a clock (such as ``time.monotonic``) that times a decision from the
            moment it is posed to its answer, when :meth:`Match.submit` is not told ``elapsed``.
            Without one, an answer not told its time took none.
        watch: called with the starting state and then with the state after every action: it
            sees every card, so no seat may be given it.
    """
    game = game_of(rules)

    def started(game: Game[S, O, A, R, Rec]) -> Match[S, O, A, R, Rec]:
        own = game.own_rules(rules)
        state = game.start(own, seed=seed, layout=layout, dealer=dealer, single_deal=single_deal)
        return Match(
            game, own, state, seed=seed, names=names, time_limit=time_limit,
            time_quota=time_quota, on_fault=on_fault, skip_forced=skip_forced, clock=clock,
            watch=_watching(watch),
        )  # fmt: skip

    return game.handle(started)


def resume_match(
    record: AnyRecord,
    *,
    time_limit: float | None = None,
    time_quota: float | None = None,
    on_fault: FaultPolicy | str = FaultPolicy.FORFEIT,
    skip_forced: Sequence[bool] = (),
    clock: Callable[[], float] | None = None,
    watch: Callable[[GameState], object] | Callable[[bluff.State], object] | None = None,
) -> AnyMatch:
    """The match a record (of a match not over, such as one saved when play stopped) left off,
    its seats named as the record names them, to be stepped on (see :func:`start_match`).

    Raises:
        RecordError: the record does not replay.
    """
    game = game_of(record.rules)

    def resumed(game: Game[S, O, A, R, Rec]) -> Match[S, O, A, R, Rec]:
        own = game.own_rules(record.rules)
        state = game.replay(record)  # type: ignore[arg-type]
        return Match(
            game, own, state, seed=record.seed, names=record.players or None,
            time_limit=time_limit, time_quota=time_quota, on_fault=on_fault,
            skip_forced=skip_forced, clock=clock, watch=_watching(watch),
        )  # fmt: skip

    return game.handle(resumed)


def _watching(
    watch: Callable[[GameState], object] | Callable[[bluff.State], object] | None,
) -> Callable[[AnyState], object] | None:
    """A watcher given with a game's rules or record (the overloads pair them), as the match of
    that game takes it: it is only ever shown that game's states."""
    return cast("Callable[[AnyState], object] | None", watch)


AnyMatch: TypeAlias = (
    "Match[GameState, Observation, Action, Rules, Record]"
    " | Match[bluff.State, bluff.Observation, bluff.Action, bluff.Rules, bluff.Record]"
)
"""A match of either game."""


class Match(Generic[S, O, A, R, Rec]):
    """One match in progress, stepped by its host: :attr:`to_act` is the seat awaited,
    :meth:`observation` what that seat may see, and :meth:`submit` (or :meth:`fail`, when the
    seat could not answer) plays its answer. Seats out of the match (one that failed to start,
    crashed for good or used up its quota) are played for by a random legal action, and so are
    the forced decisions of seats that skip them, before the next seat is awaited.

    Made by :func:`start_match` or :func:`resume_match`. It holds the whole state, every card
    included: the host shows a seat only :meth:`observation`.
    """

    __slots__ = (
        "_awaited", "_listeners", "_observation", "_observe", "_posed", "_substitute_rng",
        "_timed", "clock", "decisions", "faults", "forfeited", "game", "gone", "interrupts",
        "names", "policy", "rules", "seated", "seed", "skips_forced", "state", "substitutions",
        "think_time", "time_limit", "time_quota", "watch",
    )  # fmt: skip

    def __init__(
        self,
        game: Game[S, O, A, R, Rec],
        rules: R,
        state: S,
        *,
        seed: int,
        names: Sequence[str] | None = None,
        time_limit: float | None = None,
        time_quota: float | None = None,
        on_fault: FaultPolicy | str = FaultPolicy.FORFEIT,
        skip_forced: Sequence[bool] = (),
        clock: Callable[[], float] | None = None,
        watch: Callable[[AnyState], object] | None = None,
    ) -> None:
        seats = rules.players
        if names is not None and len(names) != seats:
            raise SeatError(f"these rules seat {seats} players, but {len(names)} names were given")
        if skip_forced and len(skip_forced) != seats:
            raise SeatError(f"skip_forced names {len(skip_forced)} seats of {seats}")
        self.game = game
        self.rules = rules
        self.state = state
        """The match's state now, every card in it: never a seat's to see."""
        self.seed = seed
        self.policy = FaultPolicy(on_fault)
        self.time_limit = time_limit
        self.time_quota = time_quota
        self._timed = time_limit is not None or time_quota is not None
        self._observe = game.observe
        self.clock = clock
        self.watch = game.watcher(watch)
        self.seated = tuple(names) if names is not None else tuple(f"seat{n}" for n in range(seats))
        """Each seat's player as the record names it."""
        self.names = _distinct(self.seated)
        """The same, later copies of a name numbered (``random#2``), as the outcome names them."""
        self.skips_forced = [bool(flag) for flag in skip_forced] or [False] * seats
        self.gone = [False] * seats
        """Per seat, whether it is out of the match and played for."""
        self.decisions = [0] * seats
        self.substitutions = [0] * seats
        self.think_time = [0.0] * seats
        self.faults: list[Fault] = []
        self.forfeited: int | None = None
        self.interrupts = Interrupts()
        """Tells the user's Ctrl-C from a bot's own ``KeyboardInterrupt`` while the match shows
        a bot's answer (:func:`thousand.play` sets the one that notes SIGINT)."""
        self._substitute_rng: random.Random | None = None
        self._awaited = _UNSETTLED
        self._observation: O | None = None
        self._posed = 0.0
        self._listeners: list[tuple[Callable[[Step[A]], object], int | None]] = []
        if self.watch is not None:
            self.watch(state)

    def listen(self, listener: Callable[[Step[A]], object], seat: int | None = None) -> None:
        """Call ``listener`` with each action played from now on, whoever chose it, as ``seat``
        sees it (its own cards and the cards given to it in full, the others' hidden), or as a
        spectator sees it when ``seat`` is ``None``: what a host sends a seat's player, a
        person at the table or an onlooker.

        Raises:
            SeatError: there is no such seat.
        """
        if seat is not None and not 0 <= seat < len(self.gone):
            raise SeatError(f"there is no seat {seat} at a table of {len(self.gone)}")
        self._listeners.append((listener, seat))

    def _tell(self, before: S, seat: int, action: A, played: Played) -> None:
        """Show the listeners ``action``, played by ``seat`` in ``before``."""
        number = self.game.actions_played(before)
        seen = self.game.seen_action
        for listener, viewer in self._listeners:
            listener(Step(number, seat, seen(action, seat, viewer), played))

    @property
    def to_act(self) -> int | None:
        """The seat whose answer the match awaits, or ``None`` once it is over (the game ended
        or a seat forfeited)."""
        awaited = self._awaited
        if awaited == _UNSETTLED:
            awaited = self._settle()
        return None if awaited < 0 else awaited

    @property
    def is_over(self) -> bool:
        """Whether the match is over: the game ended, or a seat forfeited it."""
        return self.to_act is None

    def observation(self) -> O:
        """What the seat to act may see: its observation, with its legal actions.

        Raises:
            TurnError: the match is over.
        """
        observation = self._observation
        if observation is None:
            seat = self._awaited
            if seat == _UNSETTLED:
                seat = self._settle()
            if seat < 0:
                raise TurnError("the match is over: no seat is to act")
            observation = self._observation = self._observe(self.state, seat)
        return observation

    def allowed(self) -> float:
        """Seconds the seat to act may take for its decision: the time limit, or what is left of
        its quota if less; infinite without either."""
        seat = self.to_act
        allowed = float("inf") if self.time_limit is None else self.time_limit
        if self.time_quota is not None and seat is not None:
            allowed = min(allowed, self.time_quota - self.think_time[seat])
        return allowed

    def submit(self, seat: int, answer: object, elapsed: float | None = None) -> int | None:
        """Play ``seat``'s answer, given after ``elapsed`` seconds (by default, what the clock
        says since the decision was posed), and return the seat to act next (``None`` once the
        match is over). An answer that is not one of the seat's legal actions, or that came
        past its time, is a fault.

        Raises:
            TurnError: ``seat`` is not the seat to act (nothing changes).
            PlayerError: a fault under the ``raise`` policy.
        """
        if seat != self._awaited or seat < 0:
            self._check_turn(seat)
        if elapsed is None:
            elapsed = 0.0 if self.clock is None else self.clock() - self._posed
        self.decisions[seat] += 1
        if self._timed:
            allowed = self.allowed()
            self.think_time[seat] += elapsed
            if elapsed > allowed:
                taken = f"took {_seconds(elapsed)}, more than {_seconds(allowed)}"
                self._failed(seat, BotTimeout(taken))
                return self.to_act
        else:
            self.think_time[seat] += elapsed
        before = self.state
        try:
            after = before.apply(answer)
        except IllegalActionError:
            self._illegal(seat, answer)
            return self.to_act
        self.state = after
        if self._listeners:
            self._tell(before, seat, cast("A", answer), Played.ANSWER)
        if self.watch is not None:
            self.watch(after)
        self._observation = None
        seat = after.player
        if seat < 0 or self.gone[seat] or self.skips_forced[seat]:
            seat = self._settle()
            return None if seat < 0 else seat
        self._awaited = seat
        if self.clock is not None:
            self._posed = self.clock()
        return seat

    def fail(self, seat: int, error: BaseException, elapsed: float | None = None) -> int | None:
        """Record that ``seat`` could not answer: it raised ``error``, its program broke, or it
        ran out of time (a :class:`~thousand.BotTimeout`), after ``elapsed`` seconds. A
        :class:`~thousand.BotFailure` that is fatal puts the seat out of the match. Returns
        the seat to act next (``None`` once the match is over).

        Raises:
            TurnError: ``seat`` is not the seat to act (nothing changes).
            PlayerError: under the ``raise`` policy.
        """
        if seat != self._awaited or seat < 0:
            self._check_turn(seat)
        if elapsed is None:
            elapsed = 0.0 if self.clock is None else self.clock() - self._posed
        self.decisions[seat] += 1
        self.think_time[seat] += elapsed
        self._failed(seat, error)
        return self.to_act

    def play_out(self, players: Sequence[Player[O]]) -> None:
        """Step the match to its end, asking each seat's player in turn (``players``, one per
        seat) and playing its answer as :meth:`submit` does, with the seconds it thought by the
        match's clock or else :func:`time.perf_counter` (less a player's ``late_start``, the
        wait for its process to start). A player that raises is at fault as :meth:`fail` says,
        unless it is the user's interrupt (see :attr:`interrupts`), which propagates.

        This is :func:`thousand.play`'s loop when no time limit is set, and the one where the
        cost per decision shows most: with no limit, listener or watcher, a legal answer is
        played on the spot, and only the rest goes through :meth:`submit`.
        """
        clock = self.clock or time.perf_counter
        if self._timed or self._listeners or self.watch is not None:
            seat = self.to_act
            while seat is not None:
                seat = self._ask(players[seat], seat, self.observation(), clock)
            return
        interrupts = self.interrupts
        starts_late = [hasattr(player, "late_start") for player in players]
        late = any(starts_late)
        observe, decisions, think_time = self._observe, self.decisions, self.think_time
        gone, skips = self.gone, self.skips_forced
        seat = self.to_act
        try:
            while seat is not None:
                state = self.state
                seen = observe(state, seat)
                player = players[seat]
                began = clock()
                try:
                    answer = player.act(seen)
                except BaseException as error:
                    if interrupts.users(error):
                        raise
                    self._awaited, self._observation = seat, seen
                    seat = self.fail(seat, error, thinking_time(clock() - began, player))
                    continue
                spent = clock() - began
                if late and starts_late[seat]:
                    spent = thinking_time(spent, player)
                try:
                    after = state.apply(answer)
                except IllegalActionError:
                    self._awaited, self._observation = seat, seen
                    seat = self.submit(seat, answer, spent)
                    continue
                decisions[seat] += 1
                think_time[seat] += spent
                self.state = after
                seat = after.player
                if seat < 0 or gone[seat] or skips[seat]:
                    seat = self._settle()
                    seat = None if seat < 0 else seat
        except BaseException:
            # Left part way (the user's interrupt): the seat awaited is worked out anew.
            self._awaited, self._observation = _UNSETTLED, None
            raise

    def _ask(self, player: Player[O], seat: int, seen: O, clock: Callable[[], float]) -> int | None:
        """Ask ``player``, the seat to act, for its answer to ``seen`` and submit it (or its
        failure); the seat to act next."""
        began = clock()
        try:
            answer = player.act(seen)
        except BaseException as error:
            if self.interrupts.users(error):
                raise
            return self.fail(seat, error, thinking_time(clock() - began, player))
        return self.submit(seat, answer, thinking_time(clock() - began, player))

    def fail_to_start(self, seat: int, error: BaseException) -> None:
        """Record that ``seat``'s player failed to start, with ``error``: it is played for all
        match long.

        Raises:
            PlayerError: under the ``raise`` policy.
        """
        if not 0 <= seat < len(self.gone):
            raise SeatError(f"there is no seat {seat} at a table of {len(self.gone)}")
        self.gone[seat] = True
        detail = f"failed to start: {describe_failure(error)}"
        self._fault(seat, _status_of(error), detail, error=error)
        self._awaited = _UNSETTLED
        self._observation = None

    def record(self) -> Rec:
        """The record of everything played so far, naming the seats' players."""
        return self.game.record(self.state, self.seated)

    def outcome(self) -> Outcome:
        """The match's outcome, once it is over.

        Raises:
            TurnError: it is not over.
        """
        if (seat := self.to_act) is not None:
            raise TurnError(f"the match is not over: seat {seat} is to act")
        state = self.state
        statuses = [Status.OK] * len(self.gone)
        for fault in reversed(self.faults):
            statuses[fault.seat] = fault.status
        scores, keys = self.game.standings(state, self.forfeited)
        ranks = [(seat != self.forfeited, *key) for seat, key in enumerate(keys)]
        return Outcome(
            rules=self.rules,
            players=self.names,
            record=self.record(),
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

    def _settle(self) -> int:
        """Play for the seats out of the match and the forced decisions of seats that skip
        them, up to the next seat to ask (or the end), and pose its decision; that seat, or
        :data:`_OVER`."""
        state = self.state
        seat = state.player
        if seat >= 0 and (self.gone[seat] or self.skips_forced[seat] or self.forfeited is not None):
            seat = self._bypass(seat)
        self._observation = None
        self._awaited = seat
        if self.clock is not None:
            self._posed = self.clock()
        return seat

    def _bypass(self, seat: int) -> int:
        """:meth:`_settle` past seats out of the match or skipping a forced decision."""
        state = self.state
        gone = self.gone
        skips = self.skips_forced
        while seat >= 0 and self.forfeited is None:
            if gone[seat]:
                state = self._substitute(state, seat)
            elif skips[seat] and len(legal := state.legal_actions()) == 1:
                state = self._advance(state, legal[0], Played.FORCED)
            else:
                break
            seat = state.player
        self.state = state
        return seat if seat >= 0 and self.forfeited is None else _OVER

    def _check_turn(self, seat: int) -> None:
        """Refuse an answer of ``seat`` unless it is the seat to act."""
        awaited = self.to_act
        if seat == awaited:
            return
        shown = "the match is over" if awaited is None else f"seat {awaited} is to act"
        raise TurnError(f"seat {seat} answered, but {shown}")

    def _failed(self, seat: int, error: BaseException) -> None:
        """A seat that could not answer in time, or at all."""
        quota = self.time_quota
        if quota is not None and self.think_time[seat] >= quota:
            error = BotTimeout(f"used up its time quota of {_seconds(quota)}")
            self.gone[seat] = True
        elif isinstance(error, BotFailure) and error.fatal:
            self.gone[seat] = True
        observation = self.observation()
        self._fault(seat, _status_of(error), describe_failure(error), observation, error)
        self._after_fault(seat)

    def _illegal(self, seat: int, answer: object) -> None:
        """A seat that answered with something that is not one of its legal actions."""
        shown, action = self._read_answer(answer)
        detail = f"answered {shown}, not one of its legal actions"
        if action is not None:
            try:
                self.state.apply(action)
            except IllegalActionError as error:
                detail += f" ({error.reason})"
        self._fault(seat, Status.ILLEGAL, detail, self.observation())
        self._after_fault(seat)

    def _read_answer(self, answer: object) -> tuple[str, A | None]:
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

    def _fault(
        self,
        seat: int,
        status: Status,
        detail: str,
        observation: O | None = None,
        error: BaseException | None = None,
    ) -> None:
        """Record a fault made now and apply the policy (all but the substitution); ``error``
        is what the player raised, if it raised."""
        state = self.state
        if observation is None:
            observation = self.game.seen_from(state, seat)
        shown = "" if error is None else bot_traceback(error)
        fault = Fault(seat, status, self.game.actions_played(state), detail, observation, shown)
        self.faults.append(fault)
        if self.policy is FaultPolicy.RAISE:
            raise PlayerError(fault) from error
        if self.policy is FaultPolicy.FORFEIT and self.forfeited is None:
            self.forfeited = seat

    def _after_fault(self, seat: int) -> None:
        """Unchanged on a forfeit, else a substitute action for the seat."""
        if self.forfeited is None:
            self.state = self._substitute(self.state, seat)
        self._awaited = _UNSETTLED
        self._observation = None

    def _advance(self, state: S, action: A, played: Played) -> S:
        """``state`` after ``action``, which the match chose for the seat to act, shown to the
        watcher and the listeners."""
        after = state.apply(action)
        if self.watch is not None:
            self.watch(after)
        if self._listeners:
            self._tell(state, state.player, action, played)
        return after

    def _substitute(self, state: S, seat: int) -> S:
        """Play a random legal action for the seat."""
        self.substitutions[seat] += 1
        if self._substitute_rng is None:
            self._substitute_rng = random.Random(f"thousand substitute {self.seed}")
        action = self._substitute_rng.choice(state.legal_actions())
        return self._advance(state, action, Played.SUBSTITUTE)


_UNSETTLED = -2
"""The seat awaited is to be worked out (something was played since)."""
_OVER = -1
"""No seat is awaited: the match is over."""


def thinking_time(spent: float, player: object) -> float:
    """Seconds ``player`` thought, of ``spent`` waiting for its answer: less any wait for its
    process to start (a kept bot process's ``late_start``), which is not thinking."""
    return spent - getattr(player, "late_start", 0.0)


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
