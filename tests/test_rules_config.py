"""The rules configuration: presets (RULES.md 1.8), validation and JSON round-trip."""

from __future__ import annotations

import attrs
import pytest

from thousand import (
    BarrelCapacity,
    Concession,
    Endgame,
    MarriageDeclaration,
    Rules,
    RulesError,
    SetAside,
    Settlement,
)
from thousand.classic.rules import Sitter

PRESET_TABLE = {
    "russian": dict(
        players=3, opening_bid=100, bid_step=5, cap_base=120, concession=Concession.PENALTY,
        must_beat=False, must_trump=True, must_overtrump=False, marriage_requires_trick=True,
        marriage_declaration=MarriageDeclaration.OPTIONAL, ace_marriage=200, rounding=5,
        endgame=Endgame.BARREL, barrel_threshold=880, barrel_deals=3,
        barrel_capacity=BarrelCapacity.MULTIPLE, settlement=Settlement.SHORTFALL,
        set_aside=SetAside.NOBODY, target=1000, max_deals=400,
    ),
    "polish": dict(
        players=3, opening_bid=100, bid_step=10, cap_base=120, concession=Concession.NONE,
        must_beat=True, must_trump=True, must_overtrump=False, marriage_requires_trick=False,
        marriage_declaration=MarriageDeclaration.AUTOMATIC, ace_marriage=0, rounding=10,
        endgame=Endgame.LOCK, lock_threshold=800, settlement=Settlement.NONE,
        set_aside=SetAside.NOBODY, target=1000, max_deals=400,
    ),
    "polish-2p": dict(
        players=2, opening_bid=100, bid_step=10, cap_base=120, concession=Concession.NONE,
        must_beat=True, must_trump=True, must_overtrump=False, marriage_requires_trick=False,
        marriage_declaration=MarriageDeclaration.AUTOMATIC, ace_marriage=0, rounding=10,
        endgame=Endgame.LOCK, lock_threshold=800, settlement=Settlement.NONE,
        set_aside=SetAside.NOBODY, target=1000, max_deals=400,
    ),
    "russian-4": dict(
        players=4, sitter=Sitter.RIGHT_OF_DEALER, sitter_bonus=40, opening_bid=100, bid_step=5,
        cap_base=120, concession=Concession.PENALTY, must_beat=False, must_trump=True,
        must_overtrump=False, marriage_requires_trick=True,
        marriage_declaration=MarriageDeclaration.OPTIONAL, ace_marriage=200, rounding=5,
        endgame=Endgame.BARREL, barrel_threshold=880, barrel_deals=3,
        barrel_capacity=BarrelCapacity.MULTIPLE, settlement=Settlement.SHORTFALL,
        set_aside=SetAside.NOBODY, target=1000, max_deals=400,
    ),
    "polish-4": dict(
        players=4, sitter=Sitter.DEALER, sitter_bonus=50, opening_bid=100, bid_step=10,
        cap_base=120, concession=Concession.NONE, must_beat=True, must_trump=True,
        must_overtrump=False, marriage_requires_trick=False,
        marriage_declaration=MarriageDeclaration.AUTOMATIC, ace_marriage=0, rounding=10,
        endgame=Endgame.LOCK, lock_threshold=800, settlement=Settlement.NONE,
        set_aside=SetAside.NOBODY, target=1000, max_deals=400,
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(PRESET_TABLE))
def test_presets_match_the_rule_book_table(name: str) -> None:
    """Each preset has the values of the RULES.md 1.8 table (the four-seat ones: HOUSE-RULES.md
    4.10)."""
    rules = Rules.preset(name)
    for field, value in PRESET_TABLE[name].items():
        assert getattr(rules, field) == value, field
    assert rules.preset_name() == name


def test_preset_names_and_unknown_preset() -> None:
    """The five presets are listed; an unknown name raises RulesError listing them."""
    assert Rules.preset_names() == ("russian", "polish", "polish-2p", "russian-4", "polish-4")
    with pytest.raises(RulesError, match="russian, polish, polish-2p, russian-4, polish-4"):
        Rules.preset("czech")


def test_evolve_changes_one_field_and_loses_the_preset_name() -> None:
    """attrs.evolve gives a custom configuration that no longer equals its preset."""
    rules = attrs.evolve(Rules.preset("russian"), bid_step=10)
    assert rules.bid_step == 10
    assert rules.preset_name() is None


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"players": 5}, "rules field 'players' must be 2 to 4, not 5"),
        ({"players": 1}, "rules field 'players' must be 2 to 4, not 1"),
        (
            {"sitter": Sitter.OPPOSITE_DEALER},
            "inconsistent rules: sitter applies to four seats only; keep it 'dealer'",
        ),
        (
            {"sitter_bonus": 40},
            "inconsistent rules: sitter_bonus applies to four seats only; keep it 0",
        ),
        (
            {"opening_bid": 103},
            "inconsistent rules: opening_bid 103 is not a multiple of bid_step 5",
        ),
        ({"cap_base": 90}, "inconsistent rules: cap_base 90 is below opening_bid 100"),
        (
            {"must_trump": False, "must_overtrump": True},
            "inconsistent rules: must_overtrump needs must_trump",
        ),
        (
            {"set_aside": SetAside.DECLARER},
            "inconsistent rules: set_aside applies to the two-player game only; keep it 'nobody'",
        ),
        (
            {"barrel_threshold": 1000},
            "inconsistent rules: barrel_threshold 1000 must be below target 1000",
        ),
        (
            {"endgame": Endgame.LOCK, "lock_threshold": 1200},
            "inconsistent rules: lock_threshold 1200 must be below target 1000",
        ),
        (
            {"endgame": Endgame.LOCK, "lock_threshold": 1000},
            "inconsistent rules: lock_threshold 1000 must be below target 1000",
        ),
        (
            {"gold_set": 2, "bid_step": 7, "opening_bid": 105, "cap_base": 120},
            "inconsistent rules: gold_set needs cap_base 120 to be a multiple of bid_step 7",
        ),
        (
            {"bid_step": 10, "opening_bid": 105, "cap_base": 90},
            "inconsistent rules: opening_bid 105 is not a multiple of bid_step 10; "
            "cap_base 90 is below opening_bid 105",
        ),
        ({"bid_step": 0}, "rules field 'bid_step' must be 1 to 100, not 0"),
        ({"ace_marriage": -1}, "rules field 'ace_marriage' must be 0 to 1,000, not -1"),
        ({"rounding": "5"}, "rules field 'rounding' must be a whole number, not \"5\""),
        ({"must_beat": 1}, "rules field 'must_beat' must be true or false, not 1"),
        (
            {"concession": "sometimes"},
            "'sometimes' is not a Concession setting; choose one of 'none', 'free', 'penalty'",
        ),
        ({"max_deals": True}, "rules field 'max_deals' must be a whole number, not true"),
    ],
)
def test_invalid_combinations_raise_at_construction(
    changes: dict[str, object], message: str
) -> None:
    """Malformed or contradictory rules raise RulesError (a ValueError) saying, in whole, what
    is wrong: every contradiction found, one after another."""
    with pytest.raises(RulesError) as caught:
        attrs.evolve(Rules.preset("russian"), **changes)
    assert str(caught.value) == message


def test_rules_at_the_edge_of_a_contradiction_are_accepted() -> None:
    """A cap base equal to the opening bid (every bid above it needs a marriage) and thresholds
    just below the target are rules, not contradictions."""
    russian = Rules.preset("russian")
    assert attrs.evolve(russian, cap_base=100).cap_base == 100
    assert attrs.evolve(russian, barrel_threshold=999).barrel_threshold == 999
    locked = attrs.evolve(russian, endgame=Endgame.LOCK, lock_threshold=999)
    assert locked.lock_threshold == 999


@pytest.mark.parametrize("name", Rules.preset_names())
def test_json_round_trip(name: str) -> None:
    """Every preset survives to_json / from_json unchanged, enums written as strings."""
    rules = Rules.preset(name)
    assert Rules.from_json(rules.to_json()) == rules
    assert isinstance(rules.to_dict()["endgame"], str)


def test_rules_json_is_written_one_field_a_line() -> None:
    """The rules JSON, meant to be read and edited by hand as a rules file, gives each field on
    a line of its own, indented by two spaces, in the order of the fields."""
    assert Rules.preset("polish").to_json() == "\n".join(
        [
            "{",
            '  "players": 3,',
            '  "opening_bid": 100,',
            '  "bid_step": 10,',
            '  "cap_base": 120,',
            '  "concession": "none",',
            '  "must_beat": true,',
            '  "must_trump": true,',
            '  "must_overtrump": false,',
            '  "marriage_requires_trick": false,',
            '  "marriage_declaration": "automatic",',
            '  "ace_marriage": 0,',
            '  "rounding": 10,',
            '  "endgame": "lock",',
            '  "barrel_threshold": 880,',
            '  "barrel_deals": 3,',
            '  "barrel_penalty": 120,',
            '  "barrel_capacity": "multiple",',
            '  "lock_threshold": 800,',
            '  "target": 1000,',
            '  "settlement": "none",',
            '  "set_aside": "nobody",',
            '  "max_deals": 400',
            "}",
        ]
    )


def test_from_dict_on_top_of_a_preset_and_with_defaults() -> None:
    """A "preset" key names the base; missing fields take the defaults (the Russian values)."""
    rules = Rules.from_dict({"preset": "polish", "must_overtrump": True})
    assert rules == attrs.evolve(Rules.preset("polish"), must_overtrump=True)
    assert Rules.from_dict({}) == Rules.preset("russian")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        ('{"bid_stepp": 5}', "unknown rules field"),
        ('{"preset": "nope"}', "no preset named"),
    ],
)
def test_malformed_json_raises_rules_error(text: str, message: str) -> None:
    """Broken JSON, unknown keys and unknown presets give one clear RulesError."""
    with pytest.raises(RulesError, match=message):
        Rules.from_json(text)
