"""Arrangements of a hand into sets and a pair, over tile counts of the 34 kinds.

Each suit (and the honours) is split on its own and the splits are cached by the suit's count
vector, so a hand costs a few dictionary look-ups plus a small product of the suits' splits.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from itertools import product
from typing import NamedTuple

from controller.tiles import KIND_INDEX, KINDS, Meld, Tile

ORPHANS = ("1b", "9b", "1c", "9c", "1d", "9d", "ew", "sw", "ww", "nw", "rd", "gd", "wd")
_ORPHAN_INDEX = tuple(KIND_INDEX[t] for t in ORPHANS)

# Group kinds inside a part's split: (kind, offset of its lowest tile in the part).
_CHOW, _PUNG, _PAIR = "chow", "pung", "pair"
Split = tuple[tuple[str, int], ...]


class Group(NamedTuple):
    """A set, a pair or a special hand's tiles within an arrangement."""

    kind: str  # chow, pung, kong, pair, or a special hand's name (thirteen_orphans)
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


def _parts(c: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    return (tuple(c[0:9]), tuple(c[9:18]), tuple(c[18:27]), tuple(c[27:34]))


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
def _partial_splits(cnt: tuple[int, ...], suited: bool) -> tuple[tuple[Split, bool], ...]:
    """Splits of one part into sets and at most one pair, leaving tiles over; only splits whose
    leftovers can form no further set (sets and pairs never lower a score, so the rest lose)."""
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
        if c[i] >= 2 and not has_pair:
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


def _groups_of(split: Split, base: int) -> list[Group]:
    out = []
    for kind, off in split:
        k = base + off
        if kind == _CHOW:
            tiles: tuple[Tile, ...] = (KINDS[k], KINDS[k + 1], KINDS[k + 2])
        else:
            tiles = (KINDS[k],) * (3 if kind == _PUNG else 2)
        out.append(Group(kind, tiles, True))
    return out


def complete_arrangements(c: Sequence[int]) -> Iterator[list[Group]]:
    """Every split of concealed counts ``c`` into sets and exactly one pair (standard form)."""
    parts = _parts(c)
    per_part = [_complete_splits(p, i < 3) for i, p in enumerate(parts)]
    for combo in product(*per_part):
        if sum(has_pair for _, has_pair in combo) != 1:
            continue
        groups: list[Group] = []
        for (split, _), base in zip(combo, _PART_BASE, strict=True):
            groups.extend(_groups_of(split, base))
        yield groups


def partial_arrangements(c: Sequence[int]) -> Iterator[tuple[list[Group], list[Tile]]]:
    """Splits of concealed counts into sets and at most one pair, with the tiles left over."""
    parts = _parts(c)
    per_part = [_partial_splits(p, i < 3) for i, p in enumerate(parts)]
    for combo in product(*per_part):
        if sum(has_pair for _, has_pair in combo) > 1:
            continue
        groups: list[Group] = []
        for (split, _), base in zip(combo, _PART_BASE, strict=True):
            groups.extend(_groups_of(split, base))
        used = counts_of([t for g in groups for t in g.tiles])
        left = [KINDS[k] for k in range(34) for _ in range(c[k] - used[k])]
        yield groups, left


@cache
def _part_completable(cnt: tuple[int, ...], suited: bool) -> tuple[bool, bool]:
    """(can be used up in sets alone, can be used up in sets and one pair)."""
    splits = _complete_splits(cnt, suited)
    return any(not p for _, p in splits), any(p for _, p in splits)


def is_standard_complete(c: Sequence[int]) -> bool:
    """True if counts ``c`` split into sets and exactly one pair."""
    if sum(c) % 3 != 2:
        return False
    pair_parts = 0
    for i, p in enumerate(_parts(c)):
        no_pair, with_pair = _part_completable(p, i < 3)
        if not no_pair and not with_pair:
            return False
        if not no_pair:
            pair_parts += 1
        if pair_parts > 1:
            return False
    if pair_parts == 1:
        return True
    # every part can go without a pair: one of them must also be able to hold it
    return any(_part_completable(p, i < 3)[1] for i, p in enumerate(_parts(c)))


def is_seven_pairs(c: Sequence[int]) -> bool:
    """Seven different pairs (four of a kind is not two pairs)."""
    return sum(c) == 14 and all(n in (0, 2) for n in c)


def is_thirteen_orphans(c: Sequence[int]) -> bool:
    """One of each terminal and honour, plus a fourteenth pairing one of them."""
    return sum(c) == 14 and all(c[k] >= 1 for k in _ORPHAN_INDEX) and sum(
        c[k] for k in _ORPHAN_INDEX
    ) == 14


def seven_pairs_groups(c: Sequence[int]) -> list[Group]:
    return [Group(_PAIR, (KINDS[k],) * 2, True) for k in range(34) if c[k] == 2]


def thirteen_orphans_group(c: Sequence[int]) -> Group:
    tiles = tuple(KINDS[k] for k in range(34) for _ in range(c[k]))
    return Group("thirteen_orphans", tiles, True)


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
