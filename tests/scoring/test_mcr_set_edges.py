"""mcr's set patterns and special hands at the edges the mcr-sets mutation run found untested
(issue 29, seventh session; docs/testing.md): each hand's fans against pymahjonggb (an
independent C++ fan calculator), the tiles an item names and the pairs shown from the fans'
definitions (RULES.md section 10, the Green Book), and hands that are no shape at all."""

from __future__ import annotations

import pytest
from mcr_corpus import hand_input
from test_mcr_fans import _fans

from controller.scoring import ScoringError, score_hand

EDGE_HANDS = [
    # four chows of one suit each two ranks up: Four Pure Shifted Chows (by one or by two)
    "south west | 1b 2b 3b, 3b 4b 5b | 5b 6b 7b 7b 8b 9b nw nw | 0 | nw discard",
    # five two-chow fans among four chows, three counted (account-once): one of each kind
    "south west | 1b 2b 3b, 1b 2b 3b | 4b 5b 6b 1c 2c 3c 9d 9d | 0 | 9d discard",
    # pungs 7-8-9 of bamboo and 1 of characters: three shifted pungs, not four (two suits)
    "south west | 7b 7b 7b, 8b 8b 8b | 9b 9b 9b 1c 1c 1c 5d 5d | 0 | 5d discard",
    # two wind pungs and a dragon pung: no Big Three Winds
    "south west | ew ew ew, sw sw sw | rd rd rd 2b 3b 4b 5d 5d | 0 | 5d discard",
    # seven pairs of seven kinds in a row but across two suits: no Seven Shifted Pairs
    "south west |  | 4b 4b 5b 5b 6b 6b 7b 7b 8b 8b 9b 9b 1c 1c | 0 | 1c discard",
    "south west |  | 9b 9b 1c 1c 2c 2c 3c 3c 4c 4c 5c 5c 6c 6c | 0 | 6c discard",
    # seven pairs of knitted kinds: seven pairs, no honours and knitted tiles
    "south west |  | 1b 1b 4b 4b 7b 7b 2c 2c 5c 5c 8c 8c 3d 3d | 0 | 3d discard",
    # Nine Gates in the characters and the dots (the suits past the first)
    "south west |  | 1c 1c 1c 2c 3c 4c 5c 6c 7c 8c 9c 9c 9c 1c | 0 | 1c discard",
    "south west |  | 1d 1d 1d 2d 3d 4d 5d 6d 7d 8d 9d 9d 9d 2d | 0 | 2d discard",
    # a knitted straight: with a chow and an East pair (no All Chows: an honour pair), with a
    # pung of its own 1b (Tile Hog), with a dragon pung and a dragon pair (no All Types)
    "east south |  | 1b 4b 7b 2c 5c 8c 3d 6d 9d 4d 5d 6d ew ew | 0 | 5d discard",
    "east south |  | 1b 4b 7b 2c 5c 8c 3d 6d 9d 1b 1b 1b ew ew | 0 | ew discard",
    "east south |  | 1b 4b 7b 2c 5c 8c 3d 6d 9d gd gd gd rd rd | 0 | rd discard",
]


@pytest.mark.parametrize("line", EDGE_HANDS)
def test_edge_hands_earn_pymahjonggbs_fans(line: str) -> None:
    _fans(line)


def _item(line: str, name: str) -> list[str]:
    (item,) = [i for i in score_hand(hand_input(line)).items if i.name == name]
    return sorted(item.tiles)


def test_a_two_set_fan_names_both_sets() -> None:
    """Short Straight beside Pure Triple Chow: the fourth chow and one of the three; Double
    Pung: a pung of 1 in two suits, beside Pure Shifted Pungs or alone."""
    triple = "south west | 1b 2b 3b, 1b 2b 3b | 1b 2b 3b 4b 5b 6b 9d 9d | 0 | 9d discard"
    assert _fans(triple)[0]["Short Straight"] == 1
    assert _item(triple, "Short Straight") == sorted("1b 2b 3b 4b 5b 6b".split())
    one_c = ["1b"] * 3 + ["1c"] * 3
    shifted = "south west | 1b 1b 1b, 2b 2b 2b | 3b 3b 3b 1c 1c 1c 9d 9d | 0 | 9d discard"
    assert _fans(shifted)[0]["Double Pung"] == 2
    assert _item(shifted, "Double Pung") == one_c
    alone = "south west | 1b 1b 1b, 1c 1c 1c | 4d 4d 4d 5d 6d 7d 9d 9d | 0 | 9d discard"
    assert _fans(alone)[0]["Double Pung"] == 2
    assert _item(alone, "Double Pung") == one_c


@pytest.mark.parametrize("line", [
    "south west |  | 4b 4b 5b 5b 6b 6b 7b 7b 8b 8b 9b 9b 1c 1c | 0 | 1c discard",
    "south west |  | 1b 1b 1b 1b 3c 3c 5d 5d 7d 7d ew ew rd rd | 0 | rd discard",
])
def test_seven_pairs_are_shown_as_seven_pairs(line: str) -> None:
    """The arrangement of a seven-pairs hand: its pairs (a four of a kind is two of them)."""
    hand = sorted(hand_input(line).hand)
    shown = score_hand(hand_input(line)).arrangement
    assert len(shown) == 7 and all(len(p) == 2 and p[0] == p[1] for p in shown)
    assert sorted(t for p in shown for t in p) == hand


@pytest.mark.parametrize("line", [
    # eight knitted tiles and five honours, one of them twice: no honours and knitted tiles
    # (fourteen different tiles)
    "south west |  | 1b 4b 7b 2c 5c 8c 3d 6d ew sw ww nw rd rd | 0 | rd discard",
    # seven tiles in a row and the seven honours: the suited ones are not knitted
    "south west |  | 1b 2b 3b 4b 5b 6b 7b ew sw ww nw rd gd wd | 0 | wd discard",
    # a knitted straight and a set with two odd honours: no pair
    "south west | rd rd rd | 1b 4b 7b 2c 5c 8c 3d 6d 9d ew sw | 0 | sw discard",
    # the 1b of the knitted straight only in the pung on the table: no knitted straight
    "south west | 1b 1b 1b | 4b 7b 2c 5c 8c 3d 6d 9d 5b ew ew | 0 | ew discard",
])
def test_a_hand_of_no_shape_is_refused_as_not_complete(line: str) -> None:
    with pytest.raises(ScoringError, match="not complete"):
        score_hand(hand_input(line))
