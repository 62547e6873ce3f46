"""The special hands of mcr: seven pairs, seven shifted pairs, thirteen orphans, greater and
lesser honours and knitted tiles, knitted straight with a set and a pair, nine gates.

Each function returns (hits before the exclusions, the arrangement shown) or None when the
hand is not that shape."""

from __future__ import annotations

from controller.scoring.mcr import fans as f
from controller.scoring.mcr.fans import Hit
from controller.scoring.mcr.hand import CHOW, KONG, PUNG, Hand, Set, splits
from controller.scoring.mcr.standard import (
    SUIT_BITS,
    all_tiles,
    suit_hits,
    tile_hits,
    tile_hog_hits,
    win_hits,
)
from controller.tiles import KINDS

Shape = tuple[list[Hit], list[list[str]]]

_ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_ORPHAN_BITS = sum(1 << k for k in _ORPHANS)
#: the six knitted straights: 1-4-7 of one suit, 2-5-8 of another, 3-6-9 of the third
KNITTED: tuple[tuple[int, ...], ...] = tuple(
    tuple(s * 9 + r for s, start in zip(order, (0, 1, 2), strict=True) for r in (start, start + 3,
                                                                                  start + 6))
    for order in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
)


_KNITTED_BITS = tuple(sum(1 << k for k in s) for s in KNITTED)


def _kinds_tiles(kinds: list[int] | tuple[int, ...]) -> tuple[str, ...]:
    return tuple(KINDS[k] for k in kinds)


def seven_pairs(hand: Hand) -> Shape | None:
    c = hand.concealed
    if hand.melds or 1 in c or 3 in c:
        return None
    pairs = [[KINDS[k]] * 2 for k, n in enumerate(c) for _ in range(n // 2)]
    kinds = [k for k, n in enumerate(c) if n]
    tiles = all_tiles(hand)
    if len(kinds) == 7 and kinds[0] < 27 and kinds[6] == kinds[0] + 6 and kinds[6] // 9 == \
            kinds[0] // 9:
        hits: list[Hit] = [(f.SEVEN_SHIFTED_PAIRS, tiles)]
        if kinds[0] % 9 != 0 and kinds[6] % 9 != 8:
            hits.append((f.ALL_SIMPLES, tiles))
        return hits + win_hits(hand.win), pairs
    hits = [(f.SEVEN_PAIRS, tiles)]
    hits += suit_hits(hand) + tile_hits(hand) + tile_hog_hits(hand, ()) + win_hits(hand.win)
    return hits, pairs


def thirteen_orphans(hand: Hand) -> Shape | None:
    c = hand.concealed
    if hand.melds or hand.mask & _ORPHAN_BITS != _ORPHAN_BITS or \
            sum(c[k] for k in _ORPHANS) != 14:
        return None
    return [(f.THIRTEEN_ORPHANS, all_tiles(hand))] + win_hits(hand.win), [list(all_tiles(hand))]


def honours_and_knitted(hand: Hand) -> Shape | None:
    c = hand.concealed
    if hand.melds or max(c) > 1:
        return None
    kinds = [k for k, n in enumerate(c) if n]
    numbered = [k for k in kinds if k < 27]
    if not 7 <= len(numbered) <= 9 or not any(set(numbered) <= set(s) for s in KNITTED):
        return None
    tiles = all_tiles(hand)
    if len(numbered) == 7:
        hits: list[Hit] = [(f.GREATER_HONORS, tiles)]
    else:
        hits = [(f.LESSER_HONORS, tiles)]
        if len(numbered) == 9:
            hits.append((f.KNITTED_STRAIGHT, _kinds_tiles(numbered)))
    return hits + win_hits(hand.win), [list(tiles)]


_NINE_GATES_EXTRAS: dict[int, tuple[str, ...]] = {
    # by the winning tile's rank: what the best arrangement of 1112345678999 + it adds
    1: (f.PURE_STRAIGHT, f.TILE_HOG), 9: (f.PURE_STRAIGHT, f.TILE_HOG),
    2: (f.TWO_CONCEALED_PUNGS, f.SHORT_STRAIGHT, f.PUNG_OF_TERMINALS_OR_HONORS),
    8: (f.TWO_CONCEALED_PUNGS, f.SHORT_STRAIGHT, f.PUNG_OF_TERMINALS_OR_HONORS),
    5: (f.TWO_CONCEALED_PUNGS, f.PUNG_OF_TERMINALS_OR_HONORS),
    3: (f.SHORT_STRAIGHT,), 4: (f.SHORT_STRAIGHT,), 6: (f.SHORT_STRAIGHT,),
    7: (f.SHORT_STRAIGHT,),
}


def nine_gates(hand: Hand) -> Shape | None:
    """1112345678999 of one suit, concealed, completed by any tile of that suit."""
    w = hand.win.tile
    if hand.melds or w >= 27 or hand.mask & ~SUIT_BITS[w // 9]:
        return None
    base = w - w % 9
    c = list(hand.concealed)
    c[w] -= 1
    gates = [3, 1, 1, 1, 1, 1, 1, 1, 3]
    if c[base : base + 9] != gates or sum(c) != 13:
        return None
    tiles = all_tiles(hand)
    hits: list[Hit] = [(f.NINE_GATES, tiles)]
    hits += [(name, tiles) for name in _NINE_GATES_EXTRAS[w % 9 + 1]]
    return hits + win_hits(hand.win), [list(tiles)]


def knitted_straight(hand: Hand) -> list[Shape]:
    """A knitted straight, one more set (concealed, or the one meld) and a pair."""
    mask = hand.mask  # the kinds held anywhere: a quick test before the concealed counts
    if len(hand.melds) > 1 or not any(mask & bits == bits for bits in _KNITTED_BITS):
        return []
    c = list(hand.concealed)
    body = next((s for s in KNITTED if all(c[k] for k in s)), None)
    if body is None:
        return []
    for k in body:
        c[k] -= 1
    out: list[Shape] = []
    if hand.melds:
        if any(c[k] not in (0, 2) for k in range(34)) or sum(c) != 2:
            return []
        pair = c.index(2)
        out.append(_knitted_shape(hand, body, hand.melds[0], pair))
    else:
        for found, pair in splits(tuple(c), 1):
            out.append(_knitted_shape(hand, body, found[0], pair))
    return out


def _knitted_shape(hand: Hand, body: tuple[int, ...], extra: Set, pair: int) -> Shape:
    win = hand.win
    hits: list[Hit] = [(f.KNITTED_STRAIGHT, _kinds_tiles(body))]
    et = extra.tiles()
    pt = (KINDS[pair],) * 2
    if extra.kind == CHOW:
        if pair < 27:
            hits.append((f.ALL_CHOWS, et + pt))
    else:
        hits += _knitted_pung(hand, extra, pair)
    hits += tile_hog_hits(hand, (extra.k,) if extra.kind == KONG else ())
    hits += win_hits(win)
    if extra.kind == KONG:
        hits.append((f.MELDED_KONG if extra.exposed else f.CONCEALED_KONG, et))
    t = (KINDS[win.tile],)
    if not extra.exposed:
        hits.append((f.FULLY_CONCEALED_HAND if win.self_drawn else f.CONCEALED_HAND, t))
    hits += _knitted_waits(hand, body, extra, pair)
    arrangement = [list(_kinds_tiles(body)), list(et), list(pt)]
    return hits, arrangement


def _knitted_pung(hand: Hand, extra: Set, pair: int) -> list[Hit]:
    et = extra.tiles()
    k = extra.k
    out: list[Hit] = []
    if k >= 31:
        out.append((f.DRAGON_PUNG, et))
        if 27 <= pair <= 30:
            out.append((f.ALL_TYPES, all_tiles(hand)))
    elif k >= 27:
        if k == hand.prevailing:
            out.append((f.PREVALENT_WIND, et))
        if k == hand.seat:
            out.append((f.SEAT_WIND, et))
        if k not in (hand.prevailing, hand.seat):
            out.append((f.PUNG_OF_TERMINALS_OR_HONORS, et))
        if pair >= 31:
            out.append((f.ALL_TYPES, all_tiles(hand)))
    else:
        if k % 9 in (0, 8):
            out.append((f.PUNG_OF_TERMINALS_OR_HONORS, et))
        if pair < 27:
            out.append((f.NO_HONORS, all_tiles(hand)))
    return out


def _knitted_waits(hand: Hand, body: tuple[int, ...], extra: Set, pair: int) -> list[Hit]:
    w = hand.win.tile
    t = (KINDS[w],)
    if extra.meld:
        if w not in body or hand.concealed[w] == 3:
            return [(f.SINGLE_WAIT, t)]
        return []
    rest = list(hand.concealed)
    for k in body:
        rest[k] -= 1
    if rest[w] == 0 or not _one_wait(rest, w):
        return []
    if extra.kind == CHOW and extra.k in (w, w - 2):
        return [(f.EDGE_WAIT, t)]
    if extra.kind == CHOW and extra.k == w - 1:
        return [(f.CLOSED_WAIT, t)]
    if pair == w:
        return [(f.SINGLE_WAIT, t)]
    return []


def _one_wait(rest: list[int], w: int) -> bool:
    """Whether the set and pair beside the knitted straight, less the winning tile, waited on
    one kind only (the knitted tiles are not asked)."""
    rest[w] -= 1
    found = 0
    for k in range(34):
        rest[k] += 1
        if splits(tuple(rest), 1):
            found += 1
        rest[k] -= 1
    rest[w] += 1
    return found == 1


__all__ = ["KNITTED", "PUNG", "Shape", "honours_and_knitted", "knitted_straight", "nine_gates",
           "seven_pairs", "thirteen_orphans"]
