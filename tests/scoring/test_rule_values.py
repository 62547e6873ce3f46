"""Every rule set's table against the rule book (tests/scoring/rule_book.py, typed in from
RULES.md and Kajongg), every scored item's value against the same rows, and what each option
does, with numbers written from the book (issue 29)."""

from __future__ import annotations

import pytest
from rule_book import BOOK, LIMIT, MCR_FANS, Value, item_values
from scoring_helpers import play

from controller.scoring import ScoringError, get_ruleset, settle
from controller.scoring.rules import Rule


def _value(rule: Rule) -> Value:
    if rule.limit:
        return Value("limit", rule.limit)
    if rule.doubles:
        return Value("doubles", rule.doubles)
    return Value("points", rule.points)


@pytest.mark.parametrize("ruleset", sorted(BOOK))
def test_the_rule_table_is_the_rule_books(ruleset: str) -> None:
    """Name, who scores it and value of every item, both ways: nothing missing, nothing more,
    no value changed."""
    table = sorted((r.name, "W" if r.winner_only else "E", _value(r))
                   for r in get_ruleset(ruleset).rules)
    book = sorted(BOOK[ruleset])
    missing = [row for row in book if row not in table]
    extra = [row for row in table if row not in book]
    assert (missing, extra) == ([], []), f"{ruleset}: book rows not in the code {missing}; " \
        f"code rows not in the book {extra}"


def test_the_mcr_fan_table_is_the_green_books() -> None:
    from controller.scoring.mcr.fans import FANS

    book = sorted((name, value) for value, names in MCR_FANS.items() for name in names)
    assert len(book) == 81
    assert sorted((f.name, f.value) for f in FANS) == book


# ---------------------------------------------------------------- the three mutants

def test_hua_bao_pair_of_a_wind_both_own_and_prevailing_is_4_points() -> None:
    """East in an east round: the ew pair 4 (RULES.md 6), the two chows and a pung: X = 4 +
    exposed pung of simples 2 + Mahjong 10 = 16; no doubling."""
    r = play("hua-bao", "[5b5b5b] 1c2c3c 7c8c9c 2d3d4d ewew", seat="east")
    assert item_values(r, "pair of own wind that is also the prevailing wind") == {P4}
    assert (r.points, r.doubles, r.score) == (16, 0, 16)


P4 = Value("points", 4)


def test_swedish_three_little_dragons_is_4_doublings() -> None:
    """rd pung, gd pung (concealed, 8 each), wd pair 2, two chows; won by a drawn 7c (live
    wall): X = 8 + 8 + 2 + 20 + 2 (live wall) + 10 (fully concealed) = 50; doublings: two
    dragon pungs 2, three little dragons 4, concealed hand from the wall 1 = 7: 50 * 128 =
    6400, over the limit: 3000. As a loser the same tiles: X 18, Y 6 (no winner's items)."""
    r = play("swedish", "rdrdrd gdgdgd wdwd 1b2b3b 5c6c7c")
    assert item_values(r, "three little dragons") == {Value("doubles", 4)}
    assert r.doubles == 7 and r.score == 3000
    loser = play("swedish", "rdrdrd gdgdgd wdwd 1b2b3b 5c6c", won=None)
    assert (loser.points, loser.doubles, loser.score) == (18, 6, 18 * 64)


def test_swedish_single_wait_is_4_points() -> None:
    """``1b2b3b 4b5b6b 7c8c9c 2d3d4d nw`` (south, east round) waited on nw alone; nw drawn:
    Mahjong 20, worthless hand 10 (chows and a pair worth nothing), fully concealed 10, live
    wall 2, single wait 4 = 46; concealed hand from the wall: 1 doubling, 92. The same hand
    won on 2d waited on 2d or 5d: no single wait; the tile completes a chow 10, and the
    worthless hand waited on two types, one more doubling: 52 * 4 = 208."""
    r = play("swedish", "1b2b3b 4b5b6b 7c8c9c 2d3d4d nwnw")
    assert item_values(r, "only one tile type could complete the hand") == {P4}
    assert (r.points, r.doubles, r.score) == (46, 1, 92)
    two = play("swedish", "1b2b3b 4b5b6b 7c8c9c 2d3d4d nwnw", tile="2d")
    assert (two.points, two.doubles, two.score) == (52, 2, 208)


# ---------------------------------------------------------------- options

def test_hua_bao_mahjong_bonus_option_is_the_going_mahjong_points() -> None:
    """RULES.md 6: mahjong_bonus 10 (or 20). Example A's hand: 22 points with 10, 32 with 20;
    one doubling."""
    hand = "[5b5b5b] [4d5d6d] gdgdgd 1c2c3c ewew"
    ten = play("hua-bao", hand, tile="3c")
    twenty = play("hua-bao", hand, tile="3c", options={"mahjong_bonus": 20})
    assert (ten.points, ten.score) == (22, 44)
    assert (twenty.points, twenty.score) == (32, 64)
    assert item_values(twenty, "going Mahjong") == {Value("points", 20)}


#: east, not the winner: four exposed kongs of honours (16 each) and a single wd: 64 points;
#: doublings rd 1, gd 1, ew as own wind 1 and as prevailing wind 1: 64 * 16 = 1024
KONGS = "[ewewewew] [swswswsw] [rdrdrdrd] [gdgdgdgd] wd"


@pytest.mark.parametrize("ruleset", sorted(LIMIT))
def test_the_default_limit_is_the_rule_books(ruleset: str) -> None:
    assert get_ruleset(ruleset).limit == LIMIT[ruleset]
    r = play(ruleset, KONGS, won=None, seat="east")
    assert (r.points, r.doubles) == (64, 4)
    assert r.score == min(1024, LIMIT[ruleset])


def test_a_lower_limit_caps_the_score_and_the_limit_hands() -> None:
    """hua-bao with limit 300 (RULES.md 6: "500 (or 300)"): 1024 capped at 300, thirteen
    orphans scores 300."""
    assert play("hua-bao", KONGS, won=None, seat="east", options={"limit": 300}).score == 300
    orphans = "1b9b1c9c1d9dewswwwnwrdgdwd 1b"
    assert play("hua-bao", orphans, options={"limit": 300}).score == 300
    assert play("hua-bao", orphans).score == 500
    assert play("swedish", KONGS, won=None, seat="east", options={"limit": 1000}).score == 1000


@pytest.mark.parametrize("ruleset", ["dmjl", "bmja"])
def test_roof_off_lets_an_ordinary_hand_pass_the_limit(ruleset: str) -> None:
    """RULES.md 8 (dmjl: option roof_off, no limit); Kajongg's BMJA likewise: 1024 stays 1024;
    a limit hand is still worth the limit."""
    r = play(ruleset, KONGS, won=None, seat="east", options={"roof_off": True})
    assert (r.points, r.doubles, r.score) == (64, 4, 1024)
    orphans = "1b9b1c9c1d9dewswwwnwrdgdwd 1b"
    assert play(ruleset, orphans, options={"roof_off": True}).score == LIMIT[ruleset]


def test_hua_bao_plays_without_bonus_tiles_by_default() -> None:
    """RULES.md 6: bonus_tiles default off (136 tiles): a flower is no tile of the game."""
    from controller.scoring import HandInput, score_hand
    from controller.tiles import parse_hand

    assert get_ruleset("hua-bao").bonus_tiles is False
    assert all(get_ruleset(rs).bonus_tiles for rs in ("swedish", "dmjl", "bmja", "mcr"))
    h = parse_hand("1b2b3b 4b5b6b 7c8c9c 2d3d4d nwnw 1f")
    inp = HandInput("hua-bao", "south", "east", h.melds, h.concealed, h.bonus, True, "nw",
                    "wall")
    with pytest.raises(ScoringError, match="bonus"):
        score_hand(inp)


def test_wrong_count_defaults() -> None:
    """RULES.md 4 and 7: swedish plays the strict dead hand, the others repair."""
    assert {rs: get_ruleset(rs).wrong_count for rs in ("hua-bao", "swedish", "dmjl", "bmja",
                                                       "mcr")} == {
        "hua-bao": "repair", "swedish": "dead_hand", "dmjl": "repair", "bmja": "repair",
        "mcr": "repair"}
    assert {get_ruleset(rs).mahjong_tie for rs in BOOK} == {"turn_order"}
    assert get_ruleset("swedish", {"wrong_count": "repair"}).wrong_count == "repair"
    assert get_ruleset("hua-bao", {"mahjong_tie": "highest_value"}).mahjong_tie == \
        "highest_value"


def test_the_ready_call_is_required_in_swedish_and_bmja_only() -> None:
    """RULES.md 7 (a "ready" call made beforehand); Kajongg's BMJA mustDeclareCallingHand."""
    assert {rs: get_ruleset(rs).requires_ready for rs in BOOK} == {
        "hua-bao": False, "swedish": True, "dmjl": False, "bmja": True}


@pytest.mark.parametrize(("ruleset", "east_score", "payments"), [
    # RULES.md 6/8: the winner is paid his score by each loser, east double; losers settle
    # their differences, double with east. South wins 40; east 0, west 8, north 20.
    ("hua-bao", 0, {("east", "south", 80), ("west", "south", 40), ("north", "south", 40),
                    ("west", "north", 12), ("east", "north", 40), ("east", "west", 16)}),
    ("dmjl", 0, {("east", "south", 80), ("west", "south", 40), ("north", "south", 40),
                 ("west", "north", 12), ("east", "north", 40), ("east", "west", 16)}),
])
def test_winner_paid_settlement(ruleset: str, east_score: int,
                                payments: set[tuple[str, str, int]]) -> None:
    s = settle(get_ruleset(ruleset), "east", "south",
               {"east": east_score, "south": 40, "west": 8, "north": 20})
    assert set(s.payments) == payments
    assert s.net == {"south": 160, "north": -40 + 12 + 40, "west": -40 - 12 + 16,
                     "east": -80 - 40 - 16}


def test_swedish_settlement_rounds_each_payment_half_up() -> None:
    """RULES.md 7: each pair settles the difference, doubled with the dealer, rounded to the
    nearest 100, half up. South (not dealer) 150, the others 0: 150 -> 200 from west and
    north; from east 300 -> 300."""
    s = settle(get_ruleset("swedish"), "east", "south",
               {"east": 0, "south": 150, "west": 0, "north": 0})
    assert s.net == {"south": 700, "east": -300, "west": -200, "north": -200}
    s = settle(get_ruleset("swedish"), "east", "south",
               {"east": 0, "south": 149, "west": 0, "north": 0})
    assert s.net == {"south": 500, "east": -300, "west": -100, "north": -100}
    # whole numbers, as FORMATS.md's JSON shows them (not 100.0)
    assert all(type(amount) is int for _, _, amount in s.payments)


def test_winner_paid_with_a_winner_scoring_one_and_losers_one_apart() -> None:
    """RULES.md 6: each loser pays the winner's score (east double); each pair of losers
    settles the difference (east double), however small."""
    s = settle(get_ruleset("hua-bao"), "east", "south",
               {"east": 2, "south": 1, "west": 1, "north": 0})
    assert sorted(s.payments) == sorted([
        ("east", "south", 2), ("west", "south", 1), ("north", "south", 1),
        ("west", "east", 2), ("north", "east", 4), ("north", "west", 1)])
    assert all(type(v) is int for v in s.net.values())


def test_washout_and_equal_scores_pay_nothing() -> None:
    s = settle(get_ruleset("dmjl"), "east", None, {"east": 8, "south": 4, "west": 0, "north": 2})
    assert s.payments == [] and set(s.net.values()) == {0}
    s = settle(get_ruleset("dmjl"), "east", "south", {"east": 4, "south": 0, "west": 4,
                                                       "north": 4})
    assert s.payments == []  # a winner scoring 0 is paid nothing; equal losers settle nothing


@pytest.mark.parametrize(("discarder", "payments"), [
    # RULES.md 10: the discarder pays 8 + fans, the two others 8; self-drawn, 8 + fans each
    ("west", {("east", "south", 8), ("west", "south", 18), ("north", "south", 8)}),
    (None, {("east", "south", 18), ("west", "south", 18), ("north", "south", 18)}),
])
def test_mcr_settlement(discarder: str | None, payments: set[tuple[str, str, int]]) -> None:
    s = settle(get_ruleset("mcr"), "east", "south",
               {"east": 0, "south": 10, "west": 0, "north": 0}, discarder)
    assert set(s.payments) == payments and len(s.payments) == 3


@pytest.mark.parametrize(("args", "words"), [
    (("east", "south", {"east": 0, "south": 1, "west": 0}),
     "settlement needs the scores of four players, not 3"),
    (("east", "south", {"east": 0, "south": -1, "west": 0, "north": 0}),
     "score of south must be a whole number >= 0, not -1"),
    (("east", "south", {"east": 0, "south": True, "west": 0, "north": 0}),
     "score of south must be a whole number >= 0, not True"),
    (("east", "south", {"east": 0, "south": 1.5, "west": 0, "north": 0}),
     "score of south must be a whole number >= 0, not 1.5"),
    (("middle", "south", {"east": 0, "south": 1, "west": 0, "north": 0}),
     "dealer 'middle' is not one of the players ['east', 'south', 'west', 'north']"),
    (("east", "middle", {"east": 0, "south": 1, "west": 0, "north": 0}),
     "winner 'middle' is not one of the players ['east', 'south', 'west', 'north']"),
    (("east", "south", {"east": 0, "south": 1, "west": 0, "north": 0}, "south"),
     "discarder 'south' must be one of the players other than the winner"),
    (("east", "south", {"east": 0, "south": 1, "west": 0, "north": 0}, "middle"),
     "discarder 'middle' must be one of the players other than the winner"),
])
def test_bad_settlement_input_is_named(args: tuple, words: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(ScoringError) as caught:
        settle(get_ruleset("mcr"), *args)
    assert str(caught.value) == words


def test_an_unknown_rule_set_is_named_with_the_known_ones() -> None:
    for name in ("nope", ["hua-bao"], None, 5):
        with pytest.raises(ScoringError) as caught:
            get_ruleset(name)  # type: ignore[arg-type]
        assert str(caught.value).startswith(
            f"unknown rule set {name!r}: use one of hua-bao, swedish, dmjl, bmja, mcr")
