"""Every scoring item's value as the rule books write it, typed in by hand (never read from the
code): hua-bao, swedish and dmjl from /work/shared/spec/RULES.md sections 6-8, bmja from KDE
Kajongg's ``src/predefined.py`` (class ClassicalChineseBMJA over ClassicalChinese; the table in
docs/scoring.md). The tests compare the rule sets' tables and scored hands with these rows.

A row: (item name, who scores it, value). ``who``: ``W`` the winner only, ``E`` every player.
A value: ``P(n)`` base points (or the name of the option holding them), ``D(n)`` doublings,
``L(x)`` a limit hand worth x limits.
"""

from __future__ import annotations

from typing import NamedTuple

from controller.scoring import ScoreResult


class Value(NamedTuple):
    kind: str  # "points", "doubles" or "limit"
    amount: int | float | str


def P(n: int | str) -> Value:  # noqa: N802 - as the books write a value
    return Value("points", n)


def D(n: int) -> Value:  # noqa: N802
    return Value("doubles", n)


def L(x: float) -> Value:  # noqa: N802
    return Value("limit", x)


Row = tuple[str, str, Value]

# RULES.md section 6, the points table (hua-bao, and swedish's base points: section 7).
SET_TABLE: list[Row] = [
    ("pair of dragons", "E", P(2)),
    ("pair of own wind", "E", P(2)),
    ("pair of the prevailing wind", "E", P(2)),
    ("pair of own wind that is also the prevailing wind", "E", P(4)),
    ("exposed pung of simples", "E", P(2)),
    ("concealed pung of simples", "E", P(4)),
    ("exposed pung of terminals or honours", "E", P(4)),
    ("concealed pung of terminals or honours", "E", P(8)),
    ("exposed kong of simples", "E", P(8)),
    ("concealed kong of simples", "E", P(16)),
    ("exposed kong of terminals or honours", "E", P(16)),
    ("concealed kong of terminals or honours", "E", P(32)),
]
# The same sets in dmjl (section 8) and bmja (Kajongg's ClassicalChinese meld rules): the three
# pairs add up, so there is no separate "own wind that is also prevailing" row.
CLASSICAL_SETS: list[Row] = [r for r in SET_TABLE if "also the prevailing" not in r[0]]

HUA_BAO: list[Row] = [
    *SET_TABLE,
    ("flower or season", "E", P(4)),
    ("going Mahjong", "W", P("mahjong_bonus")),
    ("going Mahjong by robbing a kong", "W", P(10)),  # "+10 more"
    ("pung of dragons", "E", D(1)),
    ("pung of own wind", "E", D(1)),
    ("pung of the prevailing wind", "E", D(1)),
    ("all four flowers", "E", D(2)),
    ("all four seasons", "E", D(2)),
    ("own flower", "E", D(1)),
    ("own season", "E", D(1)),
    ("one suit plus honours", "W", D(1)),
    ("one suit only", "W", D(3)),
    ("all honours", "W", L(1)),
    ("heavenly hand", "W", L(1)),
    ("earthly hand", "W", L(0.5)),  # "at least half the limit"
    ("nine gates", "W", L(1)),
    ("four blessings", "W", L(1)),
    ("three great scholars", "W", L(1)),
    ("four kongs", "W", L(1)),
    ("imperial jade", "W", L(1)),
    ("writhing snake", "W", L(1)),
    ("cornerstone hand", "W", L(1)),
    ("thirteen orphans", "W", L(1)),
]
#: hua-bao's option defaults that rows name (RULES.md section 6: "mahjong_bonus 10 (or 20)")
HUA_BAO_DEFAULTS = {"mahjong_bonus": 10}

SWEDISH: list[Row] = [
    *SET_TABLE,
    ("flower or season", "E", P(4)),
    # Mahjong points (winner only)
    ("going Mahjong", "W", P(20)),
    ("worthless hand", "W", P(10)),
    ("robbing a kong", "W", P(10)),
    ("the winning tile completes a chow", "W", P(10)),
    ("fully concealed hand", "W", P(10)),
    ("winning tile from the live wall", "W", P(2)),
    ("winning tile from the dead wall", "W", P(2)),
    ("only one tile type could complete the hand", "W", P(4)),
    ("seven pairs", "W", P(40)),
    # doublings for the winner only: combination, then bonus
    ("concealed hand, winning tile from the wall", "W", D(1)),
    ("no terminals or honours", "W", D(1)),
    ("a terminal or honour in every set and in the pair", "W", D(1)),
    ("worthless hand, waiting on two tile types", "W", D(1)),
    ("seven pairs", "W", D(2)),
    ("only pungs/kongs, no chow", "W", D(2)),
    ("only terminals and honours", "W", D(2)),
    ("one suit plus winds or dragons", "W", D(2)),
    ("one suit only", "W", D(4)),
    ("only winds and dragons", "W", L(1)),
    ("winning as dealer", "W", D(1)),
    ("winning on a replacement tile", "W", D(1)),
    ("winning on the last tile of the live wall", "W", D(1)),
    # doublings for every player: combination, then bonus
    ("pung of dragons", "E", D(1)),
    ("pung of own wind", "E", D(1)),
    ("pung of the prevailing wind", "E", D(1)),
    ("the same chow in all three suits", "E", D(1)),
    ("1-2-3, 4-5-6 and 7-8-9 of one suit", "E", D(2)),
    ("three concealed pungs/kongs", "E", D(2)),
    ("three little dragons", "E", D(4)),
    ("four concealed pungs/kongs", "E", L(1)),
    ("three great dragons", "E", L(1)),
    ("pungs/kongs of all four winds", "E", L(1)),
    ("own flower", "E", D(1)),
    ("own season", "E", D(1)),
    ("all four flowers", "E", D(2)),
    ("all four seasons", "E", D(2)),
    ("all eight bonus tiles", "E", L(1)),
]

DMJL: list[Row] = [
    *CLASSICAL_SETS,
    ("flower", "E", P(4)),
    ("season", "E", P(4)),
    ("going Mahjong", "W", P(20)),
    ("the winning tile completes a pair of simples", "W", P(2)),
    ("the winning tile completes a pair of terminals or honours", "W", P(4)),
    ("the winning tile was the only possible tile", "W", P(2)),
    ("winning tile drawn", "W", P(2)),
    ("pung of dragons", "E", D(1)),
    ("pung of own wind", "E", D(1)),
    ("pung of the prevailing wind", "E", D(1)),
    ("own flower and own season", "E", D(1)),
    ("all four flowers", "E", D(1)),
    ("all four seasons", "E", D(1)),
    ("three concealed pungs/kongs", "E", D(1)),
    ("little three dragons", "E", D(1)),
    ("big three dragons", "E", D(2)),
    ("little four joys", "E", D(1)),
    ("big four joys", "E", D(2)),
    ("zero-point hand", "W", D(1)),
    ("no chow", "W", D(1)),
    ("only concealed sets", "W", D(1)),
    ("one suit plus honours", "W", D(1)),
    ("one suit only", "W", D(3)),
    ("only terminals and honours", "W", D(1)),
    ("winning tile from the dead wall", "W", D(1)),
    ("winning tile is the last tile of the live wall", "W", D(1)),
    ("winning on the discard of the last tile of the live wall", "W", D(1)),
    ("robbing a kong", "W", D(1)),
    ("Mahjong with original call", "W", D(1)),
    *((name, "W", L(1)) for name in (
        "one suit only, all concealed", "only honours", "hidden treasure", "heads and tails",
        "fourfold plenty", "three great scholars", "four blessings", "imperial jade",
        "gathering the plum blossom from the roof",
        "plucking the moon from the bottom of the sea", "scratching a carrying pole",
        "twofold fortune", "heavenly hand", "earthly hand",  # "a full limit here"
        "nine gates", "thirteen orphans", "squirming snake")),
]

# Kajongg src/predefined.py: ClassicalChinese's rules less those ClassicalChineseBMJA deletes,
# with its changes (own flower and own season 1 doubling each, all flowers / all seasons 2,
# purity 3, the half-limit hands 0.5, the calling hands 0.4 or 0.2).
BMJA: list[Row] = [
    *CLASSICAL_SETS,
    ("flower", "E", P(4)),
    ("season", "E", P(4)),
    ("going Mahjong", "W", P(20)),
    ("winning tile drawn", "W", P(2)),
    ("pung of dragons", "E", D(1)),
    ("pung of own wind", "E", D(1)),
    ("pung of the prevailing wind", "E", D(1)),
    ("own flower", "E", D(1)),
    ("own season", "E", D(1)),
    ("all four flowers", "E", D(2)),
    ("all four seasons", "E", D(2)),
    ("no chow", "W", D(1)),
    ("only concealed sets", "W", D(1)),
    ("purity", "W", D(3)),
    ("only terminals and honours", "W", D(1)),
    ("winning tile is the last tile of the live wall", "W", D(1)),
    ("winning on the discard of the last tile of the live wall", "W", D(1)),
    ("robbing a kong", "W", D(1)),
    ("original call", "W", D(1)),
    *((name, "W", L(1)) for name in (
        "only honours", "buried treasure", "heads and tails", "fourfold plenty",
        "three great scholars", "four blessings", "imperial jade",
        "gathering the plum blossom from the roof",
        "plucking the moon from the bottom of the sea", "scratching a carrying pole",
        "twofold fortune", "blessing of heaven", "blessing of earth", "gates of heaven",
        "the 13 unique wonders", "wriggling snake")),
    ("triple knitting", "W", L(0.5)),
    ("knitting", "W", L(0.5)),
    ("all pair honours", "W", L(0.5)),
    *((f"calling for {name}", "E", L(0.4)) for name in (
        "only honours", "wriggling snake", "gates of heaven", "imperial jade",
        "the 13 unique wonders", "three great scholars", "heads and tails", "four blessings",
        "buried treasure", "fourfold plenty")),
    *((f"calling for {name}", "E", L(0.2)) for name in (
        "triple knitting", "knitting", "all pair honours")),
    ("calling for purity", "E", D(3)),
]

# The Green Book's 81 fans (Chinese Official rules, 1998; names as the EMA's English MCR rules
# spell them), by value as the book's table lists them.
MCR_FANS: dict[int, list[str]] = {
    88: ["Big Four Winds", "Big Three Dragons", "All Green", "Nine Gates", "Four Kongs",
         "Seven Shifted Pairs", "Thirteen Orphans"],
    64: ["All Terminals", "Little Four Winds", "Little Three Dragons", "All Honors",
         "Four Concealed Pungs", "Pure Terminal Chows"],
    48: ["Quadruple Chow", "Four Pure Shifted Pungs"],
    32: ["Four Pure Shifted Chows", "Three Kongs", "All Terminals and Honors"],
    24: ["Seven Pairs", "Greater Honors and Knitted Tiles", "All Even Pungs", "Full Flush",
         "Pure Triple Chow", "Pure Shifted Pungs", "Upper Tiles", "Middle Tiles", "Lower Tiles"],
    16: ["Pure Straight", "Three-Suited Terminal Chows", "Pure Shifted Chows", "All Fives",
         "Triple Pung", "Three Concealed Pungs"],
    12: ["Lesser Honors and Knitted Tiles", "Knitted Straight", "Upper Four", "Lower Four",
         "Big Three Winds"],
    8: ["Mixed Straight", "Reversible Tiles", "Mixed Triple Chow", "Mixed Shifted Pungs",
        "Chicken Hand", "Last Tile Draw", "Last Tile Claim", "Out with Replacement Tile",
        "Robbing the Kong"],
    6: ["All Pungs", "Half Flush", "Mixed Shifted Chows", "All Types", "Melded Hand",
        "Two Dragon Pungs", "Two Concealed Kongs"],
    4: ["Outside Hand", "Fully Concealed Hand", "Two Melded Kongs", "Last Tile"],
    2: ["Dragon Pung", "Prevalent Wind", "Seat Wind", "Concealed Hand", "All Chows", "Tile Hog",
        "Double Pung", "Two Concealed Pungs", "Concealed Kong", "All Simples"],
    1: ["Pure Double Chow", "Mixed Double Chow", "Short Straight", "Two Terminal Chows",
        "Pung of Terminals or Honors", "Melded Kong", "One Voided Suit", "No Honors",
        "Edge Wait", "Closed Wait", "Single Wait", "Self-Drawn", "Flower Tiles"],
}

BOOK: dict[str, list[Row]] = {"hua-bao": HUA_BAO, "swedish": SWEDISH, "dmjl": DMJL,
                              "bmja": BMJA}
#: the limit in points of each rule set by default (RULES.md 6, 7, 8; Kajongg's BMJA 1000)
LIMIT = {"hua-bao": 500, "swedish": 3000, "dmjl": 500, "bmja": 1000}


def values(ruleset: str, name: str) -> set[Value]:
    """The book's values of the item ``name`` (swedish's seven pairs has two), the option
    names resolved to their defaults."""
    out = set()
    for row_name, _, value in BOOK[ruleset]:
        if row_name == name:
            amount = HUA_BAO_DEFAULTS.get(value.amount, value.amount) \
                if isinstance(value.amount, str) else value.amount
            out.add(Value(value.kind, amount))
    return out


def limit_value(ruleset: str, key_name: str) -> float:
    """The book's value in limits of the limit item named ``key_name``."""
    (value,) = [v for n, _, v in BOOK[ruleset] if n == key_name and v.kind == "limit"]
    return float(value.amount)


def item_values(r: ScoreResult, name: str) -> set[Value]:
    """The values of a scored hand's items called ``name``."""
    return {Value("limit", i.limit) if i.limit else Value("doubles", i.doubles) if i.doubles
            else Value("points", i.points) for i in r.items if i.name == name}


def assert_book_value(ruleset: str, name: str, r: ScoreResult) -> None:
    """The item ``name`` of a scored hand is worth what the book says."""
    got, book = item_values(r, name), values(ruleset, name)
    assert got and got <= book, f"{ruleset} {name!r}: scored {got}, the book says {book}"
