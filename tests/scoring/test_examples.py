"""The worked examples of RULES.md section 9, verbatim."""

from __future__ import annotations

from scoring_helpers import names, play

from controller.scoring import get_ruleset, settle


def test_example_a_score() -> None:
    r = play("hua-bao", "[5b5b5b] [4d5d6d] gdgdgd 1c2c3c ewew", won="wall", tile="3c",
             seat="south", prevailing="east", options={"mahjong_bonus": 10, "limit": 500})
    assert (r.points, r.doubles, r.score) == (22, 1, 44)
    by_name = {i.name: i for i in r.items}
    assert by_name["exposed pung of simples"].points == 2
    assert by_name["concealed pung of terminals or honours"].points == 8
    assert by_name["pair of the prevailing wind"].points == 2
    assert by_name["going Mahjong"].points == 10
    assert by_name["pung of dragons"].doubles == 1
    assert r.arrangement == [["5b", "5b", "5b"], ["4d", "5d", "6d"], ["gd", "gd", "gd"],
                             ["1c", "2c", "3c"], ["ew", "ew"]]
    assert "one suit plus honours" not in names(r)


def test_example_a_settlement() -> None:
    s = settle(get_ruleset("hua-bao"), "east", "south",
               {"east": 0, "south": 44, "west": 8, "north": 20})
    assert ("east", "south", 88) in s.payments
    assert ("west", "south", 44) in s.payments and ("north", "south", 44) in s.payments
    assert ("west", "north", 12) in s.payments and ("east", "north", 40) in s.payments
    assert ("east", "west", 16) in s.payments
    assert s.net == {"south": 176, "north": 8, "west": -40, "east": -144}
    assert sum(s.net.values()) == 0


def test_example_b() -> None:
    r = play("swedish", "[8b8b8b] [gdgdgd] {wwwwwwww} swswsw 2c2c 3s", won="wall", tile="sw",
             seat="west", prevailing="south")
    assert r.points == 72
    assert r.doubles == 6
    assert r.score == 3000
    assert r.limit_hand is None  # over the limit, not a limit hand
    by_name = {i.name: i for i in r.items}
    assert by_name["concealed pung of terminals or honours"].tiles == ("sw", "sw", "sw")
    assert by_name["only pungs/kongs, no chow"].doubles == 2
    assert by_name["winning tile from the live wall"].points == 2
    assert by_name["own season"].tiles == ("3s",)


def test_example_c() -> None:
    s = settle(get_ruleset("swedish"), "east", "east",
               {"east": 64, "south": 8, "west": 0, "north": 8})
    assert s.net == {"east": 300, "south": -100, "west": -100, "north": -100}
    assert sorted(s.payments) == [("north", "east", 100), ("south", "east", 100),
                                  ("west", "east", 100)]


def test_section_6_east_wins_with_100_each_loser_pays_200() -> None:
    s = settle(get_ruleset("hua-bao"), "east", "east",
               {"east": 100, "south": 0, "west": 0, "north": 0})
    assert sorted(s.payments) == [("north", "east", 200), ("south", "east", 200),
                                  ("west", "east", 200)]


def test_section_6_both_own_bonus_tiles_give_2_all_eight_give_4() -> None:
    """South's own tiles are flower 2f and season 2s (bonus tile N belongs to wind N)."""
    plain = "1b2b3b 4b5b6b 7c8c9c 2d3d4d nwnw "
    own = play("hua-bao", plain + "2f2s")
    assert own.doubles == 2
    eight = play("hua-bao", plain + "1f2f3f4f1s2s3s4s")
    assert eight.doubles == 4


def test_section_6_nine_gates_by_the_fourteen_tiles() -> None:
    """``1X 1X 1X 1X 2X ... 8X 9X 9X 9X`` won on a 9X is nine gates, although the 13 tiles
    before the win were not the gates shape."""
    r = play("hua-bao", "1b1b1b1b2b3b4b5b6b7b8b9b9b 9b")
    assert r.limit_hand == "nine_gates" and r.score == 500
