"""Property tests of the 1000? invariants (RULES.md Part 3, the items that apply to 1000?) over
games dealt from permutations of the default deck and of small custom decks, with actions drawn by
hypothesis.

Each step is checked against a model written from RULES.md Part 2 (:func:`expected_legal`,
:func:`check_step`): which actions are legal, where every card goes, who acts next and who wins.
Cards are compared by label, as the rules do (the deck may hold several equal cards).
"""

from __future__ import annotations

import copy
import itertools
from collections import Counter
from collections.abc import Sequence

import attrs
import pytest
from hypothesis import event, given, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
)

import thousand
from thousand import bluff
from thousand.bluff import (
    DEFAULT_DECK,
    Believe,
    Card,
    ChallengeRestart,
    EmptyDrawPile,
    Hide,
    LastCardFaceDown,
    Layout,
    Pass,
    Phase,
    Play,
    Rules,
    State,
    TableCard,
)

from .strategies import scaled

THOUSAND = "1000"
PLAYOUT_LIMIT = 250
"""Actions drawn per playout at most (random games rarely need more than 150)."""

# Strategies -------------------------------------------------------------------------------


@st.composite
def small_decks(draw: st.DrawFn, players: int, hand_size: int) -> tuple[Card, ...]:
    """A deck of two-digit labels (repeats allowed) and a few 1000s, large enough to deal."""
    size = players * hand_size + draw(st.integers(1, 8))
    thousands = draw(st.integers(0, min(4, size)))
    numbers = draw(st.lists(st.integers(0, 99), min_size=size - thousands, max_size=size))
    labels = [THOUSAND] * thousands + [f"{number:02d}" for number in numbers]
    return bluff.cards(labels[:size])


@st.composite
def bluff_rules(draw: st.DrawFn) -> Rules:
    """Rules with 2 to 6 players, the default deck or a small one, any reading of the decided
    rules, and sometimes a low turn cap."""
    seats = draw(st.integers(2, 6))
    if draw(st.booleans()):
        hand_size = draw(st.integers(2, 4))
        deck = draw(small_decks(seats, hand_size))
    else:
        hand_size, deck = 7, DEFAULT_DECK
    return Rules(
        players=seats,
        hand_size=hand_size,
        deck=deck,
        challenge_restart=draw(st.sampled_from(ChallengeRestart)),
        empty_draw_pile=draw(st.sampled_from(EmptyDrawPile)),
        last_card_face_down=draw(st.sampled_from(LastCardFaceDown)),
        max_turns=draw(st.just(2000) | st.just(2000) | st.integers(1, 60)),
    )


def layout_from(order: Sequence[Card], rules: Rules) -> Layout:
    """Deal an ordering of the deck: ``hand_size`` cards to each seat, the rest to the pile."""
    size = rules.hand_size
    hands = [order[seat * size : (seat + 1) * size] for seat in range(rules.players)]
    return Layout(hands=hands, draw_pile=order[rules.players * size :])


@st.composite
def games(draw: st.DrawFn, by_hand: bool = False) -> State:
    """A new game: drawn rules, a layout from a permutation of the deck (or, unless ``by_hand``,
    sometimes the seed's own shuffle), a dealer and a seed."""
    chosen = draw(bluff_rules())
    layout = layout_from(draw(st.permutations(chosen.deck)), chosen)
    if not by_hand and draw(st.booleans()):
        layout = None
    dealer = draw(st.integers(0, chosen.players - 1))
    seed = draw(st.integers(0, 2**32))
    return bluff.new_game(chosen, seed=seed, layout=layout, dealer=dealer)


def draw_action(data: st.DataObject, state: State) -> bluff.Action:
    """One of the legal actions, drawn as an index into ``legal_actions()``: first the kind of
    action (play, hide, pass, believe or challenge), then one of that kind, so that passes, which
    come last, are drawn as often as the rest."""
    legal = state.legal_actions()
    kinds = list(dict.fromkeys(type(action) for action in legal))
    kind = data.draw(st.sampled_from(kinds), label="kind of action")
    indices = [index for index, action in enumerate(legal) if type(action) is kind]
    return legal[data.draw(st.sampled_from(indices), label="action index")]


def playout(data: st.DataObject, state: State, limit: int = PLAYOUT_LIMIT) -> list[State]:
    """The states of a game played with drawn actions, the first included."""
    states = [state]
    while not state.is_over and len(states) <= limit:
        state = state.apply(draw_action(data, state))
        states.append(state)
    return states


# The model: RULES.md Part 2 ---------------------------------------------------------------


def labels(cards: Sequence[Card]) -> Counter[str]:
    """The cards as a multiset of labels."""
    return Counter(str(card) for card in cards)


def distinct(cards: Sequence[Card]) -> list[Card]:
    """The different cards, lowest number first."""
    return sorted(set(cards), key=lambda card: (int(card.label), card.label))


def goes_on(card: Card, top: TableCard) -> bool:
    """Whether ``card`` may be played face up on ``top``: a 1000 always; anything on a 1000 or on
    a believed face-down card; otherwise a strictly greater number sharing a printed digit."""
    if card.label == THOUSAND or top.believed:
        return True
    assert top.card is not None
    if top.card.label == THOUSAND:
        return True
    return int(card.label) > int(top.card.label) and bool(set(card.label) & set(top.card.label))


def model_phase(state: State) -> Phase:
    """The phase the table shows: empty - a climb starts; a face-down card not yet believed - the
    next player answers it; else the climb goes on."""
    if not state.table:
        return Phase.START
    top = state.table[-1]
    return Phase.RESPONSE if top.face_down and not top.believed else Phase.CLIMB


def expected_legal(state: State, restart: Sequence[Card] | None) -> list[bluff.Action]:
    """The legal actions in the documented order. ``restart`` holds the cards just drawn by the
    loser of a challenge when the new climb must start with one of them."""
    if state.is_over:
        return []
    hand = state.hands[state.current_player or 0]
    phase = model_phase(state)
    if phase is Phase.START:
        return [Play(card) for card in distinct(hand if restart is None else restart)]
    if phase is Phase.RESPONSE:
        return [bluff.Believe(), bluff.Challenge()]
    top = state.table[-1]
    ups: list[bluff.Action] = [Play(card) for card in distinct(hand) if goes_on(card, top)]
    return [*ups, *(Hide(card) for card in distinct(hand)), Pass()]


def zones(state: State) -> Counter[str]:
    """Every card of every zone: hands, draw pile, discards and table."""
    cards = [card for hand in state.hands for card in hand]
    cards += [*state.draw_pile, *state.discard_pile]
    cards += [entry.card for entry in state.table if entry.card is not None]
    assert len(cards) == sum(map(len, state.hands)) + len(state.draw_pile) + len(
        state.discard_pile
    ) + len(state.table)
    return labels(cards)


def check_conservation(state: State) -> None:
    """All zones together hold exactly the deck."""
    assert zones(state) == labels(state.rules.deck)


def entries(table: Sequence[TableCard]) -> list[tuple[str, int, bool, bool]]:
    """The table as plain values."""
    return [(str(entry.card), entry.owner, entry.face_down, entry.believed) for entry in table]


@attrs.define
class Step:
    """What the model expects after one action."""

    hands: list[Counter[str]]
    table: list[tuple[str, int, bool, bool]]
    next_player: int | None = None
    phase: Phase | None = None
    winner: int | None = None
    restart: list[Card] | None = None


def check_draw(
    before: State, after: State, seat: int, wanted: int, *, discarded: Sequence[Card] = ()
) -> Counter[str]:
    """``seat`` drew ``wanted`` cards if there are that many: first from the draw pile, then from
    the reshuffled discards (under the reshuffle rule). ``discarded`` (the climb) goes to the
    discards after the draw. Returns the drawn cards; checks both piles afterwards."""
    pile = before.draw_pile
    reshuffle = before.rules.empty_draw_pile is EmptyDrawPile.RESHUFFLE
    from_pile = pile[:wanted]
    rest = wanted - len(from_pile)
    from_discards = min(rest, len(before.discard_pile)) if reshuffle else 0
    drawn = labels(after.hands[seat]) - labels(before.hands[seat])
    assert labels(before.hands[seat]) - labels(after.hands[seat]) == Counter()
    assert drawn.total() == len(from_pile) + from_discards
    assert labels(from_pile) <= drawn
    if rest and from_discards:
        reshuffled = drawn - labels(from_pile)
        assert reshuffled <= labels(before.discard_pile)
        assert labels(after.draw_pile) == labels(before.discard_pile) - reshuffled
        assert after.discard_pile == tuple(discarded)
    else:
        assert after.draw_pile == pile[wanted:]
        assert after.discard_pile == (*before.discard_pile, *discarded)
    return drawn


def model_step(before: State, action: bluff.Action, after: State) -> Step:
    """The model's expectation for ``action`` taken in ``before``; the draws are checked against
    ``after`` on the way (their order after a reshuffle is the engine's seeded secret)."""
    rules = before.rules
    seat = before.current_player
    assert seat is not None
    players = rules.players
    hands = [labels(hand) for hand in before.hands]
    table = entries(before.table)
    following = (seat + 1) % players
    if isinstance(action, (Play, Hide)):
        assert action.card is not None
        hands[seat] -= Counter([str(action.card)])
        face_down = isinstance(action, Hide)
        table.append((str(action.card), seat, face_down, False))
        assert after.draw_pile == before.draw_pile
        assert after.discard_pile == before.discard_pile
        if not hands[seat] and (
            not face_down or rules.last_card_face_down is LastCardFaceDown.WINS
        ):
            return Step(hands, table, winner=seat)
        return Step(hands, table, following, Phase.RESPONSE if face_down else Phase.CLIMB)
    if isinstance(action, Believe):
        label, owner, _, _ = table[-1]
        table[-1] = (label, owner, True, True)
        assert after.draw_pile == before.draw_pile
        assert after.discard_pile == before.discard_pile
        if not hands[owner]:
            return Step(hands, table, winner=owner)
        return Step(hands, table, seat, Phase.CLIMB)
    if isinstance(action, bluff.Challenge):
        hidden, below = before.table[-1], before.table[-2]
        assert hidden.card is not None
        honest = goes_on(hidden.card, below)
        owner = hidden.owner
        if honest and not hands[owner]:
            assert after.draw_pile == before.draw_pile
            assert after.discard_pile == before.discard_pile
            return Step(hands, table, winner=owner)
        loser = seat if honest else owner
        climb = [entry.card for entry in before.table if entry.card is not None]
        drawn = check_draw(before, after, loser, 3, discarded=climb)
        hands[loser] += drawn
        starter = loser
        while not hands[starter]:
            starter = (starter + 1) % players
        restart = None
        if rules.challenge_restart is ChallengeRestart.DRAWN_CARD and drawn:
            restart = [Card(label) for label in drawn.elements()]
        return Step(hands, [], starter, Phase.START, restart=restart)
    assert isinstance(action, Pass)
    ended = following == table[-1][1]
    climb = [entry.card for entry in before.table if entry.card is not None] if ended else []
    hands[seat] += check_draw(before, after, seat, 1, discarded=climb)
    if ended:
        return Step(hands, [], following, Phase.START)
    return Step(hands, table, following, Phase.CLIMB)


def check_step(
    before: State, action: bluff.Action, after: State, restart: list[Card] | None
) -> list[Card] | None:
    """Check one action against the model: its legality, every zone, the winner or the next
    player. Returns the cards the next climb must start with (or ``None``)."""
    assert before.legal_actions() == tuple(expected_legal(before, restart))
    assert model_phase(before) is before.phase
    step = model_step(before, action, after)
    check_conservation(after)
    assert [labels(hand) for hand in after.hands] == step.hands
    assert entries(after.table) == step.table
    assert after.turns == before.turns + 1
    assert after.actions == (*before.actions, (before.current_player, action))
    for hand in after.hands:
        assert list(hand) == sorted(hand, key=lambda card: (card.value, card.label))
    result = after.result
    if step.winner is not None:
        assert result is not None
        assert result.winners == (step.winner,)
        assert not result.adjudicated
    elif after.turns >= after.rules.max_turns:
        assert result is not None
        assert result.adjudicated
        sizes = [len(hand) for hand in after.hands]
        if after.history and isinstance(after.actions[-1][1], bluff.Hide):
            sizes[after.actions[-1][0]] += 1  # an unanswered face-down card counts as held
        assert result.winners == tuple(s for s, size in enumerate(sizes) if size == min(sizes))
    else:
        assert result is None
        assert after.phase is step.phase
        assert after.current_player == step.next_player
        return step.restart
    assert after.is_over
    assert after.current_player is None
    assert after.legal_actions() == ()
    assert result.hand_sizes == tuple(len(hand) for hand in after.hands)
    assert result.turns == after.turns
    return None


def check_playout(states: Sequence[State]) -> None:
    """Check every step of a playout against the model."""
    restart = None
    for before, after in itertools.pairwise(states):
        restart = check_step(before, after.actions[-1][1], after, restart)


# Properties -------------------------------------------------------------------------------


@given(rules=bluff_rules(), data=st.data())
def test_layouts_must_deal_the_hand_size(rules: Rules, data: st.DataObject) -> None:
    """A layout is accepted only when it deals ``hand_size`` cards to every seat."""
    order = data.draw(st.permutations(rules.deck), label="deck")
    sizes = st.lists(
        st.integers(0, 2 * rules.hand_size), min_size=rules.players, max_size=rules.players
    ).filter(lambda sizes: sum(sizes) <= len(rules.deck))
    cuts = data.draw(st.just([rules.hand_size] * rules.players) | sizes, label="hand sizes")
    starts = [sum(cuts[:seat]) for seat in range(rules.players)]
    hands = [order[start : start + size] for start, size in zip(starts, cuts, strict=True)]
    layout = Layout(hands=hands, draw_pile=order[sum(cuts) :])
    if all(size == rules.hand_size for size in cuts):
        state = bluff.new_game(rules, seed=0, layout=layout)
        assert state.legal_actions()
    else:
        seat = next(seat for seat, size in enumerate(cuts) if size != rules.hand_size)
        with pytest.raises(thousand.LayoutError, match=f"hand {seat} of the layout"):
            bluff.new_game(rules, seed=0, layout=layout)


@pytest.mark.slow
@given(start=games(), data=st.data())
def test_card_conservation(start: State, data: st.DataObject) -> None:
    """In every reachable state the hands, draw pile, discards and table hold exactly the deck."""
    for state in playout(data, start):
        check_conservation(state)
        assert state.rules.deck == start.rules.deck


@pytest.mark.slow
@settings(max_examples=scaled(3))
@given(start=games(), data=st.data())
def test_face_up_plays_follow_the_rules(start: State, data: st.DataObject) -> None:
    """Every face-up play offered passes an independent RULES.md 2.2 check, and none is missing."""
    states = playout(data, start)
    restart = None
    for state, after in itertools.pairwise(states):
        hand = state.hands[state.current_player or 0]
        for action in state.legal_actions():
            if isinstance(action, Play):
                assert action.card in hand
                if state.table:
                    assert goes_on(action.card, state.table[-1])
                elif restart is not None:
                    assert action.card in restart
        restart = check_step(state, after.actions[-1][1], after, restart)


@pytest.mark.slow
@settings(max_examples=scaled(3))
@given(start=games(), data=st.data())
def test_challenge_moves_exactly_the_right_cards(start: State, data: st.DataObject) -> None:
    """A challenge discards the table and gives min(3, available) cards to the wrong player."""
    states = playout(data, start)
    for before, after in itertools.pairwise(states):
        if not isinstance(after.actions[-1][1], bluff.Challenge):
            continue
        hidden, below = before.table[-1], before.table[-2]
        assert hidden.card is not None
        honest = goes_on(hidden.card, below)
        event(f"challenge of {'an honest card' if honest else 'a bluff'}")
        challenger = before.current_player
        assert challenger == (hidden.owner + 1) % before.rules.players
        if honest and not before.hands[hidden.owner]:
            assert after.result is not None
            assert after.result.winners == (hidden.owner,)
            assert after.table == before.table
            continue
        loser = challenger if honest else hidden.owner
        available = len(before.draw_pile)
        if before.rules.empty_draw_pile is EmptyDrawPile.RESHUFFLE:
            available += len(before.discard_pile)
        drawn = labels(after.hands[loser]) - labels(before.hands[loser])
        assert drawn.total() == min(3, available)
        assert len(after.hands[loser]) == len(before.hands[loser]) + min(3, available)
        for seat, hand in enumerate(after.hands):
            if seat != loser:
                assert hand == before.hands[seat]
        assert after.table == ()
        climb = labels([entry.card for entry in before.table if entry.card is not None])
        assert climb <= labels(after.discard_pile)
        check_step(before, after.actions[-1][1], after, None)


@pytest.mark.slow
@settings(max_examples=scaled(3))
@given(start=games(), data=st.data())
def test_pass_draws_one_card_when_there_is_one(start: State, data: st.DataObject) -> None:
    """A pass draws one card into the passer's hand when one is available, none otherwise."""
    states = playout(data, start)
    for before, after in itertools.pairwise(states):
        if not isinstance(after.actions[-1][1], Pass):
            continue
        seat = before.current_player
        assert seat is not None
        available = len(before.draw_pile)
        if before.rules.empty_draw_pile is EmptyDrawPile.RESHUFFLE:
            available += len(before.discard_pile)
        event("pass with nothing to draw" if not available else "pass")
        gained = labels(after.hands[seat]) - labels(before.hands[seat])
        assert gained.total() == min(1, available)
        assert labels(before.hands[seat]) <= labels(after.hands[seat])
        if before.draw_pile:
            assert gained == labels(before.draw_pile[:1])
        for other, hand in enumerate(after.hands):
            if other != seat:
                assert hand == before.hands[other]


@pytest.mark.slow
@settings(max_examples=scaled(3))
@given(start=games(), data=st.data())
def test_turn_goes_to_the_right_player(start: State, data: st.DataObject) -> None:
    """After every action the seat the rules name acts next, and every card lands where due."""
    # Left of the dealer first; then left of a player or of a face-down card, the believer again,
    # the owner of the top card when all others passed, the loser of a challenge (or, with no
    # card to start with, the next seat to the left that has one).
    states = playout(data, start)
    assert start.current_player == (start.origin.dealer + 1) % start.rules.players
    check_playout(states)


def twin_layout(layout: Layout, seat: int, data: st.DataObject) -> Layout:
    """The layout with cards that ``seat`` cannot see moved around: two of them exchanged, the
    draw pile reordered, or all of them permuted."""
    zones_ = [list(hand) for hand in layout.hands] + [list(layout.draw_pile)]
    hidden = [(zone, index) for zone, cards in enumerate(zones_) for index in range(len(cards))]
    hidden = [place for place in hidden if place[0] != seat]
    how = data.draw(st.sampled_from(["swap", "pile", "all"]), label="twin")
    if how == "pile":
        zones_[-1] = list(data.draw(st.permutations(zones_[-1]), label="pile"))
    else:
        cards = [zones_[zone][index] for zone, index in hidden]
        if how == "swap":
            first, second = data.draw(
                st.lists(st.sampled_from(range(len(hidden))), min_size=2, max_size=2), label="swap"
            )
            cards[first], cards[second] = cards[second], cards[first]
        else:
            cards = list(data.draw(st.permutations(cards), label="permutation"))
        for (zone, index), card in zip(hidden, cards, strict=True):
            zones_[zone][index] = card
    return Layout(hands=zones_[:-1], draw_pile=zones_[-1])


def compare_twins(states: Sequence[State], twin: State, seat: int) -> int:
    """Replay the actions of ``states`` on ``twin`` while they stay legal and compare ``seat``'s
    observations as long as its hand is the same in both games; returns the steps compared."""
    compared = 0
    for number, state in enumerate(states):
        if state.hands[seat] != twin.hands[seat]:
            break
        assert twin.observation(seat) == state.observation(seat)
        compared += 1
        if number + 1 == len(states):
            break
        action = states[number + 1].actions[-1][1]
        if not twin.is_legal(action):
            break
        twin = twin.apply(action)
    return compared


@pytest.mark.slow
@settings(max_examples=scaled(3))
@given(start=games(by_hand=True), data=st.data())
def test_observation_ignores_cards_the_seat_cannot_see(start: State, data: st.DataObject) -> None:
    """Layouts differing only in cards a seat cannot see give it equal observations."""
    # Other hands' contents and the draw pile order, compared while the same actions are legal
    # and the seat's own cards are the same in both games.
    states = playout(data, start)
    seat = data.draw(st.integers(0, start.rules.players - 1), label="seat")
    assert start.origin.layout is not None
    layout = twin_layout(start.origin.layout, seat, data)
    twin = bluff.new_game(
        start.rules, seed=start.origin.seed, layout=layout, dealer=start.origin.dealer
    )
    compared = compare_twins(states, twin, seat)
    assert compared >= 1
    event(f"compared {'1' if compared == 1 else 'several'} step(s)")


@pytest.mark.slow
@settings(max_examples=scaled(3))
@given(start=games(), data=st.data())
def test_observation_ignores_other_face_down_cards(start: State, data: st.DataObject) -> None:
    """Swapping another seat's believed face-down card changes no other seat's observation."""
    # Only hides that were believed or not yet answered: a challenge shows the card to everyone.
    states = playout(data, start)
    actions = [after.actions[-1] for after in states[1:]]
    swaps = []
    for number, (actor, action) in enumerate(actions):
        answered = number + 1 < len(actions) and isinstance(actions[number + 1][1], Believe)
        if isinstance(action, Hide) and (answered or number + 1 == len(actions)):
            others = [card for card in distinct(states[number].hands[actor]) if card != action.card]
            swaps += [(number, actor, card) for card in others]
    if not swaps:
        return
    number, actor, card = data.draw(st.sampled_from(swaps), label="swap")
    twin = states[number].apply(Hide(card))
    for seat in range(start.rules.players):
        if seat != actor:
            assert compare_twins(states[number + 1 :], twin, seat) >= 1
    event("face-down card swapped")


@pytest.mark.slow
@given(start=games(), data=st.data())
def test_same_seed_and_actions_give_equal_states(start: State, data: st.DataObject) -> None:
    """The same rules, seed, deal and actions give equal states with equal hashes."""
    states = playout(data, start)
    origin = start.origin
    again = bluff.new_game(
        start.rules, seed=origin.seed, layout=origin.layout, dealer=origin.dealer
    )
    for state, after in zip(states, [*states[1:], None], strict=True):
        assert again == state
        assert hash(again) == hash(state)
        assert again.legal_actions() == state.legal_actions()
        if after is not None:
            again = again.apply(after.actions[-1][1])
    for seat in range(start.rules.players):
        assert again.observation(seat) == states[-1].observation(seat)


@pytest.mark.slow
@given(start=games(), data=st.data())
def test_record_replays_every_prefix(start: State, data: st.DataObject) -> None:
    """Record -> JSON -> record -> replay gives back the state, at a drawn point and at the end."""
    states = playout(data, start)
    middle = states[data.draw(st.integers(0, len(states) - 1), label="prefix")]
    for state in (middle, states[-1]):
        record = bluff.Record.from_json(bluff.Record.from_state(state).to_json())
        assert bluff.replay(record) == state


@pytest.mark.slow
@settings(max_examples=scaled(0.5))
@given(start=games(), data=st.data())
def test_apply_does_not_mutate(start: State, data: st.DataObject) -> None:
    """Applying any legal action leaves the state as it was (equal to a deep copy, same hash)."""
    for state in playout(data, start, limit=60):
        before, digest = copy.deepcopy(state), hash(state)
        for action in state.legal_actions():
            state.apply(action)
        assert state == before
        assert hash(state) == digest


# A state machine --------------------------------------------------------------------------


class BluffMachine(RuleBasedStateMachine):
    """A game driven rule by rule, each rule preferring one kind of action (play, hide, pass,
    believe, challenge) and taking another legal one when that kind is not allowed; every step is
    checked against the model, a finished game's record is replayed and another game begins, and
    the interface invariants are checked after every step. (The rules have no preconditions, so
    that hypothesis, which switches some rules off in each run, can always make progress.)"""

    state: State
    restart: list[Card] | None

    @initialize(start=games())
    def begin(self, start: State) -> None:
        """Start a game."""
        self.state = start
        self.restart = None

    def take(self, data: st.DataObject, kind: type) -> None:
        """Take a drawn action of ``kind`` if there is one, else any drawn legal action; once the
        game is over, check its record and start another."""
        if self.state.is_over:
            record = bluff.Record.from_json(bluff.Record.from_state(self.state).to_json())
            assert bluff.replay(record) == self.state
            self.begin(data.draw(games(), label="next game"))
            return
        legal = self.state.legal_actions()
        choices = [action for action in legal if isinstance(action, kind)] or list(legal)
        action = data.draw(st.sampled_from(choices), label="action")
        before, digest = copy.deepcopy(self.state), hash(self.state)
        after = self.state.apply(action)
        assert self.state == before
        assert hash(self.state) == digest
        note(f"seat {self.state.current_player}: {action}")
        self.restart = check_step(self.state, action, after, self.restart)
        self.state = after

    @rule(data=st.data())
    def play(self, data: st.DataObject) -> None:
        """Play a card face up if allowed."""
        self.take(data, Play)

    @rule(data=st.data())
    def hide(self, data: st.DataObject) -> None:
        """Play a card face down if allowed."""
        self.take(data, Hide)

    @rule(data=st.data())
    def pass_(self, data: st.DataObject) -> None:
        """Pass and draw if allowed."""
        self.take(data, Pass)

    @rule(data=st.data())
    def believe(self, data: st.DataObject) -> None:
        """Believe a face-down card if there is one to answer."""
        self.take(data, Believe)

    @rule(data=st.data())
    def challenge(self, data: st.DataObject) -> None:
        """Challenge a face-down card if there is one to answer."""
        self.take(data, bluff.Challenge)

    @invariant()
    def cards_are_conserved(self) -> None:
        """All zones hold the deck."""
        check_conservation(self.state)

    @invariant()
    def someone_can_act(self) -> None:
        """A game that is not over has a player with a legal action; a finished one has none."""
        if self.state.is_over:
            assert self.state.current_player is None
            assert self.state.legal_actions() == ()
        else:
            assert self.state.current_player is not None
            assert self.state.legal_actions()

    @invariant()
    def observations_agree(self) -> None:
        """Each seat sees its own hand, every hand's size, the piles' sizes and the table with only
        others' face-down cards hidden."""
        state = self.state
        for seat in range(state.rules.players):
            seen = state.observation(seat)
            assert seen.hand == state.hands[seat]
            assert seen.hand_sizes == tuple(len(hand) for hand in state.hands)
            assert seen.draw_pile_size == len(state.draw_pile)
            assert seen.discard_pile_size == len(state.discard_pile)
            assert len(seen.history) == state.turns == len(state.actions)
            for shown, real in zip(seen.table, state.table, strict=True):
                assert shown.card in (None, real.card)
                if not real.face_down or real.owner == seat:
                    assert shown.card == real.card


# Half the profile's examples: the machine deep-copies the state at every step, and was the
# slowest of these tests by three times.
BluffMachine.TestCase.settings = settings(
    max_examples=scaled(0.5), stateful_step_count=80, deadline=None
)
test_bluff_machine = pytest.mark.slow(BluffMachine.TestCase)
