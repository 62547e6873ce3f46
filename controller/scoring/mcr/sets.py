"""Fans made of several sets: chows with chows, pungs with pungs (the account-once principle).

A chow is given by the kind index of its lowest tile (0..26: suit = i // 9, rank - 1 = i % 9),
a pung or kong by its kind index (0..33). Each function returns hits (fan name, tiles).

Account-once (the Green Book): a set may combine into a pattern with another set only once,
and sets already combined may not form the same pattern again. With four chows: a four-chow
pattern takes them all; else a three-chow pattern leaves the fourth chow one two-chow fan at
most; else the two-chow fans count at most once per chow beyond the first (three with four
related chows), struck from the most repeated ones first.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from controller.scoring.mcr import fans as f
from controller.scoring.mcr.fans import Hit
from controller.tiles import KINDS

_TWO_CHOW_ORDER = (f.PURE_DOUBLE_CHOW, f.MIXED_DOUBLE_CHOW, f.SHORT_STRAIGHT,
                   f.TWO_TERMINAL_CHOWS)


def chow_tiles(*lows: int) -> tuple[str, ...]:
    return tuple(KINDS[i + d] for i in lows for d in (0, 1, 2))


def pung_tiles(*kinds: int) -> tuple[str, ...]:
    return tuple(KINDS[k] for k in kinds for _ in range(3))


def _four_chows(a: int, b: int, c: int, d: int) -> str | None:
    """a <= b <= c <= d"""
    if a // 9 == d // 9:
        step = b - a
        if step in (1, 2) and c - b == step and d - c == step:
            return f.FOUR_PURE_SHIFTED_CHOWS
        if a == d:
            return f.QUADRUPLE_CHOW
    return None


def _three_chows(a: int, b: int, c: int) -> str | None:
    """a <= b <= c"""
    sa, sb, sc = a // 9, b // 9, c // 9
    ra, rb, rc = a % 9, b % 9, c % 9
    if sa != sb and sb != sc and sa != sc:
        ranks = sorted((ra, rb, rc))
        if ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1:
            return f.MIXED_SHIFTED_CHOWS
        if ra == rb == rc:
            return f.MIXED_TRIPLE_CHOW
        if ranks == [0, 3, 6]:
            return f.MIXED_STRAIGHT
        return None
    if sa == sb == sc:
        if ra == 0 and rb == 3 and rc == 6:
            return f.PURE_STRAIGHT
        step = b - a
        if step in (1, 2) and c - b == step:
            return f.PURE_SHIFTED_CHOWS
        if a == c:
            return f.PURE_TRIPLE_CHOW
    return None


def _two_chows(a: int, b: int) -> str | None:
    if a // 9 != b // 9:
        return f.MIXED_DOUBLE_CHOW if a % 9 == b % 9 else None
    if abs(a - b) == 3:
        return f.SHORT_STRAIGHT
    if {a % 9, b % 9} == {0, 6}:
        return f.TWO_TERMINAL_CHOWS
    if a == b:
        return f.PURE_DOUBLE_CHOW
    return None


def _extra(three: tuple[int, ...], extra: int) -> Hit | None:
    """The one two-chow fan the chow left over by a three-chow pattern may still make."""
    found = {n: o for o in three if (n := _two_chows(o, extra)) is not None}
    for name in _TWO_CHOW_ORDER:
        if name in found:
            return name, chow_tiles(found[name], extra)
    return None


def _pairs_limited(chows: tuple[int, ...], limit: int) -> list[Hit]:
    """Two-chow fans of every pair of chows, at most ``limit`` of them, struck from the most
    repeated kind first (two terminal chows first, pure double chow last)."""
    pairs = [(n, (a, b)) for a, b in combinations(chows, 2) if (n := _two_chows(a, b))]
    if len(pairs) <= limit:
        return [(n, chow_tiles(*ab)) for n, ab in pairs]
    by_name = {name: [p for p in pairs if p[0] == name] for name in _TWO_CHOW_ORDER}
    count = len(pairs)
    for keep in (1, 0):
        for name in reversed(_TWO_CHOW_ORDER):
            while len(by_name[name]) > keep and count > limit:
                by_name[name].pop()
                count -= 1
    return [(n, chow_tiles(*ab)) for name in _TWO_CHOW_ORDER for n, ab in by_name[name]]


#: the answers of chow_hits and pung_hits by their sorted sets, filled as hands come: a few
#: thousand combinations of four sets at most, each worked out once
CHOW_TABLE: dict[tuple[int, ...], tuple[Hit, ...]] = {}
PUNG_TABLE: dict[tuple[int, ...], tuple[Hit, ...]] = {}


def chow_hits(chows: list[int]) -> list[Hit]:
    """The fans of a hand's chows combined (the two terminal-chow hands are in standard.py)."""
    return _looked_up(CHOW_TABLE, _chow_hits, chows)


def pung_hits(pungs: list[int]) -> list[Hit]:
    """The fans of a hand's pungs and kongs combined (account-once as for chows)."""
    return _looked_up(PUNG_TABLE, _pung_hits, pungs)


def _looked_up(table: dict[tuple[int, ...], tuple[Hit, ...]],
               work: Callable[[tuple[int, ...]], list[Hit]], sets: list[int]) -> list[Hit]:
    """``work``'s answer for the sorted sets, from ``table`` (worked out and kept if new)."""
    key = tuple(sorted(sets))
    found = table.get(key)
    if found is None:
        found = table[key] = tuple(work(key))
    return list(found)


def _chow_hits(lows: tuple[int, ...]) -> list[Hit]:
    n = len(lows)
    if n == 4:
        name = _four_chows(*lows)
        if name is not None:
            return [(name, chow_tiles(*lows))]
        return _three_of_four(lows)
    if n == 3:
        name = _three_chows(*lows)
        if name is not None:
            return [(name, chow_tiles(*lows))]
        return _pairs_limited(lows, 2)
    if n == 2:
        name = _two_chows(*lows)
        return [(name, chow_tiles(*lows))] if name else []
    return []


def _three_of_four(lows: tuple[int, ...]) -> list[Hit]:
    best: list[Hit] | None = None
    best_value = -1
    for skip in range(3, -1, -1):
        three = lows[:skip] + lows[skip + 1 :]
        name = _three_chows(*three)
        if name is None:
            continue
        hits: list[Hit] = [(name, chow_tiles(*three))]
        extra = _extra(three, lows[skip])
        if extra is not None:
            hits.append(extra)
        value = sum(f.VALUE[h[0]] for h in hits)
        if value > best_value:
            best, best_value = hits, value
    if best is not None:
        return best
    related = sum(
        1 for c in range(4) if any(_two_chows(lows[c], lows[o]) for o in range(4) if o != c)
    )
    limit = 3 - (4 - related)
    return _pairs_limited(lows, limit) if limit > 0 else []


# --- pungs (and kongs) ----------------------------------------------------------------------

_WINDS = (27, 28, 29, 30)
_DRAGONS = (31, 32, 33)


def _four_pungs(a: int, b: int, c: int, d: int) -> str | None:
    if d < 27 and a // 9 == d // 9 and b == a + 1 and c == b + 1 and d == c + 1:
        return f.FOUR_PURE_SHIFTED_PUNGS
    if (a, b, c, d) == _WINDS:
        return f.BIG_FOUR_WINDS
    return None


def _three_pungs(a: int, b: int, c: int) -> str | None:
    """a < b < c"""
    if c < 27:
        suits = {a // 9, b // 9, c // 9}
        ranks = sorted((a % 9, b % 9, c % 9))
        if len(suits) == 3:
            if ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1:
                return f.MIXED_SHIFTED_PUNGS
            if ranks[0] == ranks[2]:
                return f.TRIPLE_PUNG
        elif len(suits) == 1 and b == a + 1 and c == b + 1:
            return f.PURE_SHIFTED_PUNGS
        return None
    if a >= 27 and c <= 30:
        return f.BIG_THREE_WINDS
    if (a, b, c) == _DRAGONS:
        return f.BIG_THREE_DRAGONS
    return None


def _two_pungs(a: int, b: int) -> str | None:
    if a < 27 and b < 27:
        return f.DOUBLE_PUNG if a % 9 == b % 9 else None
    if a in _DRAGONS and b in _DRAGONS:
        return f.TWO_DRAGON_PUNGS
    return None


def _pung_hits(ks: tuple[int, ...]) -> list[Hit]:
    n = len(ks)
    if n == 4:
        name = _four_pungs(*ks)
        if name is not None:
            return [(name, pung_tiles(*ks))]
        for skip in range(3, -1, -1):
            three = ks[:skip] + ks[skip + 1 :]
            name = _three_pungs(*three)
            if name is None:
                continue
            hits: list[Hit] = [(name, pung_tiles(*three))]
            for other in three:
                two = _two_pungs(*sorted((other, ks[skip])))
                if two is not None:
                    hits.append((two, pung_tiles(other, ks[skip])))
                    break
            return hits
    elif n == 3:
        name = _three_pungs(*ks)
        if name is not None:
            return [(name, pung_tiles(*ks))]
    return [(name, pung_tiles(a, b)) for a, b in combinations(ks, 2)
            if (name := _two_pungs(a, b)) is not None]
