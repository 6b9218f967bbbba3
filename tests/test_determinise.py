"""Tests of the determinisers: the full states they sample for one seat's observation, in Thousand
(every preset) and in 1000? (2 to 6 players).

A sampled world must look to the observing seat exactly like the real game, hold every card
once, be reachable by legal play, keep playing, and leave out no real possibility: the true state
is always among the worlds that can be drawn, and every consistent placement of the unseen cards
is equally likely (checked against brute-force enumeration of small cases).
"""

from __future__ import annotations

import importlib
import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import TypeVar

import attrs
import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

import thousand
from thousand import (
    DECK,
    Card,
    DealResult,
    Determiniser,
    Discard,
    GameState,
    Give,
    IllegalActionError,
    Layout,
    NoWorldError,
    Observation,
    Phase,
    Play,
    Redeal,
    Rules,
    Take,
    bluff,
    new_deal,
)
from thousand.bots import GreedyPlayer
from thousand.classic.engine import deal_as_dealt, start_of_deal
from thousand.classic.inference import deduce
from thousand.classic.marriages import marriage_value
from thousand.classic.sampling import NoPlacement, Placement
from thousand.classic.state import Origin

from .strategies import (
    PRESET_NAMES,
    VARIANTS,
    deals,
    layout_from_deck,
    matches,
    random_playout,
    scaled,
)
from .support import play

ALL_CARDS = (1 << 24) - 1
MARRIAGE = {"S": 40, "C": 60, "D": 80, "H": 100}
"""Marriage values by suit letter (the rule book's, written out here)."""
BLUFF_SEATS = (2, 3, 4, 6)
H = TypeVar("H", bound=Hashable)


# Small helpers ----------------------------------------------------------------------------------


def mask(cards: Iterable[Card]) -> int:
    """Cards as a bit mask (bit ``card.index``)."""
    return sum(1 << card.index for card in cards)


def texts(bits: int) -> set[str]:
    """The cards of a mask, as text."""
    return {str(card) for card in DECK if bits >> card.index & 1}


def bits_of(text: str) -> int:
    """A mask from card texts: ``"AH KS"``."""
    return mask(Card.parse(word) for word in text.split())


def marriages_in(rules: Rules, bits: int) -> int:
    """The marriages (and the four aces where the rules have them) in a hand."""
    names = texts(bits)
    value = sum(points for suit, points in MARRIAGE.items() if {"K" + suit, "Q" + suit} <= names)
    if rules.ace_marriage and {"A" + suit for suit in MARRIAGE} <= names:
        value += rules.ace_marriage
    return value


def suit_bits(letter: str) -> int:
    """Every card of one suit."""
    return bits_of(" ".join(rank + letter for rank in "9JQKTA"))


def assert_uniform(counts: Counter[H], cells: Iterable[H]) -> None:
    """Every cell was drawn, nothing else was, and the counts pass a chi-square test against
    equal frequencies at a generous bound (six standard deviations above the mean)."""
    expected_cells = set(cells)
    assert set(counts) == expected_cells
    size = len(expected_cells)
    assert size >= 2
    total = sum(counts.values())
    expected = total / size
    statistic = sum((counts[cell] - expected) ** 2 / expected for cell in expected_cells)
    bound = (size - 1) + 6 * math.sqrt(2 * (size - 1))
    assert statistic < bound, f"chi-square {statistic:.1f} over {size - 1} degrees of freedom"


# Thousand: what a sampled world must satisfy -----------------------------------------------------


def check_world(world: GameState, observation: Observation, truth: GameState) -> None:
    """Everything a world sampled for ``observation`` (taken from ``truth``) must satisfy."""
    seat = observation.seat
    rules = observation.rules
    # (a) The observer cannot tell it from the real game.
    assert world.observation(seat) == observation
    assert world.rules == rules
    assert world.origin.single_deal
    assert world.hands[seat] == truth.hands[seat]
    assert mask(world.layout.hands[seat]) == mask(truth.layout.hands[seat])
    # (b) Every card exactly once, now and as dealt.
    zones = [*world.hand_masks, *world.talon_masks, world.set_aside_mask, *world.taken_masks]
    now = [index for zone in zones for index in range(24) if zone >> index & 1]
    assert sorted(now + list(world.trick_cards)) == list(range(24))
    dealt = [card.index for pile in (*world.layout.hands, *world.layout.talon) for card in pile]
    assert sorted(dealt) == list(range(24))
    sizes = [0 if seat == truth.sitter else rules.hand_size for seat in range(rules.players)]
    assert [len(hand) for hand in world.layout.hands] == sizes
    # (c) Legal: the deal replayed from the world's layout is the world, action by action, and
    # the hidden cards of the history are filled in.
    replayed = deal_as_dealt(world)
    assert len(world.actions) == len(observation.history)
    for (actor, action), (seen_actor, seen) in zip(world.actions, observation.history, strict=True):
        assert actor == seen_actor == replayed.current_player
        assert type(action) is type(seen)
        if isinstance(action, Give | Discard):
            assert action.card is not None
            assert isinstance(seen, Give | Discard)
            if seen.card is not None:
                assert action == seen
        else:
            assert action == seen
        replayed = replayed.apply(action)
    assert replayed == world
    # The talon or musik once shown is the real one.
    if observation.talon:
        chosen = 0 if rules.players == 3 else world.musik - 1
        shown = mask(observation.talon)
        assert mask(world.layout.talon[chosen]) == shown == mask(truth.layout.talon[chosen])
    # (d) The world keeps playing.
    assert not world.is_over
    assert world.current_player == observation.current_player
    if observation.current_player == seat:
        assert world.legal_actions() == observation.legal_actions


def check_truth_in_support(observation: Observation, truth: GameState) -> None:
    """The real cards break none of the deductions the determiniser builds on."""
    lacks = deduce(observation).lacks
    for other in range(observation.rules.players):
        if other != observation.seat:
            assert truth.hand_masks[other] & lacks[other] == 0, (other, texts(lacks[other]))
    declarer = observation.declarer
    if (
        observation.rules.players == 3
        and declarer is not None
        and observation.seat != declarer
        and observation.talon
    ):
        # Only the card given to it can have brought a talon card to the other opponent.
        other = 3 - observation.seat - declarer
        played = sum(
            1 << action.card.index
            for actor, action in truth.actions
            if actor == other and isinstance(action, Play)
        )
        held = (truth.hand_masks[other] | played) & mask(observation.talon)
        assert held.bit_count() <= 1


def check_states(
    states: Sequence[GameState], rng: random.Random, continue_from: int | None = None
) -> None:
    """A world for every seat at every unfinished state; at position ``continue_from`` the
    observation also goes through its JSON form (the same seed gives the same world) and a world
    is played on to the end of its deal."""
    for position, state in enumerate(states):
        if state.is_over:
            continue
        for seat in range(state.rules.players):
            observation = state.observation(seat)
            try:
                check_truth_in_support(observation, state)
                world = Determiniser(observation).sample(rng)
                check_world(world, observation, state)
            except Exception:
                note(reproduction(state, seat))
                raise
            if position != continue_from:
                continue
            copied = Observation.from_dict(observation.to_dict())
            assert copied == observation
            assert deduce(copied) == deduce(observation)
            seed = rng.getrandbits(32)
            again = Determiniser(copied).sample(random.Random(seed))
            assert again == Determiniser(observation).sample(random.Random(seed))
            if seat == state.current_player:
                while not world.is_over:
                    world = world.apply(rng.choice(world.legal_actions()))
                assert isinstance(world.result, DealResult)


def reproduction(state: GameState, seat: int) -> str:
    """What reproduces a world drawn for ``seat`` at ``state`` without Hypothesis: the rules,
    the dealer, the cards as dealt and the deal's actions (cards given shown)."""
    rules = state.rules
    layout = state.layout
    hands = " | ".join(" ".join(map(str, hand)) or "-" for hand in layout.hands)
    talon = " | ".join(" ".join(map(str, pile)) for pile in layout.talon)
    actions = ", ".join(str(action) for _, action in state.actions)
    return (
        f"rules {rules.preset_name() or rules.to_dict()}, deal {state.deal_number}, dealer "
        f"{state.dealer}, scores {list(state.scores)}; hands {hands}; talon {talon}; after "
        f"[{actions}]: no world for seat {seat}"
    )


def greedy_playout(state: GameState, seed: int, greedy: Sequence[bool]) -> list[GameState]:
    """The states of a deal played by ``greedy`` bots (where ``greedy[seat]``) and random ones."""
    rng = random.Random(seed)
    bots = []
    for seat in range(state.rules.players):
        bot = GreedyPlayer()
        bot.start(seat, state.rules, random.Random(seed * 10 + seat))
        bots.append(bot)
    states = [state]
    deal = state.deal_number
    while not state.is_over and state.deal_number == deal:
        player = state.player
        legal = state.legal_actions()
        chosen = (
            bots[player].act(state.observation(player)) if greedy[player] else rng.choice(legal)
        )
        assert chosen in legal
        state = state.apply(chosen)
        states.append(state)
    return states


# Thousand: property tests over random and greedy deals --------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("name", PRESET_NAMES)
@settings(max_examples=scaled(0.3), deadline=None)
@given(data=st.data())
def test_worlds_fit_random_deals(name: str, data: st.DataObject) -> None:
    """Along a deal of random legal actions, every seat's worlds fit its observation, hold each
    card once, replay legally from their layout and keep playing; the truth breaks no deduction."""
    state = data.draw(deals(st.just(VARIANTS[name])), label="deal")
    states = random_playout(data, state)
    seed = data.draw(st.integers(0, 2**32), label="rng seed")
    middle = data.draw(st.integers(0, len(states) - 1), label="world played on")
    check_states(states, random.Random(seed), continue_from=middle)


@pytest.mark.slow
@pytest.mark.parametrize("name", PRESET_NAMES)
@settings(max_examples=scaled(0.2), deadline=None)
@given(
    seed=st.integers(0, 2**32),
    dealer=st.integers(0, 3),
    greedy=st.lists(st.booleans(), min_size=4, max_size=4).filter(lambda flags: any(flags[:3])),
    deck=st.permutations(DECK),
)
def test_worlds_fit_greedy_deals(
    name: str, seed: int, dealer: int, greedy: list[bool], deck: list[Card]
) -> None:
    """The same checks along deals played mostly by the ``greedy`` bot: higher bids, contracts,
    marriages and card-counting play."""
    rules = VARIANTS[name]
    dealer %= rules.players
    sitter = rules.sitter_of(dealer)
    layout = layout_from_deck(deck, rules.players, None if sitter < 0 else sitter)
    state = new_deal(rules, seed=seed, layout=layout, dealer=dealer)
    states = greedy_playout(state, seed, greedy)
    check_states(states, random.Random(seed), continue_from=len(states) // 2)


@settings(max_examples=scaled(0.15), deadline=None)
@given(
    start=st.booleans().flatmap(
        lambda near_end: matches(
            st.sampled_from([VARIANTS[name] for name in PRESET_NAMES]), st.just(4), near_end
        )
    ),
    seed=st.integers(0, 2**32),
)
def test_worlds_fit_later_deals_of_a_match(start: GameState, seed: int) -> None:
    """In the second deal of a match, worlds keep the match's scores, barrel, dealer and deal
    number, and stop at the end of the current deal."""
    state = start
    rng = random.Random(seed)
    while not state.is_over and state.deal_number == 0:
        state = state.apply(rng.choice(state.legal_actions()))
    if state.is_over:
        return
    states = greedy_playout(state, seed, [True] * state.rules.players)
    note(f"deal {state.deal_number}, scores {state.scores}, barrel {state.barrel}")
    check_states(states[:-1], rng, continue_from=1)


# Thousand: explicit deals ------------------------------------------------------------------------

RUSSIAN = Rules.preset("russian")
POLISH = Rules.preset("polish")
POLISH_2P = Rules.preset("polish-2p")


def russian_deal() -> GameState:
    """Russian: seat 1 declares at 100 and gives JH to seat 0, 9H to seat 2 (seat 2 then holds
    one heart and no spade)."""
    layout = Layout(
        hands=["KS QS JS 9S AC KC KD", "AH KH QH AD TD AS TS", "JD QD 9D QC JC TC 9C"],
        talon="JH 9H TH",
    )
    state = new_deal(RUSSIAN, layout=layout, dealer=0)
    return play(state, "pass", "pass", "give JH 0", "give 9H 2", "contract 100")


def russian_void_deal() -> GameState:
    """The russian deal, first trick: seat 1 leads AS, seat 2 (no spade, no trump set yet)
    discards 9C, seat 0 follows 9S."""
    return play(russian_deal(), "play AS", "play 9C", "play 9S")


def russian_after(tricks: int) -> GameState:
    """The russian deal after ``tricks`` tricks (at most three): seat 1 leads AD (9D and KD
    follow), then KH declaring hearts (9H, JH follow), then AS: seat 2, out of spades and now
    without a trump, discards 9C; seat 0 follows 9S."""
    plays = ["play AD", "play 9D", "play KD"]
    plays += ["play KH marriage", "play 9H", "play JH"]
    plays += ["play AS", "play 9C", "play 9S"]
    return play(russian_deal(), *plays[: 3 * tricks])


def polish_deal() -> GameState:
    """Polish: seat 1 declares at 100, gives JC to seat 0 and 9C to seat 2. Seat 1 leads JH: seat
    2 follows with 9H (it holds no higher heart), seat 0 beats with AH; seat 0 leads KS plain (it
    holds no QS), seat 1 beats with TS, seat 2 follows 9S (it holds no AS)."""
    layout = Layout(
        hands=["AH TH KH KS AS KC QC", "JH QH AD TD KD AC TC", "9H QS JS 9S QD JD 9D"],
        talon="TS JC 9C",
    )
    state = new_deal(POLISH, layout=layout, dealer=0)
    state = play(state, "pass", "pass", "give JC 0", "give 9C 2", "contract 100")
    return play(state, "play JH", "play 9H", "play AH", "play KS", "play TS", "play 9S")


def worlds(observation: Observation, count: int, seed: int = 1) -> list[GameState]:
    """``count`` worlds for ``observation`` drawn with one seeded generator."""
    determiniser = Determiniser(observation)
    rng = random.Random(seed)
    return [determiniser.sample(rng) for _ in range(count)]


def played_by(state: GameState, seat: int) -> int:
    """The cards ``seat`` has played this deal."""
    return sum(
        1 << action.card.index
        for actor, action in state.actions
        if actor == seat and isinstance(action, Play)
    )


def test_void_seat_never_gets_the_suit_and_others_are_not_excluded() -> None:
    """Seat 2, which discarded a club on a spade lead, holds no spade in any of the declarer's
    worlds; it still gets every other unseen card (its real heart included) in some world, and
    seat 0 gets every unseen spade."""
    state = russian_void_deal()
    observation = state.observation(1)
    spades = suit_bits("S")
    played = played_by(state, 0) | played_by(state, 1) | played_by(state, 2)
    pool = ALL_CARDS & ~state.hand_masks[1] & ~played
    given_to_zero = bits_of("JH")
    assert pool & spades == bits_of("KS QS JS")
    two_had = 0
    for world in worlds(observation, 300):
        assert world.hand_masks[2] & spades == 0
        assert (
            world.hand_masks[0] & (pool & spades | given_to_zero) == pool & spades | given_to_zero
        )
        two_had |= world.hand_masks[2]
    assert two_had == pool & ~spades & ~given_to_zero


def test_void_before_any_trump_says_nothing_of_hearts() -> None:
    """Before any marriage, seat 2 discarding on a spade lead was free to keep its hearts: the
    opponent's worlds sometimes give seat 2 a heart, never a spade."""
    state = russian_void_deal()
    hearts_seen = 0
    for world in worlds(state.observation(0), 200):
        assert world.hand_masks[2] & suit_bits("S") == 0
        hearts_seen |= world.hand_masks[2] & suit_bits("H")
    assert hearts_seen


def test_seat_not_trumping_holds_no_trump() -> None:
    """After hearts became trump, seat 2 discarded a club on a spade lead: no world gives it a
    heart or a spade, so the opponent's worlds put every unseen heart with the declarer."""
    state = russian_after(3)
    assert state.trump_suit == 3
    for seat in (0, 1):
        for world in worlds(state.observation(seat), 200):
            assert world.hand_masks[2] & (suit_bits("H") | suit_bits("S")) == 0
    for world in worlds(state.observation(0), 100):
        assert world.hand_masks[1] & suit_bits("H") == bits_of("AH QH TH")
    # Before the trump, the same kind of discard left the hearts open (see above); here the
    # deduction is the trump rule's: seat 2 had followed hearts with its only heart.
    assert deduce(state.observation(0)).lacks[2] & suit_bits("H") == suit_bits("H") & ~bits_of(
        "KH 9H JH"
    )


def test_must_beat_following_low_means_nothing_higher() -> None:
    """Polish: seat 2 followed JH with 9H, so it holds no higher heart; it followed TS with 9S, so
    it holds no AS. Seat 0 led KS plain, so it holds no QS."""
    state = polish_deal()
    for seat in (0, 1):
        observation = state.observation(seat)
        for world in worlds(observation, 200):
            assert world.hand_masks[2] & bits_of("QH KH TH AS") == 0
            assert world.hand_masks[0] & bits_of("QS") == 0


def test_automatic_declaration_plain_king_lead() -> None:
    """Polish: a king led without declaring shows its queen is not in hand: seat 1 deduces that
    seat 0 lacks QS (no trump named yet), and in its worlds the QS sits with seat 2 every time,
    while seat 0's other cards vary."""
    state = polish_deal()
    deductions = deduce(state.observation(1))
    assert deductions.lacks[0] & bits_of("QS") == bits_of("QS")
    assert deductions.trump == -1
    zero_hands = set()
    for world in worlds(state.observation(1), 200):
        assert world.hand_masks[2] & bits_of("QS")
        zero_hands.add(world.hand_masks[0])
    assert len(zero_hands) > 1


def declared_at_100(
    rules: Rules, layout: Layout, dealer: int, gives: tuple[str, str], *plays: str
) -> GameState:
    """The deal of ``layout`` where the forehand declares 100 as both others pass, gives the
    two cards ``gives`` ("JH 0": the card, then the seat), then ``plays`` follow."""
    state = new_deal(rules, layout=layout, dealer=dealer)
    return play(state, "pass", "pass", *(f"give {give}" for give in gives), "contract 100", *plays)


def test_automatic_declaration_plain_leads_before_a_trick_and_after_a_void() -> None:
    """Polish (a marriage needs no trick): seat 1 leads QD plain at the first lead, so it lacks
    KD; seat 2 shows out of diamonds, wins a spade trick, then leads KC plain, so it lacks QC as
    well as the diamonds; seat 0, which followed and beat, lacks nothing."""
    layout = Layout(
        hands=["AD TD KD JD 9S JS 9H", "QD 9D QS TS QH TH AH", "AS KS KC 9C JC TC AC"],
        talon="QC JH KH",
    )
    plays = ("play QD", "play 9C", "play AD", "play 9S", "play QS", "play AS", "play KC")
    state = declared_at_100(POLISH, layout, 0, ("QC 0", "JH 2"), *plays)
    assert deduce(state.observation(1)).lacks == (0, bits_of("KD"), bits_of("9D JD KD TD QC"))


def test_automatic_declaration_plain_king_lead_after_a_won_trick() -> None:
    """Automatic declaration where a marriage needs a won trick: seat 1 wins the first trick,
    then leads KH plain, so it lacks QH (seat 2 holds it), and the worlds say so."""
    layout = Layout(
        hands=["KS QS JS 9S AC KC KD", "AH KH JC AD TD AS TS", "JD QD 9D QC QH TC 9C"],
        talon="JH 9H TH",
    )
    plays = ("play AD", "play 9D", "play KD", "play KH")
    state = declared_at_100(VARIANTS["russian-automatic"], layout, 0, ("JH 0", "9H 2"), *plays)
    observation = state.observation(0)
    assert deduce(observation).lacks[1] & bits_of("QH") == bits_of("QH")
    for world in worlds(observation, 50):
        assert world.hand_masks[2] & bits_of("QH")


def test_a_seat_that_declared_a_marriage_and_then_the_aces_holds_the_rest_of_both() -> None:
    """Russian: seat 0 wins a trick with TS, declares hearts leading KH (and wins with it),
    then declares the four aces leading AD: the others deduce it still holds QH, AH, AC and AS,
    and every world they draw gives it those four."""
    layout = Layout(
        hands=["AH AD AC AS KH QH TS", "KS QS 9H JH TD KD QD", "JS 9S TC KC QC JC 9C"],
        talon="TH 9D JD",
    )
    plays = ("play TS", "play QS", "play 9S", "play KH marriage", "play 9H", "play JS")
    state = declared_at_100(RUSSIAN, layout, 2, ("9D 1", "JD 2"), *plays, "play AD aces")
    rest = bits_of("QH AH AC AS")
    for seat in (1, 2):
        observation = state.observation(seat)
        assert deduce(observation).holds[0] == rest
        for world in worlds(observation, 50):
            assert world.hand_masks[0] & rest == rest


@pytest.mark.parametrize(
    ("name", "plays"),
    [
        # Optional declaration: seat 1 has won a trick and leads KH without declaring.
        ("russian", ["play AD", "play 9D", "play KD", "play KH", "play 9H", "play JH"]),
        # Automatic declaration, but a marriage needs a won trick: seat 1 leads KH first.
        ("russian-automatic", ["play KH", "play 9H", "play JH"]),
    ],
)
def test_plain_king_lead_that_could_not_declare_says_nothing(name: str, plays: list[str]) -> None:
    """A king led plain shows nothing of its queen where declaring was optional or not yet
    allowed: seat 0's worlds put QH sometimes with seat 1 (where it is) and sometimes with
    seat 2."""
    layout = Layout(
        hands=["KS QS JS 9S AC KC KD", "AH KH QH AD TD AS TS", "JD QD 9D QC JC TC 9C"],
        talon="JH 9H TH",
    )
    state = new_deal(VARIANTS[name], layout=layout, dealer=0)
    state = play(state, "pass", "pass", "give JH 0", "give 9H 2", "contract 100", *plays)
    observation = state.observation(0)
    assert deduce(observation).lacks[1] & bits_of("QH") == 0
    holders = set()
    for world in worlds(observation, 200):
        check_world(world, observation, state)
        holders.add(next(seat for seat in (1, 2) if world.hand_masks[seat] & bits_of("QH")))
    assert holders == {1, 2}


def test_talon_cards_stay_with_the_declarer_until_given() -> None:
    """Mid-exchange, seat 0 has its card (JH) and seat 2 has none yet: seat 0's worlds keep the
    rest of the talon in the declarer's hand. Seat 2, for which the card went to seat 0 unseen,
    sees worlds where seat 0 got a talon card and worlds where it got another card."""
    layout = Layout(
        hands=["KS QS JS 9S AC KC KD", "AH KH QH AD TD AS TS", "JD QD 9D QC JC TC 9C"],
        talon="JH 9H TH",
    )
    state = play(new_deal(RUSSIAN, layout=layout, dealer=0), "pass", "pass", "give JH 0")
    talon = bits_of("JH 9H TH")
    for world in worlds(state.observation(0), 100):
        assert world.hand_masks[1] & talon == bits_of("9H TH")
        assert world.hand_masks[2] & talon == 0
    from_talon = set()
    for world in worlds(state.observation(2), 200):
        gives = [action for _, action in world.actions if isinstance(action, Give)]
        assert len(gives) == 1
        card = gives[0].card
        assert card is not None
        assert world.hand_masks[0] & card.bit
        assert mask(world.layout.hands[0]) & card.bit == 0
        assert (world.hand_masks[0] & talon).bit_count() <= 1
        from_talon.add(bool(card.bit & talon))
    assert from_talon == {False, True}


def test_likelihood_weighs_the_deals() -> None:
    """A likelihood over the dealt hands keeps only the deals it allows (0 or 1 here), and one
    that allows none ends in NoWorldError."""
    observation = russian_deal().observation(0)
    ace = bits_of("AH")
    determiniser = Determiniser(observation)
    rng = random.Random(4)
    for _ in range(50):
        world = determiniser.sample(rng, lambda dealt: float(bool(dealt[2] & ace)))
        assert mask(world.layout.hands[2]) & ace
    with pytest.raises(NoWorldError) as error:
        determiniser.sample(rng, lambda dealt: 0.0)
    assert str(error.value) == "no deal agrees with this observation after 10000 tries"


class ZeroDraws(random.Random):
    """A seeded generator whose ``random()`` draws 0.0 every time (a value it may return);
    its other draws are the usual ones."""

    def random(self) -> float:
        return 0.0

    def getrandbits(self, k: int) -> int:
        return super().getrandbits(k)


def test_a_deal_of_likelihood_zero_is_never_drawn_even_on_a_draw_of_zero() -> None:
    """A deal is kept only when the draw is below its likelihood, so one of likelihood 0 never
    is, even from a generator that draws 0.0."""
    determiniser = Determiniser(russian_deal().observation(0))
    with pytest.raises(NoWorldError) as error:
        determiniser.sample(ZeroDraws(4), lambda dealt: 0.0)
    assert str(error.value) == "no deal agrees with this observation after 10000 tries"


def test_opponent_sees_its_card_but_not_the_other() -> None:
    """Three players: an opponent's worlds keep the card it received; the card given to the other
    opponent varies from world to world and is never one of the observer's cards."""
    state = russian_deal()
    observation = state.observation(0)
    assert observation.received == Card.parse("JH")
    hidden = set()
    for world in worlds(observation, 200):
        gives = [action for _, action in world.actions if isinstance(action, Give)]
        assert gives[0] == Give(Card.parse("JH"), 0)
        assert gives[1].to == 2
        card = gives[1].card
        assert card is not None
        assert card.bit & world.hand_masks[2]
        assert not card.bit & (mask(world.layout.hands[0]) | state.hand_masks[0])
        hidden.add(card)
    assert len(hidden) > 3


def polish_2p_deal() -> GameState:
    """Two players: seat 1 takes musik 1 (TH TD), lays aside two cards and fixes the contract."""
    layout = Layout(
        hands=["AH KH QH JH 9H AD KD QD JD 9D", "AC KC QC JC 9C AS KS QS JS 9S"],
        talon=[["TH", "TD"], ["TC", "TS"]],
    )
    state = new_deal(POLISH_2P, layout=layout, dealer=0)
    state = play(state, "pass", "take 1", "discard 9C", "discard 9S")
    assert state.phase is Phase.CONTRACT
    return state.apply(state.legal_actions()[0])


def test_two_players_musik_and_laid_aside_cards() -> None:
    """Two players: the chosen musik is the real one in every world; the other musik and the two
    cards laid aside vary for the opponent and never hold its cards; the declarer's worlds keep
    its own laid-aside cards."""
    state = polish_2p_deal()
    opponent = state.observation(0)
    others, aside = set(), set()
    own = mask(state.layout.hands[0])
    for world in worlds(opponent, 200):
        assert world.layout.talon[0] == state.layout.talon[0]
        other = mask(world.layout.talon[1])
        laid = world.set_aside_mask
        assert (other | laid) & own == 0
        assert other & laid == 0
        hidden = [a for _, a in world.actions if isinstance(a, Discard)]
        assert mask(a.card for a in hidden if a.card is not None) == laid
        others.add(other)
        aside.add(laid)
    assert len(others) > 3
    assert len(aside) > 3
    declarer = state.observation(1)
    others = set()
    for world in worlds(declarer, 100):
        assert world.set_aside_mask == bits_of("9C 9S")
        assert mask(world.layout.talon[1]) & mask(state.layout.hands[1]) == 0
        others.add(mask(world.layout.talon[1]))
    assert len(others) > 3


def polish_2p_out_of_clubs() -> GameState:
    """Two players: seat 1 wins at 100, takes musik 1 (TH TD), lays aside AC TC and leads 9D to
    seat 0's AD; seat 0 leads 9C and seat 1, out of clubs, plays 9S. The other musik is KD QD."""
    layout = Layout(
        hands=["KC QC JC 9C AH KH QH JH 9H AD", "AC TC AS KS QS JS 9S TS JD 9D"],
        talon=[["TH", "TD"], ["KD", "QD"]],
    )
    state = new_deal(POLISH_2P, layout=layout, dealer=0)
    state = play(state, "pass", "take 1", "discard AC", "discard TC")
    state = state.apply(state.legal_actions()[0])
    return play(state, "play 9D", "play AD", "play 9C", "play 9S")


def test_two_players_cards_laid_aside_are_drawn_without_bias() -> None:
    """Seat 0's worlds once seat 1 showed out of clubs: the two clubs seat 0 has not seen (AC
    TC) are in the other musik or laid aside. Of the 217 consistent placements (the other musik
    from the ten unseen cards not in the musik taken, two of the ten left laid aside, no club
    left in hand), 45 lay aside no club, 144 one and 28 both; the worlds do so in those
    proportions (fixed seed, four standard deviations)."""
    observation = polish_2p_out_of_clubs().observation(0)
    clubs = bits_of("AC TC")
    draws = 600
    counts = Counter(
        (world.set_aside_mask & clubs).bit_count() for world in worlds(observation, draws, seed=2)
    )
    for laid, ways in {0: 45, 1: 144, 2: 28}.items():
        share = ways / 217
        spread = 4 * math.sqrt(share * (1 - share) / draws)
        assert abs(counts[laid] / draws - share) < spread, counts


def test_bid_above_the_cap_needs_marriages_in_the_dealt_hand() -> None:
    """A seat that bid 140 was dealt marriages worth at least 20 in every world, in the auction
    and later in the deal; without the bid such hands would be the exception."""
    layout = Layout(
        hands=["AH TH JH 9H AD TD JD", "9D AC TC JC 9C AS TS", "KS QS KC JS 9S KD QC"],
        talon="KH QH QD",
    )
    state = new_deal(RUSSIAN, layout=layout, dealer=0)
    state = play(state, "bid 140")
    assert marriages_in(RUSSIAN, mask(state.layout.hands[2])) >= 20
    for seat in (0, 1):
        dealt = set()
        for world in worlds(state.observation(seat), 200):
            assert marriages_in(RUSSIAN, mask(world.layout.hands[2])) >= 20
            dealt.add(world.layout.hands[2])
        assert len(dealt) > 10
    # Unconstrained worlds of the same kind often lack a marriage: the test can tell.
    unconstrained = new_deal(RUSSIAN, layout=layout, dealer=0).observation(0)
    lacking = sum(
        marriages_in(RUSSIAN, mask(world.layout.hands[2])) < 20
        for world in worlds(unconstrained, 200)
    )
    assert lacking > 50


def test_two_high_bids_can_still_be_dealt() -> None:
    """Seat 2 bids 300 (three marriages) and seat 0 bids 420 (four aces and hearts): seat 1's
    observation is a real one, so worlds exist and must be found."""
    layout = Layout(
        hands=["AH AD AC AS KH QH 9H", "TH JH TD JD 9D TC JC", "KD QD KC QC KS QS 9C"],
        talon="9S JS TS",
    )
    state = play(new_deal(RUSSIAN, layout=layout, dealer=0), "bid 300", "bid 420")
    observation = state.observation(1)
    world = Determiniser(observation).sample(random.Random(1))
    check_world(world, observation, state)


REPRODUCED_LAYOUT = Layout(
    hands=["9H KC AS KD JC KH QD", "9C JD TH 9S QS JH 9D", "", "KS TS TC AC JS AH TD"],
    talon="QH AD QC",
)
"""Russian, four seats: seat 2 sits out; seat 0 will hold three marriages with the talon."""
REPRODUCED_PLAYS = ["play 9H", "play TH", "play AH", "play KS", "play AS", "play QS"]


@pytest.mark.parametrize("plays", [0, 3, 6])
def test_worlds_for_every_seat_after_a_contract_on_three_marriages(plays: int) -> None:
    """Russian-4: seat 0 wins at 115, gives AD and JC unseen by the seat sitting out, and fixes
    330, which needs 210 of marriages in hand: every seat's observation, the sitter's included,
    has worlds, each with such a hand; once KS, AH and AS are played, the hearts, diamonds and
    clubs are the only marriages left that make 210."""
    rules = VARIANTS["russian-4"]
    state = new_deal(rules, layout=REPRODUCED_LAYOUT, dealer=3)
    assert state.sitter == 2
    state = play(state, "bid 105", "bid 110", "bid 115", "pass", "pass")
    state = play(state, "give AD 3", "give JC 1", "contract 330", *REPRODUCED_PLAYS[:plays])
    marriages = bits_of("KH QH KD QD KC QC")
    for seat in range(4):
        observation = state.observation(seat)
        for world in worlds(observation, 20, seed=seat):
            check_world(world, observation, state)
            held = world.hand_masks[0] | played_by(world, 0)
            assert marriage_value(rules, held) >= 330 - 120
            if plays == 6:  # KS and the aces of hearts and spades are out
                assert held & marriages == marriages


@pytest.mark.parametrize("gifts", [("AS", "KS"), ("QC", "KD")])
@pytest.mark.parametrize("contract", [False, True])
def test_worlds_for_every_seat_after_a_bid_on_three_marriages(
    contract: bool, gifts: tuple[str, str]
) -> None:
    """Russian-4: seat 1 bids 360 on hearts, diamonds and clubs, gives two cards (unseen by the
    seat sitting out) from the talon or from its marriages, and plays 360: every seat's
    observation, before and after the contract, has worlds, and in every one seat 1 was dealt
    those marriages."""
    layout = Layout(
        hands=["9H JH TH AH 9D JD TD", "KH QH KD QD KC QC 9S", "", "AD AC TC JC 9C JS TS"],
        talon="QS KS AS",
    )
    state = new_deal(VARIANTS["russian-4"], layout=layout, dealer=3)
    assert state.sitter == 2
    state = play(state, "bid 360", "pass", "pass", f"give {gifts[0]} 0", f"give {gifts[1]} 3")
    if contract:
        state = play(state, "contract 360")
    marriages = bits_of("KH QH KD QD KC QC")
    for seat in range(4):
        observation = state.observation(seat)
        for world in worlds(observation, 20, seed=seat):
            check_world(world, observation, state)
            assert mask(world.layout.hands[1]) & marriages == marriages


def test_declared_marriages_stay_in_hand() -> None:
    """A marriage declared by leading its king leaves its queen in the leader's hand until
    played: the deductions say so, and every world keeps it there."""
    state = russian_after(2)
    assert deduce(state.observation(0)).holds == (0, bits_of("QH"), 0)
    assert deduce(state.observation(1)).holds == (0, bits_of("QH"), 0)
    observation = state.observation(2)
    for world in worlds(observation, 50):
        assert world.hand_masks[1] & bits_of("QH")
    later = play(state, "play QH", "play JC", "play QS")
    assert deduce(later.observation(0)).holds == (0, 0, 0)


def test_declared_marriage_partner_was_held() -> None:
    """After seat 1 declared hearts with KH, every world had QH in seat 1's hand when it led (and
    still has it), though nothing else keeps QH from seat 2."""
    state = russian_after(2)
    observation = state.observation(0)
    assert deduce(observation).lacks[2] & bits_of("QH") == 0
    ace_with_two = False
    for world in worlds(observation, 200):
        assert world.hand_masks[1] & bits_of("QH")
        replayed = deal_as_dealt(world)
        for _, action in world.actions:
            if action == Play(Card.parse("KH"), marriage=True):
                assert replayed.hand_masks[1] & bits_of("QH KH") == bits_of("QH KH")
            replayed = replayed.apply(action)
        ace_with_two |= bool(world.hand_masks[2] & bits_of("AH"))
    assert ace_with_two


# Thousand: no hidden bias ------------------------------------------------------------------------


def dealt_as_observed(observation: Observation, layout: Layout) -> GameState:
    """The deal of ``observation`` (its rules, dealer, scores and barrel) started with ``layout``,
    before any action."""
    origin = Origin(0, observation.dealer, observation.scores, layout, True)
    return start_of_deal(
        observation.rules,
        origin,
        observation.deal_number,
        observation.dealer,
        observation.scores,
        observation.barrel,
        (),
        layout,
    )


def consistent_placements(observation: Observation) -> Counter[tuple[int, int]]:
    """Three players in trick play: every placement of the unseen cards into the other two hands
    that some deal and some hidden give fit, found by trying them all; each with the number of
    deals (with the card given unseen) that fit it."""
    rules = observation.rules
    seat = observation.seat
    declarer = observation.declarer
    assert rules.players == 3
    assert declarer is not None
    played = [0, 0, 0]
    for actor, action in observation.history:
        if isinstance(action, Play):
            played[actor] |= 1 << action.card.index
    hand = mask(observation.hand)
    talon = mask(observation.talon)
    pool = ALL_CARDS & ~hand & ~(played[0] | played[1] | played[2])
    first, second = (other for other in range(3) if other != seat)
    found: Counter[tuple[int, int]] = Counter()
    for chosen in itertools.combinations(
        [card for card in DECK if pool >> card.index & 1], observation.hand_sizes[first]
    ):
        now = [0, 0, 0]
        now[seat], now[first] = hand, mask(chosen)
        now[second] = pool & ~now[first]
        hidden = [a.to for _, a in observation.history if isinstance(a, Give) and a.card is None]
        candidates: list[Card | None] = [None]
        if hidden:
            had = now[hidden[0]] | played[hidden[0]]
            candidates = [card for card in DECK if had >> card.index & 1]
        for unseen in candidates:
            gives = [
                (actor, Give(unseen, action.to) if action.card is None else action)
                for actor, action in observation.history
                if isinstance(action, Give)
            ]
            moved_in = [0, 0, 0]
            moved_in[declarer] = talon
            moved_out = [0, 0, 0]
            for actor, give in gives:
                assert give.card is not None
                moved_out[actor] |= 1 << give.card.index
                moved_in[give.to] |= 1 << give.card.index
            held = [now[s] | played[s] | moved_out[s] for s in range(3)]
            if any(moved_in[s] & ~held[s] for s in range(3)):
                continue
            dealt = [held[s] & ~moved_in[s] for s in range(3)]
            if sorted(i for d in (*dealt, talon) for i in range(24) if d >> i & 1) != list(
                range(24)
            ):
                continue
            state = dealt_as_observed(
                observation,
                Layout(hands=[tuple(cards_in(d)) for d in dealt], talon=[observation.talon]),
            )
            try:
                for _, action in observation.history:
                    if isinstance(action, Give) and action.card is None:
                        action = Give(unseen, action.to)
                    state = state.apply(action)
            except IllegalActionError:
                continue
            if state.observation(seat) == observation:
                found[(now[first], now[second])] += 1
    return found


def cards_in(bits: int) -> list[Card]:
    """The cards of a mask in deck order."""
    return [card for card in DECK if bits >> card.index & 1]


def placement_counts(observation: Observation, count: int, seed: int) -> Counter[tuple[int, int]]:
    """How often each placement of the other two hands comes up in ``count`` worlds."""
    first, second = (other for other in range(3) if other != observation.seat)
    return Counter(
        (world.hand_masks[first], world.hand_masks[second])
        for world in worlds(observation, count, seed)
    )


@pytest.mark.slow
def test_every_consistent_placement_equally_likely_for_the_declarer() -> None:
    """Polish, seat 1 (the declarer) after two tricks: the worlds cover exactly the placements
    that brute force finds consistent, with equal frequencies."""
    state = polish_deal()
    observation = state.observation(1)
    possible = consistent_placements(observation)
    assert (state.hand_masks[0], state.hand_masks[2]) in possible
    assert len(possible) == 15
    assert_uniform(placement_counts(observation, 3000, seed=2), possible)


def test_every_consistent_placement_equally_likely_for_an_opponent() -> None:
    """Russian, seat 0 (an opponent) after three tricks: the worlds cover exactly the consistent
    placements, with equal frequencies."""
    state = russian_after(3)
    observation = state.observation(0)
    possible = consistent_placements(observation)
    assert (state.hand_masks[1], state.hand_masks[2]) in possible
    assert len(possible) == 6
    assert_uniform(placement_counts(observation, 1200, seed=3), possible)


OPPONENT_LAYOUT = Layout(
    hands=["KC QC AH AD AC AS TH", "TD KD QD TC TS JS 9S", "KS QS 9H JD 9D JC 9C"],
    talon="KH QH JH",
)


def opponent_deal(
    bids: Sequence[str],
    layout: Layout = OPPONENT_LAYOUT,
    gives: tuple[str, str] = ("give JH 1", "give AC 2"),
) -> GameState:
    """Russian: seat 0 wins the auction (``bids`` by seats 2, 0, 1, 2), gives JH to seat 1 and,
    unseen by seat 1, AC to seat 2 (or makes ``gives``); four tricks of seeded random play
    follow. Seat 2 holds the spade marriage, seat 0 the clubs (and, from the talon, the
    hearts)."""
    state = play(new_deal(RUSSIAN, layout=layout, dealer=0), *bids, *gives)
    state = state.apply(state.legal_actions()[0])
    assert state.phase is Phase.PLAY
    rng = random.Random(3)
    while len(state.actions) < len(bids) + 3 + 12:
        state = state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.slow
def test_placements_equally_likely_with_an_unseen_give() -> None:
    """Seat 1, which did not see the card seat 2 got: every consistent placement of the other two
    hands comes up, equally often, whether or not seat 2 holds a talon card."""
    state = opponent_deal(["pass", "bid 110", "pass"])
    observation = state.observation(1)
    possible = consistent_placements(observation)
    assert (state.hand_masks[0], state.hand_masks[2]) in possible
    talon = bits_of("KH QH")
    assert {bool(two & talon) for _, two in possible} == {False, True}
    assert_uniform(placement_counts(observation, 200 * len(possible), seed=6), possible)


def high_bid_opponent_deal() -> GameState:
    """The deal above with seat 2 bidding 130 (on its spade marriage) before seat 0 wins at
    140."""
    return opponent_deal(["bid 130", "bid 140", "pass", "pass"])


@pytest.mark.slow
def test_true_placement_is_consistent_when_bids_constrain_the_hidden_give() -> None:
    """With a bid above the cap by the opponent that got the unseen card, the worlds still cover
    exactly the consistent placements."""
    state = high_bid_opponent_deal()
    observation = state.observation(1)
    possible = consistent_placements(observation)
    assert (state.hand_masks[0], state.hand_masks[2]) in possible
    assert set(placement_counts(observation, 2000, seed=4)) == set(possible)


@pytest.mark.slow
def test_consistent_placements_equally_likely_when_bids_constrain_the_hidden_give() -> None:
    """Seat 1's worlds, when the opponent that got an unseen card had bid 130: every consistent
    placement equally likely, as documented."""
    observation = high_bid_opponent_deal().observation(1)
    possible = consistent_placements(observation)
    assert_uniform(placement_counts(observation, 6000, seed=5), possible)


def test_hidden_give_may_leave_a_receiver_exactly_the_ceiling_it_bid() -> None:
    """Seat 2 bid 160, exactly what its spade marriage allows: the card it got unseen may be any
    but a spade marriage card, so seat 1's worlds cover every consistent placement."""
    observation = opponent_deal(["bid 160", "bid 170", "pass", "pass"]).observation(1)
    possible = consistent_placements(observation)
    assert set(placement_counts(observation, 40 * len(possible), seed=8)) == set(possible)


def test_placements_equally_likely_when_the_contract_needs_the_card_given_unseen() -> None:
    """Seat 0 bid 140 on its club marriage and gave KC (unseen by seat 2) to seat 1 and QC to
    seat 2: in seat 2's worlds where seat 1 holds KC, KC must be the hidden card, and those
    placements come up as often as the one where seat 0 still holds KC."""
    state = opponent_deal(["pass", "bid 140", "pass"], gives=("give KC 1", "give QC 2"))
    observation = state.observation(2)
    possible = consistent_placements(observation)
    assert (state.hand_masks[0], state.hand_masks[1]) in possible
    king = bits_of("KC")
    assert sorted(bool(zero & king) for zero, _ in possible) == [False] * 4 + [True]
    assert_uniform(placement_counts(observation, 200 * len(possible), seed=7), possible)


def test_hidden_give_is_drawn_evenly_among_the_cards_that_fit_the_bid() -> None:
    """Seat 0 bid 140 and gave QC to seat 2 and, unseen by it, a card to seat 1: where seat 1
    holds KC, AC and KD, either KC (for the club marriage) or AC (for the four aces) could have
    been given, and seat 2's worlds draw each as often."""
    state = opponent_deal(["pass", "bid 140", "pass"], gives=("give KC 1", "give QC 2"))
    held = bits_of("KC AC KD")
    gifts = Counter(
        action.card.text
        for world in worlds(state.observation(2), 1500, seed=9)
        if world.hand_masks[1] & held == held
        for _, action in world.actions
        if isinstance(action, Give) and action.to == 1 and action.card is not None
    )
    assert_uniform(gifts, ["KC", "AC"])


def test_a_nine_given_unseen_is_not_counted_in_the_receivers_hand_as_dealt() -> None:
    """Four nines thrown in as dealt: seat 2, dealt 9S 9C 9D, gets the talon's 9H unseen by seat
    0 and plays all four nines. Seat 0's worlds deal seat 2 those three nines and the 9H given,
    the hand as dealt leaving out the card received, so no world reads as a throw-in."""
    rules = attrs.evolve(RUSSIAN, redeal_nines=Redeal.DEALT)
    layout = Layout(
        hands=["QS KS QC KC QD KD KH", "AS AC AD AH TS TC TD", "9S 9C 9D JS JC JD QH"],
        talon="9H TH JH",
    )
    state = play(new_deal(rules, layout=layout, dealer=0), "pass", "pass", "give JH 0")
    state = play(state, "give 9H 2", "contract 100")
    for lead, nine, low in (("AS", "9S", "QS"), ("AC", "9C", "QC"), ("AD", "9D", "QD")):
        state = play(state, f"play {lead}", f"play {nine}", f"play {low}")
    state = play(state, "play AH", "play 9H", "play KH")
    observation = state.observation(0)
    nines = bits_of("9S 9C 9D 9H")
    for world in worlds(observation, 20):
        assert world.observation(0) == observation
        assert mask(world.layout.hands[2]) & nines == bits_of("9S 9C 9D")
        gives = [action for _, action in world.actions if isinstance(action, Give)]
        assert gives == [Give(Card.parse("JH"), 0), Give(Card.parse("9H"), 2)]


def test_no_world_is_thrown_in_after_the_exchange_when_the_real_deal_was_not() -> None:
    """Four nines thrown in after the exchange: seat 0, holding no nine, saw the talon's 9H and
    not the card seat 2 got. Its worlds stay at the contract like the real deal: none gives seat
    1 or seat 2 all four nines after the exchange (such a deal would have been thrown in)."""
    rules = attrs.evolve(RUSSIAN, redeal_nines=Redeal.AFTER_EXCHANGE)
    layout = Layout(
        hands=["KS QS JS AC KC KD JD", "AH KH QH AD TD AS TS", "9S 9C 9D QD QC JC TC"],
        talon="JH 9H TH",
    )
    state = play(new_deal(rules, layout=layout, dealer=0), "pass", "pass", "give JH 0")
    state = play(state, "give TH 2")
    assert state.phase is Phase.CONTRACT
    observation = state.observation(0)
    nines = bits_of("9S 9C 9D 9H")
    for world in worlds(observation, 40):
        assert world.phase is Phase.CONTRACT
        assert world.observation(0) == observation
        assert all(hand & nines != nines for hand in world.hand_masks)


@pytest.mark.slow
@pytest.mark.parametrize("name", PRESET_NAMES)
@pytest.mark.parametrize("seed", [11, 12])
def test_true_cards_come_up_late_in_the_deal(name: str, seed: int) -> None:
    """Late in a deal (few unseen cards), for every observer: the true state never breaks a
    deduction, and every card the truth puts in another hand (or musik) shows up there in some
    world; with three players the whole true placement shows up too."""
    rules = VARIANTS[name]
    rng = random.Random(seed)
    state = new_deal(rules, seed=seed)
    while not state.is_over and (
        state.phase is not Phase.PLAY
        or sum(state.hand_masks).bit_count() > 3 * rules.active_players
    ):
        state = state.apply(rng.choice(state.legal_actions()))
    assert not state.is_over, "the deal should reach its last tricks"
    for seat in range(rules.players):
        observation = state.observation(seat)
        check_truth_in_support(observation, state)
        sampled = worlds(observation, 400, seed)
        for other in range(rules.players):
            if other == seat:
                continue
            union = 0
            for world in sampled:
                union |= world.hand_masks[other]
            assert state.hand_masks[other] & ~union == 0
        if rules.players != 2:
            others = [other for other in state.context.active if other != seat]
            placements = {tuple(world.hand_masks[o] for o in others) for world in sampled}
            assert tuple(state.hand_masks[o] for o in others) in placements
        else:
            unchosen = 2 - state.musik
            union = 0
            for world in sampled:
                union |= mask(world.layout.talon[unchosen])
            assert mask(state.layout.talon[unchosen]) & ~union == 0
            laid = 0
            for world in sampled:
                laid |= world.set_aside_mask
            assert state.set_aside_mask & ~laid == 0


# Placement: exact uniformity against enumeration ------------------------------------------------


def enumerate_placements(
    pool: int, sizes: Sequence[int], allowed: Sequence[int]
) -> set[tuple[int, ...]]:
    """Every placement of the pool's cards into the places, by trying every assignment."""
    cards = [index for index in range(24) if pool >> index & 1]
    options = [[p for p in range(len(sizes)) if allowed[p] >> index & 1] for index in cards]
    found = set()
    for choice in itertools.product(*options):
        places = [0] * len(sizes)
        for index, place in zip(cards, choice, strict=True):
            places[place] |= 1 << index
        if [bits.bit_count() for bits in places] == list(sizes):
            found.add(tuple(places))
    return found


@st.composite
def placement_problems(draw: st.DrawFn) -> tuple[int, list[int], list[int]]:
    """A pool of up to 8 cards, 1 to 3 places of sizes adding up to it (sometimes not), and an
    allowed mask per place."""
    cards = draw(st.lists(st.integers(0, 23), max_size=8, unique=True))
    pool = sum(1 << index for index in cards)
    places = draw(st.integers(1, 3))
    cuts = sorted(
        draw(st.lists(st.integers(0, len(cards)), min_size=places - 1, max_size=places - 1))
    )
    sizes = [b - a for a, b in zip([0, *cuts], [*cuts, len(cards)], strict=True)]
    if draw(st.integers(0, 9)) == 0:
        sizes[0] += 1
    allowed = [
        draw(st.sampled_from([ALL_CARDS, pool, 0]) | st.integers(0, ALL_CARDS))
        for _ in range(places)
    ]
    return pool, sizes, allowed


@settings(max_examples=scaled(4), deadline=None)
@given(problem=placement_problems(), seed=st.integers(0, 2**32))
def test_placement_samples_are_valid_and_errors_exact(
    problem: tuple[int, list[int], list[int]], seed: int
) -> None:
    """Placement refuses exactly the problems with no solution; otherwise every sample is one of
    the solutions found by enumeration."""
    pool, sizes, allowed = problem
    solutions = enumerate_placements(pool, sizes, allowed)
    if not solutions:
        with pytest.raises(NoPlacement):
            Placement(pool, sizes, allowed)
        return
    placement = Placement(pool, sizes, allowed)
    rng = random.Random(seed)
    for _ in range(20):
        assert tuple(placement.sample(rng)) in solutions


UNIFORM_PROBLEMS = [
    # Six cards into 2 + 4, two of them kept out of the first place.
    (bits_of("9S JS QS KS TS AS"), [2, 4], [bits_of("9S JS QS KS"), ALL_CARDS]),
    # Eight cards into 3 + 3 + 2 with overlapping restrictions (voids of different suits).
    (
        bits_of("9S JS QS 9C JC QC 9H JH"),
        [3, 3, 2],
        [~suit_bits("S") & ALL_CARDS, ~suit_bits("C") & ALL_CARDS, ALL_CARDS],
    ),
    # Seven cards into 3 + 2 + 2: one card only in place 0, two only in places 1 and 2.
    (
        bits_of("AH KH QH JH 9H TH AD"),
        [3, 2, 2],
        [
            bits_of("AH KH QH JH 9H AD"),
            bits_of("KH QH JH 9H TH AD"),
            bits_of("QH JH 9H TH"),
        ],
    ),
    # Eight cards, three classes of different sizes, uneven places.
    (
        bits_of("9D JD QD KD TD AD 9C JC"),
        [1, 4, 3],
        [bits_of("9D JD QD"), bits_of("9D JD QD KD TD AD 9C"), bits_of("KD TD AD 9C JC 9D")],
    ),
]


@pytest.mark.parametrize("problem", UNIFORM_PROBLEMS, ids=["2+4", "3+3+2", "3+2+2", "1+4+3"])
def test_placement_is_exactly_uniform(problem: tuple[int, list[int], list[int]]) -> None:
    """Sample frequencies over all the enumerated placements pass a chi-square test of equal
    likelihood (fixed seed, generous bound), no placement is missed, and they are counted
    exactly."""
    pool, sizes, allowed = problem
    solutions = enumerate_placements(pool, sizes, allowed)
    assert len(solutions) >= 4
    placement = Placement(pool, sizes, allowed)
    assert placement.count == len(solutions)
    rng = random.Random(2024)
    counts = Counter(tuple(placement.sample(rng)) for _ in range(150 * len(solutions)))
    assert_uniform(counts, solutions)


def test_placement_errors() -> None:
    """Too few or too many cards for the places, a card with no place, and constraints no
    placement meets are refused; an empty pool has its one empty placement."""
    with pytest.raises(NoPlacement) as error:
        Placement(bits_of("AH KH"), [1, 2], [ALL_CARDS, ALL_CARDS])
    assert str(error.value) == "2 cards for 3 places"
    with pytest.raises(NoPlacement) as error:
        Placement(bits_of("AH KH"), [1, 1], [bits_of("AH"), bits_of("AH")])
    assert str(error.value) == "a card has no place it may go"
    with pytest.raises(NoPlacement) as error:
        Placement(bits_of("AH KH 9S"), [1, 2], [bits_of("AH KH"), bits_of("9S")])
    assert str(error.value) == "no placement satisfies the constraints"
    empty = Placement(0, [0, 0], [ALL_CARDS, 0])
    assert empty.sample(random.Random(1)) == [0, 0]
    assert empty.count == 1


# 1000?: property tests ------------------------------------------------------------------------


def kinds_of_cards(rules: bluff.Rules, cards: Iterable[bluff.Card]) -> Counter[int]:
    """Cards as a multiset of kind numbers."""
    number = rules.kinds.number
    return Counter(number[card] for card in cards)


class DiscardWatch:
    """Which cards of the discard pile each seat saw go there (since the last reshuffle),
    followed from the real states of a game."""

    def __init__(self, players: int) -> None:
        self.seen: list[list[bool]] = [[] for _ in range(players)]

    def step(self, before: bluff.State, action: bluff.Action, after: bluff.State) -> None:
        """Follow one action."""
        if after.is_over:
            return
        if after.reshuffles > before.reshuffles:
            self.seen = [[] for _ in self.seen]
        else:
            assert after.discards[: len(before.discards)] == before.discards
        added = len(after.discards) - len(self.seen[0])
        if not added:
            return
        table = before.table_entries
        assert added == len(table)
        for seat, flags in enumerate(self.seen):
            for position, (_, owner, face_down, _) in enumerate(table):
                revealed = isinstance(action, bluff.Challenge) and position == len(table) - 1
                flags.append(not face_down or owner == seat or revealed)


def check_bluff_world(
    world: bluff.State, observation: bluff.Observation, truth: bluff.State, seen: list[bool]
) -> None:
    """Everything a 1000? world sampled for ``observation`` (taken from ``truth``) must satisfy;
    ``seen`` says which discards the observer saw."""
    seat = observation.seat
    rules = observation.rules
    # (a) Indistinguishable for the observer.
    assert world.observation(seat) == observation
    assert world.rules == rules
    assert world.hand_kinds[seat] == truth.hand_kinds[seat]
    # (b) The deck, once: hands, draw pile, discards and table.
    held: Counter[int] = Counter()
    for hand in world.hand_kinds:
        held.update(hand)
    held.update(world.pile[world.pile_position :])
    held.update(world.discards)
    held.update(entry[0] for entry in world.table_entries)
    assert held == kinds_of_cards(rules, rules.deck)
    # Own face-down cards and face-up ones are the real ones; nothing else about the table moves.
    assert len(world.table_entries) == len(truth.table_entries)
    for mine, real in zip(world.table_entries, truth.table_entries, strict=True):
        assert mine[1:] == real[1:]
        if real[1] == seat or not real[2]:
            assert mine[0] == real[0]
    # The cards seen going to the discards since the last reshuffle are still there.
    assert len(world.discards) == len(truth.discards) == len(seen)
    for position, known in enumerate(seen):
        if known:
            assert world.discards[position] == truth.discards[position]
    assert world.reshuffles == truth.reshuffles
    assert world.turns == truth.turns
    # After a lost challenge the loser must start with a card it just drew.
    if truth.restart_kinds is None:
        assert world.restart_kinds is None
    else:
        assert world.restart_kinds is not None
        assert len(world.restart_kinds) == len(truth.restart_kinds)
        assert not Counter(world.restart_kinds) - Counter(world.hand_kinds[truth.player])
        if truth.player == seat:
            assert world.restart_kinds == truth.restart_kinds
            assert world.must_start_with == observation.must_start_with
    # Its history names every card, and before a reshuffle it replays from its own deal.
    assert not hidden_cards(world.actions)
    if not world.reshuffles:
        assert bluff.replay(bluff.Record.from_state(world)) == world
    # (d) The world keeps playing.
    assert world.current_player == observation.current_player
    if observation.current_player == seat:
        assert world.legal_actions() == observation.legal_actions


def play_on(world: bluff.State, rng: random.Random) -> None:
    """(c) Random legal actions from the world to the end of the game."""
    while not world.is_over:
        world = world.apply(rng.choice(world.legal_actions()))
    assert world.result is not None


@st.composite
def bluff_games(draw: st.DrawFn, players: int) -> bluff.State:
    """A new game for ``players`` on the default deck: a permutation of it as the deal, any
    reading of the decided rules, any dealer."""
    rules = bluff.Rules(
        players=players,
        challenge_restart=draw(st.sampled_from(bluff.ChallengeRestart)),
        empty_draw_pile=draw(st.sampled_from(bluff.EmptyDrawPile)),
        last_card_face_down=draw(st.sampled_from(bluff.LastCardFaceDown)),
    )
    order = draw(st.permutations(rules.deck))
    size = rules.hand_size
    layout = bluff.Layout(
        hands=[order[seat * size : (seat + 1) * size] for seat in range(players)],
        draw_pile=order[players * size :],
    )
    return bluff.new_game(
        rules,
        seed=draw(st.integers(0, 2**32)),
        layout=layout,
        dealer=draw(st.integers(0, 5)) % players,
    )


def draw_bluff_action(data: st.DataObject, state: bluff.State) -> bluff.Action:
    """A legal action: first its kind (so that passes come up as often as plays), then one."""
    legal = state.legal_actions()
    kinds = list(dict.fromkeys(type(action) for action in legal))
    kind = data.draw(st.sampled_from(kinds), label="kind of action")
    return data.draw(st.sampled_from([a for a in legal if type(a) is kind]), label="action")


def check_bluff_game(
    states: Sequence[bluff.State],
    actions: Sequence[bluff.Action],
    rng: random.Random,
    every: int = 1,
    play_on_every: int = 60,
) -> None:
    """Worlds along a game: at every ``every``-th state, for the seat to act and one other seat;
    every ``play_on_every``-th one is played on to the end."""
    players = states[0].rules.players
    watch = DiscardWatch(players)
    checked = 0
    for position, state in enumerate(states):
        if position:
            watch.step(states[position - 1], actions[position - 1], state)
        if state.is_over or position % every:
            continue
        player = state.current_player
        assert player is not None
        for seat in {player, (player + 1 + position) % players}:
            observation = state.observation(seat)
            world = bluff.Determiniser(observation).sample(rng)
            check_bluff_world(world, observation, state, watch.seen[seat])
            if checked % play_on_every == 0:
                play_on(world, rng)
            checked += 1


@pytest.mark.slow
@pytest.mark.parametrize("players", BLUFF_SEATS)
@settings(max_examples=scaled(0.2), deadline=None)
@given(data=st.data())
def test_bluff_worlds_fit_random_games(players: int, data: st.DataObject) -> None:
    """Along games of random legal actions, worlds fit the observation, hold the deck once, keep
    the seen cards in place and play on to the end."""
    state = data.draw(bluff_games(players), label="game")
    states, actions = [state], []
    while not state.is_over and len(states) < 400:
        action = draw_bluff_action(data, state)
        state = state.apply(action)
        states.append(state)
        actions.append(action)
    seed = data.draw(st.integers(0, 2**32), label="rng seed")
    check_bluff_game(states, actions, random.Random(seed), every=2)


def greedy_bluff_game(
    rules: bluff.Rules, seed: int, greedy: Sequence[bool]
) -> tuple[list[bluff.State], list[bluff.Action]]:
    """A game played by ``greedy`` bots where ``greedy[seat]``, random ones elsewhere."""
    rng = random.Random(seed)
    bots = []
    for seat in range(rules.players):
        bot = GreedyPlayer()
        bot.start(seat, rules, random.Random(seed * 10 + seat))
        bots.append(bot)
    state = bluff.new_game(rules, seed=seed)
    states, actions = [state], []
    while not state.is_over:
        player = state.player
        legal = state.legal_actions()
        action = (
            bots[player].act(state.observation(player)) if greedy[player] else rng.choice(legal)
        )
        assert action in legal
        state = state.apply(action)
        states.append(state)
        actions.append(action)
    return states, actions


@pytest.mark.parametrize("players", BLUFF_SEATS)
@settings(max_examples=scaled(0.15), deadline=None)
@given(seed=st.integers(0, 2**32), data=st.data())
def test_bluff_worlds_fit_greedy_games(players: int, seed: int, data: st.DataObject) -> None:
    """The same checks along games played by the ``greedy`` bot (with some random seats)."""
    greedy = data.draw(st.lists(st.booleans(), min_size=players, max_size=players).filter(any))
    states, actions = greedy_bluff_game(bluff.Rules(players=players), seed, greedy)
    check_bluff_game(states, actions, random.Random(seed), every=3)


@pytest.mark.parametrize(
    ("players", "seed", "greedy"), [(6, 0, True), (6, 6, True), (4, 3, False), (2, 0, False)]
)
def test_bluff_worlds_after_reshuffles(players: int, seed: int, greedy: bool) -> None:
    """Games that run the draw pile dry (six greedy bots, or random play): the discards seen
    before a reshuffle count as unseen after it (the worlds do not pin them in the new draw
    pile), the ones seen since stay in place, and worlds still fit and play on."""
    rules = bluff.Rules(players=players)
    states, actions = greedy_bluff_game(rules, seed, [greedy] * players)
    assert states[-1].reshuffles >= 1, "the game should reshuffle the discards"
    first = next(i for i, state in enumerate(states) if state.reshuffles)
    watch = DiscardWatch(players)
    rng = random.Random(seed)
    for position, state in enumerate(states):
        if position:
            if position == first:
                seen_before = [
                    Counter(
                        k
                        for k, known in zip(states[position - 1].discards, flags, strict=True)
                        if known
                    )
                    for flags in watch.seen
                ]
            watch.step(states[position - 1], actions[position - 1], state)
        if state.is_over or position < first - 3:
            continue
        for seat in range(players):
            observation = state.observation(seat)
            determiniser = bluff.Determiniser(observation)
            sampled = [determiniser.sample(rng) for _ in range(3 if position == first else 1)]
            for world in sampled:
                check_bluff_world(world, observation, state, watch.seen[seat])
            if position == first:
                pile = Counter(state.pile[state.pile_position :])
                assert seen_before[seat] & pile
                assert any(
                    seen_before[seat] & pile - Counter(world.pile[world.pile_position :])
                    for world in sampled
                )
        if position == first:
            play_on(bluff.Determiniser(state.observation(0)).sample(rng), rng)


def hidden_cards(actions: Iterable[tuple[int, bluff.Action]]) -> int:
    """How many actions play a card face down without naming it (``hide ??``)."""
    return sum(isinstance(action, bluff.Hide) and action.card is None for _, action in actions)


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (6, 0)])
def test_bluff_world_history_holds_only_what_the_world_says(players: int, seed: int) -> None:
    """A drawn 1000? world's history names every face-down card, and names it from the world,
    not from the real game: the world is the same whether drawn from the observation or from
    its JSON copy (which holds no card the seat could not see); before any reshuffle the world
    replays from its own deal; a face-down card on the table is the world's card there."""
    rules = bluff.Rules(players=players)
    states, _ = greedy_bluff_game(rules, seed, [True] * players)
    filled = replayed = 0
    for position, state in enumerate(states[:-1]):
        seat = position % players
        observation = state.observation(seat)
        if not hidden_cards(observation.history):
            continue
        world = bluff.Determiniser(observation).sample(random.Random(position))
        copy = bluff.Observation.from_dict(observation.to_dict())
        assert bluff.Determiniser(copy).sample(random.Random(position)) == world
        assert not hidden_cards(world.actions)
        assert world.observation(seat) == observation
        top = world.table_entries[-1] if world.table_entries else None
        if top is not None and top[2] and top[1] != seat:
            played = next(a for actor, a in reversed(world.actions) if isinstance(a, bluff.Hide))
            assert played.card == world.kinds.cards[top[0]]
        if not world.reshuffles:
            assert world.origin.layout is not None
            assert bluff.replay(bluff.Record.from_state(world)) == world
            replayed += 1
        filled += 1
    assert filled
    assert replayed


def test_bluff_world_draws_the_hidden_card() -> None:
    """The face-down card another seat just played is drawn among the cards the observer has not
    seen, not copied from the real game."""
    rules = bluff.Rules(players=3)
    state = bluff.new_game(rules, seed=3)
    state = state.apply(state.legal_actions()[0])
    hide = next(a for a in state.legal_actions() if isinstance(a, bluff.Hide))
    state = state.apply(hide)
    determiniser = bluff.Determiniser(state.observation(state.player))
    rng = random.Random(0)
    drawn = {determiniser.sample(rng).actions[-1][1] for _ in range(40)}
    assert len(drawn) > 1
    assert bluff.Hide(None) not in drawn


# 1000?: explicit games --------------------------------------------------------------------------

BLUFF_LAYOUT = bluff.Layout(
    hands=[
        "01 02 03 04 06 07 08",
        "10 11 12 13 14 16 17",
        "05 15 20 21 22 23 24",
    ],
    draw_pile=" ".join(["09", "18", "19", *(f"{n:02d}" for n in range(25, 51)), *["1000"] * 6]),
)


def bluff_play(state: bluff.State, *texts: str) -> bluff.State:
    """Apply 1000? actions written as text."""
    for text in texts:
        state = state.apply(bluff.parse_action(text))
    return state


def bluff_worlds(observation: bluff.Observation, count: int, seed: int = 1) -> list[bluff.State]:
    """``count`` worlds for ``observation`` drawn with one seeded generator."""
    determiniser = bluff.Determiniser(observation)
    rng = random.Random(seed)
    return [determiniser.sample(rng) for _ in range(count)]


def caught_bluff() -> bluff.State:
    """Seat 1 plays 10, seat 2 hides 05 (a bluff), seat 0 challenges: seat 2 draws 09 18 19 and
    must start the new climb with one of them."""
    state = bluff.new_game(bluff.Rules(players=3), seed=1, layout=BLUFF_LAYOUT)
    state = bluff_play(state, "play 10", "hide 05", "challenge")
    assert state.phase is bluff.Phase.START
    assert state.current_player == 2
    return state


def test_bluff_challenge_reveals_and_restart() -> None:
    """The revealed bluff and the card under it are in the discards in every world; the loser's
    restart cards are its real ones in its own worlds, and some three cards of its hand (varying)
    in the others' worlds."""
    state = caught_bluff()
    number = state.rules.kinds.number
    discards = (number[bluff.Card("10")], number[bluff.Card("05")])
    assert state.discards == discards
    loser = state.observation(2)
    assert [str(card) for card in loser.must_start_with] == ["09", "18", "19"]
    for world in bluff_worlds(loser, 50):
        assert world.discards == discards
        assert world.restart_kinds == state.restart_kinds
        assert [str(card) for card in world.legal_actions()] == [
            str(action) for action in loser.legal_actions
        ]
    for seat in (0, 1):
        observation = state.observation(seat)
        assert observation.must_start_with == ()
        restarts = set()
        for world in bluff_worlds(observation, 100):
            assert world.discards == discards
            assert world.restart_kinds is not None
            assert len(world.restart_kinds) == 3
            assert not Counter(world.restart_kinds) - Counter(world.hand_kinds[2])
            assert {str(action) for action in world.legal_actions()} == {
                f"play {world.rules.kinds.cards[kind]}" for kind in world.restart_kinds
            }
            restarts.add(world.restart_kinds)
        assert len(restarts) > 10


def test_bluff_restart_any_card_rule_sets_nothing() -> None:
    """Under the any-card restart rule no world restricts the loser's start."""
    rules = bluff.Rules(players=3, challenge_restart=bluff.ChallengeRestart.ANY_CARD)
    state = bluff_play(
        bluff.new_game(rules, seed=1, layout=BLUFF_LAYOUT), "play 10", "hide 05", "challenge"
    )
    for seat in range(3):
        for world in bluff_worlds(state.observation(seat), 20):
            assert world.restart_kinds is None


def test_bluff_own_face_down_card_is_known() -> None:
    """Seat 0 hides 02 on the loser's 09: its own worlds keep 02 there, seat 1's vary it; once the
    climb ends the card is in the discards, fixed for seat 0 and hidden from the others."""
    state = bluff_play(caught_bluff(), "play 09", "hide 02")
    number = state.rules.kinds.number
    two = number[bluff.Card("02")]
    for world in bluff_worlds(state.observation(0), 50):
        assert world.table_entries[-1] == (two, 0, True, False)
    faces = {world.table_entries[-1][0] for world in bluff_worlds(state.observation(1), 100)}
    assert len(faces) > 10
    state = bluff_play(state, "believe", "pass", "pass")
    assert state.phase is bluff.Phase.START
    assert not state.table_entries
    assert len(state.discards) == 4
    for world in bluff_worlds(state.observation(0), 50):
        assert world.discards[3] == two
        assert world.discards[:3] == state.discards[:3]
    for seat in (1, 2):
        worlds_seen = bluff_worlds(state.observation(seat), 100)
        assert all(world.discards[:3] == state.discards[:3] for world in worlds_seen)
        assert len({world.discards[3] for world in worlds_seen}) > 10


def test_a_bluff_world_after_a_reshuffle_has_no_deal() -> None:
    """Two players, random play: until the discards are shuffled back into the draw pile a world
    has its own deal; after, no seat knows the deal, and a world's ``origin.layout`` is
    ``None``."""
    states, _ = greedy_bluff_game(bluff.Rules(players=2), 0, [False, False])
    first = next(position for position, state in enumerate(states) if state.reshuffles)
    assert not states[first].is_over
    for seat in (0, 1):
        for world in bluff_worlds(states[first - 1].observation(seat), 3):
            assert isinstance(world.origin.layout, bluff.Layout)
        for world in bluff_worlds(states[first].observation(seat), 3):
            assert world.reshuffles == 1
            assert world.origin.layout is None


def test_a_worlds_seed_is_below_two_to_the_63_in_both_games() -> None:
    """The seed a world draws for its game fits a signed 64-bit integer, in 1000? as in
    Thousand: forty worlds, forty different seeds, each from 0 to 2**63 - 1."""
    thousand_seeds = [world.origin.seed for world in worlds(russian_deal().observation(2), 40)]
    bluff_seeds = [world.origin.seed for world in bluff_worlds(caught_bluff().observation(0), 40)]
    for seeds in (thousand_seeds, bluff_seeds):
        assert len(set(seeds)) == 40
        assert all(0 <= seed < 2**63 for seed in seeds)


def test_a_bluff_observation_naming_no_seat_to_act_gives_worlds_where_none_acts() -> None:
    """An observation read from JSON whose ``current_player`` is null gives worlds whose
    ``player`` is -1, as a finished game's is: no seat to act."""
    state = bluff_play(
        bluff.new_game(bluff.Rules(players=3), seed=1, layout=BLUFF_LAYOUT), "play 10"
    )
    data = dict(state.observation(0).to_dict(), current_player=None)
    for world in bluff_worlds(bluff.Observation.from_dict(data), 3):
        assert world.player == -1
        assert world.current_player is None


# Errors and determinism -------------------------------------------------------------------------


def test_no_world_for_a_finished_game() -> None:
    """Both games: an observation of a finished game has nothing to sample."""
    state = new_deal(RUSSIAN, seed=3)
    rng = random.Random(3)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    assert state.phase is Phase.OVER
    over = "the game is over: there is nothing left to sample"
    with pytest.raises(NoWorldError) as error:
        Determiniser(state.observation(0))
    assert str(error.value) == over
    game = bluff.new_game(bluff.Rules(players=3), seed=3)
    while not game.is_over:
        game = game.apply(rng.choice(game.legal_actions()))
    with pytest.raises(NoWorldError) as error:
        bluff.Determiniser(game.observation(1))
    assert str(error.value) == over
    with pytest.raises(ValueError, match="over"):
        thousand.determinise(game.observation(2), rng)


def test_no_world_for_a_tampered_thousand_observation() -> None:
    """A Thousand observation whose hand sizes cannot be dealt is refused with a clear message;
    the untouched one round-trips and is dealt."""
    state = russian_after(1)
    data = state.observation(0).to_dict()
    assert Observation.from_dict(data) == state.observation(0)
    Determiniser(Observation.from_dict(data)).sample(random.Random(1))
    data["hand_sizes"][2] += 1
    with pytest.raises(NoWorldError, match="no deal agrees with this observation"):
        Determiniser(Observation.from_dict(data))


def test_no_world_for_an_observation_where_no_hand_can_hold_the_marriage_a_bid_needs() -> None:
    """Seat 2 bid 130, which needs a marriage (or the four aces) in its hand; an observation
    edited so that seat 0 holds a king of every suit and an ace leaves it none. Once many
    placements are turned away, placing the needed marriages first finds no choice of them
    either; plain placements go on, and sampling ends in NoWorldError after every try."""
    layout = Layout(
        hands=["KS KC KD AS 9S 9C 9D", "QS JC QC TC AC QD JD", "KH QH AH AD TD TS JS"],
        talon="JH 9H TH",
    )
    state = play(new_deal(RUSSIAN, layout=layout, dealer=0), "bid 130")
    data = state.observation(0).to_dict()
    data["hand"] = ["KH" if card == "9D" else card for card in data["hand"]]
    observation = Observation.from_dict(data)
    assert {card.text for card in observation.hand} == {"KS", "KC", "KD", "KH", "AS", "9S", "9C"}
    with pytest.raises(NoWorldError) as error:
        Determiniser(observation).sample(random.Random(2))
    assert str(error.value) == "no deal agrees with this observation after 10000 tries"


def test_no_world_for_tampered_bluff_observations() -> None:
    """1000?: wrong hand sizes, or more copies of a card than the deck has, are refused."""
    state = caught_bluff()
    data = state.observation(0).to_dict()
    bluff.Determiniser(bluff.Observation.from_dict(data)).sample(random.Random(1))
    sizes = dict(data, hand_sizes=[*data["hand_sizes"][:2], data["hand_sizes"][2] + 1])
    with pytest.raises(NoWorldError, match="does not add up"):
        bluff.Determiniser(bluff.Observation.from_dict(sizes))
    copies = dict(data, hand=[*data["hand"][1:], "10"])
    with pytest.raises(NoWorldError) as error:
        bluff.Determiniser(bluff.Observation.from_dict(copies))
    assert str(error.value) == "the observation shows more copies of a card than the deck has"


def test_same_seed_same_world_in_both_games() -> None:
    """The same generator seed gives the same world, from ``Determiniser`` and from
    ``thousand.determinise`` alike, in both games; other seeds give other worlds."""
    observation = russian_deal().observation(2)
    first = Determiniser(observation).sample(random.Random(7))
    assert Determiniser(observation).sample(random.Random(7)) == first
    assert thousand.determinise(observation, random.Random(7)) == first
    assert isinstance(first, GameState)
    others = {Determiniser(observation).sample(random.Random(s)).layout for s in range(10)}
    assert len(others) > 1
    seen = caught_bluff().observation(0)
    world = bluff.Determiniser(seen).sample(random.Random(7))
    assert bluff.Determiniser(seen).sample(random.Random(7)) == world
    assert thousand.determinise(seen, random.Random(7)) == world
    assert bluff.determinise(seen, random.Random(7)) == world
    assert isinstance(world, bluff.State)
    hands = {bluff.Determiniser(seen).sample(random.Random(s)).hand_kinds for s in range(10)}
    assert len(hands) > 1


def test_worlds_do_not_depend_on_earlier_samples_of_the_observation() -> None:
    """Drawing from one Determiniser many times gives the same worlds as drawing afresh with the
    same generator state (the constraints are worked out once, not consumed)."""
    observation = polish_deal().observation(0)
    determiniser = Determiniser(observation)
    rng = random.Random(5)
    for _ in range(3):
        determiniser.sample(rng)
    state = rng.getstate()
    again = random.Random()
    again.setstate(state)
    assert determiniser.sample(rng) == Determiniser(observation).sample(again)


def test_take_of_the_musik_is_kept() -> None:
    """Two players: the musik the declarer took is the one taken in every world's history."""
    state = polish_2p_deal()
    for seat in range(2):
        for world in worlds(state.observation(seat), 20):
            takes = [a for _, a in world.actions if isinstance(a, Take)]
            assert takes == [Take(1)]
            assert world.musik == 1


def test_a_world_starts_from_the_observed_dealer_and_scores_and_its_own_cards() -> None:
    """A world is a single deal whose origin holds the observation's dealer and scores and the
    world's own cards as dealt, so its record replays into the world itself."""
    layout = Layout(
        hands=["JD QD 9D QC JC TC 9C", "KS QS JS 9S AC KC KD", "AH KH QH AD TD AS TS"],
        talon="JH 9H TH",
    )
    state = new_deal(RUSSIAN, layout=layout, dealer=1, scores=(250, -40, 610))
    state = play(state, "pass", "pass", "give JH 1", "give 9H 0", "contract 100", "play AS")
    observation = state.observation(0)
    for world in worlds(observation, 5):
        assert world.origin.dealer == 1
        assert world.origin.scores == (250, -40, 610)
        assert world.origin.layout == world.layout
        assert world.origin.single_deal
        assert thousand.replay(thousand.Record.from_state(world)) == world


def test_a_world_keeps_the_bolts_and_falls_counted_so_far() -> None:
    """In a later deal of a match with bolts and barrel falls counted, every seat's worlds keep
    each seat's counts of both."""
    rules = attrs.evolve(RUSSIAN, bolts=3, barrel_reset_falls=3)
    layout = Layout(
        hands=["KS QS JS 9S AC KC KD", "AH KH QH AD TD AS TS", "JD QD 9D QC JC TC 9C"],
        talon="JH 9H TH",
    )
    scores = (300, 120, -60)
    origin = Origin(5, 0, scores, layout, False)
    start = start_of_deal(
        rules, origin, 4, 0, scores, (None,) * 3, (), layout, (2, 0, 1), (0, 2, 1)
    )
    state = play(start, "pass", "pass", "give JH 0", "give 9H 2", "contract 100", "play AS")
    for seat in range(3):
        for world in worlds(state.observation(seat), 3):
            assert world.bolts == (2, 0, 1)
            assert world.falls == (0, 2, 1)


def mean_marriages(
    monkeypatch: pytest.MonkeyPatch,
    observation: Observation,
    misses: int,
    held: Callable[[GameState, int], int],
    seats: Sequence[int],
) -> list[float]:
    """The mean value of the marriages ``held(world, seat)`` over 3000 worlds for
    ``observation``, for each of ``seats``, with the needed marriages placed first after
    ``misses`` turned-away placements."""
    module = importlib.import_module("thousand.classic.determinise")
    monkeypatch.setattr(module, "MISSES_BEFORE_MARRIAGES", misses)
    determiniser = Determiniser(observation)
    rng = random.Random(5)
    count = 3000
    totals = [0] * len(seats)
    for _ in range(count):
        world = determiniser.sample(rng)
        for position, seat in enumerate(seats):
            totals[position] += marriage_value(observation.rules, held(world, seat))
    return [total / count for total in totals]


@pytest.mark.slow
def test_placing_the_bid_marriages_first_draws_the_same_worlds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """When bid ceilings turn many placements away, the determiniser places the marriages the
    bids need first; the worlds it then draws are as uniform as plain rejection's: the bidders
    hold marriages worth the same on average (drawing a world with several of the needed
    marriages too often would raise it by about 12 points)."""
    layout = Layout(
        hands=["AH TH JH 9D TC JC 9S", "KD QD KC QC AS TS 9C", "KH QH AD TD JD KS QS"],
        talon="9H AC JS",
    )
    state = play(new_deal(RUSSIAN, layout=layout, dealer=0), "bid 160", "pass", "bid 170")
    observation = state.observation(0)

    def dealt(world: GameState, seat: int) -> int:
        return world.layout.hand_masks()[seat]

    rejection = mean_marriages(monkeypatch, observation, 10**9, dealt, (1, 2))
    marriages_first = mean_marriages(monkeypatch, observation, 0, dealt, (1, 2))
    assert min(rejection) >= 50
    for plain, placed in zip(rejection, marriages_first, strict=True):
        assert abs(plain - placed) < 4


@pytest.mark.slow
def test_placing_the_contract_marriages_first_draws_the_same_worlds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A contract of 220 needs 100 of marriages in the declarer's hand after the exchange
    (hearts, two of the others, or the four aces; seat 0 holds none of their cards). Placing
    them first, seat 0's worlds are as uniform as plain rejection's: the declarer's hand at the
    contract holds marriages worth the same on average, and so does the other defender's."""
    layout = Layout(
        hands=["9S JS 9C JC 9D JD TD", "AH KH QH KS QS AS TS", "KC QC KD QD AC AD TC"],
        talon="JH 9H TH",
    )
    state = play(new_deal(RUSSIAN, layout=layout, dealer=0), "pass", "pass")
    observation = play(state, "give JH 0", "give 9H 2", "contract 220").observation(0)

    def at_contract(world: GameState, seat: int) -> int:
        return world.hand_masks[seat] | played_by(world, seat)

    rejection = mean_marriages(monkeypatch, observation, 10**9, at_contract, (1, 2))
    marriages_first = mean_marriages(monkeypatch, observation, 0, at_contract, (1, 2))
    assert rejection[0] > 120
    for plain, placed in zip(rejection, marriages_first, strict=True):
        assert abs(plain - placed) < 4


def test_an_observation_lists_the_deals_card_plays_in_order() -> None:
    """``card_plays``, what deductions are made from, is every card played in the deal so far,
    in order with its player, as the history tells."""
    seen: list[thousand.Observation] = []

    class Noting(GreedyPlayer):
        def act(self, observation: thousand.Observation) -> object:
            seen.append(observation)
            return super().act(observation)

    for seed in range(4):
        thousand.play([Noting(), "random", "random"], Rules.preset("russian"), seed=seed)
    assert any(observation.card_plays for observation in seen)
    for observation in seen:
        plays = tuple(
            (actor, action) for actor, action in observation.history if isinstance(action, Play)
        )
        assert observation.card_plays == plays


def nine_of_spades_given_deal() -> GameState:
    """The deal above with the talon KH QH 9S (seat 1 holding JH for the 9S): seat 2 bids 130,
    seat 0 wins at 140 and gives KH to seat 1 and, unseen by seat 1, the 9S (the first card of
    the deck) to seat 2."""
    layout = Layout(
        hands=["KC QC AH AD AC AS TH", "TD KD QD TC TS JS JH", "KS QS 9H JD 9D JC 9C"],
        talon="KH QH 9S",
    )
    bids = ["bid 130", "bid 140", "pass", "pass"]
    return opponent_deal(bids, layout, ("give KH 1", "give 9S 2"))


@pytest.mark.slow
def test_a_hidden_give_of_the_first_card_of_the_deck_is_drawn_like_any_other() -> None:
    """Seat 1's worlds when the card it did not see given is the 9S, the deck's first card:
    every consistent placement comes up, the true one among them, equally often."""
    state = nine_of_spades_given_deal()
    observation = state.observation(1)
    possible = consistent_placements(observation)
    assert (state.hand_masks[0], state.hand_masks[2]) in possible
    assert {bool(two & bits_of("9S")) for _, two in possible} == {False, True}
    assert_uniform(placement_counts(observation, 200 * len(possible), seed=7), possible)


# Placing needed marriages first (Karp and Luby) keeps every consistent world equally likely ----


def marriages_first_worlds(
    monkeypatch: pytest.MonkeyPatch, observation: Observation, count: int, seed: int
) -> list[GameState]:
    """``count`` worlds for ``observation`` drawn with the needed marriages (and the cards given
    unseen) placed first from the first attempt on."""
    module = importlib.import_module("thousand.classic.determinise")
    monkeypatch.setattr(module, "MISSES_BEFORE_MARRIAGES", 0)
    return worlds(observation, count, seed)


def two_player_bid_deal() -> GameState:
    """Polish, two players: seat 1 outbids seat 0 at 130 (its clubs and spades in hand), takes
    musik 1 (KH QH, the other is QD TS), lays aside KS and JS, plays 130, and seven tricks are
    played without a marriage declared: seat 1 still holds KC QC and QH, the KS lies aside."""
    layout = Layout(
        hands=["AH TH JH 9H AD TD JD 9D AC 9C", "KC QC JC TC AS KS QS JS 9S KD"],
        talon=[["KH", "QH"], ["QD", "TS"]],
    )
    state = new_deal(POLISH_2P, layout=layout, dealer=0)
    state = play(state, "bid 110", "bid 130", "pass", "take 1", "discard KS", "discard JS")
    plays = ["AS", "JD", "KD", "TD", "9C", "JC", "QS", "9H", "9S", "9D", "TC", "AC", "JH", "KH"]
    return play(state, "contract 130", *(f"play {card}" for card in plays))


def consistent_two_player_placements(observation: Observation) -> set[tuple[int, int, int]]:
    """Brute force, two players, the declarer's opponent observing: every (declarer's hand, other
    musik, cards laid aside) that replays into exactly this observation."""
    rules = observation.rules
    seat = observation.seat
    declarer = observation.declarer
    assert rules.players == 2
    assert declarer is not None
    assert declarer != seat
    played = [0, 0]
    for actor, action in observation.card_plays:
        played[actor] |= action.card.bit
    hand = mask(observation.hand)
    taken = mask(observation.talon)
    musik = next(action.musik for _, action in observation.history if isinstance(action, Take))
    unseen = cards_in(ALL_CARDS & ~hand & ~played[0] & ~played[1])
    found = set()
    for held in itertools.combinations(unseen, observation.hand_sizes[declarer]):
        rest = [card for card in unseen if card not in held]
        for other in itertools.combinations([c for c in rest if not c.bit & taken], 2):
            laid = [card for card in rest if card not in other]
            dealt = [0, 0]
            dealt[seat] = hand | played[seat]
            dealt[declarer] = (mask(held) | played[declarer] | mask(laid)) & ~taken
            piles = [observation.talon, other][:: 1 if musik == 1 else -1]
            state = dealt_as_observed(
                observation, Layout(hands=[tuple(cards_in(d)) for d in dealt], talon=piles)
            )
            hidden = iter(laid)
            try:
                for _, action in observation.history:
                    if isinstance(action, Discard) and action.card is None:
                        action = Discard(next(hidden))
                    state = state.apply(action)
            except IllegalActionError:
                continue
            if state.observation(seat) == observation:
                found.add((mask(held), mask(other), mask(laid)))
    return found


@pytest.mark.slow
def test_two_players_marriages_first_draws_every_world_of_a_high_bid_alike(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two players, the opponent of a declarer who bid 130: with the marriages the bid needs
    placed first, the declarer's hand, the other musik and the cards laid aside come up in every
    consistent way (a marriage card of the bid laid aside, or one taken from the musik, too),
    equally often."""
    state = two_player_bid_deal()
    observation = state.observation(0)
    possible = consistent_two_player_placements(observation)
    truth = (state.hand_masks[1], mask(state.layout.talon[1]), state.set_aside_mask)
    assert truth in possible
    assert {bool(laid & bits_of("KS")) for _, _, laid in possible} == {False, True}
    assert len(possible) == 48
    counts = Counter(
        (world.hand_masks[1], mask(world.layout.talon[1]), world.set_aside_mask)
        for world in marriages_first_worlds(monkeypatch, observation, 2000, seed=3)
    )
    assert_uniform(counts, possible)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("bids", "gives", "seat"),
    [
        # Seat 0 bid 140 on its clubs and gave seat 1 the KC (and, unseen by seat 1, AC to
        # seat 2, which bid 130): the declarer was dealt clubs among seat 1's worlds.
        pytest.param(
            ["bid 130", "bid 140", "pass", "pass"],
            ("give KC 1", "give AC 2"),
            1,
            id="a-card-of-the-bid-marriage-given",
        ),
        # Seat 0 bid 130 on its clubs and seat 1 won at 140: seat 0's marriage stays in seat
        # 0's hand in seat 2's worlds.
        pytest.param(
            ["pass", "bid 130", "bid 140", "pass"],
            ("give JH 2", "give KH 0"),
            2,
            id="an-outbid-opponents-marriage",
        ),
    ],
)
def test_marriages_first_draws_every_consistent_world_alike(
    monkeypatch: pytest.MonkeyPatch, bids: list[str], gives: tuple[str, str], seat: int
) -> None:
    """With the marriages the bids need placed first, a seat's worlds cover every consistent
    placement of the other two hands (the 30 that brute force finds), equally often."""
    state = opponent_deal(bids, gives=gives)
    observation = state.observation(seat)
    first, second = (other for other in range(3) if other != seat)
    possible = consistent_placements(observation)
    assert (state.hand_masks[first], state.hand_masks[second]) in possible
    assert len(possible) == 30
    counts = Counter(
        (world.hand_masks[first], world.hand_masks[second])
        for world in marriages_first_worlds(monkeypatch, observation, 2000, seed=3)
    )
    assert_uniform(counts, possible)
