"""Limit hands: each applies and just fails; the limit_hands option; limits for every player."""

from __future__ import annotations

from typing import Any

import pytest
from rule_book import LIMIT, assert_book_value, limit_value
from scoring_helpers import names, play

from controller.scoring import ScoringError, get_ruleset, is_complete
from controller.tiles import parse_hand

H = tuple[str, dict[str, Any]]


def h(text: str, **kw: Any) -> H:
    return text, kw


NINE_GATES = "1b1b1b2b3b4b6b7b8b9b9b9b5b 5b"
ORPHANS = "1b9b1c9c1d9dewswwwnwrdgdwd 1b"
COMMON = [
    ("all_honours", h("ewewew swswsw rdrdrd gdgdgd wdwd"), h("ewewew swswsw rdrdrd 1b1b1b wdwd")),
    ("heavenly_hand", h("1b2b3b 4b5b6b 7c8c9c 2d3d4d nwnw", seat="east", won="dealt"),
     h("1b2b3b 4b5b6b 7c8c9c 2d3d4d nwnw", seat="east", won="wall")),
    ("nine_gates", h(NINE_GATES), h("[2b3b4b] 1b1b1b 5b6b7b 8b9b9b9b 5b")),
    ("four_blessings", h("[ewewew] swswsw wwwwww nwnwnw 1b1b"),
     h("[ewewew] swswsw wwwwww nwnw 1b1b1b")),
    ("three_great_scholars", h("rdrdrd gdgdgd wdwdwd 1b2b3b 5c5c"),
     h("rdrdrd gdgdgd wdwd 1b2b3b 5c5c5c")),
    ("imperial_jade", h("2b3b4b 2b3b4b 6b6b6b 8b8b8b gdgd"), h("2b3b4b 2b3b4b 6b6b6b 8b8b8b rdrd")),
    ("thirteen_orphans", h(ORPHANS), h("1b1b1b 9b9b9b 1c1c1c 9c9c9c ewew")),
]
HUA_BAO = [
    *COMMON,
    ("earthly_hand", h("1b2b3b 4b5b6b 7c8c9c 3d4d5d nwnw", won="discard", first_discard=True),
     h("1b2b3b 4b5b6b 7c8c9c 3d4d5d nwnw", won="discard")),
    ("four_kongs", h("[1b1b1b1b] [2c2c2c2c] [3d3d3d3d] {ewewewew} 5b5b"),
     h("[1b1b1b1b] [2c2c2c2c] [3d3d3d3d] ewewew 5b5b")),
    ("writhing_snake", h("1b1b1b 2b3b4b 5b6b7b 8b8b 9b9b9b"),
     h("1b1b1b 2b3b4b 5b6b7b 7b7b 9b9b9b")),
    ("cornerstone", h("1b1b1b 9b9b9b 1c1c1c 9c9c9c 1d1d"), h("1b1b1b 9b9b9b 1c1c1c 9c9c9c ewew")),
]
DMJL = [
    *COMMON,
    ("fourfold_plenty", h("[1b1b1b1b] [2c2c2c2c] [3d3d3d3d] {ewewewew} 5b5b"),
     h("[1b1b1b1b] [2c2c2c2c] [3d3d3d3d] ewewew 5b5b")),
    ("squirming_snake", h("1b1b1b 2b3b4b 5b6b7b 8b8b 9b9b9b", won="discard"),
     h("1b1b1b 2b3b4b 5b6b7b 7b7b 9b9b9b", won="discard")),
    ("heads_and_tails", h("[1b1b1b] 9b9b9b 1c1c1c 9c9c9c 1d1d"),
     h("[1b1b1b] 9b9b9b 1c1c1c 9c9c9c ewew")),
    ("one_suit_concealed", h("1b2b3b 4b5b6b 7b7b7b 2b3b4b 9b9b"),
     h("1b2b3b 4b5b6b 7b7b7b 2b3b4b 9b9b", won="discard")),
    ("hidden_treasure", h("1b1b1b 5c5c5c 7d7d7d 2c2c2c 9d9d"),
     h("1b1b1b 5c5c5c 7d7d7d 2c2c2c 9d9d", won="discard", tile="2c")),
    ("plum_blossom", h("1b2b3b 4b5b6b 7c8c9c 3d4d5d nwnw", won="replacement", tile="5d"),
     h("1b2b3b 4b5b6b 7c8c9c 3d4d5d nwnw", won="wall", tile="5d")),
    ("moon_from_the_sea", h("1d2d3d 4b5b6b 7c8c9c 3d4d5d nwnw", tile="1d", last_tile=True),
     h("1d2d3d 4b5b6b 7c8c9c 3d4d5d nwnw", tile="1d")),
    ("scratching_pole", h("2b3b4b 4b5b6b 7c8c9c 3d4d5d nwnw", won="robbed_kong", tile="2b"),
     h("2b3b4b 4b5b6b 7c8c9c 3d4d5d nwnw", won="discard", tile="2b")),
    ("twofold_fortune", h("1b2b3b 4b5b6b 7c8c9c 3d4d5d nwnw", won="replacement",
                          flags=["twofold_fortune"]),
     h("1b2b3b 4b5b6b 7c8c9c 3d4d5d nwnw", won="replacement")),
    ("earthly_hand", h("1b2b3b 4b5b6b 7c8c9c 3d4d5d nwnw", won="discard", first_discard=True),
     h("1b2b3b 4b5b6b 7c8c9c 3d4d5d nwnw", won="discard")),
]
SWEDISH = [
    ("all_honours", h("ewewew swswsw rdrdrd gdgdgd wdwd"), h("ewewew swswsw rdrdrd 1b1b1b wdwd")),
    ("four_concealed_pungs", h("1b1b1b 5c5c5c 7d7d7d 2c2c2c 9d9d"),
     h("1b1b1b 5c5c5c 7d7d7d 2c2c2c 9d9d", won="discard", tile="2c")),
    ("three_great_dragons", h("[rdrdrd] gdgdgd wdwdwd 1b2b3b 9d9d"),
     h("[rdrdrd] gdgdgd wdwd 1b2b3b 9d9d9d")),
    ("four_winds", h("[ewewew] swswsw wwwwww nwnwnw 1b1b"),
     h("[ewewew] swswsw wwwwww nwnw 1b1b1b")),
    ("all_eight_bonus", h("1b2b3b 4b5b6b 7c8c9c 3d4d5d nwnw 1f2f3f4f1s2s3s4s"),
     h("1b2b3b 4b5b6b 7c8c9c 3d4d5d nwnw 1f2f3f4f1s2s3s")),
]
CASES = [
    pytest.param(rs, key, yes, no, id=f"{rs}: {key}")
    for rs, table in (("hua-bao", HUA_BAO), ("dmjl", DMJL), ("swedish", SWEDISH))
    for key, yes, no in table
]


@pytest.mark.parametrize(("ruleset", "key", "applies", "fails"), CASES)
def test_limit_hand(ruleset: str, key: str, applies: H, fails: H) -> None:
    text, kw = applies
    r = play(ruleset, text, **kw)
    keys = {rule.name: rule.key for rule in get_ruleset(ruleset).rules}
    (name,) = [i.name for i in r.items if i.limit and keys[i.name] == key]
    # the value from the rule book (tests/scoring/rule_book.py), not from the rule table
    value = limit_value(ruleset, name)  # hua-bao's earthly hand: 0.5
    assert_book_value(ruleset, name, r)
    assert r.limit_hand is not None and r.score == round(LIMIT[ruleset] * value)
    try:
        r = play(ruleset, fails[0], **fails[1])
    except ScoringError:  # e.g. a hand that is only complete as the limit hand
        return
    assert r.limit_hand != key


def test_thirteen_orphans_is_no_special_hand_in_swedish() -> None:
    h = parse_hand(ORPHANS)
    assert is_complete(h.concealed, [], get_ruleset("hua-bao"))
    assert not is_complete(h.concealed, [], get_ruleset("swedish"))


def test_limit_hands_option_switches_off_and_scales() -> None:
    # the same tiles are also a writhing snake (111 234 55 678 999): switch both off
    off = play("hua-bao", NINE_GATES,
               options={"limit_hands": {"nine_gates": 0, "writhing_snake": 0}})
    assert off.limit_hand is None and off.score < 500
    half = play("hua-bao", NINE_GATES,
                options={"limit_hands": {"nine_gates": 0.5, "writhing_snake": 0}})
    assert half.limit_hand == "nine_gates" and half.score == 250


def test_limit_hands_option_rejects_unknown_name() -> None:
    with pytest.raises(ScoringError, match="nine_lanterns"):
        get_ruleset("hua-bao", {"limit_hands": {"nine_lanterns": 0}})


def test_earthly_hand_in_hua_bao_is_half_the_limit_or_the_ordinary_score() -> None:
    plain = play("hua-bao", "1b2b3b 4b5b6b 7c8c9c 3d4d5d nwnw", won="discard", first_discard=True)
    assert plain.limit_hand == "earthly_hand" and plain.score == 250
    big = play("hua-bao", "[rdrdrd] gdgdgd 9b9b9b 1b1b1b wdwd", won="discard", tile="wd",
               first_discard=True)
    assert big.score > 250 and big.limit_hand is None


def test_a_loser_with_an_every_player_limit_item_scores_the_limit() -> None:
    r = play("swedish", "[ewewew] [swswsw] [wwwwww] nwnwnw 1b", won=None)
    assert r.limit_hand == "four_winds" and r.score == 3000
    hb = play("hua-bao", "[ewewew] [swswsw] [wwwwww] nwnwnw 1b", won=None)
    assert hb.limit_hand is None  # hua-bao's four blessings is the winner's only


def test_limit_caps_ordinary_scores_and_roof_off_lifts_it() -> None:
    hand = "[rdrdrd] [gdgdgd] 9b9b9b 1b1b1b wdwd"
    assert play("dmjl", hand).score == 500
    assert play("dmjl", hand, options={"roof_off": True}).score > 500
    assert play("hua-bao", hand).score == 36 * 2**3
    assert play("hua-bao", hand, options={"limit": 250}).score == 250


@pytest.mark.parametrize("ruleset", ["hua-bao", "dmjl"])
@pytest.mark.parametrize("won", ["wall", "discard"])
def test_nine_gates_counts_whichever_of_the_14_tiles_won(ruleset: str, won: str) -> None:
    """RULES.md section 6 (settled): ``1111 2345678 999`` won on a 9 is nine gates, although
    the 13 tiles before the win (``1111 2345678 99``) were not the gates shape."""
    # (dmjl: "one suit only, all concealed" is a limit too; on a wall tile it comes first)
    r = play(ruleset, "1c1c1c1c2c3c4c5c6c7c8c9c9c 9c", won=won)
    assert "nine gates" in names(r) and r.score == 500
    r = play(ruleset, "1c1c1c2c3c4c5c6c7c8c9c9c9c 1c", won=won)  # the same 14, won on the 1
    assert "nine gates" in names(r) and r.score == 500
    # one tile of the gates missing is no nine gates, whichever tile won
    assert "nine gates" not in names(play(ruleset, "1c1c1c1c2c3c4c5c6c8c8c9c9c 9c", won=won))
    # nor with a set on the table
    assert "nine gates" not in names(play(ruleset, "[1c1c1c] 1c2c3c4c5c6c7c8c9c9c 9c", won=won))
