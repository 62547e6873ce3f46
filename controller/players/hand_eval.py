"""Fast hand evaluation for the bots: shanten (tiles short of ready) and useful-tile counts.

Works on the 34 tile kinds of ``controller.tiles.KINDS``. Each suit is decomposed once into
(sets, partial sets, pair) options and memoised, so a shanten costs a few dictionary look-ups;
this keeps a whole simulated hand in the low milliseconds. The scorer stays the authority on
completeness; this module only steers the bots' choices.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache, lru_cache

from controller.tiles import KIND_INDEX, KINDS, Tile

Counts = list[int]
#: (sets, partial sets, pair) triples a group of tiles can be split into.
Option = tuple[int, int, int]



def to_counts(tiles: Iterable[Tile]) -> Counts:
    """Count the tiles of each of the 34 kinds (bonus tiles are ignored)."""
    counts = [0] * 34
    for t in tiles:
        i = KIND_INDEX.get(t)
        if i is not None:
            counts[i] += 1
    return counts


def _prune(options: set[Option]) -> frozenset[Option]:
    """Keep only options that no other option beats in every coordinate."""
    kept = {
        o
        for o in options
        if not any(q != o and q[0] >= o[0] and q[1] >= o[1] and q[2] >= o[2] for q in options)
    }
    return frozenset(kept)


@cache
def _decompose(counts: tuple[int, ...], sequences: bool) -> frozenset[Option]:
    """All Pareto-best (sets, partials, pair) splits of one suit (or the honours)."""
    i = next((k for k, c in enumerate(counts) if c), -1)
    if i < 0:
        return frozenset({(0, 0, 0)})
    c = list(counts)
    found: set[Option] = set()

    def sub(removals: Sequence[int], add: Option) -> None:
        for k in removals:
            c[k] -= 1
        for m, t, p in _decompose(tuple(c), sequences):
            found.add((m + add[0], t + add[1], min(1, p + add[2])))
        for k in removals:
            c[k] += 1

    n = len(c)
    if c[i] >= 3:
        sub((i, i, i), (1, 0, 0))
    if c[i] >= 2:
        sub((i, i), (0, 0, 1))
        sub((i, i), (0, 1, 0))
    if sequences and i + 2 < n and c[i + 1] and c[i + 2]:
        sub((i, i + 1, i + 2), (1, 0, 0))
    if sequences and i + 1 < n and c[i + 1]:
        sub((i, i + 1), (0, 1, 0))
    if sequences and i + 2 < n and c[i + 2]:
        sub((i, i + 2), (0, 1, 0))
    sub((i,), (0, 0, 0))
    return _prune(found)


@cache
def _best_partials(counts: tuple[int, ...], sequences: bool) -> tuple[tuple[int, int, int], ...]:
    """The group's options as (sets, pair, most partials) with one entry per (sets, pair)."""
    best: dict[tuple[int, int], int] = {}
    for m, t, p in _decompose(counts, sequences):
        best[(m, p)] = max(best.get((m, p), 0), t)
    return tuple((m, p, t) for (m, p), t in sorted(best.items()))


GroupOptions = tuple[tuple[int, int, int], ...]


@lru_cache(maxsize=1 << 16)
def _merge(a: GroupOptions, b: GroupOptions) -> GroupOptions:
    """Options of two groups together (at most one pair), one entry per (sets, pair).

    Memoised: between one candidate discard and the next only one suit changes, so the
    merged options of the other groups are found again.
    """
    best: dict[tuple[int, int], int] = {}
    for m1, p1, t1 in a:
        for m2, p2, t2 in b:
            if p1 + p2 > 1:
                continue
            key = (m1 + m2, p1 + p2)
            if best.get(key, -1) < t1 + t2:
                best[key] = t1 + t2
    return tuple((m, p, t) for (m, p), t in sorted(best.items()))


@lru_cache(maxsize=1 << 12)
def _score(options: GroupOptions, needed: int) -> int:
    best = 0
    for m, p, t in options:
        m = min(m, needed)
        best = max(best, 2 * m + min(t, needed - m) + p)
    return 2 * needed - best


def standard_shanten(counts: Sequence[int], exposed: int, chows: bool = True) -> int:
    """Tiles short of ready for 4 sets + pair (-1: complete); ``exposed``: sets on the table;
    ``chows`` False: pungs only (bmja's hands hold one chow at most)."""
    # Honour kinds never connect: only how many hold two or three-plus matters.
    honours = _best_partials(tuple(sorted(c for c in counts[27:34] if c >= 2)), False)
    rest = _merge(_best_partials(tuple(counts[18:27]), chows), honours)
    rest = _merge(_best_partials(tuple(counts[9:18]), chows), rest)
    rest = _merge(_best_partials(tuple(counts[0:9]), chows), rest)
    return _score(rest, 4 - exposed)


def _one_chow_shanten(counts: Sequence[int], exposed: int) -> int:
    best = 99
    rest = list(counts)
    for i in range(27):
        if i % 9 <= 6 and rest[i] and rest[i + 1] and rest[i + 2]:
            for k in (i, i + 1, i + 2):
                rest[k] -= 1
            best = min(best, standard_shanten(rest, exposed + 1, False))
            for k in (i, i + 1, i + 2):
                rest[k] += 1
    return best


def seven_pairs_shanten(counts: Sequence[int]) -> int:
    """Tiles short of ready for seven different pairs (only with no sets on the table)."""
    counts = list(counts)
    kinds = len(counts) - counts.count(0)
    pairs = kinds - counts.count(1)
    return 6 - pairs + max(0, 7 - kinds)


def shanten(
    counts: Sequence[int], exposed: int, seven_pairs: bool = False, chows: int | None = None
) -> int:
    """The best shanten over the hand shapes the bot aims for; ``chows``: how many chows the
    hand may still hold (None: any; bmja holds one at most)."""
    value = standard_shanten(counts, exposed, chows is None)
    if chows:  # one chow taken out, the rest in pungs (an estimate: partial chows not counted)
        value = min(value, _one_chow_shanten(counts, exposed))
    if seven_pairs and exposed == 0 and sum(counts) >= 13:
        value = min(value, seven_pairs_shanten(counts))
    return value


def candidate_kinds(counts: Sequence[int]) -> list[int]:
    """Kinds whose arrival could lower the shanten: held kinds and suit neighbours within two."""
    out: set[int] = set()
    for i, c in enumerate(counts):
        if not c:
            continue
        out.add(i)
        if i < 27:
            lo = (i // 9) * 9
            for j in range(max(lo, i - 2), min(lo + 9, i + 3)):
                out.add(j)
    return sorted(out)


def useful_tiles(
    counts: Counts, exposed: int, unseen: Sequence[int], seven_pairs: bool = False,
    chows: int | None = None,
) -> int:
    """How many unseen tiles would lower the shanten of a 13-tile (or 10, 7, ...) hand."""
    base = shanten(counts, exposed, seven_pairs, chows)
    total = 0
    for k in candidate_kinds(counts):
        if unseen[k] <= 0 or counts[k] >= 4:
            continue
        counts[k] += 1
        if shanten(counts, exposed, seven_pairs, chows) < base:
            total += unseen[k]
        counts[k] -= 1
    return total


def kind(i: int) -> Tile:
    return KINDS[i]
