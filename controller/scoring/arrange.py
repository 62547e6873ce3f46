"""Arrangements of a hand into sets and a pair, over tile counts of the 34 kinds.

Each suit (and the honours) is split on its own and the splits are cached by the suit's count
vector, so a hand costs a few dictionary look-ups plus a small product of the suits' splits.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from itertools import product
from typing import NamedTuple

from controller.scoring import suit_parts
from controller.tiles import KIND_INDEX, KINDS, Meld, Tile

# Group kinds inside a part's split: (kind, offset of its lowest tile in the part).
_CHOW, _PUNG, _PAIR = "chow", "pung", "pair"
Split = tuple[tuple[str, int], ...]


class Group(NamedTuple):
    """A set, a pair or a special hand's tiles within an arrangement."""

    kind: str  # chow, pung, kong, pair, or a special hand's group (special.py)
    tiles: tuple[Tile, ...]
    concealed: bool
    melded: bool = False  # on the table before the end of the hand (claimed or declared)
    won: bool = False  # the winning tile completed this group


def counts_of(tiles: Sequence[Tile]) -> list[int]:
    """Counts over the 34 kinds (bonus tiles are not counted)."""
    c = [0] * 34
    for t in tiles:
        c[KIND_INDEX[t]] += 1
    return c


_PART_BASE = (0, 9, 18, 27)


@cache
def _complete_splits(cnt: tuple[int, ...], suited: bool) -> tuple[tuple[Split, bool], ...]:
    """Every way to use all tiles of one part in sets and at most one pair: (groups, has_pair)."""
    i = next((k for k, n in enumerate(cnt) if n), -1)
    if i < 0:
        return (((), False),)
    out: list[tuple[Split, bool]] = []
    c = list(cnt)

    def take(group: tuple[str, int], idx: Sequence[int], is_pair: bool) -> None:
        for k in idx:
            c[k] -= 1
        for rest, has_pair in _complete_splits(tuple(c), suited):
            if not (is_pair and has_pair):
                out.append(((group, *rest), has_pair or is_pair))
        for k in idx:
            c[k] += 1

    if cnt[i] >= 3:
        take((_PUNG, i), (i, i, i), False)
    if cnt[i] >= 2:
        take((_PAIR, i), (i, i), True)
    if suited and i <= 6 and cnt[i + 1] and cnt[i + 2]:
        take((_CHOW, i), (i, i + 1, i + 2), False)
    return tuple(out)


@cache
def _partial_splits(
    cnt: tuple[int, ...], suited: bool, pairs: bool = False
) -> tuple[tuple[Split, bool], ...]:
    """Splits of one part into sets and at most one pair (``pairs``: any number of pairs),
    leaving tiles over; only splits whose leftovers can form no further set (sets and pairs
    never lower a score, so the rest lose)."""
    found: set[tuple[Split, bool]] = set()
    c = list(cnt)

    def walk(start: int, groups: tuple[tuple[str, int], ...], has_pair: bool) -> None:
        i = next((k for k in range(start, len(c)) if c[k]), -1)
        if i < 0:
            if not _can_form_set(c, suited):
                found.add((tuple(sorted(groups)), has_pair))
            return
        moves: list[tuple[str, tuple[int, ...]]] = []
        if c[i] >= 3:
            moves.append((_PUNG, (i, i, i)))
        if c[i] >= 2 and (pairs or not has_pair):
            moves.append((_PAIR, (i, i)))
        if suited and i <= 6 and c[i + 1] and c[i + 2]:
            moves.append((_CHOW, (i, i + 1, i + 2)))
        for kind, idx in moves:
            for k in idx:
                c[k] -= 1
            walk(i, (*groups, (kind, i)), has_pair or kind == _PAIR)
            for k in idx:
                c[k] += 1
        # leave every remaining tile of kind i over
        n = c[i]
        c[i] = 0
        walk(i + 1, groups, has_pair)
        c[i] = n

    walk(0, (), False)
    return tuple(sorted(found))


def _can_form_set(c: Sequence[int], suited: bool) -> bool:
    if any(n >= 3 for n in c):
        return True
    return suited and any(c[i] and c[i + 1] and c[i + 2] for i in range(len(c) - 2))


def _groups_of(split: Split, base: int) -> tuple[Group, ...]:
    out = []
    for kind, off in split:
        k = base + off
        if kind == _CHOW:
            tiles: tuple[Tile, ...] = (KINDS[k], KINDS[k + 1], KINDS[k + 2])
        else:
            tiles = (KINDS[k],) * (3 if kind == _PUNG else 2)
        out.append(Group(kind, tiles, True))
    return tuple(out)


PartSplits = tuple[tuple[tuple[Group, ...], ...], tuple[tuple[Group, ...], ...]]


@cache
def _part_groups(cnt: tuple[int, ...], base: int) -> PartSplits:
    """One part's complete splits as ready-made groups: (those without a pair, those with)."""
    splits = _complete_splits(cnt, base < 27)
    return (
        tuple(_groups_of(s, base) for s, p in splits if not p),
        tuple(_groups_of(s, base) for s, p in splits if p),
    )


# _part_groups by part, as plain dictionaries: the hot paths look parts up without a call.
_GROUPS: tuple[dict[tuple[int, ...], PartSplits], ...] = ({}, {}, {}, {})


def _groups(cnt: tuple[int, ...], part: int) -> PartSplits:
    splits = _GROUPS[part][cnt] = _part_groups(cnt, _PART_BASE[part])
    return splits


Parts = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def parts_of(c: Sequence[int]) -> Parts:
    """Counts over the 34 kinds as the counts of each suit and of the honours."""
    t = tuple(c)
    return t[0:9], t[9:18], t[18:27], t[27:34]


def arrangements_of_parts(parts: Parts) -> list[tuple[Group, ...]]:
    """Every split of concealed counts, given by part (see parts_of), into sets and exactly one
    pair (standard form). Hot path: plain loops, no generators."""
    t0, t1, t2, t3 = parts
    g0, g1, g2, g3 = _GROUPS
    w0, q0 = g0.get(t0) or _groups(t0, 0)  # (splits without the pair, with it)
    w1, q1 = g1.get(t1) or _groups(t1, 1)
    w2, q2 = g2.get(t2) or _groups(t2, 2)
    w3, q3 = g3.get(t3) or _groups(t3, 3)
    out: list[tuple[Group, ...]] = []
    # the pair sits in exactly one part; every other part splits without one
    if w2 and w3:
        if q0 and w1:
            _product(out, q0, w1, w2, w3)
        if w0 and q1:
            _product(out, w0, q1, w2, w3)
    if w0 and w1:
        if q2 and w3:
            _product(out, w0, w1, q2, w3)
        if w2 and q3:
            _product(out, w0, w1, w2, q3)
    return out


def _product(
    out: list[tuple[Group, ...]], a: tuple[tuple[Group, ...], ...],
    b: tuple[tuple[Group, ...], ...], d: tuple[tuple[Group, ...], ...],
    e: tuple[tuple[Group, ...], ...],
) -> None:
    # the common case, one split per part: the sum is 4 exactly then (none is empty: the
    # caller checked)
    if len(a) + len(b) + len(d) + len(e) == 4:
        out.append(a[0] + b[0] + d[0] + e[0])
        return
    for w in a:
        for x in b:
            for y in d:
                for z in e:
                    out.append(w + x + y + z)


def partial_arrangements(
    c: Sequence[int], pairs: bool = False
) -> Iterator[tuple[list[Group], list[Tile]]]:
    """Splits of concealed counts into sets and at most one pair (``pairs``: any number of
    pairs), with the tiles left over."""
    parts = parts_of(c)
    per_part = [_partial_splits(p, i < 3, pairs) for i, p in enumerate(parts)]
    for combo in product(*per_part):
        if not pairs and sum(has_pair for _, has_pair in combo) > 1:
            continue
        groups = [g for (split, _), base in zip(combo, _PART_BASE, strict=True)
                  for g in _groups_of(split, base)]
        used = counts_of([t for g in groups for t in g.tiles])
        left = [KINDS[k] for k in range(34) for _ in range(c[k] - used[k])]
        yield groups, left


@cache
def _splittable(cnt: tuple[int, ...], suited: bool) -> tuple[bool, bool]:
    """Whether one part splits into sets only, and into sets and one pair (as _complete_splits
    would find, without making the splits). No search: honours split as counts of 3 and one 2;
    a suit by _sets_only, the pair tried only where it can sit (see _with_pair)."""
    if not suited:
        rest = [n % 3 for n in cnt]
        return not any(rest), rest.count(2) == 1 and rest.count(1) == 0
    if sum(cnt) <= suit_parts.MOST and max(cnt) <= 4:  # a hand's part: the shipped table
        tables = _TABLES[0] if _TABLES else _suit_tables()
        if tables is not None:
            return cnt in tables[0], cnt in tables[1]
    return _sets_only(cnt), _with_pair(cnt)


_TABLES: list[suit_parts.Tables] = []
_MISSES = [0]
#: parts worked out before suit_parts' table is read (some 10 ms): a process that scores a
#: few hands works out its few parts, a batch or a service reads the table
READ_TABLE_AFTER = 64


def _suit_tables() -> suit_parts.Tables | None:
    """suit_parts' table of complete suit parts, once READ_TABLE_AFTER parts were worked out
    without it; None before (the caller works the part out: the same answer)."""
    if not _TABLES:
        _MISSES[0] += 1
        if _MISSES[0] <= READ_TABLE_AFTER:
            return None
        _TABLES.append(suit_parts.tables())
    return _TABLES[0]


def _sets_only(c: Sequence[int]) -> bool:
    """Whether a suit's counts split into pungs and chows only. From the lowest rank up: the
    count at a rank, less the chows already started below it, must start (count mod 3) chows
    (three equal chows are three pungs), the rest being pungs."""
    a, b = c[0], c[1]
    for x in c[2:]:
        r = a % 3
        if b < r or x < r:
            return False
        a, b = b - r, x - r
    return a % 3 == 0 and b % 3 == 0


def _with_pair(cnt: Sequence[int]) -> bool:
    """Whether a suit's counts split into sets and one pair. Sets add a multiple of 3 to the
    sum of rank * count, the pair at rank r adds 2r: so r = 2 * that sum (mod 3)."""
    if sum(cnt) % 3 != 2:
        return False
    c = list(cnt)
    r = 2 * sum(i * n for i, n in enumerate(c)) % 3
    for i in range(r, len(c), 3):
        if c[i] >= 2:
            c[i] -= 2
            found = _sets_only(c)
            c[i] += 2
            if found:
                return True
    return False


def _all_parts(c: Sequence[int]) -> tuple[tuple[bool, bool], ...]:
    t = tuple(c)
    return tuple(_splittable(t[a:b], a < 27) for a, b in ((0, 9), (9, 18), (18, 27), (27, 34)))


def is_standard_complete(c: Sequence[int]) -> bool:
    """True if counts ``c`` split into sets and exactly one pair."""
    parts = _all_parts(c)
    return any(
        parts[i][1] and all(parts[j][0] for j in range(4) if j != i) for i in range(4)
    )


@cache
def _part_additions(cnt: tuple[int, ...], base: int) -> tuple[tuple[int, bool, bool], ...]:
    """For each kind one more tile of which still lets the part split: (kind, splits without a
    pair, splits with one). Only kinds near the tiles held can join a set or pair."""
    out = []
    suited = base < 27
    # a suit's part one tile short of a hand's (no kind five times): look the parts up once
    # the table is read
    tables = ((_TABLES[0] if _TABLES else _suit_tables())
              if suited and sum(cnt) < suit_parts.MOST and max(cnt) <= 4 else None)
    held = [i for i, n in enumerate(cnt) if n]
    for off in range(len(cnt)):
        if suited:
            if not any(-2 <= off - j <= 2 for j in held):
                continue
        elif not cnt[off]:
            continue
        more = (*cnt[:off], cnt[off] + 1, *cnt[off + 1:])
        if tables is not None and cnt[off] < 4:
            without, with_pair = more in tables[0], more in tables[1]
        else:
            without, with_pair = _splittable(more, suited)
        if without or with_pair:
            out.append((base + off, bool(without), bool(with_pair)))
    return tuple(out)


# One part's answers for waits: (needs the pair or cannot split at all, can hold the pair,
# kinds one more of which lets it split with the pair, kinds that let it split without one,
# kinds that do either), each in KINDS order. The first two are 0 or 1, not bools: sums of
# ints take CPython 3.11's quick path, sums of bools do not.
PartSummary = tuple[int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]
_SUMMARIES: tuple[dict[tuple[int, ...], PartSummary], ...] = ({}, {}, {}, {})


def _summary(cnt: tuple[int, ...], part: int) -> PartSummary:
    base = _PART_BASE[part]
    without, with_pair = _splittable(cnt, base < 27)
    adds = _part_additions(cnt, base)
    summary = _SUMMARIES[part][cnt] = (
        0 if without else 1,
        1 if with_pair else 0,
        tuple(k for k, _, p in adds if p),
        tuple(k for k, w, _ in adds if w),
        tuple(k for k, _, _ in adds),
    )
    return summary


def standard_waits(c: Sequence[int]) -> list[int]:
    """The kinds that make counts ``c`` (13 tiles, less three per meld) split into sets and a
    pair. One more tile changes one part only; each part's answers are cached."""
    return waits_of_parts(parts_of(c))


def waits_of_parts(counts: Parts) -> list[int]:
    """standard_waits of counts given by part (see parts_of)."""
    t0, t1, t2, t3 = counts
    s0, s1, s2, s3 = _SUMMARIES
    parts = (
        s0.get(t0) or _summary(t0, 0),
        s1.get(t1) or _summary(t1, 1),
        s2.get(t2) or _summary(t2, 2),
        s3.get(t3) or _summary(t3, 3),
    )
    a, b, c, d = parts
    n_needy = a[0] + b[0] + c[0] + d[0]
    if n_needy > 2:  # one more tile mends one part only
        return []
    # parts that can hold the pair, and needy parts that can
    holders = a[1] + b[1] + c[1] + d[1]
    needy_holders = (a[0] and a[1]) + (b[0] and b[1]) + (c[0] and c[1]) + (d[0] and d[1])
    out: list[int] = []
    for needy, holds, with_pair, without, either in parts:
        if not either:
            continue
        rest = n_needy - needy  # other parts that need the pair
        # with one other needy part the pair must sit there; with none, in any that can hold it
        if rest == 0:
            out.extend(either if holders - holds else with_pair)
        elif rest == 1 and needy_holders - (needy and holds):
            out.extend(without)
    return out


def meld_group(m: Meld) -> Group:
    """A set on the table as a Group (the caller has checked that it is a set)."""
    tiles = tuple(m.tiles)
    n = len(tiles)
    if n == 4:
        kind = "kong"
    elif n == 3 and tiles[0] == tiles[1]:
        kind = "pung"
    elif n == 3:
        kind = "chow"
    else:
        kind = "pair"
    return Group(kind, tiles, m.concealed, melded=True)


def concealed_size(melds: Sequence[Meld]) -> int:
    """How many concealed tiles a complete hand with these melds holds (kongs count as three)."""
    return 14 - 3 * len(melds)
