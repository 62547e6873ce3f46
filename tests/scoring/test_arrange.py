"""Arrangements, waits and completeness over tile counts."""

from __future__ import annotations

import pytest
from scoring_helpers import play

from controller.scoring import arrangements, get_ruleset, is_complete, waits
from controller.tiles import Meld, parse_hand, parse_tiles

HB = get_ruleset("hua-bao")
SW = get_ruleset("swedish")


def test_ambiguous_run_has_both_arrangements() -> None:
    tiles = parse_tiles("1b1b1b2b2b2b3b3b3b 5c5c5c ewew")
    shapes = {tuple(sorted(tuple(g.tiles) for g in groups)) for groups, _ in
              arrangements(tiles, [], HB)}
    assert (("1b", "1b", "1b"), ("2b", "2b", "2b"), ("3b", "3b", "3b"), ("5c", "5c", "5c"),
            ("ew", "ew")) in shapes
    assert (("1b", "2b", "3b"),) * 3 + (("5c", "5c", "5c"), ("ew", "ew")) in shapes
    assert len(shapes) == 2


def test_seven_pairs_is_an_arrangement_only_where_the_rule_set_has_it() -> None:
    tiles = parse_tiles("2b2b3b3b4b4b 5c5c6c6c7c7c 9d9d")
    specials = {s for _, s in arrangements(tiles, [], SW)}
    assert specials == {None, "seven_pairs"}
    assert {s for _, s in arrangements(tiles, [], HB)} == {None}


def test_melds_stay_fixed_and_first() -> None:
    h = parse_hand("[5b5b5b] {ewewewew} 1c2c3c 4c5c6c gdgd")
    (groups, _), = arrangements(h.concealed, h.melds, HB)
    assert [g.tiles for g in groups[:2]] == [("5b",) * 3, ("ew",) * 4]
    assert groups[1].concealed and not groups[0].concealed


@pytest.mark.parametrize(("text", "expected"), [
    ("1b2b3b 4b5b6b 7c8c9c 2d3d nwnw", ["1d", "4d"]),
    ("1b2b3b 4b5b6b 7c8c9c 2d4d nwnw", ["3d"]),
    ("1b1b1b 5c5c5c 9d9d9d ewewew rd", ["rd"]),
    ("1b1b1b 5c5c5c 9d9d9d ewew rdrd", ["ew", "rd"]),
    ("1b1b1b2b3b4b5b6b7b8b9b9b9b", [f"{n}b" for n in range(1, 10)]),
    ("1b2b3b 4b5b6b 7c8c9c 2d3d4d 5d", ["2d", "5d"]),
])
def test_waits(text: str, expected: list[str]) -> None:
    assert waits(parse_tiles(text), [], HB) == expected


def test_a_kind_held_four_times_is_no_wait() -> None:
    # 1b would pair the single 1b, but all four 1b are in the hand already
    assert waits(parse_tiles("1b1b1b1b 2b3b4b 5c5c5c 9d9d9d"), [], HB) == ["4b"]
    # counting the melds too
    h = parse_hand("[1b1b1b] 1b2b3b4b 5c5c5c 9d9d9d")
    assert waits(h.concealed, h.melds, HB) == ["4b"]
    h = parse_hand("[5c5c5c] 5c6c 1b2b3b 4b5b6b 9d9d")
    assert waits(h.concealed, h.melds, HB) == ["4c", "7c"]


def test_special_waits() -> None:
    assert waits(parse_tiles("1b1b 3b3b 5c5c 7c7c 9d9d ewew rd"), [], SW) == ["rd"]
    orphans = parse_tiles("1b9b1c9c1d9dewswwwnwrdgdwd")
    assert len(waits(orphans, [], HB)) == 13
    assert waits(orphans, [], SW) == []


def test_is_complete() -> None:
    assert is_complete(parse_tiles("1b2b3b 4b5b6b 7c8c9c 2d3d4d nwnw"), [], HB)
    assert not is_complete(parse_tiles("1b2b3b 4b5b6b 7c8c9c 2d3d4d nwrd"), [], HB)
    assert not is_complete(parse_tiles("1b2b3b 4b5b6b 7c8c9c 2d3d4d nw"), [], HB)
    h = parse_hand("{5b5b5b5b} 1b2b3b 4b5b6b 7c8c9c nwnw")
    assert is_complete(h.concealed, h.melds, HB)
    assert is_complete(h.concealed, [Meld(("5b",) * 3)], HB)  # a pung counts like a kong
    assert not is_complete(h.concealed, [], HB)


def test_winning_tile_choice_decides_the_exposed_set() -> None:
    # 5b could complete the pung (then exposed after a discard) or the 3b4b5b chow
    r = play("hua-bao", "5b5b5b 3b4b5b 7c8c9c 2d3d4d nwnw", won="discard", tile="5b")
    assert "concealed pung of simples" in [i.name for i in r.items]
    # in swedish the chow choice also earns "the winning tile completes a chow"
    r = play("swedish", "5b5b5b 3b4b5b 7c8c9c 2d3d4d nwnw", won="discard", tile="5b")
    assert "the winning tile completes a chow" in [i.name for i in r.items]


def test_equal_scores_report_more_base_points() -> None:
    # 1b1b1b2b2b2b3b3b3b: three pungs (128) or three chows (64); with the limit at 50 both
    # score 50, and the pungs have more base points
    r = play("hua-bao", "[rdrdrd] 1b1b1b2b2b2b3b3b3b wdwd", options={"limit": 50})
    assert r.score == 50 and r.points == 32
    assert ["1b", "1b", "1b"] in r.arrangement


def test_non_winner_scores_best_partial_arrangement_with_leftovers() -> None:
    r = play("hua-bao", "[gdgdgd] 1b1b1b2b2b2b3b3b 9c", won=None)
    assert ["1b", "1b", "1b"] in r.arrangement and ["2b", "2b", "2b"] in r.arrangement
    assert sorted(r.leftover) == ["9c"]
    assert r.points == 4 + 8 + 4  # exposed dragon pung, concealed pungs of 1b and 2b


def test_a_loser_whose_sets_score_nothing_still_shows_them() -> None:
    r = play("hua-bao", "1b2b3b4b5b6b7b8b9b1b2b3b4b", won=None)
    assert r.score == 0
    assert len(r.leftover) == 1 and len(r.arrangement) == 4
