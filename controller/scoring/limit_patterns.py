"""Hand patterns of the limit hands (RULES.md sections 6 and 8), shared by the rule sets."""

from __future__ import annotations

from controller.scoring.patterns import (
    HandView,
    concealed_pungs,
    fact_if,
    flag,
    four_winds,
    hand_if,
    only_honours,
    only_ones_and_nines,
    thirteen_orphans,
    three_great_dragons,
    winning_tile,
)
from controller.scoring.rules import Pattern

__all__ = [
    "all_honours",
    "cornerstone",
    "earthly_hand",
    "four_blessings",
    "four_kongs",
    "heavenly_hand",
    "hidden_treasure",
    "imperial_jade",
    "moon_from_the_sea",
    "nine_gates",
    "one_suit_concealed",
    "plum_blossom",
    "scratching_pole",
    "thirteen_orphans",
    "three_great_scholars",
    "twofold_fortune",
    "writhing_snake",
    "concealed_pungs",
]

GREEN = frozenset(("2b", "3b", "4b", "6b", "8b", "gd"))
_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def _suit_counts(v: HandView, tiles: tuple[str, ...]) -> list[int]:
    c = [0] * 9
    for t in tiles:
        c[int(t[0]) - 1] += 1
    return c


def _one_suit(v: HandView) -> bool:
    return len(v.facts.suits) == 1 and not v.facts.honours


def _is_nine_gates(v: HandView) -> bool:
    f = v.facts
    if not _one_suit(v) or f.exposed_melds or any(g.melded for g in v.groups) or not f.winning_tile:
        return False
    rest = list(f.tiles)
    rest.remove(f.winning_tile)
    return tuple(_suit_counts(v, tuple(rest))) == _NINE_GATES


def _is_writhing_snake(v: HandView) -> bool:
    if not _one_suit(v) or not v.standard:
        return False
    c = _suit_counts(v, v.facts.tiles)
    if c[0] < 3 or c[8] < 3 or any(n < 1 for n in c[1:8]) or sum(c[1:8]) != 8:
        return False
    return any(c[k - 1] == 2 for k in (2, 5, 8))


def _hidden_treasure(v: HandView) -> bool:
    return (
        v.standard
        and all(g.kind != "chow" and g.concealed for g in v.sets)
        and v.facts.win_source in ("wall", "replacement", "dealt")
    )


def _won_with(tile: str, *sources: str) -> Pattern:
    return fact_if(
        lambda v: v.facts.winning_tile == tile and v.facts.win_source in sources, winning_tile
    )


all_honours = only_honours
heavenly_hand = fact_if(lambda v: v.facts.win_source == "dealt" and v.facts.seat == "ew")
earthly_hand = fact_if(
    lambda v: v.facts.first_discard and v.facts.win_source == "discard" and v.facts.seat != "ew"
)
nine_gates = hand_if(_is_nine_gates)
four_blessings = four_winds
three_great_scholars = hand_if(lambda v: v.standard and bool(three_great_dragons(v)))
four_kongs = hand_if(lambda v: sum(g.kind == "kong" for g in v.sets) == 4)
imperial_jade = fact_if(lambda v: all(t in GREEN for t in v.facts.tiles))
writhing_snake = hand_if(_is_writhing_snake)
cornerstone = only_ones_and_nines
one_suit_concealed = hand_if(lambda v: _one_suit(v) and all(g.concealed for g in v.groups))
hidden_treasure = hand_if(_hidden_treasure)
plum_blossom = _won_with("5d", "replacement")
moon_from_the_sea = fact_if(
    lambda v: v.facts.winning_tile == "1d" and v.facts.last_tile and v.facts.win_source == "wall",
    winning_tile,
)
scratching_pole = _won_with("2b", "robbed_kong")
twofold_fortune = flag("twofold_fortune")
