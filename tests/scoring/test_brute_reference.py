"""The scorer's ``is_complete`` and ``waits`` against the tests' own completeness check
(tests/scoring/brute.py, written from the rule books), on complete hands, hands one tile off,
and the special hands with one tile changed (issue 29: the tests asked the code about itself)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from brute import ORPHANS, complete, special
from brute import waits as brute_waits
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.scoring import HandInput, get_ruleset, is_complete, waits
from controller.tiles import KINDS, parse_tiles
from tests.scoring.test_properties import winning_hands

RULESETS = ("hua-bao", "swedish", "dmjl", "bmja")


@pytest.mark.parametrize(("name", "hand", "expected"), [
    ("thirteen_orphans", "1b9b1c9c1d9dewswwwnwrdgdwd 1b", True),
    ("thirteen_orphans", "1b9b1c9c1d9dewswwwnwrdgd 1b1b", False),
    ("seven_pairs", "1b1b 3b3b 5c5c 7c7c 9d9d ewew rdrd", True),
    ("seven_pairs", "1b1b1b1b 5c5c 7c7c 9d9d ewew rdrd", False),  # seven *different* pairs
    ("all_pair_honours", "1b1b 9b9b 1c1c ewew swsw rdrd gdgd", True),
    ("all_pair_honours", "1b1b 9b9b 2c2c ewew swsw rdrd gdgd", False),
    ("gates_of_heaven", "1b1b1b 2b3b4b5b6b7b8b 9b9b9b 5b", True),
    ("gates_of_heaven", "1b1b1b 2b3b4b5b6b7b8b 9b9b9b 9b", False),  # the 14th is a 2-8
    ("wriggling_snake", "1c1c 2c3c4c5c6c7c8c9c ewswwwnw", True),
    ("wriggling_snake", "1c 2c3c4c5c6c7c8c9c9c ewswwwnw", False),
    ("knitting", "2d2b 3d3b 4d4b 5d5b 6d6b 7d7b 9d9b", True),
    ("knitting", "2d2b 3d3b 4d4b 5d5b 6d6b 7d7b 9d9c", False),
    ("triple_knitting", "1b1c1d 3b3c3d 5b5c5d 7b7c7d 9b9c", True),
    ("triple_knitting", "1b1c1d 3b3c3d 5b5c5d 7b7c7d 9b9b", False),
])
def test_the_reference_knows_the_books_special_hands(name: str, hand: str,
                                                     expected: bool) -> None:
    assert special(name, parse_tiles(hand)) is expected


def test_the_reference_counts_bmjas_one_chow_and_the_melds() -> None:
    two = parse_tiles("1b2b3b 4c5c6c 7d7d7d ewewew 9b9b")
    assert complete(two, [], "dmjl") and not complete(two, [], "bmja")
    assert complete(parse_tiles("1b2b3b 4c4c4c 7d7d7d ewewew 9b9b"), [], "bmja")


@st.composite
def near_hands(draw: st.DrawFn) -> HandInput:
    """A complete hand, or one with a tile changed for another kind (at most four of any)."""
    inp = draw(winning_hands())
    hand = list(inp.hand)
    if draw(st.booleans()):
        held = [*hand, *(t for m in inp.melds for t in m.tiles)]
        i = draw(st.integers(0, len(hand) - 1))
        hand[i] = draw(st.sampled_from([k for k in KINDS if held.count(k) < 4]))
    return replace(inp, hand=hand, ruleset=draw(st.sampled_from(RULESETS)))


SLOW_OK = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SLOW_OK
@given(near_hands())
def test_is_complete_agrees_with_the_reference(inp: HandInput) -> None:
    rs = str(inp.ruleset)
    assert is_complete(inp.hand, inp.melds, get_ruleset(rs)) == complete(inp.hand, inp.melds, rs)


@SLOW_OK
@given(near_hands(), st.data())
def test_waits_agree_with_the_reference(inp: HandInput, data: st.DataObject) -> None:
    rs = str(inp.ruleset)
    rest = list(inp.hand)
    rest.remove(data.draw(st.sampled_from(rest)))
    got = waits(rest, inp.melds, get_ruleset(rs))
    assert set(got) == brute_waits(rest, inp.melds, rs)
    assert got == [k for k in KINDS if k in got]  # in the order of the tile kinds


SPECIAL_HANDS = {
    "bmja": ["1b9b1c9c1d9dewswwwnwrdgdwd1b", "1b1b1b2b3b4b5b6b7b8b9b9b9b5b",
             "1c1c2c3c4c5c6c7c8c9cewswwwnw", "2d2b3d3b4d4b5d5b6d6b7d7b9d9b",
             "1b1c1d3b3c3d5b5c5d7b7c7d9b9c", "1b1b9b9b1c1cewewswswrdrdgdgd"],
    "swedish": ["1b1b3b3b5c5c7c7c9d9dewewrdrd"],
    "hua-bao": ["1b9b1c9c1d9dewswwwnwrdgdwd9d"],
    "dmjl": ["1b9b1c9c1d9dewswwwnwrdgdwdrd"],
}
SPECIAL_CASES = [(rs, hand) for rs, hands in SPECIAL_HANDS.items() for hand in hands]


@pytest.mark.parametrize(("ruleset", "text"), SPECIAL_CASES)
def test_special_hands_and_every_one_tile_change_agree_with_the_reference(
    ruleset: str, text: str
) -> None:
    """Each special hand, and each of its 13-tile rests with every kind added: the scorer's
    completeness and waits are the reference's (about 14 x 34 hands each)."""
    rs = get_ruleset(ruleset)
    tiles = parse_tiles(text)
    assert is_complete(tiles, [], rs) and complete(tiles, [], ruleset)
    for i in range(len(tiles)):
        rest = tiles[:i] + tiles[i + 1:]
        assert set(waits(rest, [], rs)) == brute_waits(rest, [], ruleset), rest
        for kind in KINDS:
            hand = [*rest, kind]
            if hand.count(kind) <= 4:
                assert is_complete(hand, [], rs) == complete(hand, [], ruleset), hand


def test_orphans_are_the_thirteen_kinds() -> None:
    assert len(ORPHANS) == 13
