"""A winner's waits before the winning tile (for the single-wait items): how many kinds the 13
tiles before it waited on, counted the way waits() counts them, on the scorer's quick path."""

from __future__ import annotations

from collections.abc import Sequence

from controller.scoring import arrange as ar
from controller.scoring.arrange import Group
from controller.scoring.complete import completes_with, free_chows
from controller.scoring.rules import RuleSet
from controller.scoring.special import special_waits
from controller.scoring.validate import CheckedHand
from controller.tiles import KIND_INDEX


def two_waits_seen(
    places: Sequence[tuple[Sequence[Group], int]], k: int, held: Sequence[int]
) -> bool:
    """True if an arrangement shows that the 13 tiles before the winning tile (kind ``k``)
    waited on two kinds or more, as waits() counts them: a chow completed at one end is
    completed at its other end too (4-5 + 3 or 6), and a pung completed beside a pair is
    completed by that pair's kind too (the pung becomes the pair), if that other kind was not
    all held (``held``: the hand with the winning tile). The winning tile's kind is always a
    wait: the 13 tiles held three of it at most. ``places``: (groups, index) of each group of
    a standard arrangement that holds the winning tile (engine._won_places). Most hands show
    two, so they need no waits count; the rest are counted."""
    for groups, i in places:
        g = groups[i]
        kind = g[0]
        if kind == "chow":
            low = KIND_INDEX[g[1][0]]
            rank = low % 9  # 0 for a 1
            if (k == low and rank <= 5 and held[low + 3] < 4) or (
                k == low + 2 and rank >= 1 and held[low - 1] < 4
            ):
                return True
        elif kind == "pung":
            for p in groups:
                if p[0] == "pair" and held[KIND_INDEX[p[1][0]]] < 4:
                    return True
    return False


def count_waits_before(hand: CheckedHand, k: int, rs: RuleSet) -> int:
    """How many kinds the 13 tiles before the winning tile (kind ``k``) waited on; only the
    winning tile's part differs from the hand's parts."""
    i, off = (k // 9, k % 9) if k < 27 else (3, k - 27)  # the part and the place in it
    parts = [*hand.parts]
    less = [*parts[i]]
    less[off] -= 1
    parts[i] = tuple(less)
    kinds = ar.waits_of_parts((parts[0], parts[1], parts[2], parts[3]))
    if rs.max_chows is not None:
        before = hand.concealed_counts.copy()
        before[k] -= 1
        free = free_chows(rs, hand.melds)
        kinds = [x for x in kinds if completes_with(before, x, free)]
    specials = rs.special_hands
    if specials and not hand.melds:
        c = hand.concealed_counts  # with the winning tile: most hands are near no special hand
        near = []
        for h in specials:
            if h.near(c):
                near.append(h)
        if near:
            rest = c.copy()
            rest[k] -= 1
            more = special_waits(rest, near)
            if more:
                kinds = sorted(set(kinds) | more)
    held = hand.counts  # includes the winning tile, which the 13 tiles did not hold yet
    n = 0
    for kind in kinds:
        # as waits() counts them, a fourth copy was left: held[kind] - (kind == k) < 4, the
        # hand holding no kind five times (checked)
        if kind == k or held[kind] < 4:
            n += 1
    return n
