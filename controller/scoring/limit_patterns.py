"""Hand patterns of the limit hands (RULES.md sections 6 and 8), shared by the rule sets."""

from __future__ import annotations

from controller.scoring.patterns import (
    SELF_DRAWN,
    concealed_pungs,
    fact_if,
    flag,
    four_winds,
    gate_decides,
    gated,
    hand_if,
    only_honours,
    only_ones_and_nines,
    shaped,
    special_hand,
    standard_no_chow,
    thirteen_orphans,
    three_great_dragons,
    winning_tile,
)
from controller.scoring.rules import Pattern, with_meta
from controller.scoring.view import HandView, Situation

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

_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def _suit_counts(v: HandView, tiles: tuple[str, ...]) -> list[int]:
    c = [0] * 9
    for t in tiles:
        c[int(t[0]) - 1] += 1
    return c


def _one_suit(v: HandView) -> bool:
    return len(v.facts.suits) == 1 and not v.facts.honours


def _is_nine_gates(v: HandView) -> bool:
    """The 14 tiles are ``1112345678999`` of one suit plus any tile of it, all concealed; which
    of them won does not matter (RULES.md section 6)."""
    f = v.facts
    if not _one_suit(v) or f.exposed_melds or any(g.melded for g in v.groups) or f.size != 14:
        return False
    counts = _suit_counts(v, f.tiles)
    return all(n >= gate for n, gate in zip(counts, _NINE_GATES, strict=True))


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
    return gated(
        lambda s: s.source in sources,
        fact_if(lambda v: v.facts.winning_tile == tile, winning_tile),
    )


def _one_suit_gate(s: Situation) -> bool:
    return len(s.suits) == 1 and not s.honours


all_honours = only_honours
heavenly_hand = gated(lambda s: s.source == "dealt" and s.dealer, gate_decides())
earthly_hand = gated(
    lambda s: s.first_discard and s.source == "discard" and not s.dealer, gate_decides()
)
nine_gates = gated(lambda s: _one_suit_gate(s) and not s.melds, hand_if(_is_nine_gates))
four_blessings = four_winds
three_great_scholars = gated(
    lambda s: s.dragons >= 9, hand_if(lambda v: v.standard and bool(three_great_dragons(v)))
)
four_kongs = shaped(
    lambda s: s.pungs >= 4, hand_if(lambda v: sum(g.kind == "kong" for g in v.pungs) == 4)
)
imperial_jade = gated(lambda s: s.green_only, gate_decides())
writhing_snake = gated(_one_suit_gate, hand_if(_is_writhing_snake))
cornerstone = only_ones_and_nines
one_suit_concealed = gated(
    lambda s: _one_suit_gate(s) and not s.exposed,
    hand_if(lambda v: all(g.concealed for g in v.groups)),
)
hidden_treasure = gated(
    lambda s: s.source in SELF_DRAWN,
    shaped(lambda s: s.standard and s.chows == 0, hand_if(_hidden_treasure)),
)
plum_blossom = _won_with("5d", "replacement")
moon_from_the_sea = gated(
    lambda s: s.last_tile and s.source == "wall",
    fact_if(lambda v: v.facts.winning_tile == "1d", winning_tile),
)
scratching_pole = _won_with("2b", "robbed_kong")
twofold_fortune = flag("twofold_fortune")


# --- bmja (Kajongg's "Classical Chinese BMJA") ----------------------------------------------------

gates_of_heaven = special_hand("gates_of_heaven")
wriggling_snake = special_hand("wriggling_snake")
triple_knitting = special_hand("triple_knitting")
knitting = special_hand("knitting")
all_pair_honours = special_hand("all_pair_honours")


def _buried_treasure(v: HandView) -> bool:
    return all(g.kind == "pung" and g.concealed for g in v.sets)


buried_treasure = gated(
    lambda s: len(s.suits) == 1,
    shaped(lambda s: standard_no_chow(s) and s.concealed_pungs == 4, hand_if(_buried_treasure)),
)
purity = gated(_one_suit_gate, shaped(
    standard_no_chow, hand_if(lambda v: v.standard and not v.chows), decides=True
))
three_great_scholars_no_chow = gated(lambda s: s.dragons >= 9, shaped(standard_no_chow, hand_if(
    lambda v: v.standard and not v.chows and bool(three_great_dragons(v))
)))


def calling_for(what: str) -> Pattern:
    """A non-winner's full hand was calling for ``what`` (a limit hand's key or an item's
    name): reported for the concealed tiles."""
    return with_meta(gated(lambda s: what in s.calling, gate_decides(lambda v: [v.facts.rack])),
                     needs_calling=True)
