"""mcr's special shapes at their edges (RULES.md, mcr: "seven pairs, seven shifted pairs,
thirteen orphans, greater and lesser honours and knitted tiles, and knitted straight with a set
and a pair"): completeness and waits from the shapes' definitions, and knitted-straight hands'
fans against pymahjonggb (an independent fan calculator). From the mcr group's mutation
survivors (docs/testing.md)."""

from __future__ import annotations

import pytest
from mcr_corpus import hand_input
from test_mcr_fans import _fans

from controller.scoring import get_ruleset, is_complete, score_hand, waits
from controller.tiles import Meld

MCR = get_ruleset("mcr")
KNIT = "1b 4b 7b 2c 5c 8c 3d 6d 9d".split()
ORPHANS = "1b 9b 1c 9c 1d 9d ew sw ww nw rd gd wd".split()
PAIRS = "1b 1b 3c 3c 5d 5d 7d 7d ew ew rd rd 9b 9b".split()


def test_seven_pairs_and_a_four_of_a_kind_as_two_pairs_are_complete() -> None:
    assert is_complete(PAIRS, [], MCR)
    assert is_complete([*PAIRS[:-2], "1b", "1b"], [], MCR)  # 1b four times: two pairs


def test_near_seven_pairs_are_not_complete() -> None:
    # six pairs and two single tiles
    assert not is_complete([*PAIRS[:-2], "2d", "9b"], [], MCR)
    # five pairs and a pung of the sixth kind with one more single: not pairs
    assert not is_complete([*PAIRS[:-4], "rd", "9b", "9b", "9b"], [], MCR)


def test_thirteen_orphans_needs_the_fourteenth_tile_to_pair_an_orphan() -> None:
    assert is_complete([*ORPHANS, "ew"], [], MCR)
    assert not is_complete([*ORPHANS, "5b"], [], MCR)
    # twelve of the thirteen and a pung of one: no shape
    assert not is_complete([*ORPHANS[:-1], "rd", "rd"], [], MCR)


def test_a_hand_of_the_special_shapes_tiles_beside_two_sets_is_no_special_shape() -> None:
    two = [Meld(("5b", "5b", "5b"), False), Meld(("2d", "3d", "4d"), False)]
    # eight tiles beside two sets: four sets and a pair only
    assert not is_complete(["1b", "1b", "3c", "3c", "5d", "5d", "7d", "7d"], two, MCR)
    assert is_complete(["1b", "1b", "3c", "3c", "3c", "5d", "6d", "7d"], two, MCR)


def test_knitted_tiles_beside_a_set_need_a_pair() -> None:
    pung = [Meld(("rd", "rd", "rd"), False)]
    assert not is_complete([*KNIT, "ew", "sw"], pung, MCR)  # two odd honours: no pair
    assert is_complete([*KNIT, "ew", "ew"], pung, MCR)
    assert waits([*KNIT, "ew"], pung, MCR) == ["ew"]


#: knitted straight hands (tests/scoring/mcr_corpus.py's format): each set and pair beside the
#: straight that changes the fans (All Types, the winds, No Honors, the three waits)
KNITTED_HANDS = [
    # a dragon pung and a wind pair: All Types
    "east south |  | 1b 4b 7b 2c 5c 8c 3d 6d 9d rd rd rd ew ew | 0 | ew discard",
    "east south |  | 1b 4b 7b 2c 5c 8c 3d 6d 9d rd rd rd nw nw | 0 | 9d wall",
    "east south |  | 1b 4b 7b 2c 5c 8c 3d 6d 9d rd rd rd wd wd | 0 | 9d wall",
    # wind pungs: the prevailing, the seat's, another; a dragon pair, a suited pair
    "east east |  | 1b 4b 7b 2c 5c 8c 3d 6d 9d ew ew ew rd rd | 0 | rd discard",
    "south west |  | 1b 4b 7b 2c 5c 8c 3d 6d 9d ww ww ww gd gd | 0 | 2c discard",
    "south west |  | 1b 4b 7b 2c 5c 8c 3d 6d 9d sw sw sw wd wd | 0 | 2c discard",
    "south west |  | 1b 4b 7b 2c 5c 8c 3d 6d 9d nw nw nw 5b 5b | 0 | 5b discard",
    "south west |  | 1b 4b 7b 2c 5c 8c 3d 6d 9d ew ew ew rd rd | 0 | 4b discard",
    # suited pungs, terminal and not, with a suited and an honour pair
    "east south |  | 1b 4b 7b 2c 5c 8c 3d 6d 9d 9c 9c 9c 5b 5b | 0 | 5b discard",
    "east south |  | 1b 4b 7b 2c 5c 8c 3d 6d 9d 1d 1d 1d ew ew | 0 | 7b discard",
    "east south |  | 1b 4b 7b 2c 5c 8c 3d 6d 9d 4d 4d 4d 6c 6c | 0 | 4d discard",
    # a chow: edge (either end), closed, two-sided (no wait fan), single on the pair
    "east south |  | 1b 4b 7b 2c 5c 8c 3d 6d 9d 1d 2d 3d ww ww | 0 | 3d discard",
    "east south |  | 1b 4b 7b 2c 5c 8c 3d 6d 9d 7d 8d 9d ww ww | 0 | 7d discard",
    "east south |  | 1b 4b 7b 2c 5c 8c 3d 6d 9d 4d 5d 6d ww ww | 0 | 5d discard",
    "east south |  | 1b 4b 7b 2c 5c 8c 3d 6d 9d 2d 3d 4d ww ww | 0 | 2d discard",
    "east south |  | 1b 4b 7b 2c 5c 8c 3d 6d 9d 1d 2d 3d ww ww | 0 | 1d discard",
    "east south |  | 1b 4b 7b 2c 5c 8c 3d 6d 9d 4c 5c 6c 8b 8b | 0 | 8b discard",
    "east south |  | 1b 4b 7b 2c 5c 8c 3d 6d 9d 5b 6b 7b 2b 2b | 0 | 5b wall",
    # the winning tile a knitted one: no wait fan but where the set and pair waited on one
    "east south |  | 1b 4b 7b 2c 5c 8c 3d 6d 9d 6b 6b 6b 5c 5c | 0 | 5c discard",
    # a set on the table: the single wait on the pair, or a knitted tile
    "east south | rd rd rd | 1b 4b 7b 2c 5c 8c 3d 6d 9d ew ew | 0 | ew discard",
    "east south | 5b 5b 5b | 1b 4b 7b 2c 5c 8c 3d 6d 9d 9b 9b | 0 | 6d discard",
    "east south | 2b 3b 4b | 1b 4b 7b 2c 5c 8c 3d 6d 9d 4b 4b | 0 | 4b discard",
]


@pytest.mark.parametrize("line", KNITTED_HANDS)
def test_knitted_straight_hands_earn_pymahjonggbs_fans(line: str) -> None:
    ours, theirs = _fans(line)
    assert "Knitted Straight" in ours and "Knitted Straight" in theirs


#: sets that make (or nearly make) the set patterns: pungs one rank apart or of one rank across
#: the suits next to honours, four chows of which three make a pattern and the fourth adds one
SET_HANDS = [
    # a pung of each suit's 1 and one of East: no Triple Pung (East is no suit)
    "south west | 1b 1b 1b, 1c 1c 1c | ew ew ew 4d 5d 6d 9d 9d | 0 | 9d discard",
    "south west | 1b 1b 1b, 1c 1c 1c | 1d 1d 1d 4d 5d 6d 9d 9d | 0 | 9d discard",
    "south west | 7b 7b 7b, 8c 8c 8c | 9d 9d 9d ew ew ew 5d 5d | 0 | 5d discard",
    # four pungs one rank apart, starting past the 1: Four Pure Shifted Pungs
    "south west | 2b 2b 2b, 3b 3b 3b | 4b 4b 4b 5b 5b 5b 9d 9d | 0 | 9d discard",
    "south west | 6c 6c 6c, 7c 7c 7c | 8c 8c 8c 9c 9c 9c nw nw | 0 | nw discard",
    "south west | 6d 6d 6d, 7d 7d 7d | 8d 8d 8d 9d 9d 9d 1b 1b | 0 | 1b discard",
    # four chows
    "south west | 1b 2b 3b, 2b 3b 4b | 3b 4b 5b 7c 8c 9c nw nw | 0 | nw discard",
    "south west | 1b 2b 3b, 1c 2c 3c | 1d 2d 3d 1b 2b 3b nw nw | 0 | nw discard",
    "south west | 1b 2b 3b, 4b 5b 6b | 7b 8b 9b 7c 8c 9c nw nw | 0 | nw discard",
    "south west | 1b 2b 3b, 2c 3c 4c | 3d 4d 5d 4d 5d 6d nw nw | 0 | nw discard",
    "south west | 1b 2b 3b, 4c 5c 6c | 7d 8d 9d 1c 2c 3c nw nw | 0 | nw discard",
    "south west | 1b 2b 3b, 1b 2b 3b | 5c 6c 7c 5d 6d 7d nw nw | 0 | nw discard",
    "south west | 2b 3b 4b, 2b 3b 4b | 2c 3c 4c 2c 3c 4c nw nw | 0 | nw discard",
    "south west | 1b 2b 3b, 3b 4b 5b | 5b 6b 7b 7c 8c 9c nw nw | 0 | nw discard",
    "south west | 1b 2b 3b, 1c 2c 3c | 4c 5c 6c 7c 8c 9c nw nw | 0 | nw discard",
    "south west | 2b 3b 4b, 3c 4c 5c | 4d 5d 6d 2b 3b 4b nw nw | 0 | nw discard",
    "south west | 1b 2b 3b, 7b 8b 9b | 1c 2c 3c 7c 8c 9c 5d 5d | 0 | 5d discard",
    "south west | 1b 2b 3b, 2b 3b 4b | 3b 4b 5b 4b 5b 6b 9b 9b | 0 | 9b discard",
    # three suits' chows one and then two ranks apart: no Mixed Shifted Chows
    "south west | 1b 2b 3b, 2c 3c 4c | 4d 5d 6d 7d 8d 9d nw nw | 0 | nw discard",
    # the terminal chows with a pair of 5s: of one suit, of two suits and the third's pair,
    # and near them (the pair a 4, of a chow's suit, an honour; a 2-3-4 for the 1-2-3)
    "south west | 1b 2b 3b, 1b 2b 3b | 7b 8b 9b 7b 8b 9b 5b 5b | 0 | 5b discard",
    "south west | 1b 2b 3b, 7b 8b 9b | 1c 2c 3c 7c 8c 9c 5d 5d | 0 | 5d discard",
    "south west | 1b 2b 3b, 1b 2b 3b | 7b 8b 9b 7b 8b 9b 4b 4b | 0 | 4b discard",
    "south west | 1b 2b 3b, 1b 2b 3b | 7b 8b 9b 7b 8b 9b 5c 5c | 0 | 5c discard",
    "south west | 1b 2b 3b, 7b 8b 9b | 1c 2c 3c 7c 8c 9c 5b 5b | 0 | 5b discard",
    "south west | 1b 2b 3b, 7b 8b 9b | 1c 2c 3c 7c 8c 9c rd rd | 0 | rd discard",
    "south west | 2b 3b 4b, 7b 8b 9b | 1c 2c 3c 7c 8c 9c 5d 5d | 0 | 5d discard",
    "south west | 1b 2b 3b, 7b 8b 9b | 1c 2c 3c 7d 8d 9d 5d 5d | 0 | 5d discard",
]


@pytest.mark.parametrize("line", SET_HANDS)
def test_set_patterns_earn_pymahjonggbs_fans(line: str) -> None:
    _fans(line)


#: seven pairs: of the seven honours (no Seven Shifted Pairs: honours have no ranks), shifted,
#: with a four of a kind as two pairs
SEVEN_PAIRS = [
    "south west |  | ew ew sw sw ww ww nw nw rd rd gd gd wd wd | 0 | wd discard",
    "south west |  | 3c 3c 4c 4c 5c 5c 6c 6c 7c 7c 8c 8c 9c 9c | 0 | 9c discard",
    "south west |  | 1b 1b 1b 1b 3c 3c 5d 5d 7d 7d ew ew rd rd | 0 | rd discard",
]


@pytest.mark.parametrize("line", SEVEN_PAIRS)
def test_seven_pairs_earn_pymahjonggbs_fans_and_name_the_whole_hand(line: str) -> None:
    _fans(line)
    inp = hand_input(line)
    pairs = [i for i in score_hand(inp).items if i.name in ("Seven Pairs", "Seven Shifted Pairs")]
    assert len(pairs) == 1 and sorted(pairs[0].tiles) == sorted(inp.hand)


#: fans no hand of the corpus earns, and their near misses (mcr-standard's mutation survivors,
#: docs/testing.md): the tiles' ranges, All Green and All Terminals, Four Kongs (its single wait
#: not counted), a concealed pung whose kind the winning discard also completes in a concealed
#: chow, All Chows beside an honour pair, the pair that makes Little Three Dragons or Little
#: Four Winds at either end of its honours, and an honour pair beside Big Three Winds
RARE_HANDS = [
    "south west |  | 2b 3b 4b 2b 3b 4b 6b 6b 6b 8b 8b 8b gd gd | 0 | gd discard",
    "south west |  | 1b 1b 1b 9b 9b 9b 1c 1c 1c 9c 9c 9c 1d 1d | 0 | 1d discard",
    "south west |  | 7b 8b 9b 7c 8c 9c 7d 8d 9d 7b 8b 9b 8c 8c | 0 | 8c discard",
    "south west |  | 4b 5b 6b 4c 5c 6c 4d 5d 6d 4b 5b 6b 5c 5c | 0 | 5c discard",
    "south west |  | 4b 5b 6b 5c 6c 7c 4d 5d 6d 5b 6b 7b 6c 6c | 0 | 6c discard",
    "east south | 1b 1b 1b 1b, 2c 2c 2c 2c, 3d 3d 3d 3d, ew ew ew ew | 5d 5d | 0 | 5d discard",
    # Four Kongs not a Melded Hand (two or four concealed), and three kongs' single wait
    "east south | +1b 1b 1b 1b, 2c 2c 2c 2c, +3d 3d 3d 3d, ew ew ew ew | 5d 5d | 0 | 5d discard",
    "east south | +1b 1b 1b 1b, +2c 2c 2c 2c, +3d 3d 3d 3d, +ew ew ew ew | 5d 5d | 0 | 5d wall",
    "east south | +1b 1b 1b 1b, 2c 2c 2c 2c, 3d 3d 3d 3d | 6b 7b 8b 5d 5d | 0 | 5d discard",
    "south west |  | 3b 3b 3b 3b 4b 5b 7c 7c 7c 1d 2d 3d 9d 9d | 0 | 3b discard",
    "south west |  | 5b 5b 5b 3b 4b 5b 7c 7c 7c 1d 2d 3d 9d 9d | 0 | 5b discard",
    "south west |  | 1b 2b 3b 4c 5c 6c 7d 8d 9d 2b 3b 4b ew ew | 0 | ew discard",
    # the terminal chows of the characters and dots (the suits past the first)
    "south west | 1c 2c 3c, 1c 2c 3c | 7c 8c 9c 7c 8c 9c 5c 5c | 0 | 5c discard",
    "south west | 1d 2d 3d, 1d 2d 3d | 7d 8d 9d 7d 8d 9d 5d 5d | 0 | 5d discard",
    "south west | 1c 2c 3c, 7c 8c 9c | 1d 2d 3d 7d 8d 9d 5b 5b | 0 | 5b discard",
    "south west |  | gd gd gd wd wd wd rd rd 1b 2b 3b 4c 5c 6c | 0 | 6c discard",
    "south west |  | rd rd rd gd gd gd wd wd 1b 2b 3b 4c 5c 6c | 0 | 6c discard",
    "north west |  | sw sw sw ww ww ww nw nw nw ew ew 1b 2b 3b | 0 | 3b discard",
    "south south |  | ew ew ew sw sw sw ww ww ww nw nw 1b 2b 3b | 0 | 3b discard",
    "south south |  | ew ew ew sw sw sw ww ww ww rd rd 1b 2b 3b | 0 | 3b discard",
]


@pytest.mark.parametrize("line", RARE_HANDS)
def test_rare_fans_earn_pymahjonggbs_fans(line: str) -> None:
    _fans(line)
