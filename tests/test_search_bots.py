"""The search bots ``pimc`` and ``ismcts``: whole games of every Thousand preset and of 1000?
without a fault, decisions in every phase, the same decisions from the same seed, their budgets,
choices that can be checked on written deals, and their options in bot specs and on the command
line.

Thousand deals are dealt from written layouts with seat 0 dealing, so seat 1 is the forehand
(held to 100 when everyone else passes, and then the declarer) and seat 2 speaks first; with two
players seat 0 speaks first.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any, TypeVar

import attrs
import pytest
from typer.testing import CliRunner

import thousand
from thousand import (
    Bid,
    BotSpecError,
    Card,
    DealResult,
    GameState,
    Layout,
    MatchResult,
    Pass,
    Phase,
    Play,
    Rules,
    SeatedPlayer,
    bluff,
    load_player,
    new_deal,
    parse_action,
)
from thousand.bots import GreedyPlayer, IsmctsPlayer, PimcPlayer, search
from thousand.bots import ismcts as ismcts_module
from thousand.bots import pimc as pimc_module
from tournament.cli import app

runner = CliRunner()
RUSSIAN = Rules.preset("russian")
TWO_PLAYERS = Rules.preset("polish-2p")
SearchBot = type[PimcPlayer] | type[IsmctsPlayer]
State = TypeVar("State", GameState, bluff.State)
BOTS: list[SearchBot] = [PimcPlayer, IsmctsPlayer]
SMALL = 60
"""A budget of simulated actions small enough for whole games in a test."""


# Helpers


class Recorder(SeatedPlayer):
    """Plays as ``inner`` does, keeping every observation's phase and the answer given."""

    def __init__(self, inner: SeatedPlayer) -> None:
        self.inner = inner
        self.decisions: list[tuple[Any, object]] = []

    def start(self, seat: int, rules: Any, rng: random.Random) -> None:
        super().start(seat, rules, rng)
        self.inner.start(seat, rules, rng)

    def act(self, observation: Any) -> object:
        action = self.inner.act(observation)
        assert action in observation.legal_actions
        self.decisions.append((observation.phase, action))
        return action

    @property
    def phases(self) -> set[Any]:
        return {phase for phase, _ in self.decisions}


class Passer(SeatedPlayer):
    """Passes whenever the auction allows it and plays greedy otherwise."""

    def __init__(self) -> None:
        self.greedy = GreedyPlayer()

    def start(self, seat: int, rules: Any, rng: random.Random) -> None:
        super().start(seat, rules, rng)
        self.greedy.start(seat, rules, rng)

    def act(self, observation: Any) -> object:
        if observation.phase is Phase.AUCTION and Pass() in observation.legal_actions:
            return Pass()
        return self.greedy.act(observation)


def small(bot: SearchBot, steps: int = SMALL) -> SeatedPlayer:
    return bot(steps=steps)


def deal(hands: list[str], talon: Any, rules: Rules = RUSSIAN) -> GameState:
    """A Thousand deal from a written layout, seat 0 dealing."""
    return new_deal(rules, layout=Layout(hands=hands, talon=talon), dealer=0)


def act(state: State, *texts: str) -> State:
    """Apply each action text in turn (to a state of either game)."""
    for text in texts:
        if isinstance(state, bluff.State):
            state = state.apply(bluff.parse_action(text))
        else:
            state = state.apply(parse_action(text))
    return state


def choice(player: SeatedPlayer, state: Any, seed: int = 0) -> object:
    """What ``player`` in the seat to act chooses, its generator seeded with ``seed``."""
    seat = state.current_player
    player.start(seat, state.rules, random.Random(seed))
    return player.act(state.observation(seat))


def bluff_deal(hands: list[str], pile: str = "", **fields: Any) -> bluff.State:
    """A 1000? game dealt as written, the rest of the deck in the draw pile; seat 0 starts."""
    rules = bluff.Rules(players=len(hands), **fields)
    rest = list(rules.deck)
    for card in bluff.cards(" ".join([*hands, pile])):
        rest.remove(card)
    layout = bluff.Layout(hands=hands, draw_pile=[*bluff.cards(pile), *rest])
    return bluff.new_game(rules, layout=layout, dealer=len(hands) - 1, seed=0)


def statuses(outcome: thousand.Outcome) -> list[str]:
    return [status.value for status in outcome.statuses]


def assert_clean(outcome: thousand.Outcome) -> None:
    """Every seat ended ``ok``: no fault, nothing played for a bot, the game finished."""
    assert statuses(outcome) == ["ok"] * len(outcome.players)
    assert outcome.faults == ()
    assert outcome.forfeited is None
    assert set(outcome.substitutions) == {0}
    assert outcome.result is not None


# Whole games without a fault


@pytest.mark.slow
@pytest.mark.parametrize("preset", Rules.preset_names())
def test_single_deals_of_every_preset_without_a_fault(preset: str) -> None:
    """Both search bots at the table, in every seat over the seeds; the record replays to the
    deal result played."""
    rules = Rules.preset(preset)
    for seed in range(3):
        bots: list[SeatedPlayer] = [
            small(PimcPlayer),
            small(IsmctsPlayer),
            GreedyPlayer(),
            small(PimcPlayer),
        ]
        bots = bots[: rules.players]
        shift = seed % rules.players
        seated = [Recorder(bot) for bot in bots[shift:] + bots[:shift]]
        outcome = thousand.play(seated, rules, seed=seed, single_deal=True)
        assert_clean(outcome)
        assert isinstance(outcome.result, DealResult)
        assert isinstance(outcome.record, thousand.Record)
        assert thousand.replay(outcome.record).result == outcome.result
        sitter = outcome.result.layout.sitter
        for seat, player in enumerate(seated):
            if seat == sitter:
                assert outcome.decisions[seat] == len(player.decisions) == 0
            elif not isinstance(player.inner, GreedyPlayer):
                assert outcome.decisions[seat] == len(player.decisions) > 0


@pytest.mark.slow
@pytest.mark.parametrize("preset", Rules.preset_names())
def test_short_matches_of_every_preset_without_a_fault(preset: str) -> None:
    """A match cut to four deals, given as bot specs."""
    rules = attrs.evolve(Rules.preset(preset), max_deals=4)
    specs = [f"pimc(steps={SMALL})", f"ismcts(steps={SMALL})", "greedy", "random"]
    specs = specs[: rules.players]
    outcome = thousand.play(specs, rules, seed=11)
    assert_clean(outcome)
    assert isinstance(outcome.result, MatchResult)
    assert isinstance(outcome.record, thousand.Record)
    assert 1 <= len(outcome.record.deals) <= 4
    assert outcome.players == tuple(specs)


HOUSE_RULES = {
    "bolts": 3,
    "samosval": "both",
    "redeal_nines": "after_exchange",
    "redeal_jacks": "dealt",
    "redeal_weak_hand": 30,
    "gold_set": 2,
    "barrel_fall_penalty": "both",
    "barrel_reset_falls": 2,
}
"""Every house rule at once, with a weak-hand limit that throws many deals in."""


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["russian-4", "polish-4", "russian"])
def test_house_rules_and_four_seats_do_not_confuse_the_bots(preset: str) -> None:
    """Search bots and greedy play matches with every house rule on: sitter's bonuses, bolts,
    throw-ins as dealt and after the exchange, the gold set; no fault, and the records replay."""
    rules = Rules.from_dict({"preset": preset, **HOUSE_RULES, "max_deals": 12})
    specs = [f"pimc(steps={SMALL})", f"ismcts(steps={SMALL})", "greedy", "greedy"]
    thrown = 0
    for seed in range(3):
        outcome = thousand.play(specs[: rules.players], rules, seed=seed)
        assert_clean(outcome)
        assert isinstance(outcome.record, thousand.Record)
        assert thousand.replay(outcome.record).result == outcome.result
        thrown += sum(deal.thrown_in is not None for deal in thousand.replay(outcome.record).deals)
    assert thrown > 0


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_1000_games_without_a_fault_in_every_phase(players: int) -> None:
    """Search bots in every seat decide the start of a climb, the climb and the answer to a
    face-down card."""
    rules = bluff.Rules(players=players)
    phases: dict[type, set[Any]] = {PimcPlayer: set(), IsmctsPlayer: set()}
    for seed in range(2):
        seated = [Recorder(small(BOTS[(seat + seed) % 2])) for seat in range(players)]
        outcome = thousand.play(seated, rules, seed=seed)
        assert_clean(outcome)
        assert isinstance(outcome.result, bluff.Result)
        assert outcome.result.winners
        for player in seated:
            phases[type(player.inner)] |= player.phases
    for seen in phases.values():
        assert seen == {bluff.Phase.START, bluff.Phase.CLIMB, bluff.Phase.RESPONSE}


# Every phase of a Thousand deal

THREE_SEATS = [
    "AS TS KS AC TC KC QC",
    "AH TH KH QH AD TD KD",
    "9S JS QS 9C JC 9D JD",
]
"""Seat 1 holds the hearts marriage, two aces and two tens; the talon is QD JH 9H."""

TWO_SEATS = [
    "QS JS 9S AC TC KC QC JC 9C QD",
    "AH TH KH QH AD TD KD AS TS KS",
]
TWO_MUSIKI = [["JD", "9D"], ["JH", "9H"]]


@pytest.mark.slow
@pytest.mark.parametrize("bot", BOTS)
@pytest.mark.parametrize("preset", Rules.preset_names())
def test_declares_through_every_phase(bot: SearchBot, preset: str) -> None:
    """With the others passing, the search bot in the forehand takes the musik, exchanges,
    sets the contract and plays the tricks; in the first seat to speak it bids or passes."""
    rules = Rules.preset(preset)
    talon: Any
    if rules.players != 2:
        hands, talon, first = THREE_SEATS, "QD JH 9H", 2
        if rules.players == 4:
            # Dealer 0: the sitter gets the empty hand; seats 1 and 2 keep theirs.
            hands = [*hands, ""] if rules.sitter_of(0) == 3 else ["", *hands[1:], hands[0]]
    else:
        hands, talon, first = TWO_SEATS, TWO_MUSIKI, 0
    layout = Layout(hands=hands, talon=talon)
    searcher = Recorder(small(bot))
    seated: list[SeatedPlayer] = [Passer() for _ in range(rules.players)]
    seated[1] = searcher
    outcome = thousand.play(seated, rules, seed=3, single_deal=True, layout=layout, dealer=0)
    assert_clean(outcome)
    assert isinstance(outcome.result, DealResult)
    assert outcome.result.declarer == 1
    expected = {Phase.EXCHANGE, Phase.CONTRACT, Phase.PLAY}
    if rules.players == 2:
        expected.add(Phase.MUSIK)
    assert searcher.phases >= expected
    assert Phase.AUCTION not in searcher.phases

    speaker = Recorder(small(bot))
    seated = [Passer() for _ in range(rules.players)]
    seated[first] = speaker
    outcome = thousand.play(seated, rules, seed=3, single_deal=True, layout=layout, dealer=0)
    assert_clean(outcome)
    phase, action = speaker.decisions[0]
    assert phase is Phase.AUCTION
    assert isinstance(action, Pass | Bid)


# The same seed, the same decisions


GAMES: list[tuple[str, Any, bool]] = [
    ("russian", RUSSIAN, True),
    ("polish-2p", TWO_PLAYERS, True),
    ("1000? for 3", bluff.Rules(players=3), False),
]


@pytest.mark.slow
@pytest.mark.parametrize(("bot", "spec"), [(PimcPlayer, "pimc"), (IsmctsPlayer, "ismcts")])
@pytest.mark.parametrize(("name", "rules", "single_deal"), GAMES, ids=[game[0] for game in GAMES])
def test_same_seed_same_game(
    bot: SearchBot, spec: str, name: str, rules: Any, single_deal: bool
) -> None:
    """Two runs from one seed play the same game, whatever the global generator holds."""
    specs = [f"{spec}(steps=40)"] * rules.players
    runs = []
    for global_seed in (1, 2):
        random.seed(global_seed)
        runs.append(thousand.play(specs, rules, seed=9, single_deal=single_deal))
    assert runs[0].record == runs[1].record
    assert runs[0].scores == runs[1].scores
    assert runs[0].decisions == runs[1].decisions


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["pimc(steps=30)", "ismcts(steps=30)"])
def test_other_player_seeds_give_other_decisions(spec: str) -> None:
    """The same cards with the bots' generators seeded otherwise: the games differ."""
    records = set()
    for offset in range(4):
        outcome = thousand.play(
            [spec] * 3,
            RUSSIAN,
            seed=5,
            single_deal=True,
            player_seeds=[offset, offset + 10, offset + 20],
        )
        assert_clean(outcome)
        records.add(outcome.record.to_json())
    assert len(records) > 1


@pytest.mark.parametrize("bot", BOTS)
def test_a_decision_repeats_from_the_same_generator(bot: SearchBot) -> None:
    """One observation, fresh players seeded alike: the same answer, and the bot's generator
    advanced alike."""
    state = deal(THREE_SEATS, "QD JH 9H")
    state = act(state, "pass", "pass")
    answers = []
    for _ in range(2):
        player = bot(steps=200)
        rng = random.Random(4)
        player.start(1, RUSSIAN, rng)
        answers.append((player.act(state.observation(1)), rng.random()))
    assert answers[0] == answers[1]


# Budgets


@pytest.mark.parametrize("bot", BOTS)
@pytest.mark.parametrize(
    "budget",
    [
        {"steps": 0},
        {"steps": -5},
        {"seconds": 0.0},
        {"seconds": -1.0},
        {"steps": 0, "seconds": 1.0},
    ],
)
def test_an_empty_budget_is_refused(bot: SearchBot, budget: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="budget"):
        bot(**budget)


@pytest.mark.parametrize(("bot", "steps"), [(PimcPlayer, 3000), (IsmctsPlayer, 1000)])
def test_default_budget(bot: SearchBot, steps: int) -> None:
    player = bot()
    assert (player.budget.steps, player.budget.seconds) == (steps, None)


def opening_lead() -> GameState:
    """Seat 1 declares 100 and is about to lead from eight cards."""
    state = act(deal(THREE_SEATS, "QD JH 9H"), "pass", "pass", "give 9H 0", "give JH 2")
    state = act(state, "contract 100")
    assert state.phase is Phase.PLAY
    assert len(state.legal_actions()) == 8
    return state


class Clock:
    """A stand-in for the search bots' clock: time passes only while a playout is run,
    ``playout`` seconds each (a millisecond unless changed), and the playouts are counted."""

    def __init__(self) -> None:
        self.now = 0.0
        self.playout = 0.001
        self.playouts = 0

    def perf_counter(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """The search bots' clock, replaced by a :class:`Clock`."""
    fake = Clock()

    def timed(game: Any, state: Any, rng: random.Random, seat: int) -> tuple[Any, int]:
        fake.now += fake.playout
        fake.playouts += 1
        return search.playout(game, state, rng, seat)

    monkeypatch.setattr(search, "time", fake)
    monkeypatch.setattr(pimc_module, "playout", timed)
    monkeypatch.setattr(ismcts_module, "playout", timed)
    return fake


@pytest.mark.parametrize("bot", BOTS)
def test_a_time_budget_bounds_a_decision(bot: SearchBot, clock: Clock) -> None:
    """A time budget replaces the steps: with a millisecond a playout, a hundredth of a second is
    ten playouts however many steps are allowed, and a tenth of a second is a hundred even with a
    budget of one step (the search stops within one playout of its time)."""
    state = opening_lead()
    answer = choice(bot(steps=10**6, seconds=0.01), state)
    assert answer in state.legal_actions()
    assert clock.playouts in (10, 11)
    clock.playouts = 0
    answer = choice(bot(steps=1, seconds=0.1), state)
    assert answer in state.legal_actions()
    assert clock.playouts in (100, 101)


def test_pimc_keeps_a_small_time_budget_in_1000(clock: Clock) -> None:
    """Ten candidates on the second turn of a six-player 1000? game, with playouts of 3 ms (long
    next to the budget): a budget of 10 ms is kept to within one playout, the world being played
    cut short when the time is up (the first playout is always finished)."""
    state = bluff.new_game(bluff.Rules(players=6), seed=0)
    state = state.apply(state.legal_actions()[0])
    assert len(state.legal_actions()) == 10
    clock.playout = 0.003
    choice(PimcPlayer(seconds=0.01), state)
    assert 0.01 <= clock.now < 0.01 + clock.playout


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The simulated actions of every playout the search bots run, as they run them."""
    counts: list[int] = []

    def counting(game: Any, state: Any, rng: random.Random, seat: int) -> tuple[Any, int]:
        end, steps = search.playout(game, state, rng, seat)
        counts.append(steps)
        return end, steps

    monkeypatch.setattr(pimc_module, "playout", counting)
    monkeypatch.setattr(ismcts_module, "playout", counting)
    return counts


@pytest.mark.slow
@pytest.mark.parametrize("bot", BOTS)
def test_the_steps_budget_is_what_the_search_simulates(bot: SearchBot, counted: list[int]) -> None:
    """The playouts of one decision simulate about ``steps`` actions: no more than the budget
    plus one sampled world (eight playouts of at most 24 cards) per round of the search, and at
    least half of it (the rest are steps down the tree)."""
    state = opening_lead()
    for steps in (300, 3000):
        counted.clear()
        choice(bot(steps=steps), state)
        spent = sum(counted) + len(counted)
        assert steps / 2 <= spent <= steps + 3 * 8 * 25
        if bot is PimcPlayer:
            assert spent >= steps


@pytest.mark.parametrize("bot", BOTS)
def test_a_single_legal_action_is_played_without_searching(
    bot: SearchBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No world is sampled when there is nothing to choose, however large the budget."""

    def refuse(self: Any, observation: Any) -> Any:
        raise AssertionError("sampled worlds for a forced action")

    monkeypatch.setattr(search.ThousandSearch, "worlds", refuse)
    monkeypatch.setattr(search.BluffSearch, "worlds", refuse)
    player = bot(steps=10**9)
    # Seat 2 must follow the ace of hearts with its only heart.
    state = act(trump_endgame(), "play AH")
    assert state.legal_actions() == (Play(Card.parse("TH")),)
    assert choice(player, state) == Play(Card.parse("TH"))
    climb = bluff_deal(["05", "15"], hand_size=1, deck="05 15 30 31")
    assert len(climb.legal_actions()) == 1
    assert choice(player, climb) == climb.legal_actions()[0]


@pytest.mark.parametrize("bot", BOTS)
def test_searches_where_there_is_a_choice(bot: SearchBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """The converse: a real choice samples worlds from the observation."""
    sampled: list[Any] = []
    original = search.ThousandSearch.worlds

    def watched(self: Any, observation: Any) -> Any:
        sampled.append(observation)
        return original(self, observation)

    monkeypatch.setattr(search.ThousandSearch, "worlds", watched)
    state = trump_endgame()
    choice(bot(steps=50), state)
    assert sampled == [state.observation(1)]


@pytest.mark.parametrize("bot", BOTS)
def test_the_auction_is_a_choice_between_passing_and_the_next_bid(bot: SearchBot) -> None:
    """A higher bid can wait for a later turn: the answer is a pass or the least raise."""
    state = deal(["AS TS KS AC TC KC QC", "9S JS QS 9C JC 9D JD", THREE_SEATS[1]], "QD JH 9H")
    for seed in range(3):
        assert choice(bot(steps=100), state, seed) in (Pass(), Bid(105))


@pytest.mark.parametrize("bot", BOTS)
def test_refuses_other_games(bot: SearchBot) -> None:
    with pytest.raises(TypeError, match="Thousand and 1000"):
        bot(steps=10).act(object())


# Choices that can be checked


def trump_endgame() -> GameState:
    """Seat 1 declared hearts and is on lead with the ace of trumps and the ace of spades, every
    other spade played; seat 2, void in spades, holds the last trump, the ten of hearts (seat 0
    showed it has no hearts)."""
    state = deal(
        ["9C JC QC KS TD QD JD", "AH KH QH AS AC TC KC", "9S JS QS JH 9H TH 9D"], "AD KD TS"
    )
    state = act(state, "pass", "pass", "give KD 2", "give TS 0", "contract 100")
    state = act(state, "play AC", "play 9S", "play 9C", "play TC", "play JS", "play JC")
    state = act(state, "play KC", "play QS", "play QC", "play KH marriage", "play JH", "play KS")
    state = act(state, "play QH", "play 9H", "play TS", "play AD", "play 9D", "play JD")
    assert state.current_player == 1
    assert state.observation(1).trump is not None
    return state


def outcome_range(state: GameState, seat: int) -> tuple[float, float]:
    """The worst and best deal score of ``seat`` less the others' mean, over every way the deal
    can be played out from ``state`` (a handful of cards left)."""
    if state.is_over:
        assert isinstance(state.result, DealResult)
        scores = state.result.deal_scores
        value = scores[seat] - (sum(scores) - scores[seat]) / (len(scores) - 1)
        return value, value
    ranges = [outcome_range(state.apply(action), seat) for action in state.legal_actions()]
    return min(low for low, _ in ranges), max(high for _, high in ranges)


def dominant(state: GameState) -> object:
    """The action whose worst outcome beats every other action's best in every world consistent
    with what the seat to act has seen (checked on sampled worlds)."""
    seat = state.current_player
    assert seat is not None
    sampler = thousand.Determiniser(state.observation(seat))
    rng = random.Random(0)
    worlds = [sampler.sample(rng) for _ in range(20)]
    legal = state.legal_actions()
    found = []
    for action in legal:
        if all(
            outcome_range(world.apply(action), seat)[0] > outcome_range(world.apply(other), seat)[1]
            for world in worlds
            for other in legal
            if other != action
        ):
            found.append(action)
    assert len(found) == 1, "the position has no single best action"
    return found[0]


@pytest.mark.parametrize("bot", BOTS)
def test_draws_the_last_trump_before_cashing_an_ace(bot: SearchBot) -> None:
    """Leading the ace of spades lets the ten of hearts ruff it; the ace of trumps first takes
    both tricks."""
    state = trump_endgame()
    assert dominant(state) == Play(Card.parse("AH"))
    for seed in range(3):
        assert choice(bot(steps=200), state, seed) == Play(Card.parse("AH"))


def overtaking_position() -> GameState:
    """Seat 2 leads the ten of clubs; seat 0 holds AC 9C AS and plays before the declarer
    (seat 1), whose TD KC KS cannot beat the ten."""
    state = deal(
        ["QH AC 9D JH 9C 9H AS", "KS JD QD TD AH JC KH", "QC QS AD TC TS KD 9S"], "TH JS KC"
    )
    state = act(state, "pass", "pass", "give JC 0", "give JS 2", "contract 100")
    state = act(state, "play AH", "play 9S", "play 9H", "play TH", "play JS", "play JH")
    state = act(state, "play KH", "play QC", "play QH", "play JD", "play KD", "play 9D")
    state = act(state, "play AD", "play JC", "play QD", "play TC")
    assert state.current_player == 0
    return state


def discarding_position() -> GameState:
    """The declarer (seat 1) cannot make its 100 any more, and its jack of hearts wins this
    trick whatever seat 0 adds from TC 9C; seat 2 will win the last trick with the ace of
    clubs."""
    state = deal(
        ["9H AD QS JD AH TC JS", "TS QD TD 9C KH AS TH", "KD AC QC KS QH 9D KC"], "JC JH 9S"
    )
    state = act(state, "pass", "pass", "give 9C 0", "give 9S 2", "contract 100")
    state = act(state, "play AS", "play 9S", "play JS", "play TS", "play KS", "play QS")
    state = act(state, "play KH", "play QH", "play AH", "play AD", "play QD", "play KD")
    state = act(state, "play JD", "play TD", "play 9D", "play TH", "play QC", "play 9H")
    state = act(state, "play JH", "play KC")
    assert state.current_player == 0
    return state


@pytest.mark.parametrize("bot", BOTS)
@pytest.mark.parametrize(
    ("position", "best"),
    [(overtaking_position, "AC"), (discarding_position, "TC")],
    ids=["takes the trick itself", "gives nothing to its rival"],
)
def test_defends_where_one_card_is_best_in_every_world(
    bot: SearchBot, position: Callable[[], GameState], best: str
) -> None:
    """Two defending positions near the end of a deal where one card does better than the other
    however the unseen cards lie, since every player scores for itself: seat 0 takes its
    fellow defender's trick with the ace rather than leave the points to it, and throws its ten
    onto the failing declarer's trick rather than keep it for seat 2's last trick."""
    state = position()
    assert dominant(state) == Play(Card.parse(best))
    for seed in range(3):
        assert choice(bot(steps=200), state, seed) == Play(Card.parse(best))


def test_bids_a_strong_hand_and_passes_a_weak_one() -> None:
    """Seat 2 speaks first: the hearts marriage with two aces and two tens bids, nines and jacks
    pass."""
    strong = deal(["AS TS KS AC TC KC QC", "9S JS QS 9C JC 9D JD", THREE_SEATS[1]], "QD JH 9H")
    weak = deal(["AS TS KS AC TC KC QC", THREE_SEATS[1], "9S JS QS 9C JC 9D JD"], "QD JH 9H")
    for seed in range(3):
        assert choice(PimcPlayer(steps=300), strong, seed) == Bid(105)
        assert choice(PimcPlayer(steps=300), weak, seed) == Pass()
        assert choice(IsmctsPlayer(steps=1000), strong, seed) == Bid(105)


@pytest.mark.parametrize("bot", BOTS)
def test_goes_out_with_a_last_card_that_beats_the_top(bot: SearchBot) -> None:
    """Seat 1's last card, 35, beats 25: played, face up or honestly face down, it wins, while
    passing draws a card."""
    state = bluff_deal(
        ["05 07", "15 35", "25 09"],
        "30 31 32 33",
        hand_size=2,
        deck="05 07 09 15 25 35 30 31 32 33",
    )
    state = act(state, "play 05", "play 15", "play 25", "pass")
    assert state.current_player == 1
    going_out = {bluff.Play(bluff.Card("35")), bluff.Hide(bluff.Card("35"))}
    assert set(state.legal_actions()) == {*going_out, bluff.Pass()}
    for seed in range(3):
        answer = choice(bot(steps=100), state, seed)
        assert isinstance(answer, bluff.Play | bluff.Hide)
        assert answer in going_out
        after = state.apply(answer)
        while not after.is_over:
            after = after.apply(after.legal_actions()[0])
        assert after.result is not None
        assert after.result.winners == (1,)


@pytest.mark.parametrize("bot", BOTS)
def test_challenges_a_last_card_played_face_down(bot: SearchBot) -> None:
    """Believing seat 0's last card lets it win; a challenge can only do better, and wins when
    the card is a bluff (three of the four unseen cards could not beat 15). The default budget
    samples enough worlds to meet a bluff."""
    state = bluff_deal(["05 07", "15 25"], "30 31 32", hand_size=2, deck="05 07 15 25 30 31 32")
    state = act(state, "play 05", "play 15", "hide 07")
    assert set(state.legal_actions()) == {bluff.Believe(), bluff.Challenge()}
    for seed in range(3):
        assert choice(bot(), state, seed) == bluff.Challenge()


def test_bots_command_lists_the_search_bots() -> None:
    """``thousand bots`` names pimc and ismcts as built-in, each with a one-line summary."""
    result = runner.invoke(app, ["bots"])
    assert result.exit_code == 0, result.output
    rows = {line.split()[0]: line for line in result.output.splitlines()[1:] if line.strip()}
    assert "built-in" in rows["pimc"]
    assert "Monte Carlo" in rows["pimc"]
    assert "built-in" in rows["ismcts"]
    assert "tree search" in rows["ismcts"]
    summaries = {bot.name: bot.summary for bot in thousand.available_bots()}
    for name in ("pimc", "ismcts"):
        assert summaries[name]
        assert "\n" not in summaries[name]
        assert summaries[name] in rows[name]


# Options in bot specs


def test_spec_options_set_the_budget() -> None:
    make = load_player("pimc(steps=50)")
    first, second = make(), make()
    assert isinstance(first, PimcPlayer)
    assert first is not second
    assert (first.budget.steps, first.budget.seconds) == (50, None)
    tree = load_player("ismcts(steps=10, exploration=1.5)")()
    assert isinstance(tree, IsmctsPlayer)
    assert (tree.budget.steps, tree.exploration) == (10, 1.5)
    assert isinstance(tree.exploration, float)


@pytest.mark.parametrize(
    ("spec", "steps", "seconds"),
    [
        ("  pimc ( steps = 70 , seconds = 0.25 )  ", 70, 0.25),
        ("pimc(steps=70,)", 70, None),
        ("pimc()", 3000, None),
        ("pimc(seconds=none)", 3000, None),
        ("pimc", 3000, None),
    ],
)
def test_spec_options_tolerate_spaces_and_read_values(
    spec: str, steps: int, seconds: float | None
) -> None:
    player = load_player(spec)()
    assert isinstance(player, PimcPlayer)
    assert (player.budget.steps, player.budget.seconds) == (steps, seconds)
    assert type(player.budget.steps) is int


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("pimc(steps=0)", "bad options: ValueError: "),
        ("ismcts(seconds=-2)", "bad options: ValueError: "),
        ("pimc(stepz=3)", "pimc has no option 'stepz'; its options are steps, deal_steps, "),
        ("pimc(3)", "options are written name=value"),
        ("pimc(steps)", "options are written name=value"),
        ("(x=1)", "options go in parentheses after a bot's name"),
        ("random(depth=2)", "random takes no options"),
    ],
)
def test_bad_spec_options(spec: str, message: str) -> None:
    with pytest.raises(BotSpecError) as caught:
        load_player(spec)
    text = str(caught.value)
    assert message in text
    assert spec in text
    assert "\n" not in text


def test_options_reach_a_game_by_spec() -> None:
    """Specs with options play through ``thousand.play`` and name their seats as given."""
    specs = ["pimc(steps=40)", "ismcts( steps=40 )", "greedy"]
    outcome = thousand.play(specs, RUSSIAN, seed=2, single_deal=True)
    assert_clean(outcome)
    assert outcome.players == tuple(specs)


def test_isolated_specs_check_the_options_of_a_built_in_bot() -> None:
    with pytest.raises(BotSpecError, match="pimc has no option 'stepz'"):
        load_player("pimc(stepz=3)", isolate="process")


def test_match_refuses_a_misspelt_option_in_one_line() -> None:
    result = runner.invoke(app, ["match", "pimc(stepz=1)", "greedy", "random", "--deal"])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith("error: ")
    assert "pimc(stepz=1)" in lines[0]
    assert "stepz" in lines[0]
    assert "Traceback" not in result.output


def test_match_plays_a_deal_with_a_search_bot() -> None:
    result = runner.invoke(
        app, ["match", "pimc(steps=40)", "greedy", "random", "--deal", "--seed", "3"]
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "Deal 1, dealt by seat 0 (pimc(steps=40))"
    assert any(line.startswith("  seat 0 (pimc(steps=40)): ") for line in lines)
    assert "place  seat  player" in result.output
    rows = [line for line in lines if "pimc(steps=40)" in line and line.split()[-1] == "ok"]
    assert rows


@pytest.mark.slow
def test_tournament_of_a_search_bot_by_spec() -> None:
    """A tournament names the entrant by its spec, options and all."""
    result = runner.invoke(
        app,
        [
            "tournament",
            "pimc(steps=20)",
            "greedy",
            "random",
            "--deals",
            "2",
            "-w",
            "1",
            "--seed",
            "1",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    names = [standing["name"] for standing in data["standings"]]
    assert sorted(names) == sorted(["pimc(steps=20)", "greedy", "random"])
    pimc = next(standing for standing in data["standings"] if standing["name"] == "pimc(steps=20)")
    assert pimc["units"] == 12
    assert set(pimc["faults"].values()) == {0}
