"""One test per scoring item of each rule set: a hand where it applies (scored at the rule book's
value, tests/scoring/rule_book.py), one where it just fails.

Each row: (rule set, item name, the hand it applies to, the hand it just fails on). A hand is
(notation, keyword arguments for play()); the default player is south in an east round, winning
with the last concealed tile written, drawn from the live wall.
"""

from __future__ import annotations

from typing import Any

import pytest
from rule_book import assert_book_value
from scoring_helpers import names, play

from controller.scoring import ScoringError

H = tuple[str, dict[str, Any]]
PLAIN = "1b2b3b 4b5b6b 7c8c9c 2d3d4d "


def h(text: str, **kw: Any) -> H:
    return text, kw


# Set points: the same table in all three rule sets (dmjl's pairs differ: see DMJL below).
SET_POINTS = [
    ("exposed pung of simples", h("[5b5b5b] 1c2c3c 7c8c9c 2d3d4d nwnw"),
     h("[1b1b1b] 1c2c3c 7c8c9c 2d3d4d nwnw")),
    ("concealed pung of simples", h("5b5b5b 1c2c3c 7c8c9c 2d3d4d nwnw"),
     h("5b5b5b 1c2c3c 7c8c9c 2d3d4d nwnw", tile="5b", won="discard")),
    ("exposed pung of terminals or honours", h("[9c9c9c] 1b2b3b 4b5b6b 2d3d4d nwnw"),
     h("[8c8c8c] 1b2b3b 4b5b6b 2d3d4d nwnw")),
    ("concealed pung of terminals or honours", h("9c9c9c 1b2b3b 4b5b6b 2d3d4d nwnw"),
     h("9c9c9c 1b2b3b 4b5b6b 2d3d4d nwnw", tile="9c", won="discard")),
    ("exposed kong of simples", h("[5b5b5b5b] 1c2c3c 7c8c9c 2d3d4d nwnw"),
     h("{5b5b5b5b} 1c2c3c 7c8c9c 2d3d4d nwnw")),
    ("concealed kong of simples", h("{5b5b5b5b} 1c2c3c 7c8c9c 2d3d4d nwnw"),
     h("[5b5b5b5b] 1c2c3c 7c8c9c 2d3d4d nwnw")),
    ("exposed kong of terminals or honours", h("[1b1b1b1b] 1c2c3c 7c8c9c 2d3d4d nwnw"),
     h("[2b2b2b2b] 1c2c3c 7c8c9c 2d3d4d nwnw")),
    ("concealed kong of terminals or honours", h("{ewewewew} 1c2c3c 7c8c9c 2d3d4d nwnw"),
     h("[ewewewew] 1c2c3c 7c8c9c 2d3d4d nwnw")),
    ("pung of dragons", h("gdgdgd 1c2c3c 7c8c9c 2d3d4d 5b5b"),
     h("gdgd 1c2c3c 7c8c9c 2d3d4d 5b5b5b")),
    ("pung of own wind", h("swswsw 1c2c3c 7c8c9c 2d3d4d 5b5b"),
     h("swswsw 1c2c3c 7c8c9c 2d3d4d 5b5b", seat="west")),
    ("pung of the prevailing wind", h("ewewew 1c2c3c 7c8c9c 2d3d4d 5b5b"),
     h("ewewew 1c2c3c 7c8c9c 2d3d4d 5b5b", prevailing="south", seat="west")),
]

PAIRS = [
    ("pair of dragons", h(PLAIN + "rdrd"), h(PLAIN + "5c5c")),
    ("pair of own wind", h(PLAIN + "swsw"), h(PLAIN + "wwww")),
    ("pair of the prevailing wind", h(PLAIN + "ewew"), h(PLAIN + "nwnw")),
]
HUA_BAO_PAIRS = [
    *PAIRS,
    ("pair of own wind that is also the prevailing wind", h(PLAIN + "ewew", seat="east"),
     h(PLAIN + "ewew")),
]

BONUS_HB = [
    ("flower or season", h(PLAIN + "nwnw 1f"), h(PLAIN + "nwnw")),
    ("all four flowers", h(PLAIN + "nwnw 1f2f3f4f"), h(PLAIN + "nwnw 1f2f3f")),
    ("all four seasons", h(PLAIN + "nwnw 1s2s3s4s"), h(PLAIN + "nwnw 1s2s4s")),
    ("own flower", h(PLAIN + "nwnw 2f"), h(PLAIN + "nwnw 3f")),
    ("own season", h(PLAIN + "nwnw 2s"), h(PLAIN + "nwnw 1s")),
]

HUA_BAO = [
    *SET_POINTS, *HUA_BAO_PAIRS, *BONUS_HB,
    ("going Mahjong", h(PLAIN + "nwnw"), h(PLAIN + "nw", won=None)),
    ("going Mahjong by robbing a kong", h(PLAIN + "nwnw", won="robbed_kong", tile="4d"),
     h(PLAIN + "nwnw", won="discard", tile="4d")),
    ("one suit plus honours", h("1b2b3b 4b5b6b 7b7b7b ewewew 9b9b"),
     h("1b2b3b 4b5b6b 7b7b7b 1c2c3c 9b9b")),
    ("one suit only", h("1b2b3b 4b5b6b 7b7b7b 2b3b4b 9b9b"),
     h("1b2b3b 4b5b6b 7b7b7b 2b3b4b ewew")),
]

SWEDISH = [
    *SET_POINTS, *HUA_BAO_PAIRS,
    ("flower or season", h(PLAIN + "nwnw 1s"), h(PLAIN + "nwnw")),
    ("own flower", h(PLAIN + "nwnw 2f"), h(PLAIN + "nwnw 3f")),
    ("own season", h(PLAIN + "nwnw 2s"), h(PLAIN + "nwnw 1s")),
    ("all four flowers", h(PLAIN + "nwnw 1f2f3f4f"), h(PLAIN + "nwnw 1f2f3f")),
    ("all four seasons", h(PLAIN + "nwnw 1s2s3s4s"), h(PLAIN + "nwnw 1s2s4s")),
    ("going Mahjong", h(PLAIN + "nwnw"), h(PLAIN + "nw", won=None)),
    ("worthless hand", h(PLAIN + "5d5d", tile="4d"), h(PLAIN + "rdrd", tile="4d")),
    ("robbing a kong", h(PLAIN + "nwnw", won="robbed_kong", tile="4d"),
     h(PLAIN + "nwnw", won="discard", tile="4d")),
    ("the winning tile completes a chow", h(PLAIN + "nwnw", tile="4d"), h(PLAIN + "nwnw")),
    ("fully concealed hand", h(PLAIN + "nwnw", won="discard"),
     h("[1b2b3b] 4b5b6b 7c8c9c 2d3d4d nwnw", won="discard")),
    ("winning tile from the live wall", h(PLAIN + "nwnw"), h(PLAIN + "nwnw", won="replacement")),
    ("winning tile from the dead wall", h(PLAIN + "nwnw", won="replacement"), h(PLAIN + "nwnw")),
    ("only one tile type could complete the hand", h(PLAIN + "nwnw"),
     h(PLAIN + "nwnw", tile="2d")),
    ("seven pairs", h("1b1b 3b3b 5c5c 7c7c 9d9d ewew rdrd"), h(PLAIN + "nwnw")),
    ("concealed hand, winning tile from the wall", h(PLAIN + "nwnw"),
     h(PLAIN + "nwnw", won="discard")),
    ("no terminals or honours", h("2b3b4b 5b6b7b 3c4c5c 6d7d8d 5d5d"),
     h("2b3b4b 5b6b7b 3c4c5c 6d7d8d 9d9d")),
    ("a terminal or honour in every set and in the pair", h("1b2b3b 7b8b9b 1c1c1c 9d9d9d ewew"),
     h("1b2b3b 6b7b8b 1c1c1c 9d9d9d ewew")),
    ("worthless hand, waiting on two tile types", h(PLAIN + "5d5d", tile="4d"),
     h("1b2b3b 4b5b6b 7c8c9c 2d3d4d 5d5d", tile="3d")),
    ("only pungs/kongs, no chow", h("1b1b1b 5c5c5c 7d7d7d 9c9c9c 3b3b"),
     h("1b1b1b 5c5c5c 7d7d7d 7c8c9c 3b3b")),
    ("only terminals and honours", h("1b1b1b 9c9c9c ewewew rdrdrd 9d9d"),
     h("1b1b1b 9c9c9c ewewew rdrdrd 8d8d")),
    ("one suit plus winds or dragons", h("1b2b3b 4b5b6b 7b7b7b ewewew 9b9b"),
     h("1b2b3b 4b5b6b 7b7b7b ewewew 9c9c")),
    ("one suit only", h("1b2b3b 4b5b6b 7b7b7b 2b3b4b 9b9b"),
     h("1b2b3b 4b5b6b 7b7b7b 2b3b4b ewew")),
    ("winning as dealer", h(PLAIN + "nwnw", seat="east"), h(PLAIN + "nwnw")),
    ("winning on a replacement tile", h(PLAIN + "nwnw", won="replacement"), h(PLAIN + "nwnw")),
    ("winning on the last tile of the live wall", h(PLAIN + "nwnw", last_tile=True),
     h(PLAIN + "nwnw", last_tile=True, won="discard")),
    ("the same chow in all three suits", h("2b3b4b 2c3c4c 2d3d4d 5b5b5b 9c9c"),
     h("2b3b4b 2c3c4c 3d4d5d 5b5b5b 9c9c")),
    ("1-2-3, 4-5-6 and 7-8-9 of one suit", h("1b2b3b 4b5b6b 7b8b9b 5c5c5c 9d9d"),
     h("1b2b3b 4b5b6b 7c8c9c 5c5c5c 9d9d")),
    ("three concealed pungs/kongs", h("1b1b1b 5c5c5c 7d7d7d 2c3c4c 9d9d", tile="4c"),
     h("1b1b1b 5c5c5c 7d7d7d 2c3c4c 9d9d", tile="7d", won="discard")),
    ("three little dragons", h("rdrdrd gdgdgd wdwd 1b2b3b 5c6c7c"),
     h("rdrdrd gdgdgd 9d9d 1b2b3b 5c6c7c")),
]

DMJL = [
    *SET_POINTS, *PAIRS,
    ("flower", h(PLAIN + "nwnw 1f"), h(PLAIN + "nwnw 1s")),
    ("season", h(PLAIN + "nwnw 1s"), h(PLAIN + "nwnw 1f")),
    ("going Mahjong", h(PLAIN + "nwnw"), h(PLAIN + "nw", won=None)),
    ("the winning tile completes a pair of simples", h(PLAIN + "5d5d"),
     h(PLAIN + "5d5d", tile="4d")),
    ("the winning tile completes a pair of terminals or honours", h(PLAIN + "nwnw"),
     h(PLAIN + "nwnw", tile="4d")),
    ("the winning tile was the only possible tile", h(PLAIN + "nwnw"),
     h(PLAIN + "nwnw", tile="2d")),
    ("winning tile drawn", h(PLAIN + "nwnw", won="replacement"), h(PLAIN + "nwnw", won="discard")),
    ("own flower and own season", h(PLAIN + "nwnw 2f2s"), h(PLAIN + "nwnw 2f3s")),
    ("all four flowers", h(PLAIN + "nwnw 1f2f3f4f"), h(PLAIN + "nwnw 1f2f3f")),
    ("all four seasons", h(PLAIN + "nwnw 1s2s3s4s"), h(PLAIN + "nwnw 1s2s4s")),
    ("three concealed pungs/kongs", h("1b1b1b 5c5c5c 7d7d7d 2c3c4c 9d9d", tile="4c"),
     h("1b1b1b 5c5c5c 7d7d7d 2c3c4c 9d9d", tile="7d", won="discard")),
    ("little three dragons", h("rdrdrd gdgdgd wdwd 1b2b3b 5c6c7c"),
     h("rdrdrd gdgdgd 9d9d 1b2b3b 5c6c7c")),
    ("big three dragons", h("[rdrdrd] gdgdgd wdwdwd 1b2b3b 9d9d"),
     h("[rdrdrd] gdgdgd wdwd 1b2b3b 9d9d9d")),
    ("little four joys", h("[ewewew] swswsw wwwwww nwnw 1b2b3b"),
     h("[ewewew] swswsw wwwwww 9d9d 1b2b3b")),
    ("big four joys", h("ewewew swswsw wwwwww [nwnwnw] 1b1b"),
     h("ewewew swswsw wwwwww nwnw 1b1b1b")),
    ("zero-point hand", h(PLAIN + "5d5d", tile="4d"), h(PLAIN + "rdrd", tile="4d")),
    ("no chow", h("1b1b1b 5c5c5c 7d7d7d 9c9c9c 3b3b"), h("1b1b1b 5c5c5c 7d7d7d 7c8c9c 3b3b")),
    ("only concealed sets", h(PLAIN + "nwnw"), h(PLAIN + "nwnw", won="discard")),
    ("one suit plus honours", h("1b2b3b 4b5b6b 7b7b7b ewewew 9b9b"),
     h("1b2b3b 4b5b6b 7b7b7b ewewew 9c9c")),
    ("one suit only", h("[1b2b3b] 4b5b6b 7b7b7b 2b3b4b 9b9b"),
     h("[1b2b3b] 4b5b6b 7b7b7b 2b3b4b ewew")),
    ("only terminals and honours", h("1b1b1b 9c9c9c ewewew rdrdrd 9d9d"),
     h("1b1b1b 9c9c9c ewewew rdrdrd 8d8d")),
    ("winning tile from the dead wall", h(PLAIN + "nwnw", won="replacement"), h(PLAIN + "nwnw")),
    ("winning tile is the last tile of the live wall", h(PLAIN + "nwnw", last_tile=True),
     h(PLAIN + "nwnw")),
    ("winning on the discard of the last tile of the live wall",
     h(PLAIN + "nwnw", won="discard", last_tile=True), h(PLAIN + "nwnw", won="discard")),
    ("robbing a kong", h(PLAIN + "nwnw", won="robbed_kong", tile="4d"),
     h(PLAIN + "nwnw", won="discard", tile="4d")),
    ("Mahjong with original call", h(PLAIN + "nwnw", flags=["original_call"]), h(PLAIN + "nwnw")),
]

# bmja: at most one chow in a complete hand, so its own hands (one chow each).
ONE = "2c2c2c 6c6c6c 5b5b5b 2d3d4d "
BMJA = [
    ("exposed pung of simples", h("[5b5b5b] 1c1c1c 7c7c7c 2d3d4d nwnw"),
     h("[1b1b1b] 2c2c2c 7c7c7c 2d3d4d nwnw")),
    ("concealed pung of simples", h("5b5b5b 1c1c1c 9c9c9c 2d3d4d nwnw"),
     h("5b5b5b 1c1c1c 9c9c9c 2d3d4d nwnw", tile="5b", won="discard")),
    ("exposed pung of terminals or honours", h("[9c9c9c] 2b2b2b 5b5b5b 2d3d4d nwnw"),
     h("[8c8c8c] 2b2b2b 5b5b5b 2d3d4d nwnw")),
    ("concealed pung of terminals or honours", h("9c9c9c 2b2b2b 5b5b5b 2d3d4d nwnw"),
     h("9c9c9c 2b2b2b 5b5b5b 2d3d4d nwnw", tile="9c", won="discard")),
    ("exposed kong of simples", h("[5b5b5b5b] " + ONE[:14] + "2d3d4d nwnw"),
     h("{5b5b5b5b} " + ONE[:14] + "2d3d4d nwnw")),
    ("concealed kong of simples", h("{5b5b5b5b} " + ONE[:14] + "2d3d4d nwnw"),
     h("[5b5b5b5b] " + ONE[:14] + "2d3d4d nwnw")),
    ("exposed kong of terminals or honours", h("[1b1b1b1b] " + ONE[:14] + "2d3d4d nwnw"),
     h("[2b2b2b2b] " + ONE[:14] + "2d3d4d nwnw")),
    ("concealed kong of terminals or honours", h("{ewewewew} " + ONE[:14] + "2d3d4d nwnw"),
     h("[ewewewew] " + ONE[:14] + "2d3d4d nwnw")),
    ("pung of dragons", h("gdgdgd " + ONE[:14] + "2d3d4d 5b5b"),
     h("gdgd " + ONE[:14] + "2d3d4d 5b5b5b")),
    ("pung of own wind", h("swswsw " + ONE[:14] + "2d3d4d 5b5b"),
     h("swswsw " + ONE[:14] + "2d3d4d 5b5b", seat="west")),
    ("pung of the prevailing wind", h("ewewew " + ONE[:14] + "2d3d4d 5b5b"),
     h("ewewew " + ONE[:14] + "2d3d4d 5b5b", prevailing="south", seat="west")),
    ("pair of dragons", h(ONE + "rdrd"), h(ONE + "5c5c")),
    ("pair of own wind", h(ONE + "swsw"), h(ONE + "wwww")),
    ("pair of the prevailing wind", h(ONE + "ewew"), h(ONE + "nwnw")),
    ("flower", h(ONE + "nwnw 1f"), h(ONE + "nwnw 1s")),
    ("season", h(ONE + "nwnw 1s"), h(ONE + "nwnw 1f")),
    ("going Mahjong", h(ONE + "nwnw"), h(ONE + "nw", won=None)),
    ("winning tile drawn", h(ONE + "nwnw", won="replacement"), h(ONE + "nwnw", won="discard")),
    ("own flower", h(ONE + "nwnw 2f"), h(ONE + "nwnw 3f")),
    ("own season", h(ONE + "nwnw 2s"), h(ONE + "nwnw 1s")),
    ("all four flowers", h(ONE + "nwnw 1f2f3f4f"), h(ONE + "nwnw 1f2f3f")),
    ("all four seasons", h(ONE + "nwnw 1s2s3s4s"), h(ONE + "nwnw 1s2s4s")),
    ("no chow", h("1b1b1b 5c5c5c 7d7d7d 9c9c9c 3b3b"), h("1b1b1b 5c5c5c 7d7d7d 7c8c9c 3b3b")),
    ("only concealed sets", h(ONE + "nwnw"), h(ONE + "nwnw", won="discard")),
    ("purity", h("[1b1b1b] 3b3b3b 5b5b5b 7b7b7b 9b9b"),
     h("[1b1b1b] 3b3b3b 5b5b5b 7b7b7b ewew")),
    ("only terminals and honours", h("1b1b1b 9c9c9c ewewew rdrdrd 9d9d"),
     h("1b1b1b 9c9c9c ewewew rdrdrd 8d8d")),
    ("winning tile is the last tile of the live wall", h(ONE + "nwnw", last_tile=True),
     h(ONE + "nwnw")),
    ("winning on the discard of the last tile of the live wall",
     h(ONE + "nwnw", won="discard", last_tile=True), h(ONE + "nwnw", won="discard")),
    ("robbing a kong", h(ONE + "nwnw", won="robbed_kong", tile="4d"),
     h(ONE + "nwnw", won="discard", tile="4d")),
    ("original call", h(ONE + "nwnw", flags=["original_call"]), h(ONE + "nwnw")),
]

CASES = [
    pytest.param(rs, item, yes, no, id=f"{rs}: {item}")
    for rs, table in (("hua-bao", HUA_BAO), ("swedish", SWEDISH), ("dmjl", DMJL),
                      ("bmja", BMJA))
    for item, yes, no in table
]


@pytest.mark.parametrize(("ruleset", "item", "applies", "fails"), CASES)
def test_item(ruleset: str, item: str, applies: H, fails: H) -> None:
    text, kw = applies
    scored = play(ruleset, text, **kw)
    assert item in names(scored), f"{item} should apply to {text} {kw}"
    assert_book_value(ruleset, item, scored)
    text, kw = fails
    assert item not in names(play(ruleset, text, **kw)), f"{item} should not apply to {text} {kw}"


@pytest.mark.parametrize("ruleset,item", [
    ("swedish", "only one tile type could complete the hand"),
    ("dmjl", "the winning tile was the only possible tile"),
])
def test_a_wait_on_the_kind_the_winning_tile_makes_four_of_still_counts(
    ruleset: str, item: str
) -> None:
    """Before the win the rack 5b5b6b7b waited on 5b and on 8b, with a third 5b in a meld: the
    fourth 5b was still to be had, so it was a wait, and the winner who draws it did not wait on
    one tile type only. (Counting the winning tile as already held made it look single.)"""
    melds = "[2b3b4b] [4b5b6b] [gdgdgd] "
    assert item not in names(play(ruleset, melds + "5b5b6b7b 5b", tile="5b"))
    # the same rack without the meld's 5b: 5b and 8b still, no item either
    assert item not in names(play(ruleset, "[2b3b4b] [7c8c9c] [gdgdgd] 5b5b6b7b 5b", tile="5b"))
    # and where the 13 tiles held the fourth copy of the other end, one kind was left
    assert item in names(play(ruleset, "[8b8b8b8b] [7c8c9c] [gdgdgd] 5b5b6b7b 5b", tile="5b"))


def test_a_gated_per_group_item_is_refused_when_the_rule_set_is_made() -> None:
    """Per-group answers are kept per group and winds, whatever the situation; a gate on one
    would make that wrong, so such a rule table is refused with its rule named."""
    from dataclasses import replace

    from controller.scoring import get_ruleset
    from controller.scoring import patterns as p
    from controller.scoring.rules import Rule

    base = get_ruleset("hua-bao")
    gated_group = Rule("pung on the last tile", p.gated(
        lambda s: s.last_tile, p.sets_if(lambda v, g: g.kind == "pung")), points=2)
    with pytest.raises(ValueError, match="'pung on the last tile' of hua-bao: a per-group item"):
        replace(base.spec, rules=(*base.spec.rules, gated_group))


def test_a_dmjl_non_winners_concealed_pairs_all_score() -> None:
    """RULES.md section 8 (settled), Kajongg's value: west, prevailing north, holding
    ``ew ew 1d 1d 9b 9b gd gd rd rd sw ww ww`` scores the gd, rd and ww pairs: 6."""
    hand = "ewew 1d1d 9b9b gdgd rdrd sw wwww"
    r = play("dmjl", hand, won=None, seat="west", prevailing="north")
    assert r.score == 6 and r.points == 6
    assert sorted(i.tiles for i in r.items) == [("gd", "gd"), ("rd", "rd"), ("ww", "ww")]
    assert sorted(r.leftover) == ["sw"]  # every other tile sits in a pair
    # the other rule sets keep one pair for a non-winner (RULES.md section 5)
    assert play("hua-bao", hand, won=None, seat="west", prevailing="north").score == 2
    # the winner's hand has exactly one pair, as everywhere
    with pytest.raises(ScoringError, match="not complete"):
        play("dmjl", "ewew 1d1d 9b9b gdgd rdrd swsw wwww", seat="west")
