"""Rule tests of climbing in 1000? (RULES.md 2.1 and 2.2): the digit rule, starting a climb,
passing and the end of a climb, drawing from an empty pile, winning face up, the turn cap and the
errors raised for illegal actions.

Every game is dealt from a written layout whose deck is exactly its hands and draw pile; the dealer
is the last seat, so seat 0 starts the first climb. The challenge rules are in
``test_bluff_challenge.py``, which shares the helpers defined here.
"""

import copy

import pytest

import thousand
from tests.support import assert_refused
from thousand import IllegalActionError, InvalidActionError, LayoutError, RulesError, bluff
from thousand.bluff import Card, Phase, Result, cards, parse_action
from thousand.bluff.actions import Hide, Play, seen_by
from thousand.bluff.spectator import spectate
from thousand.bluff.state import public_history
from thousand.bluff.tracking import Draw, Tracked, track

# --- helpers ----------------------------------------------------------------------------------

NOT_HIGHER = (
    ": it must be higher and share a digit with it (a 1000 goes on anything); "
    "play it face down to claim it does"
)
"""How the reason a card cannot be played face up on another ends."""
NOT_NEXT = "only the player right after a face-down card believes or challenges it"
ANSWER_FIRST = "a card was just played face down: first 'believe' or 'challenge' it"


def deal(hands, pile, *, dealer=None, seed=0, **fields):
    """A game dealt as written: the deck is exactly ``hands`` plus ``pile`` (``pile`` first card
    drawn first); by default the dealer is the last seat, so seat 0 starts."""
    (hand_size,) = {len(cards(hand)) for hand in hands}
    rules = bluff.Rules(
        players=len(hands), hand_size=hand_size, deck=" ".join([*hands, pile]), **fields
    )
    layout = bluff.Layout(hands=hands, draw_pile=pile)
    dealer = len(hands) - 1 if dealer is None else dealer
    return bluff.new_game(rules, layout=layout, dealer=dealer, seed=seed)


def act(state, *texts):
    """Apply each action text in turn: ``"play 06"``, ``"hide 25"``, ``"pass"``, ``"believe"``..."""
    for text in texts:
        state = state.apply(parse_action(text))
    return state


def legal(state):
    """The legal actions as text, in the engine's order."""
    return [str(action) for action in state.legal_actions()]


def labels(items):
    """Cards as text, in the given order."""
    return " ".join(str(card) for card in items)


MARKS = {(False, False): "", (True, False): ":down", (True, True): ":believed"}


def table(state):
    """The climb as text, bottom first: ``06/0`` is 06 played face up by seat 0; ``:down`` marks a
    face-down card not (yet) believed and ``:believed`` a believed one."""
    return " ".join(
        f"{entry.card}/{entry.owner}{MARKS[entry.face_down, entry.believed]}"
        for entry in state.table
    )


def zones(state):
    """Where every card is: the hands, the climb, the draw pile (next first), the discards."""
    return {
        "hands": [labels(hand) for hand in state.hands],
        "table": table(state),
        "draw_pile": labels(state.draw_pile),
        "discards": labels(state.discard_pile),
    }


def turn(state):
    """The phase and the seat to act."""
    return state.phase, state.current_player


def assert_illegal(state, text, reason):
    """Applying ``text`` raises an error naming the action, seat and phase; the state is intact."""
    assert_refused(state, parse_action(text), reason)


# --- the digit rule ---------------------------------------------------------------------------

# (top, card, legal face up). Seat 0 holds two copies of ``top`` and plays one; seat 1 holds two
# copies of ``card``, so its legal list is exactly: the face-up play if it beats, its hide, pass.
# "6" is a custom label (value 6, digits {6}) to show that digits come from the printed label.
FACE_UP = [
    pytest.param("06", "16", True, id="greater-sharing-6"),
    pytest.param("06", "10", True, id="label-06-shares-0-with-10"),
    pytest.param("06", "20", True, id="label-06-shares-0-with-20"),
    pytest.param("06", "30", True, id="label-06-shares-0-with-30"),
    pytest.param("01", "11", True, id="greater-sharing-1"),
    pytest.param("12", "21", True, id="same-digits-greater"),
    pytest.param("6", "16", True, id="label-6-shares-6-with-16"),
    pytest.param("06", "17", False, id="greater-no-shared-digit"),
    pytest.param("49", "50", False, id="next-number-no-shared-digit"),
    pytest.param("6", "10", False, id="label-6-has-no-0"),
    pytest.param("06", "05", False, id="shares-0-but-smaller"),
    pytest.param("21", "12", False, id="same-digits-smaller"),
    pytest.param("16", "16", False, id="equal-value-duplicate-card"),
    pytest.param("06", "6", False, id="equal-value-other-label"),
    pytest.param("50", "1000", True, id="1000-on-a-number"),
    pytest.param("1000", "1000", True, id="1000-on-1000"),
    pytest.param("1000", "01", True, id="01-on-1000"),
    pytest.param("1000", "49", True, id="49-on-1000"),
]


@pytest.mark.parametrize(("top", "card", "beats"), FACE_UP)
def test_face_up_play_follows_the_digit_rule(top, card, beats):
    """A face-up card is legal on the top card exactly when RULES.md 2.2 (1, 2) allows it."""
    state = act(deal([f"{top} {top}", f"{card} {card}"], "48"), f"play {top}")
    assert turn(state) == (Phase.CLIMB, 1)
    assert legal(state) == [f"play {card}"] * beats + [f"hide {card}", "pass"]
    if beats:
        after = act(state, f"play {card}")
        assert zones(after) == {
            "hands": [top, card],
            "table": f"{top}/0 {card}/1",
            "draw_pile": "48",
            "discards": "",
        }
        assert turn(after) == (Phase.CLIMB, 0)
    else:
        assert_illegal(state, f"play {card}", f"{card} does not beat {top}" + NOT_HIGHER)


def test_digits_are_the_printed_label():
    """Card digits are the characters of the label: 06 has {0, 6}, 6 has {6}, 1000 has {0, 1}."""
    assert Card("06").digits == frozenset("06")
    assert Card("6").digits == frozenset("6")
    assert Card("1000").digits == frozenset("01")
    assert (Card("06").value, Card("6").value, Card("1000").value) == (6, 6, 1000)


def test_default_deck_is_01_to_50_and_six_1000s():
    """The default deck holds 56 cards: 01 to 50 once each and six 1000 cards (decided, 2.1)."""
    rules = bluff.Rules()
    assert labels(rules.deck) == " ".join(f"{n:02d}" for n in range(1, 51)) + " 1000" * 6
    assert (rules.players, rules.hand_size) == (4, 7)


def test_legal_actions_are_in_a_fixed_order():
    """Start: each distinct card lowest first; climb: beating plays, then hides, then pass."""
    # Seat 0 holds a pair of 06 and a 1000; seat 1 holds cards that beat 06 (16, 26, 1000),
    # one that does not (05) and a second 1000.
    state = deal(["06 06 30 1000 1000", "05 16 26 1000 1000"], "40")
    assert legal(state) == ["play 06", "play 30", "play 1000"]
    state = act(state, "play 06")
    assert legal(state) == [
        "play 16",
        "play 26",
        "play 1000",
        "hide 05",
        "hide 16",
        "hide 26",
        "hide 1000",
        "pass",
    ]


def test_anything_goes_face_up_on_a_believed_card():
    """A believed face-down card counts as a 1000: any card may follow face up, once."""
    # Seat 1 bluffs 25 on 06; seat 0 believes and may then play 02, which beats nothing else.
    state = act(deal(["06 02 45", "25 33 44"], "50"), "play 06", "hide 25", "believe")
    assert turn(state) == (Phase.CLIMB, 0)
    assert table(state) == "06/0 25/1:believed"
    assert legal(state) == ["play 02", "play 45", "hide 02", "hide 45", "pass"]
    state = act(state, "play 02")
    assert table(state) == "06/0 25/1:believed 02/0"
    assert legal(state) == ["hide 33", "hide 44", "pass"]


# --- starting a climb, passing, the end of a climb --------------------------------------------


# THREE: three players. Seat 0 opens 06 and also holds 33 and 41; seat 1 holds 16 (beats 06),
# 25 (does not) and a 1000; seat 2 holds 07 08 09 (all beat 06, none beats 16); the pile is
# drawn as 40, 44, 47, 48.
THREE = (["06 33 41", "16 25 1000", "07 08 09"], "40 44 47 48")


def test_the_player_left_of_the_dealer_starts():
    """The seat after the dealer starts a climb with any card of their hand, face up."""
    state = deal(*THREE, dealer=0)
    assert turn(state) == (Phase.START, 1)
    assert legal(state) == ["play 16", "play 25", "play 1000"]
    state = deal(*THREE, dealer=2)
    assert turn(state) == (Phase.START, 0)
    assert legal(state) == ["play 06", "play 33", "play 41"]


def test_passing_is_allowed_with_a_legal_play_and_draws_the_next_card():
    """Seat 1 may pass although 16 beats 06; it draws draw_pile[0] and the turn goes left."""
    state = act(deal(*THREE), "play 06")
    assert legal(state)[-1] == "pass"
    state = act(state, "pass")
    assert turn(state) == (Phase.CLIMB, 2)
    assert zones(state) == {
        "hands": ["33 41", "16 25 40 1000", "07 08 09"],
        "table": "06/0",
        "draw_pile": "44 47 48",
        "discards": "",
    }
    assert legal(state) == [
        "play 07",
        "play 08",
        "play 09",
        "hide 07",
        "hide 08",
        "hide 09",
        "pass",
    ]


# (actions, seat that starts the new climb, zones after). Every climb ends when the turn comes
# back to the owner of the top card; each pass drew one card from the front of the pile.
CLIMB_ENDS = [
    pytest.param(
        ["play 06", "pass", "pass"],
        0,
        ["33 41", "16 25 40 1000", "07 08 09 44"],
        "06",
        id="everyone-passed-on-the-opening-card",
    ),
    pytest.param(
        ["play 06", "play 16", "pass", "pass"],
        1,
        ["33 41 44", "25 1000", "07 08 09 40"],
        "06 16",
        id="everyone-passed-on-a-later-card",
    ),
    pytest.param(
        ["play 06", "hide 25", "believe", "pass", "pass"],
        1,
        ["33 41 44", "16 1000", "07 08 09 40"],
        "06 25",
        id="believe-then-pass-on-a-face-down-card",
    ),
]


@pytest.mark.parametrize(("actions", "owner", "hands", "discards"), CLIMB_ENDS)
def test_climb_ends_when_the_turn_comes_back_to_the_top_card(actions, owner, hands, discards):
    """The table is discarded and the owner of the top card starts again with any card."""
    state = act(deal(*THREE), *actions)
    assert turn(state) == (Phase.START, owner)
    assert zones(state) == {
        "hands": hands,
        "table": "",
        "draw_pile": "47 48",
        "discards": discards,
    }
    assert legal(state) == [f"play {card}" for card in hands[owner].split()]
    assert state.observation(owner).must_start_with == ()


# --- an empty draw pile -----------------------------------------------------------------------

# RESHUFFLED: two players. The first climb 01 15 21 ends when seat 1 passes and draws 50, the last
# card of the pile; seat 0 opens 40 and seat 1's pass must draw from the three discards.
RESHUFFLED = (["01 21 40 41", "05 15 25 45"], "50")
FIRST_CLIMB = ("play 01", "play 15", "play 21", "pass")


def test_empty_pile_reshuffles_the_discards():
    """The discards, shuffled, become the new pile; the pass draws its first card (decided)."""
    state = act(deal(*RESHUFFLED), *FIRST_CLIMB)
    assert zones(state) == {
        "hands": ["40 41", "05 25 45 50"],
        "table": "",
        "draw_pile": "",
        "discards": "01 15 21",
    }
    assert turn(state) == (Phase.START, 0)
    state = act(state, "play 40", "pass")
    (drawn,) = set(state.hands[1]) - set(cards("05 25 45 50"))
    assert sorted([drawn, *state.draw_pile], key=str) == list(cards("01 15 21"))
    assert len(state.draw_pile) == 2
    assert labels(state.discard_pile) == "40"
    assert state.reshuffles == 1
    assert turn(state) == (Phase.START, 0)


def test_reshuffle_is_deterministic_for_the_same_seed():
    """The same seed and actions give the same new pile; the seed does change the order."""
    orders = set()
    for seed in range(12):
        first = act(deal(*RESHUFFLED, seed=seed), *FIRST_CLIMB, "play 40", "pass")
        again = act(deal(*RESHUFFLED, seed=seed), *FIRST_CLIMB, "play 40", "pass")
        assert first == again
        orders.add((first.hands[1], first.draw_pile))
    assert len(orders) > 1


# AFTER_FIRST: two players; seat 1 passes on 06 and draws 40, the only card of the pile. The climb
# ends, seat 0 opens 33 and seat 1 passes again with only 06 in the discards.
AFTER_FIRST = (["06 33 41", "16 25 45"], "40")


@pytest.mark.parametrize(
    ("rule", "hand", "discards"),
    [
        pytest.param("reshuffle", "06 16 25 40 45", "33", id="reshuffle-draws-the-discard"),
        pytest.param("no_reshuffle", "16 25 40 45", "06 33", id="no-reshuffle-draws-nothing"),
    ],
)
def test_pass_on_an_empty_pile(rule, hand, discards):
    """With the pile empty a pass draws a reshuffled discard, or nothing under no_reshuffle."""
    state = act(deal(*AFTER_FIRST, empty_draw_pile=rule), "play 06", "pass", "play 33", "pass")
    assert zones(state) == {
        "hands": ["41", hand],
        "table": "",
        "draw_pile": "",
        "discards": discards,
    }
    assert state.reshuffles == (1 if rule == "reshuffle" else 0)
    assert turn(state) == (Phase.START, 0)


def test_pass_draws_nothing_when_pile_and_discards_are_empty():
    """A pass with no card to draw anywhere leaves the hand as it was (decided)."""
    # Seat 1 passes and draws 40, the only card; seat 2 then passes with no discards yet.
    state = act(deal(["06 33", "16 25", "07 44"], "40"), "play 06", "pass", "pass")
    assert zones(state) == {
        "hands": ["33", "16 25 40", "07 44"],
        "table": "",
        "draw_pile": "",
        "discards": "06",
    }
    assert state.reshuffles == 0
    assert turn(state) == (Phase.START, 0)


# --- winning face up, the turn cap --------------------------------------------------------------

# FINISH: two players; seat 0 holds 06 and a 1000, seat 1 holds 16 and 25.
FINISH = (["06 1000", "16 25"], "40")


@pytest.mark.parametrize(
    ("actions", "sizes", "climb"),
    [
        pytest.param(["play 06", "play 16", "play 1000"], (0, 1), "06/0 16/1 1000/0", id="on-1000"),
        pytest.param(["play 06", "pass", "play 1000"], (0, 3), "1000/0", id="starting-a-climb"),
    ],
)
def test_last_card_played_face_up_wins_at_once(actions, sizes, climb):
    """The player who plays their last card face up wins; nobody may act afterwards."""
    state = act(deal(*FINISH), *actions)
    assert state.is_over
    assert turn(state) == (Phase.OVER, None)
    assert state.result == Result(winners=(0,), hand_sizes=sizes, turns=3, adjudicated=False)
    assert table(state) == climb
    assert state.legal_actions() == ()
    before = copy.deepcopy(state)
    with pytest.raises(IllegalActionError) as caught:
        state.apply(parse_action("pass"))
    assert (caught.value.seat, caught.value.phase) == (None, "end of the game")
    assert "nobody may act" in str(caught.value)
    assert "'pass'" in str(caught.value)
    assert state == before


# (max_turns, actions, hand sizes, winners). THREE is dealt; the game stops after max_turns
# actions, whatever the phase.
CAPS = [
    pytest.param(
        4, ["play 06", "pass", "pass", "play 33"], (1, 4, 4), (0,), id="fewest-cards-wins"
    ),
    pytest.param(2, ["play 06", "play 16"], (2, 2, 3), (0, 1), id="tie-shares"),
    # The unanswered face-down 25 still counts as seat 1's card.
    pytest.param(2, ["play 06", "hide 25"], (2, 2, 3), (0,), id="cap-while-a-card-is-hidden"),
]


@pytest.mark.parametrize(("max_turns", "actions", "sizes", "winners"), CAPS)
def test_turn_cap_adjudicates_fewest_cards(max_turns, actions, sizes, winners):
    """Reaching max_turns ends the game: fewest cards in hand win, ties share (decided)."""
    state = act(deal(*THREE, max_turns=max_turns), *actions)
    assert state.is_over
    assert turn(state) == (Phase.OVER, None)
    assert state.result == Result(
        winners=winners, hand_sizes=sizes, turns=max_turns, adjudicated=True
    )
    assert state.legal_actions() == ()
    assert state.observation(0).legal_actions == ()


def test_a_cap_reached_by_a_lost_challenge_leaves_no_restart_pending():
    """A game adjudicated just after a lost challenge is over: nobody must start with the cards
    drawn, and a spectator sees no restart waiting."""
    state = act(deal(*THREE, max_turns=3), "play 06", "hide 25", "challenge")
    assert state.result == Result(winners=(0,), hand_sizes=(2, 5, 3), turns=3, adjudicated=True)
    assert state.must_start_with is None
    assert spectate(state).restart is False


def test_one_turn_before_the_cap_the_game_goes_on():
    """The cap is reached by the max_turns-th action, not before."""
    state = act(deal(*THREE, max_turns=4), "play 06", "pass", "pass")
    assert not state.is_over
    assert turn(state) == (Phase.START, 0)


def test_a_win_on_the_capping_turn_is_not_adjudicated():
    """Emptying the hand on the last allowed turn is a real win."""
    state = act(deal(*FINISH, max_turns=3), "play 06", "play 16", "play 1000")
    assert state.result == Result(winners=(0,), hand_sizes=(0, 1), turns=3, adjudicated=False)


# --- illegal actions --------------------------------------------------------------------------

# (actions leading to the position in THREE, illegal action, part of the reason).
ILLEGAL = [
    pytest.param([], "hide 06", "a climb is never started face down", id="start-face-down"),
    pytest.param([], "pass", "a climb starts with a card played face up", id="start-pass"),
    pytest.param([], "believe", "a climb starts with a card played face up", id="start-believe"),
    pytest.param(
        [], "challenge", "a climb starts with a card played face up", id="start-challenge"
    ),
    pytest.param([], "play 16", "16 is not in this player's hand", id="start-card-not-held"),
    pytest.param(
        ["play 06"], "play 25", "25 does not beat 06" + NOT_HIGHER, id="climb-no-shared-digit"
    ),
    pytest.param(["play 41"], "play 16", "16 does not beat 41" + NOT_HIGHER, id="climb-smaller"),
    pytest.param(["play 06"], "play 33", "33 is not in this player's hand", id="climb-not-held"),
    pytest.param(["play 06"], "hide 33", "33 is not in this player's hand", id="hide-not-held"),
    pytest.param(
        ["play 06"],
        "hide ??",
        "name the card to play face down, as in 'hide 23' ('??' is how others see it)",
        id="hide-unseen-card",
    ),
    pytest.param(
        ["play 06"],
        "believe",
        NOT_NEXT,
        id="believe-face-up",
    ),
    pytest.param(
        ["play 06"],
        "challenge",
        NOT_NEXT,
        id="challenge-face-up",
    ),
    pytest.param(
        ["play 06", "hide 25"],
        "play 08",
        ANSWER_FIRST,
        id="response-play",
    ),
    pytest.param(
        ["play 06", "hide 25"],
        "hide 08",
        ANSWER_FIRST,
        id="response-hide",
    ),
    pytest.param(
        ["play 06", "hide 25"],
        "pass",
        ANSWER_FIRST,
        id="response-pass",
    ),
    pytest.param(
        ["play 06", "hide 25", "believe"],
        "believe",
        NOT_NEXT,
        id="re-believe",
    ),
    pytest.param(
        ["play 06", "hide 25", "believe"],
        "challenge",
        NOT_NEXT,
        id="challenge-after-believing",
    ),
    pytest.param(
        ["play 06", "hide 25", "believe", "pass"],
        "challenge",
        NOT_NEXT,
        id="challenge-by-a-later-player",
    ),
    pytest.param(
        ["play 06", "hide 16", "challenge"],
        "play 07",
        "after losing a challenge the new climb starts with a card just drawn: 40 44 47",
        id="restart-with-a-card-not-just-drawn",
    ),
    pytest.param(
        ["play 06", "hide 16", "challenge"],
        "hide 40",
        "a climb is never started face down",
        id="restart-face-down",
    ),
    pytest.param(
        ["play 06", "hide 16", "challenge"],
        "pass",
        "a climb starts with a card played face up",
        id="restart-pass",
    ),
]


@pytest.mark.parametrize(("actions", "text", "reason"), ILLEGAL)
def test_illegal_action_is_refused_and_changes_nothing(actions, text, reason):
    """The error names the action, seat and phase with the reason; the state is unchanged."""
    assert_illegal(act(deal(*THREE), *actions), text, reason)


def test_an_action_after_the_end_is_refused_because_the_game_is_over():
    """Once seat 0 has won, any action, even one a seat could have played before, is refused by
    nobody's turn, saying the game is over and how to start another."""
    state = act(deal(*FINISH), "play 06", "pass", "play 1000")
    reason = "the game is over; start another with new_game()"
    for text in ("pass", "play 16", "challenge"):
        with pytest.raises(IllegalActionError) as caught:
            state.apply(parse_action(text))
        assert caught.value.reason == reason
        assert str(caught.value) == f"nobody may act after the end of the game ('{text}'): {reason}"


class PlaySubclass(Play):
    """A look-alike of a face-up play: the engine takes only its own action types."""


@pytest.mark.parametrize(
    ("offered", "name"),
    [
        pytest.param("play 06", "str", id="text"),
        pytest.param(Card.parse("06"), "Card", id="card"),
        pytest.param(thousand.Bid(105), "Bid", id="thousand-action"),
        pytest.param(PlaySubclass(Card.parse("06")), "PlaySubclass", id="subclass-of-play"),
    ],
)
def test_an_object_that_is_not_an_action_is_refused_naming_its_type(offered, name):
    """Text, a card, a Thousand action or a subclass of Play offered to a 1000? game is refused,
    naming the object's type and pointing to the parser of action text."""
    reason = f"{name} is not an action; read text with thousand.bluff.parse_action()"
    assert_refused(deal(*THREE), offered, reason)


class Incomparable:
    """A stand-in for a card that refuses to be compared with anything but itself."""

    def __eq__(self, other):
        if other is self:
            return True
        raise TypeError("no comparison")

    __hash__ = None

    def __str__(self):
        return "XX"


@pytest.mark.parametrize(
    ("actions", "action", "name"),
    [
        pytest.param([], Play(Incomparable()), "Play", id="face-up"),
        pytest.param(["play 06"], Hide(Incomparable()), "Hide", id="face-down"),
    ],
)
def test_an_action_holding_a_value_no_card_has_is_refused_naming_its_type(actions, action, name):
    """A play or hide whose card cannot even be compared with the hand is refused, naming the
    kind of action, not the value inside it."""
    assert_refused(act(deal(*THREE), *actions), action, f"this {name} holds values no action has")


def test_a_game_of_1000_refuses_the_rules_of_thousand_naming_what_it_was_given():
    """The rules of the other game are refused with the type that was expected and the one given."""
    with pytest.raises(RulesError) as caught:
        bluff.new_game(thousand.Rules(), seed=0)  # type: ignore[arg-type]
    assert str(caught.value) == "expected thousand.bluff.Rules, not Rules"


@pytest.mark.parametrize("dealer", [-1, 3])
def test_a_dealer_outside_the_table_is_refused_naming_the_seats(dealer):
    """The dealer must be one of the seats, numbered from 0."""
    with pytest.raises(RulesError) as caught:
        bluff.new_game(bluff.Rules(players=3), seed=0, dealer=dealer)
    assert str(caught.value) == f"dealer must be a seat from 0 to 2, not {dealer}"


def test_a_game_without_a_seed_draws_one_that_deals_it_again():
    """Without a seed one is drawn, kept in the origin, and fits a signed 64-bit integer (as
    records read by other programs need); the same seed deals the same game."""
    rules = bluff.Rules(players=3)
    games = [bluff.new_game(rules) for _ in range(64)]
    seeds = [game.origin.seed for game in games]
    assert all(isinstance(seed, int) and 0 <= seed < 2**63 for seed in seeds)
    assert len(set(seeds)) == len(seeds)
    for game in games[:3]:
        assert bluff.new_game(rules, seed=game.origin.seed) == game


def test_a_layout_that_is_not_the_deck_names_the_extra_and_the_missing_cards():
    """A layout holding a card twice and lacking another is refused, naming just those two."""
    rules = bluff.Rules(players=2, hand_size=2, deck="10 11 12 13 14 15")
    layout = bluff.Layout(hands=["10 11", "12 13"], draw_pile="14 14")
    message = "not in the deck \\(or too many\\): 14; missing: 15$"
    with pytest.raises(LayoutError, match=message):
        bluff.new_game(rules, layout=layout, dealer=1, seed=0)


def test_a_layout_names_every_extra_and_missing_card_in_order_of_value():
    """Two cards dealt twice and two left out are each listed by value, separated by spaces, after
    the one sentence saying the layout does not hold the deck."""
    rules = bluff.Rules(players=2, hand_size=2, deck="10 11 12 13 14 15 16 17")
    layout = bluff.Layout(hands=["10 11", "12 13"], draw_pile="17 14 17 14")
    with pytest.raises(LayoutError) as caught:
        bluff.new_game(rules, layout=layout, dealer=1, seed=0)
    assert str(caught.value) == (
        "the layout does not hold the deck of the rules; "
        "not in the deck (or too many): 14 17; missing: 15 16"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param(5, "an action is written as text, not int", id="a-number"),
        pytest.param(None, "an action is written as text, not NoneType", id="none"),
        pytest.param(
            "HIDE 1x",
            "'HIDE 1x': '1x' is not a 1000? card: write its printed label, 1 to 4 digits such as "
            "'06' or '1000'",
            id="a-hide-of-no-card",
        ),
    ],
)
def test_action_text_that_is_no_action_is_refused_quoting_it(text, message):
    """Something other than text is refused naming its type; a face-down play of a word that is no
    card quotes the whole text as written, then the reason the card cannot be read."""
    with pytest.raises(InvalidActionError) as caught:
        parse_action(text)
    assert str(caught.value) == message


def test_tracking_a_new_game_finds_no_discards_no_reshuffle_and_no_penalty():
    """Before any action every seat has seen nothing go to the discards, no reshuffle and no
    penalty draw."""
    assert track(deal(*THREE).observation(0)) == Tracked((), 0, None)


def test_tracking_passes_gives_each_draw_only_when_asked_and_whether_it_reshuffled():
    """In the reshuffled game, each pass that ends a climb is a one-card draw: the first from the
    pile, the second after the discards became the pile. The draws are listed only when asked
    for, and no challenge leaves a penalty."""
    observation = act(deal(*RESHUFFLED), *FIRST_CLIMB, "play 40", "pass").observation(0)
    discards = (Card.parse("40"),)
    assert track(observation) == Tracked(discards, 1, None, ())
    assert track(observation, draws=True) == Tracked(
        discards,
        1,
        None,
        (None, None, None, Draw(1, 1, False, True), None, Draw(1, 1, True, True)),
    )


@pytest.mark.parametrize("viewer", [1, 2, None])
def test_a_card_played_face_down_is_seen_by_its_player_alone(viewer: int | None) -> None:
    """Seat 0 plays 25 face down: seat 0 sees the card, every other seat and a spectator only
    that a card went face down; a card played face up is seen by all."""
    hidden = Hide(Card.parse("25"))
    assert seen_by(hidden, 0, 0) == hidden
    assert seen_by(hidden, 0, viewer) == Hide(None)
    assert seen_by(Play(Card.parse("25")), 0, viewer) == Play(Card.parse("25"))


def test_a_public_history_keeps_one_face_down_record_per_seat_it_is_told_of():
    """The history others see of face-up actions keeps no per-seat face-down records unless
    given a seat count; with ``players`` it keeps one empty record per seat."""
    opened = Play(Card.parse("06"))
    assert public_history([(0, opened)]) == ((None, 0, opened), ())
    assert public_history([]) == (None, ())
    assert public_history([(0, opened)], players=3) == ((None, 0, opened), (None, None, None))


def test_a_card_is_read_with_the_spaces_around_it_left_out() -> None:
    """``Card.parse`` reads " 25\n" as the card 25."""
    assert Card.parse(" 25\n") == Card.parse("25")


def test_a_card_label_has_at_most_four_digits() -> None:
    """ "1000" and "0000" are labels; "12345" is five digits, so it is no 1000? card."""
    assert cards("1000 0000") == (Card("1000"), Card("0000"))
    message = (
        "'12345' is not a 1000? card: write its printed label, 1 to 4 digits such as '06' or '1000'"
    )
    with pytest.raises(thousand.NotationError) as caught:
        cards("12345")
    assert str(caught.value) == message


def test_cards_may_be_separated_by_commas_as_well_as_spaces() -> None:
    """``cards`` reads "06,23, 1000" like "06 23 1000"."""
    assert cards("06,23, 1000") == (Card("06"), Card("23"), Card("1000"))
    assert cards("06,23") == cards("06 23")
