"""The person at the terminal: how typed answers become actions, the hints for everything else,
and the table as the person's seat sees it."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import thousand
from tests.support import play
from thousand import Bid, Card, Contract, Give, Layout, Pass, Play, Rules, bluff
from thousand.frontends.faces import RED, face, labelled
from thousand.frontends.human import Hint, TerminalPlayer, bluff_answer, thousand_answer
from thousand.frontends.screen import menu_lines, thousand_table
from thousand.frontends.terminal_game import seat_names
from thousand.players import StopMatch

RUSSIAN = Rules.preset("russian")
NAMES = ["you", "greedy", "pimc"]
LAYOUT = Layout(
    hands=["AH AD 9C AS KH QH TS", "KS QS 9H JH TD KD QD", "JS 9S TC KC QC JC AC"],
    talon="TH 9D JD",
)
"""Seat 0 holds the heart marriage; with seat 2 dealing, seat 0 is the forehand."""


def deal() -> thousand.GameState:
    return thousand.new_deal(RUSSIAN, layout=LAYOUT, dealer=2)


def exchange() -> thousand.GameState:
    """Seat 0 has won the auction at 100 and holds the talon."""
    return play(deal(), "pass", "pass")


def first_trick_won() -> thousand.GameState:
    """Seat 0 plays at 100 and has won the first trick with the ace of spades: it may now
    declare the heart marriage."""
    state = play(exchange(), "give 9D 1", "give JD 2", "contract 100", "play AS")
    state = play(state, "play KS", "play 9S")
    assert state.current_player == 0
    return state


def answer(state: Any, text: str) -> object:
    observation = state.observation(state.current_player)
    return thousand_answer(text, observation)


# Thousand answers ------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["KH", "kh", "k♥", "K♥", "kH"])
def test_a_card_in_each_form_leads_it_declaring_the_marriage(text: str) -> None:
    assert answer(first_trick_won(), text) == Play(Card.parse("KH"), marriage=True)


@pytest.mark.parametrize("text", ["10h", "10H", "th", "10♥", "T♥"])
def test_a_ten_in_each_form(text: str) -> None:
    assert answer(first_trick_won(), text) == Play(Card.parse("TH"))


def test_a_dash_leads_the_king_without_declaring_and_m_declares() -> None:
    state = first_trick_won()
    assert answer(state, "KH -") == Play(Card.parse("KH"))
    assert answer(state, "kh m") == Play(Card.parse("KH"), marriage=True)
    assert isinstance(answer(state, "KH please"), Hint)


def test_a_number_picks_from_the_list() -> None:
    state = first_trick_won()
    legal = state.legal_actions()
    assert answer(state, "1") == legal[0]
    assert answer(state, f"#{len(legal)}") == legal[-1]
    hint = answer(state, str(len(legal) + 1))
    assert isinstance(hint, Hint)
    assert f"1 to {len(legal)}" in hint.text


def test_in_the_auction_a_number_is_a_bid() -> None:
    state = deal()
    observation = state.observation(state.player)
    assert thousand_answer("105", observation) == Bid(105)
    assert thousand_answer("pass", observation) == Pass()
    hint = thousand_answer("103", observation)
    assert isinstance(hint, Hint)
    assert "103 is not allowed" in hint.text
    assert "steps of 5" in hint.text


def test_the_contract_is_typed_as_its_amount() -> None:
    state = play(exchange(), "give 9D 1", "give JD 2")
    assert answer(state, "120") == Contract(120)
    assert answer(state, "contract 140") == Contract(140)


def test_a_typed_card_in_the_exchange_goes_to_the_left_unless_a_seat_is_named() -> None:
    state = exchange()
    assert answer(state, "9D") == Give(Card.parse("9D"), 1)
    assert answer(state, "9d 2") == Give(Card.parse("9D"), 2)
    hint = answer(state, "9D 0")
    assert isinstance(hint, Hint)
    assert "Seat 0 cannot receive" in hint.text
    # After the first give, the only one left without a card gets the next.
    state = play(state, "give 9D 2")
    assert answer(state, "JD") == Give(Card.parse("JD"), 1)


def test_cards_not_held_or_not_allowed_get_a_hint() -> None:
    state = first_trick_won()
    hint = answer(state, "QS")
    assert hint == Hint(f"You do not hold {face(Card.parse('QS'))}.")
    following = play(state, "play 9C", "play 9H")
    hint = answer(following, "JS")
    assert isinstance(hint, Hint)
    assert "cannot be played now: you may play" in hint.text


@pytest.mark.parametrize("text", ["", "   ", "hello", "bid", "play", "ZZ", "give KH"])
def test_anything_else_gets_a_hint(text: str) -> None:
    assert isinstance(answer(first_trick_won(), text), Hint)


def test_question_mark_asks_for_help() -> None:
    assert answer(first_trick_won(), "?") == Hint("?")


# 1000? answers -------------------------------------------------------------------------------


def bluff_state() -> bluff.State:
    """Seat 1 to play on a 12, holding 16 (beats it), 05 (does not) and a 1000."""
    layout = bluff.Layout(hands=["12 30 31", "16 05 1000", "40 41 42"], draw_pile="20 21 22 23")
    state = bluff.new_game(
        bluff.Rules(players=3, hand_size=3, deck=_deck()), seed=1, layout=layout, dealer=2
    )
    state = state.apply(bluff.Play(bluff.Card("12")))
    assert state.current_player == 1
    return state


def _deck() -> str:
    return "12 30 31 16 05 1000 40 41 42 20 21 22 23"


def banswer(state: bluff.State, text: str) -> object:
    return bluff_answer(text, state.observation(state.player))


def test_bluff_a_label_plays_face_up_and_hide_plays_face_down() -> None:
    state = bluff_state()
    assert banswer(state, "16") == bluff.Play(bluff.Card("16"))
    assert banswer(state, "1000") == bluff.Play(bluff.Card("1000"))
    assert banswer(state, "hide 05") == bluff.Hide(bluff.Card("05"))
    assert banswer(state, "down 05") == bluff.Hide(bluff.Card("05"))
    assert banswer(state, "draw") == bluff.Pass()


def test_bluff_a_card_that_does_not_beat_the_top_is_offered_face_down() -> None:
    hint = banswer(bluff_state(), "05")
    assert isinstance(hint, Hint)
    assert "does not beat [12]" in hint.text
    assert "hide 05" in hint.text


def test_bluff_choice_numbers_and_unknown_cards() -> None:
    state = bluff_state()
    legal = state.legal_actions()
    assert banswer(state, "#1") == legal[0]
    assert banswer(state, "2") == legal[1]
    assert banswer(state, "30") == Hint("You do not hold [30].")
    assert isinstance(banswer(state, "xyz"), Hint)


def test_bluff_response_words() -> None:
    state = bluff_state().apply(bluff.Hide(bluff.Card("05")))
    assert banswer(state, "b") == bluff.Believe()
    assert banswer(state, "challenge") == bluff.Challenge()
    assert banswer(state, "c") == bluff.Challenge()


# The player ------------------------------------------------------------------------------------


def scripted(*answers: str) -> tuple[TerminalPlayer, list[str]]:
    replies = list(answers)
    shown: list[str] = []

    def read(prompt: str) -> str:
        shown.append(prompt)
        if not replies:
            raise EOFError
        return replies.pop(0)

    return TerminalPlayer(NAMES, read=read, write=shown.append), shown


def test_the_player_asks_again_after_wrong_input_and_shows_help() -> None:
    player, shown = scripted("nonsense", "?", "KH")
    state = first_trick_won()
    assert player.act(state.observation(0)) == Play(Card.parse("KH"), marriage=True)
    text = "\n".join(shown)
    assert "'nonsense' is not one of your choices" in text
    assert "leading a king or queen whose partner you hold declares the marriage" in text
    assert shown.count("> ") == 3


@pytest.mark.parametrize("answers", [(), ("quit",), ("bad", "exit")])
def test_quit_or_end_of_input_interrupts(answers: tuple[str, ...]) -> None:
    """quit or the end of the input stops the match for the person (StopMatch, which the driver
    lets through as it does Ctrl-C), rather than being that seat's fault."""
    player, _ = scripted(*answers)
    with pytest.raises(StopMatch):
        player.act(first_trick_won().observation(0))


# The table -------------------------------------------------------------------------------------


def test_the_table_shows_what_the_seat_sees_and_nothing_else() -> None:
    state = play(first_trick_won(), "play KH marriage", "play 9H")
    observation = state.observation(2)
    lines = thousand_table(observation, ["anna", "boris", "carl"])
    text = "\n".join(lines)
    assert "Your hand: J♦ | A♣ 10♣ K♣ Q♣ J♣ | J♠" in text
    assert "Talon: 10♥ 9♦ J♦ (taken by anna)" in text
    assert "Declarer: anna, contract 100" in text
    assert "You received J♦" in text
    assert "Trump: ♥; marriages: anna ♥ marriage" in text
    assert "Bids: anna 100, boris passed, you passed" in text
    assert "Tricks: anna 1 (15 points), boris 0 (0 points), you 0 (0 points)" in text
    assert "On the table: anna K♥, boris 9♥" in text
    assert "Cards in hand: anna 6, boris 6" in text
    # No card of another hand is shown but those everyone saw in the talon.
    shown = {word for line in lines for word in line.replace(",", " ").split()}
    hidden = (set(state.hands[0]) | set(state.hands[1])) - set(observation.talon)
    assert not {face(card) for card in hidden} & shown
    assert {face(card) for card in state.hands[2]} <= shown


def test_red_suits_in_colour() -> None:
    lines = thousand_table(first_trick_won().observation(0), NAMES, colour=True)
    assert f"{RED}A♥" in "\n".join(lines)
    assert RED not in "\n".join(thousand_table(first_trick_won().observation(0), NAMES))


def test_the_menu_keeps_the_order_and_fits_the_width() -> None:
    texts = ["play K♥", "play K♥ and declare the ♥ marriage", "play 9♠", "play A♣"]
    assert menu_lines(texts) == [
        "   1. play K♥",
        "   2. play K♥ and declare the ♥ marriage",
        "   3. play 9♠    4. play A♣",
    ]
    many = menu_lines([f"contract {amount}" for amount in range(100, 225, 5)])
    assert all(len(line) <= 78 for line in many)
    numbers = [int(word[:-1]) for line in many for word in line.split() if word.endswith(".")]
    assert numbers == list(range(1, 26))


def test_seat_names_tell_repeated_bots_apart_without_numbers() -> None:
    specs = ["greedy", "pimc(steps=50)", "greedy", "cmd:./bots/mine --fast", "bots.py:Mine"]
    assert seat_names(specs, 1) == ["greedy A", "you", "pimc", "greedy B", "mine", "Mine"]


def test_a_name_ending_in_a_digit_takes_a_colon_before_its_number() -> None:
    assert labelled("Anna", 240) == "Anna 240"
    assert labelled("seat 0", 240) == "seat 0: 240"


def test_the_scores_show_the_barrel_and_the_lock() -> None:
    names = ["anna", "boris", "carl"]
    barrel = thousand.new_deal(RUSSIAN, layout=LAYOUT, dealer=2, scores=(880, 300, 0))
    barrel = attrs.evolve(barrel, context=attrs.evolve(barrel.context, barrel=(1, None, None)))
    text = "\n".join(thousand_table(barrel.observation(1), names))
    assert "Scores: anna 880 (on the barrel, deal 2 of 3), you 300, carl 0" in text
    polish = Rules.preset("polish")
    locked = thousand.new_deal(polish, layout=LAYOUT, dealer=2, scores=(810, 800, 0))
    text = "\n".join(thousand_table(locked.observation(2), names))
    assert "Scores: anna 810 (above 800: only own contracts count), boris 800, you 0" in text


def test_a_four_seat_table_names_the_sitter_and_their_bonus_once_the_talon_is_shown() -> None:
    rules = attrs.evolve(Rules.preset("russian-4"), bolts=3)
    state = thousand.new_deal(rules, seed=4, dealer=2)
    sitter = state.sitter
    assert sitter == 1
    names = ["Anna", "Boris", "Clara", "Dora"]
    seat = state.current_player
    lines = thousand_table(state.observation(seat), names)
    assert "Sitting out: Boris" in lines
    assert not any("Boris" in line for line in lines if line.startswith("Cards in hand"))
    while state.phase is thousand.Phase.AUCTION:
        state = state.apply(Pass() if Pass() in state.legal_actions() else state.legal_actions()[0])
    declarer = state.current_player
    assert declarer is not None
    lines = thousand_table(state.observation(declarer), names)
    bonus = state.observation(declarer).sitter_bonus
    assert f"Sitting out, Boris scores {bonus} for it" in lines
    assert any(line.startswith("Talon: ") for line in lines)
