"""The 81 fans of the Chinese Official rules (RULES.md section 10) as data.

Each fan has its EMA English name, its value, and the fans it implies (the non-repeat and
non-identical principles: a fan listed under ``excludes`` is not counted when this one is). The
patterns that find each fan live in ``sets.py`` (combinations of sets), ``standard.py`` (the
hand as a whole) and ``special.py`` (the special hands); this table decides what adds up.
"""

from __future__ import annotations

from typing import NamedTuple


class Fan(NamedTuple):
    name: str
    value: int
    excludes: tuple[str, ...] = ()


# Names used by the patterns (one constant per fan keeps typos out of the code).
BIG_FOUR_WINDS = "Big Four Winds"
BIG_THREE_DRAGONS = "Big Three Dragons"
ALL_GREEN = "All Green"
NINE_GATES = "Nine Gates"
FOUR_KONGS = "Four Kongs"
SEVEN_SHIFTED_PAIRS = "Seven Shifted Pairs"
THIRTEEN_ORPHANS = "Thirteen Orphans"
ALL_TERMINALS = "All Terminals"
LITTLE_FOUR_WINDS = "Little Four Winds"
LITTLE_THREE_DRAGONS = "Little Three Dragons"
ALL_HONORS = "All Honors"
FOUR_CONCEALED_PUNGS = "Four Concealed Pungs"
PURE_TERMINAL_CHOWS = "Pure Terminal Chows"
QUADRUPLE_CHOW = "Quadruple Chow"
FOUR_PURE_SHIFTED_PUNGS = "Four Pure Shifted Pungs"
FOUR_PURE_SHIFTED_CHOWS = "Four Pure Shifted Chows"
THREE_KONGS = "Three Kongs"
ALL_TERMINALS_AND_HONORS = "All Terminals and Honors"
SEVEN_PAIRS = "Seven Pairs"
GREATER_HONORS = "Greater Honors and Knitted Tiles"
ALL_EVEN_PUNGS = "All Even Pungs"
FULL_FLUSH = "Full Flush"
PURE_TRIPLE_CHOW = "Pure Triple Chow"
PURE_SHIFTED_PUNGS = "Pure Shifted Pungs"
UPPER_TILES = "Upper Tiles"
MIDDLE_TILES = "Middle Tiles"
LOWER_TILES = "Lower Tiles"
PURE_STRAIGHT = "Pure Straight"
THREE_SUITED_TERMINAL_CHOWS = "Three-Suited Terminal Chows"
PURE_SHIFTED_CHOWS = "Pure Shifted Chows"
ALL_FIVES = "All Fives"
TRIPLE_PUNG = "Triple Pung"
THREE_CONCEALED_PUNGS = "Three Concealed Pungs"
LESSER_HONORS = "Lesser Honors and Knitted Tiles"
KNITTED_STRAIGHT = "Knitted Straight"
UPPER_FOUR = "Upper Four"
LOWER_FOUR = "Lower Four"
BIG_THREE_WINDS = "Big Three Winds"
MIXED_STRAIGHT = "Mixed Straight"
REVERSIBLE_TILES = "Reversible Tiles"
MIXED_TRIPLE_CHOW = "Mixed Triple Chow"
MIXED_SHIFTED_PUNGS = "Mixed Shifted Pungs"
CHICKEN_HAND = "Chicken Hand"
LAST_TILE_DRAW = "Last Tile Draw"
LAST_TILE_CLAIM = "Last Tile Claim"
OUT_WITH_REPLACEMENT_TILE = "Out with Replacement Tile"
ROBBING_THE_KONG = "Robbing the Kong"
TWO_CONCEALED_KONGS = "Two Concealed Kongs"
ALL_PUNGS = "All Pungs"
HALF_FLUSH = "Half Flush"
MIXED_SHIFTED_CHOWS = "Mixed Shifted Chows"
ALL_TYPES = "All Types"
MELDED_HAND = "Melded Hand"
TWO_DRAGON_PUNGS = "Two Dragon Pungs"
OUTSIDE_HAND = "Outside Hand"
FULLY_CONCEALED_HAND = "Fully Concealed Hand"
TWO_MELDED_KONGS = "Two Melded Kongs"
LAST_TILE = "Last Tile"
DRAGON_PUNG = "Dragon Pung"
PREVALENT_WIND = "Prevalent Wind"
SEAT_WIND = "Seat Wind"
CONCEALED_HAND = "Concealed Hand"
ALL_CHOWS = "All Chows"
TILE_HOG = "Tile Hog"
DOUBLE_PUNG = "Double Pung"
TWO_CONCEALED_PUNGS = "Two Concealed Pungs"
CONCEALED_KONG = "Concealed Kong"
ALL_SIMPLES = "All Simples"
PURE_DOUBLE_CHOW = "Pure Double Chow"
MIXED_DOUBLE_CHOW = "Mixed Double Chow"
SHORT_STRAIGHT = "Short Straight"
TWO_TERMINAL_CHOWS = "Two Terminal Chows"
PUNG_OF_TERMINALS_OR_HONORS = "Pung of Terminals or Honors"
MELDED_KONG = "Melded Kong"
ONE_VOIDED_SUIT = "One Voided Suit"
NO_HONORS = "No Honors"
EDGE_WAIT = "Edge Wait"
CLOSED_WAIT = "Closed Wait"
SINGLE_WAIT = "Single Wait"
SELF_DRAWN = "Self-Drawn"
FLOWER_TILES = "Flower Tiles"

_PUNGS_T = PUNG_OF_TERMINALS_OR_HONORS

#: The Green Book's table, 88 down to 1; ``excludes``: what each fan implies and so does not
#: add (only what the patterns could otherwise find together; shapes that cannot coexist need
#: no line). Exclusions apply from the biggest fan down: an excluded fan excludes nothing.
FANS: tuple[Fan, ...] = (
    Fan(BIG_FOUR_WINDS, 88, (ALL_PUNGS, _PUNGS_T, BIG_THREE_WINDS, LITTLE_FOUR_WINDS,
                             PREVALENT_WIND, SEAT_WIND)),
    Fan(BIG_THREE_DRAGONS, 88, (DRAGON_PUNG, TWO_DRAGON_PUNGS, LITTLE_THREE_DRAGONS)),
    Fan(ALL_GREEN, 88, (HALF_FLUSH, ONE_VOIDED_SUIT)),
    Fan(NINE_GATES, 88, (FULL_FLUSH, CONCEALED_HAND, FULLY_CONCEALED_HAND)),
    Fan(FOUR_KONGS, 88, (SINGLE_WAIT, ALL_PUNGS, THREE_KONGS, MELDED_KONG, CONCEALED_KONG,
                         TWO_MELDED_KONGS, TWO_CONCEALED_KONGS)),
    Fan(SEVEN_SHIFTED_PAIRS, 88, (SEVEN_PAIRS, FULL_FLUSH, CONCEALED_HAND, FULLY_CONCEALED_HAND,
                                  SINGLE_WAIT)),
    Fan(THIRTEEN_ORPHANS, 88, (ALL_TYPES, CONCEALED_HAND, FULLY_CONCEALED_HAND, SINGLE_WAIT)),
    Fan(ALL_TERMINALS, 64, (ALL_PUNGS, OUTSIDE_HAND, _PUNGS_T, NO_HONORS, DOUBLE_PUNG,
                            ALL_TERMINALS_AND_HONORS)),
    Fan(LITTLE_FOUR_WINDS, 64, (BIG_THREE_WINDS, _PUNGS_T)),
    Fan(LITTLE_THREE_DRAGONS, 64, (DRAGON_PUNG, TWO_DRAGON_PUNGS)),
    Fan(ALL_HONORS, 64, (ALL_PUNGS, OUTSIDE_HAND, _PUNGS_T, ONE_VOIDED_SUIT,
                         ALL_TERMINALS_AND_HONORS)),
    Fan(FOUR_CONCEALED_PUNGS, 64, (ALL_PUNGS, CONCEALED_HAND, FULLY_CONCEALED_HAND)),
    Fan(PURE_TERMINAL_CHOWS, 64, (FULL_FLUSH, ALL_CHOWS, NO_HONORS, PURE_DOUBLE_CHOW,
                                  TWO_TERMINAL_CHOWS, SHORT_STRAIGHT)),
    Fan(QUADRUPLE_CHOW, 48, (PURE_TRIPLE_CHOW, PURE_DOUBLE_CHOW, TILE_HOG)),
    Fan(FOUR_PURE_SHIFTED_PUNGS, 48, (ALL_PUNGS, PURE_SHIFTED_PUNGS)),
    Fan(FOUR_PURE_SHIFTED_CHOWS, 32, (PURE_SHIFTED_CHOWS,)),
    Fan(THREE_KONGS, 32, (MELDED_KONG, CONCEALED_KONG, TWO_MELDED_KONGS, TWO_CONCEALED_KONGS)),
    Fan(ALL_TERMINALS_AND_HONORS, 32, (ALL_PUNGS, OUTSIDE_HAND, _PUNGS_T)),
    Fan(SEVEN_PAIRS, 24, (CONCEALED_HAND, FULLY_CONCEALED_HAND, SINGLE_WAIT)),
    Fan(GREATER_HONORS, 24, (LESSER_HONORS, ALL_TYPES, CONCEALED_HAND, FULLY_CONCEALED_HAND,
                             SINGLE_WAIT)),
    Fan(ALL_EVEN_PUNGS, 24, (ALL_PUNGS, ALL_SIMPLES, NO_HONORS)),
    Fan(FULL_FLUSH, 24, (HALF_FLUSH, ONE_VOIDED_SUIT, NO_HONORS)),
    Fan(PURE_TRIPLE_CHOW, 24, (PURE_DOUBLE_CHOW,)),
    Fan(PURE_SHIFTED_PUNGS, 24),
    Fan(UPPER_TILES, 24, (UPPER_FOUR, NO_HONORS)),
    Fan(MIDDLE_TILES, 24, (ALL_SIMPLES, NO_HONORS)),
    Fan(LOWER_TILES, 24, (LOWER_FOUR, NO_HONORS)),
    Fan(PURE_STRAIGHT, 16),
    Fan(THREE_SUITED_TERMINAL_CHOWS, 16, (ALL_CHOWS, NO_HONORS, MIXED_DOUBLE_CHOW,
                                          TWO_TERMINAL_CHOWS)),
    Fan(PURE_SHIFTED_CHOWS, 16),
    Fan(ALL_FIVES, 16, (ALL_SIMPLES, NO_HONORS)),
    Fan(TRIPLE_PUNG, 16),
    Fan(THREE_CONCEALED_PUNGS, 16, (TWO_CONCEALED_PUNGS,)),
    Fan(LESSER_HONORS, 12, (ALL_TYPES, CONCEALED_HAND, FULLY_CONCEALED_HAND, SINGLE_WAIT)),
    Fan(KNITTED_STRAIGHT, 12),
    Fan(UPPER_FOUR, 12, (NO_HONORS,)),
    Fan(LOWER_FOUR, 12, (NO_HONORS,)),
    Fan(BIG_THREE_WINDS, 12),
    Fan(MIXED_STRAIGHT, 8),
    Fan(REVERSIBLE_TILES, 8, (ONE_VOIDED_SUIT,)),
    Fan(MIXED_TRIPLE_CHOW, 8, (MIXED_DOUBLE_CHOW,)),
    Fan(MIXED_SHIFTED_PUNGS, 8),
    Fan(CHICKEN_HAND, 8),
    Fan(LAST_TILE_DRAW, 8, (SELF_DRAWN,)),
    Fan(LAST_TILE_CLAIM, 8),
    Fan(OUT_WITH_REPLACEMENT_TILE, 8, (SELF_DRAWN,)),
    Fan(ROBBING_THE_KONG, 8, (LAST_TILE,)),
    Fan(ALL_PUNGS, 6),
    Fan(HALF_FLUSH, 6, (ONE_VOIDED_SUIT,)),
    Fan(MIXED_SHIFTED_CHOWS, 6),
    Fan(ALL_TYPES, 6),
    Fan(MELDED_HAND, 6, (SINGLE_WAIT,)),
    Fan(TWO_DRAGON_PUNGS, 6, (DRAGON_PUNG,)),
    Fan(TWO_CONCEALED_KONGS, 6, (CONCEALED_KONG,)),  # the Green Book's 6 (mcr readings)
    Fan(OUTSIDE_HAND, 4),
    Fan(FULLY_CONCEALED_HAND, 4, (SELF_DRAWN, CONCEALED_HAND)),
    Fan(TWO_MELDED_KONGS, 4, (MELDED_KONG,)),
    Fan(LAST_TILE, 4),
    Fan(DRAGON_PUNG, 2),
    Fan(PREVALENT_WIND, 2),
    Fan(SEAT_WIND, 2),
    Fan(CONCEALED_HAND, 2),
    Fan(ALL_CHOWS, 2, (NO_HONORS,)),
    Fan(TILE_HOG, 2),
    Fan(DOUBLE_PUNG, 2),
    Fan(TWO_CONCEALED_PUNGS, 2),
    Fan(CONCEALED_KONG, 2),
    Fan(ALL_SIMPLES, 2, (NO_HONORS,)),
    Fan(PURE_DOUBLE_CHOW, 1),
    Fan(MIXED_DOUBLE_CHOW, 1),
    Fan(SHORT_STRAIGHT, 1),
    Fan(TWO_TERMINAL_CHOWS, 1),
    Fan(PUNG_OF_TERMINALS_OR_HONORS, 1),
    Fan(MELDED_KONG, 1),
    Fan(ONE_VOIDED_SUIT, 1),
    Fan(NO_HONORS, 1),
    Fan(EDGE_WAIT, 1),
    Fan(CLOSED_WAIT, 1),
    Fan(SINGLE_WAIT, 1),
    Fan(SELF_DRAWN, 1),
    Fan(FLOWER_TILES, 1),
)

BY_NAME: dict[str, Fan] = {f.name: f for f in FANS}
VALUE: dict[str, int] = {f.name: f.value for f in FANS}
#: the table's order, biggest first: the order exclusions apply and items are listed in
ORDER: dict[str, int] = {f.name: i for i, f in enumerate(FANS)}
EXCLUDES: dict[str, tuple[str, ...]] = {f.name: f.excludes for f in FANS}

#: one occurrence of a fan: its name and the tiles it is for
Hit = tuple[str, tuple[str, ...]]


def apply_exclusions(hits: list[Hit]) -> list[Hit]:
    """The hits that count: from the biggest fan down, each counted fan strikes the fans it
    implies; a struck fan strikes nothing."""
    hits.sort(key=_order_of)
    struck: set[str] = set()
    out: list[Hit] = []
    for hit in hits:
        name = hit[0]
        if name in struck:
            continue
        out.append(hit)
        excludes = EXCLUDES[name]
        if excludes:
            struck.update(excludes)
    return out


def _order_of(hit: Hit) -> int:
    return ORDER[hit[0]]
