"""Independent references for the analysis tests: shanten by the PyPI ``mahjong`` package where
it covers the shape (four sets and a pair, seven different pairs, thirteen orphans), and by brute
force over every complete hand of a shape (written here from RULES.md and the rule sets' texts)
where it does not: shanten = the fewest tiles that must change to make some complete hand, less
one."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement, permutations

from mahjong.shanten import Shanten

Target = tuple[tuple[int, int], ...]  # (kind, count) pairs of one complete hand

ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
HONOURS = tuple(range(27, 34))
WINDS = (27, 28, 29, 30)


def package_shanten(counts: Sequence[int], pairs: bool, orphans: bool) -> int:
    """The ``mahjong`` package's shanten (its 34 kinds are man, pin, sou, honours: the order
    of the suits does not change a shanten, and its honours are ESWN then haku, hatsu, chun,
    our winds then dragons)."""
    return Shanten.calculate_shanten(list(counts), use_chiitoitsu=pairs, use_kokushi=orphans)


def distance(counts: Sequence[int], targets: Iterable[Target]) -> int:
    return min(sum(n - counts[k] for k, n in t if n > counts[k]) for t in targets)


def _target(kinds: Iterable[int]) -> Target:
    out: dict[int, int] = {}
    for k in kinds:
        out[k] = out.get(k, 0) + 1
    assert all(n <= 4 for n in out.values())
    return tuple(sorted(out.items()))


def _ok(kinds: Sequence[int]) -> bool:
    return all(kinds.count(k) <= 4 for k in set(kinds))


@cache
def knitted_straights() -> tuple[tuple[int, ...], ...]:
    """1-4-7 of one suit, 2-5-8 of another, 3-6-9 of the third (mcr)."""
    return tuple(tuple(s * 9 + r for s, first in zip(order, (0, 1, 2), strict=True)
                       for r in (first, first + 3, first + 6))
                 for order in permutations(range(3)))


@cache
def honours_and_knitted() -> tuple[Target, ...]:
    return tuple(_target(pick) for body in knitted_straights()
                 for pick in combinations(body + HONOURS, 14))


@cache
def _sets() -> tuple[tuple[int, ...], ...]:
    pungs = tuple((k, k, k) for k in range(34))
    chows = tuple((s * 9 + r, s * 9 + r + 1, s * 9 + r + 2) for s in range(3) for r in range(7))
    return pungs + chows


@cache
def knitted_straight(melds: int) -> tuple[Target, ...]:
    out = []
    for body in knitted_straights():
        for pair in range(34):
            extras = _sets() if melds == 0 else ((),)
            for extra in extras:
                kinds = [*body, *extra, pair, pair]
                if _ok(kinds):
                    out.append(_target(kinds))
    return tuple(out)


@cache
def thirteen_orphans() -> tuple[Target, ...]:
    return tuple(_target([*ORPHANS, k]) for k in ORPHANS)


@cache
def wriggling_snake() -> tuple[Target, ...]:
    return tuple(_target([s * 9, s * 9, *range(s * 9 + 1, s * 9 + 9), *WINDS]) for s in range(3))


@cache
def all_pair_honours() -> tuple[Target, ...]:
    return tuple(_target([k for k in pick for _ in range(2)]) for pick in combinations(ORPHANS, 7))


@cache
def knitting() -> tuple[Target, ...]:
    out = []
    for a, b in combinations(range(3), 2):
        for numbers in combinations_with_replacement(range(9), 7):
            kinds = [s * 9 + r for r in numbers for s in (a, b)]
            if _ok(kinds):
                out.append(_target(kinds))
    return tuple(out)


@cache
def triple_knitting() -> tuple[Target, ...]:
    out = []
    for numbers in combinations_with_replacement(range(9), 4):
        for a, b in combinations(range(3), 2):
            for r in range(9):
                kinds = [s * 9 + n for n in numbers for s in range(3)] + [a * 9 + r, b * 9 + r]
                if _ok(kinds):
                    out.append(_target(kinds))
    return tuple(out)


def seven_pairs_mcr(counts: Sequence[int]) -> int:
    """Seven pairs where four of a kind is two pairs: the cheapest seven pairs, choosing 0, 1
    or 2 pairs of each kind (a table over the kinds of the cheapest way to so many pairs)."""
    cost = [0] + [99] * 7  # cost[n]: the fewest tiles that make n pairs of the kinds so far
    for held in counts:
        cost = [min(cost[n - p] + max(0, 2 * p - held) for p in (0, 1, 2) if n >= p)
                for n in range(8)]
    return cost[7] - 1


def standard_one_chow(counts: Sequence[int], melds: int, chow_on_table: bool) -> int:
    """Four sets and a pair with one chow at most (bmja): every chow (or none) with every pair,
    the remaining sets pungs of the cheapest other kinds."""
    best = 99
    chows: list[tuple[int, ...] | None] = [None]
    if not chow_on_table and melds < 4:
        chows += [(s * 9 + r, s * 9 + r + 1, s * 9 + r + 2) for s in range(3) for r in range(7)]
    for chow in chows:
        left = list(counts)
        cost = 0
        for k in chow or ():
            if left[k]:
                left[k] -= 1
            else:
                cost += 1
        pungs = 4 - melds - (chow is not None)
        for pair in range(34):
            rest = sorted(max(0, 3 - left[k]) for k in range(34) if k != pair)
            best = min(best, cost + max(0, 2 - left[pair]) + sum(rest[:pungs]))
    return best - 1
