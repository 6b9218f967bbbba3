"""Rule tests of face-down cards in 1000? (RULES.md 2.2): believing, challenging, the restart
after a lost challenge, a last card played face down, and what each seat may see of hidden cards.

Layouts and helpers come from ``test_bluff_climb.py``: the deck is exactly the written hands and
draw pile, and seat 0 starts the first climb.
"""

import pytest

from tests.test_bluff_climb import THREE, act, deal, legal, table, turn, zones
from thousand.bluff import (
    Believe,
    Card,
    Challenge,
    Hide,
    Observation,
    Phase,
    Play,
    Result,
    TableCard,
)
from thousand.bluff.challenge import next_with_cards
from thousand.bluff.tracking import Draw, Tracked, track

# --- answering a face-down card ---------------------------------------------------------------


def test_only_the_next_player_answers_a_face_down_card():
    """After a hide the next seat must believe or challenge; no other seat has an action."""
    state = act(deal(*THREE), "play 06", "hide 25")
    assert turn(state) == (Phase.RESPONSE, 2)
    assert legal(state) == ["believe", "challenge"]
    assert state.observation(2).legal_actions == (Believe(), Challenge())
    assert state.observation(0).legal_actions == ()
    assert state.observation(1).legal_actions == ()


def test_believe_then_play():
    """The believer then takes a normal turn in which any card goes face up on the believed card."""
    state = act(deal(*THREE), "play 06", "hide 25", "believe")
    assert turn(state) == (Phase.CLIMB, 2)
    assert table(state) == "06/0 25/1:believed"
    assert legal(state) == [
        "play 07",
        "play 08",
        "play 09",
        "hide 07",
        "hide 08",
        "hide 09",
        "pass",
    ]
    state = act(state, "play 07")
    assert turn(state) == (Phase.CLIMB, 0)
    assert zones(state) == {
        "hands": ["33 41", "16 1000", "08 09"],
        "table": "06/0 25/1:believed 07/2",
        "draw_pile": "40 44 47 48",
        "discards": "",
    }
    # 33 and 41 share no digit with 07.
    assert legal(state) == ["hide 33", "hide 41", "pass"]


def test_believe_then_pass():
    """The believer may pass at once; the believed card still lets anything follow."""
    state = act(deal(*THREE), "play 06", "hide 25", "believe", "pass")
    assert turn(state) == (Phase.CLIMB, 0)
    assert zones(state) == {
        "hands": ["33 41", "16 1000", "07 08 09 40"],
        "table": "06/0 25/1:believed",
        "draw_pile": "44 47 48",
        "discards": "",
    }
    assert legal(state) == ["play 33", "play 41", "hide 33", "hide 41", "pass"]


def test_challenge_of_an_honest_card():
    """16 on 06 was honest: the challenger draws 3, the table is discarded, and the challenger
    starts again with one of the 3 cards just drawn, face up."""
    state = act(deal(*THREE), "play 06", "hide 16", "challenge")
    assert turn(state) == (Phase.START, 2)
    assert zones(state) == {
        "hands": ["33 41", "25 1000", "07 08 09 40 44 47"],
        "table": "",
        "draw_pile": "48",
        "discards": "06 16",
    }
    assert legal(state) == ["play 40", "play 44", "play 47"]
    assert state.observation(2).must_start_with == (Card("40"), Card("44"), Card("47"))
    assert state.observation(0).must_start_with == ()
    state = act(state, "play 44")
    assert turn(state) == (Phase.CLIMB, 0)
    assert table(state) == "44/2"
    assert legal(state) == ["hide 33", "hide 41", "pass"]


def test_challenge_of_a_bluff():
    """25 on 06 was a bluff: the hider draws 3 and starts again with one of them."""
    state = act(deal(*THREE), "play 06", "hide 25", "challenge")
    assert turn(state) == (Phase.START, 1)
    assert zones(state) == {
        "hands": ["33 41", "16 40 44 47 1000", "07 08 09"],
        "table": "",
        "draw_pile": "48",
        "discards": "06 25",
    }
    assert legal(state) == ["play 40", "play 44", "play 47"]
    state = act(state, "play 47")
    assert turn(state) == (Phase.CLIMB, 2)
    assert table(state) == "47/1"


# (below, hidden, honest). Seat 0 plays ``below`` and keeps 02; seat 1 hides ``hidden`` and keeps
# 03; seat 0 challenges. Honesty is the digit rule against the card below, a 1000 always honest.
CHALLENGES = [
    pytest.param("06", "16", True, id="honest-sharing-6"),
    pytest.param("06", "10", True, id="honest-label-06-shares-0"),
    pytest.param("06", "17", False, id="bluff-no-shared-digit"),
    pytest.param("06", "05", False, id="bluff-smaller"),
    pytest.param("16", "16", False, id="bluff-equal-value"),
    pytest.param("6", "10", False, id="bluff-label-6-has-no-0"),
    pytest.param("06", "1000", True, id="hidden-1000-always-honest"),
    pytest.param("1000", "1000", True, id="hidden-1000-on-1000"),
    pytest.param("1000", "01", True, id="anything-on-1000-is-honest"),
]


@pytest.mark.parametrize(("below", "hidden", "honest"), CHALLENGES)
def test_challenge_outcome(below, hidden, honest):
    """Whoever was wrong draws 40 41 42 and restarts with one of them; the table is discarded."""
    state = act(
        deal([f"{below} 02", f"{hidden} 03"], "40 41 42 43"),
        f"play {below}",
        f"hide {hidden}",
        "challenge",
    )
    loser = 0 if honest else 1
    hands = ["02 40 41 42", "03"] if honest else ["02", "03 40 41 42"]
    assert turn(state) == (Phase.START, loser)
    assert zones(state) == {
        "hands": hands,
        "table": "",
        "draw_pile": "43",
        "discards": f"{below} {hidden}",
    }
    assert legal(state) == ["play 40", "play 41", "play 42"]


@pytest.mark.parametrize("hidden", ["01", "05", "1000"])
def test_face_down_card_on_a_believed_card_is_always_honest(hidden):
    """On a believed face-down card any hidden card is honest: the challenger draws."""
    # Seat 1 bluffs 25 on 06 and seat 0 believes; seat 0 then hides ``hidden`` on it.
    state = act(
        deal([f"06 {hidden} 02", "25 03 04"], "40 41 42 43"),
        "play 06",
        "hide 25",
        "believe",
        f"hide {hidden}",
    )
    assert table(state) == f"06/0 25/1:believed {hidden}/0:down"
    state = act(state, "challenge")
    assert turn(state) == (Phase.START, 1)
    assert zones(state) == {
        "hands": ["02", "03 04 40 41 42"],
        "table": "",
        "draw_pile": "43",
        "discards": f"06 25 {hidden}",
    }
    assert legal(state) == ["play 40", "play 41", "play 42"]


@pytest.mark.parametrize(
    ("hidden", "loser", "starts"),
    [
        pytest.param("16", 2, "07 08 09 40 44 47", id="honest"),
        pytest.param("25", 1, "16 40 44 47 1000", id="bluff"),
    ],
)
def test_challenge_restart_any_card(hidden, loser, starts):
    """With challenge_restart=any_card the loser starts again with any card of the hand."""
    state = act(
        deal(*THREE, challenge_restart="any_card"), "play 06", f"hide {hidden}", "challenge"
    )
    assert turn(state) == (Phase.START, loser)
    assert legal(state) == [f"play {card}" for card in starts.split()]
    assert state.observation(loser).must_start_with == ()


# SHORT: three players and a pile of one card, 40. "bluff-on-full-pile": seat 1 bluffs 25 on 06
# while 40 is still to draw. "bluff-on-empty-pile": seat 1 passes and draws 40 first, then seat 2
# bluffs 44 on 06. Seat 2 or seat 0 challenges. The penalty is drawn before the table is
# discarded, so the table's cards are never reshuffled into it: both rules give the same result.
SHORT = (["06 33 34", "16 25 26", "17 44 45"], "40")
ONE_LEFT = ["play 06", "hide 25", "challenge"]
NONE_LEFT = ["play 06", "pass", "hide 44", "challenge"]
PENALTIES = [
    pytest.param(
        ONE_LEFT,
        "no_reshuffle",
        ["33 34", "16 26 40", "17 44 45"],
        "06 25",
        ["play 40"],
        id="one-card-left-no-reshuffle",
    ),
    pytest.param(
        ONE_LEFT,
        "reshuffle",
        ["33 34", "16 26 40", "17 44 45"],
        "06 25",
        ["play 40"],
        id="one-card-left-table-not-reshuffled",
    ),
    pytest.param(
        NONE_LEFT,
        "no_reshuffle",
        ["33 34", "16 25 26 40", "17 45"],
        "06 44",
        ["play 17", "play 45"],
        id="nothing-drawn-any-card",
    ),
    pytest.param(
        NONE_LEFT,
        "reshuffle",
        ["33 34", "16 25 26 40", "17 45"],
        "06 44",
        ["play 17", "play 45"],
        id="nothing-to-reshuffle-any-card",
    ),
]


@pytest.mark.parametrize(("actions", "rule", "hands", "discards", "starts"), PENALTIES)
def test_penalty_draws_what_there_is(actions, rule, hands, discards, starts):
    """With fewer than 3 cards to draw the loser takes what there is and restarts with one of
    them, or with any card when none could be drawn (decided)."""
    state = act(deal(*SHORT, empty_draw_pile=rule), *actions)
    loser = 1 if actions is ONE_LEFT else 2
    assert turn(state) == (Phase.START, loser)
    assert zones(state) == {"hands": hands, "table": "", "draw_pile": "", "discards": discards}
    assert legal(state) == starts


# --- the last card played face down -----------------------------------------------------------


# (hidden, last_card_face_down rule, answer or None, the final climb). Seat 0 plays 06, seat 1
# plays 16, seat 0 hides its last card: 07 is a bluff on 16, 17 and 1000 are honest.
LAST_CARD_WINS = [
    pytest.param("17", "challengeable", "challenge", "17/0:down", id="honest-challenged"),
    pytest.param("1000", "challengeable", "challenge", "1000/0:down", id="hidden-1000-challenged"),
    pytest.param("07", "challengeable", "believe", "07/0:believed", id="bluff-believed"),
    pytest.param("17", "challengeable", "believe", "17/0:believed", id="honest-believed"),
    pytest.param("07", "wins", None, "07/0:down", id="wins-rule-bluff-wins-at-once"),
    pytest.param("17", "wins", None, "17/0:down", id="wins-rule-honest-wins-at-once"),
]


@pytest.mark.parametrize(("hidden", "rule", "answer", "last"), LAST_CARD_WINS)
def test_last_card_face_down_wins_once_it_stands(hidden, rule, answer, last):
    """A last card hidden wins when believed or found honest, or at once under the wins rule."""
    state = act(
        deal([f"06 {hidden}", "16 25"], "40 41 42 43", last_card_face_down=rule),
        "play 06",
        "play 16",
        f"hide {hidden}",
        *([answer] if answer else []),
    )
    turns = 4 if answer else 3
    assert state.is_over
    assert turn(state) == (Phase.OVER, None)
    assert state.result == Result(winners=(0,), hand_sizes=(0, 1), turns=turns)
    assert table(state) == f"06/0 16/1 {last}"
    assert state.legal_actions() == ()


def test_last_card_bluff_challenged_game_goes_on():
    """A last card found to be a bluff does not win: the hider draws 3 and restarts (decided)."""
    state = act(
        deal(["06 07", "16 25"], "40 41 42 43"), "play 06", "play 16", "hide 07", "challenge"
    )
    assert not state.is_over
    assert state.result is None
    assert turn(state) == (Phase.START, 0)
    assert zones(state) == {
        "hands": ["40 41 42", "25"],
        "table": "",
        "draw_pile": "43",
        "discards": "06 16 07",
    }
    assert legal(state) == ["play 40", "play 41", "play 42"]


def test_last_card_bluff_with_nothing_to_draw_passes_the_start_on():
    """Caught bluffing the last card with no card to draw, the hider has nothing to start with:
    the next player holding cards starts the new climb with any card; the game goes on."""
    # No reshuffle: seat 2's pass takes 40, the only card, before seat 0 bluffs 07 on 16.
    state = act(
        deal(["06 07", "16 25", "33 44"], "40", empty_draw_pile="no_reshuffle"),
        "play 06",
        "play 16",
        "pass",
        "hide 07",
        "challenge",
    )
    assert not state.is_over
    assert turn(state) == (Phase.START, 1)
    assert zones(state) == {
        "hands": ["", "25", "33 40 44"],
        "table": "",
        "draw_pile": "",
        "discards": "06 16 07",
    }
    assert legal(state) == ["play 25"]


# --- what each seat sees of face-down cards ---------------------------------------------------


def twins(*actions):
    """The same THREE game where seat 1 hides 25 (a bluff) or 16 (honest), then ``actions``."""
    return [act(deal(*THREE), "play 06", f"hide {card}", *actions) for card in ("25", "16")]


def test_face_down_card_is_seen_by_its_owner_only():
    """Other seats see the hidden card as None on the table and as 'hide ??' in the history."""
    state = act(deal(*THREE), "play 06", "hide 25")
    for seat in (0, 2):
        seen = state.observation(seat)
        assert seen.table == (
            TableCard(Card("06"), 0, False, False),
            TableCard(None, 1, True, False),
        )
        assert seen.history == ((0, Play(Card("06"))), (1, Hide(None)))
        assert str(seen.history[1][1]) == "hide ??"
    own = state.observation(1)
    assert own.table[1] == TableCard(Card("25"), 1, True, False)
    assert own.history[1] == (1, Hide(Card("25")))
    assert own.hand == (Card("16"), Card("1000"))


def test_observations_do_not_depend_on_the_hidden_card():
    """Whether seat 1 hid 25 or 16, seats 0 and 2 see exactly the same, before and after it is
    believed, and after the believed card is discarded unrevealed."""
    for actions in ([], ["believe"], ["believe", "pass", "pass"]):
        bluffed, honest = twins(*actions)
        assert bluffed != honest
        for seat in (0, 2):
            assert bluffed.observation(seat) == honest.observation(seat)


def test_believed_card_stays_hidden_after_the_climb_is_discarded():
    """The believed card goes to the discards face down; others still see only 'hide ??'."""
    state = act(deal(*THREE), "play 06", "hide 25", "believe", "pass", "pass")
    assert turn(state) == (Phase.START, 1)
    assert zones(state)["discards"] == "06 25"
    for seat in (0, 2):
        seen = state.observation(seat)
        assert seen.history[1] == (1, Hide(None))
        assert seen.table == ()
        assert seen.discard_pile_size == 2
    assert state.observation(1).history[1] == (1, Hide(Card("25")))


def test_challenge_reveals_the_card_to_everyone():
    """Once challenged, the face-down card shows in every seat's history."""
    for state, card in zip(twins("challenge"), ("25", "16"), strict=True):
        for seat in range(3):
            assert state.observation(seat).history[1] == (1, Hide(Card(card)))
    # The reveal stays in the history after the next climb is under way.
    state = act(deal(*THREE), "play 06", "hide 25", "challenge", "play 40")
    assert state.observation(0).history[1] == (1, Hide(Card("25")))


def test_observation_shows_pile_sizes_not_cards():
    """A seat learns how many cards the draw and discard piles hold, never which ones."""
    state = act(deal(*THREE), "play 06", "hide 25", "challenge")
    seen = state.observation(0)
    assert (seen.draw_pile_size, seen.discard_pile_size) == (1, 2)
    names = set(Observation.FIELDS)
    assert not names & {"draw_pile", "discard_pile", "hands"}
    assert seen.hand_sizes == (2, 5, 3)


def test_penalty_reshuffles_earlier_discards_but_not_the_table():
    """A penalty drawn from an empty pile takes the reshuffled discards of earlier climbs; the
    challenged table is discarded only after the draw (decided: draw 3, then discard)."""
    # Seat 0 draws the only pile card (40) by passing, which ends the first climb (06 16 go to
    # the discards). Seat 1 starts with 25 and seat 0 bluffs 33 on it.
    state = act(
        deal(["06 07 33", "16 25 44"], "40"),
        "play 06", "play 16", "pass", "play 25", "hide 33", "challenge",
    )  # fmt: skip
    assert turn(state) == (Phase.START, 0)
    assert zones(state) == {
        "hands": ["06 07 16 40", "44"],
        "table": "",
        "draw_pile": "",
        "discards": "25 33",
    }
    assert legal(state) == ["play 06", "play 16"]


def test_card_revealed_by_the_final_challenge_is_seen_by_all():
    """An honest last card found by a challenge ends the game face up for every seat."""
    state = act(
        deal(["06 17", "16 25"], "40 41 42 43"), "play 06", "play 16", "hide 17", "challenge"
    )
    assert state.is_over
    assert state.result.winners == (0,)
    for seat in (0, 1):
        assert str(state.observation(seat).table[-1].card) == "17"


def test_the_new_climb_goes_to_the_next_seat_holding_cards() -> None:
    """After a challenge the loser starts, or the next seat clockwise that holds a card; a table
    with no card left is an error named as such, not an endless search."""
    assert next_with_cards(((3,), (), (7,)), 0) == 0
    assert next_with_cards(((3,), (), ()), 1) == 0
    assert next_with_cards(((), (), (7,)), 0) == 2
    with pytest.raises(RuntimeError, match="no seat holds a card"):
        next_with_cards(((), (), ()), 1)


def test_tracking_keeps_a_penalty_only_until_the_next_action() -> None:
    """Seat 1's bluff 25 on 06 is challenged: every seat tracks seat 1 drawing three and the climb
    discarded; once seat 1 starts the next climb the penalty is no longer current."""
    state = act(deal(*THREE), "play 06", "hide 25", "challenge")
    discards = (Card("06"), Card("25"))
    assert track(state.observation(2), draws=True) == Tracked(
        discards, 0, (1, 3), (None, None, Draw(1, 3, False, True))
    )
    assert track(act(state, "play 40").observation(2)) == Tracked(discards, 0, None)
