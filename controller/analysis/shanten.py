"""Shanten: how many tiles a hand is short of ready, over every shape its rule set counts complete.

A hand is counted over the 34 kinds (``controller.tiles.KINDS``) with ``melds`` sets already
on the table. The value is the usual one: 0 is ready (tenpai), -1 complete, 1 one useful tile
short of ready, and so on; for each shape it is the fewest tiles that must change, less one.

The shapes are the rule set's own (``RuleSet.specials`` and ``max_chows``, the scorer's table;
RULES.md sections 5-11): four sets and a pair (bmja: one chow at most), seven pairs (riichi and
swedish: seven different pairs; mcr: four of a kind counts as two pairs), thirteen orphans, and
mcr's knitted shapes and bmja's special hands. Every special shape is concealed: none counts
once a set is on the table, except mcr's knitted straight, which takes one.

A ready hand is checked against RULES.md section 5: a kind the hand holds all four of is no
wait, so a hand whose only waits are such kinds is one step further (1, not 0).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from controller.players.hand_eval import standard_shanten
from controller.scoring.mcr.special import KNITTED
from controller.tiles import HONOUR_INDICES, ORPHAN_INDICES, WIND_INDICES

Counts = Sequence[int]
#: (counts, sets on the table, the best found so far) -> shanten; a shape may answer anything
#: not below that best once it knows it cannot beat it
Shape = Callable[[Counts, int, int], int]
NONE = 99  # a shape the hand cannot make (sets on the table)

_CHOW_STARTS = tuple(s * 9 + r for s in range(3) for r in range(7))


# --- four sets and a pair ---------------------------------------------------------------------


def _standard(c: Counts, melds: int) -> int:
    return standard_shanten(c, melds, True)


def _pungs_only(c: Counts, melds: int) -> int:
    """Four sets and a pair with no chow: each kind on its own (three or more a pung, two a
    pair or half a pung), so the usual count needs no split of the suits (the value of
    ``standard_shanten(c, melds, False)``, at a tenth of its cost)."""
    pungs = sum(1 for n in c if n >= 3)
    pairs = sum(1 for n in c if n == 2)
    return _from_pungs(pungs, pairs, 4 - melds)


def _from_pungs(pungs: int, pairs: int, needed: int) -> int:
    made = min(pungs, needed)
    best = 2 * made + min(pairs, needed - made)
    if pairs:  # one pair kept as the pair
        best = max(best, 2 * made + min(pairs - 1, needed - made) + 1)
    if pungs:  # three of a kind kept as the pair
        made = min(pungs - 1, needed)
        best = max(best, 2 * made + min(pairs, needed - made) + 1)
    return 2 * needed - best


def _one_chow(c: Counts, melds: int, chows_on_table: int) -> int:
    """Four sets and a pair with one chow at most (bmja): pungs only, or one chow placed (the
    tiles it lacks, then the rest in pungs); exact, since the chow's tiles leave the rest. A
    chow changes three kinds only, so the rest's pungs and pairs are the hand's, adjusted."""
    pungs = sum(1 for n in c if n >= 3)
    pairs = sum(1 for n in c if n == 2)
    best = _from_pungs(pungs, pairs, 4 - melds)
    if chows_on_table or melds >= 4:
        return best
    for start in _CHOW_STARTS:
        missing, p, q = 0, pungs, pairs
        for k in (start, start + 1, start + 2):
            n = c[k]
            if not n:
                missing += 1
            elif n == 3:
                p, q = p - 1, q + 1
            elif n == 2:
                q -= 1
        # a chow holding none of its tiles costs what a pung of an unheld kind costs
        if missing < 3 and missing - 1 < best:
            best = min(best, missing + _from_pungs(p, q, 3 - melds))
    return best


# --- seven pairs, thirteen orphans --------------------------------------------------------------


def seven_pairs(c: Counts, melds: int, bound: int = NONE) -> int:
    """Seven different pairs (riichi, swedish)."""
    if melds:
        return NONE
    kinds = sum(1 for n in c if n)
    pairs = sum(1 for n in c if n >= 2)
    return 6 - pairs + max(0, 7 - kinds)


def seven_pairs_mcr(c: Counts, melds: int, bound: int = NONE) -> int:
    """Seven pairs where four of a kind is two pairs (mcr)."""
    if melds:
        return NONE
    return 6 - min(7, sum(n // 2 for n in c))


def thirteen_orphans(c: Counts, melds: int, bound: int = NONE) -> int:
    if melds:
        return NONE
    held = sum(1 for k in ORPHAN_INDICES if c[k])
    paired = any(c[k] >= 2 for k in ORPHAN_INDICES)
    return 13 - held - paired


def _all_pair_honours(c: Counts, melds: int, bound: int = NONE) -> int:
    """Seven different pairs of 1s, 9s, winds and dragons (bmja)."""
    if melds:
        return NONE
    kinds = sum(1 for k in ORPHAN_INDICES if c[k])
    pairs = sum(1 for k in ORPHAN_INDICES if c[k] >= 2)
    return 6 - min(pairs, 7) + max(0, 7 - kinds)


# --- mcr's knitted shapes ----------------------------------------------------------------------


def _honours_and_knitted(c: Counts, melds: int, bound: int = NONE) -> int:
    """Fourteen different tiles of one knitted straight's nine kinds and the seven honours."""
    if melds:
        return NONE
    honours = sum(1 for k in HONOUR_INDICES if c[k])
    return 13 - max(honours + sum(1 for k in body if c[k]) for body in KNITTED)


def _knitted_straight(c: Counts, melds: int, bound: int = NONE) -> int:
    """A knitted straight (its nine kinds once each: three sets' worth) with a set and a pair;
    one set may be on the table."""
    if melds > 1:
        return NONE
    best = NONE
    rest = list(c)
    for body in KNITTED:
        held = [k for k in body if rest[k]]
        for k in held:
            rest[k] -= 1
        best = min(best, 9 - len(held) + standard_shanten(rest, 3 + melds, True))
        for k in held:
            rest[k] += 1
    return best


# --- bmja's special hands ----------------------------------------------------------------------


def _distance(c: Counts, target: Counts) -> int:
    return sum(t - n for n, t in zip(c, target, strict=True) if t > n)


def _snakes() -> tuple[tuple[int, ...], ...]:
    out = []
    for s in range(3):
        t = [0] * 34
        t[s * 9] = 2
        for r in range(1, 9):
            t[s * 9 + r] = 1
        for k in WIND_INDICES:
            t[k] = 1
        out.append(tuple(t))
    return tuple(out)


_SNAKES = _snakes()


def _wriggling_snake(c: Counts, melds: int, bound: int = NONE) -> int:
    if melds:
        return NONE
    return min(_distance(c, t) for t in _SNAKES) - 1


@cache
def _slots(held: tuple[int, ...]) -> tuple[int, ...]:
    """For one number and the counts ``held`` of it in each suit of a knitted group: how many
    of its four uses cost 0, 1, ... tiles (the k-th use costs one tile per suit holding fewer
    than k of it: a cost that rises with use)."""
    m = len(held)
    out = [0] * (m + 1)
    last = 0
    for cost, h in enumerate(sorted(min(4, n) for n in held)):
        out[cost] += h - last
        last = h
    out[m] += 4 - last
    return tuple(out)


def _cheapest(slots: Sequence[int], n: int) -> int:
    """The cost of the ``n`` cheapest uses: since costs rise with use, the best ``n`` knitted
    groups take them."""
    total = 0
    for cost, free in enumerate(slots):
        take = min(n, free)
        total += take * cost
        n -= take
    return total


def _sum_slots(c: Counts, suits: tuple[int, ...]) -> tuple[list[tuple[int, ...]], list[int]]:
    per = [_slots(tuple(c[s * 9 + r] for s in suits)) for r in range(9)]
    return per, [sum(col) for col in zip(*per, strict=True)]


_SUIT_PAIRS = ((0, 1), (0, 2), (1, 2))


def _knitting(c: Counts, melds: int, bound: int = NONE) -> int:
    """Seven knitted pairs: the same number in two suits, seven times (bmja)."""
    if melds:
        return NONE
    return min(_cheapest(_sum_slots(c, suits)[1], 7) for suits in _SUIT_PAIRS) - 1


def _triple_knitting(c: Counts, melds: int, bound: int = NONE) -> int:
    """Four knitted triples (a number in all three suits) and a knitted pair (bmja): for each
    pair, what it lacks, then the four cheapest triples of the tiles it leaves."""
    if melds:
        return NONE
    per, total = _sum_slots(c, (0, 1, 2))
    if _cheapest(total, 4) - 1 >= bound:  # the pair only adds to it
        return NONE
    best = NONE
    for suits in _SUIT_PAIRS:
        for r in range(9):
            left = [c[s * 9 + r] for s in (0, 1, 2)]
            lacks = 0
            for s in suits:
                if left[s]:
                    left[s] -= 1
                else:
                    lacks += 1
            changed = _slots(tuple(left))
            slots = [t - o + n for t, o, n in zip(total, per[r], changed, strict=True)]
            best = min(best, lacks + _cheapest(slots, 4))
    return best - 1


_SPECIAL_SHAPES: dict[str, Shape] = {
    "seven_pairs": seven_pairs,
    "thirteen_orphans": thirteen_orphans,
    "wriggling_snake": _wriggling_snake,
    "knitting": _knitting,
    "triple_knitting": _triple_knitting,
    "all_pair_honours": _all_pair_honours,
    # always four sets and a pair too: the standard shape covers it
    "gates_of_heaven": lambda c, m, b: NONE,
}
_MCR_SHAPES: tuple[Shape, ...] = (seven_pairs_mcr, thirteen_orphans, _honours_and_knitted,
                                  _knitted_straight)


@dataclass(frozen=True)
class Shapes:
    """The complete shapes of one rule set: the standard one's chow limit and the specials."""

    name: str
    max_chows: int | None
    specials: tuple[Shape, ...]

    def standard(self, c: Counts, melds: int, chows_on_table: int = 0) -> int:
        """Four sets and a pair, within the rule set's chow limit."""
        if self.max_chows is None:
            return _standard(c, melds)
        if chows_on_table >= self.max_chows:
            return _pungs_only(c, melds)
        return _one_chow(c, melds, chows_on_table)

    def shanten(self, c: Counts, melds: int, chows_on_table: int = 0) -> int:
        """The hand's shanten over every shape (``chows_on_table``: for a chow limit)."""
        best = self.standard(c, melds, chows_on_table)
        for shape in self.specials:
            if best > -1:
                best = min(best, shape(c, melds, best))
        return best

    def improving(self, c: list[int], melds: int, chows_on_table: int, left: int) -> list[int]:
        """The kinds whose draw brings the hand ``c`` (shanten ``left``) below ``left``.

        One tile lowers a shape's count by one at most, so only the shapes already at
        ``left`` can (the others stay at ``left`` or above), and each only with the kinds
        that can join it: held kinds and their suit neighbours within two for four sets and a
        pair, the thirteen orphans for that hand, and so on (``_JOINING``)."""
        def standard(t: Counts, m: int, bound: int) -> int:
            return self.standard(t, m, chows_on_table)

        active: list[Shape] = []
        kinds: set[int] = set()
        if self.standard(c, melds, chows_on_table) <= left:
            active.append(standard)
            kinds |= _near(c)
        for shape in self.specials:
            if shape(c, melds, left + 1) <= left:
                active.append(shape)
                kinds |= _JOINING.get(shape, _every)(c)
        out = []
        for k in sorted(kinds):
            if c[k] < 4:
                c[k] += 1
                if any(shape(c, melds, left) < left for shape in active):
                    out.append(k)
                c[k] -= 1
        return out

    def value(self, c: Counts, melds: int, chows_on_table: int, held: Counts) -> int:
        """``shanten`` with the four-copies rule: a 13-tile hand (less 3 per set) whose every
        wait is a kind ``held`` (rack and sets) four times over is not ready but one short."""
        best = self.shanten(c, melds, chows_on_table)
        if best != 0 or (sum(c) + 3 * melds) % 3 != 1:
            return best
        trial = list(c)
        for k in range(34):
            if held[k] < 4:
                trial[k] += 1
                done = self.shanten(trial, melds, chows_on_table) == -1
                trial[k] -= 1
                if done:
                    return 0
        return 1


def _near(c: Counts) -> set[int]:
    """Held kinds and, for suited ones, the kinds of their suit within two."""
    out: set[int] = set()
    for k, n in enumerate(c):
        if n:
            out.add(k)
            if k < 27:
                low = k - k % 9
                out.update(range(max(low, k - 2), min(low + 9, k + 3)))
    return out


def _every(c: Counts) -> set[int]:
    return set(range(34))


def _pairing(c: Counts) -> set[int]:
    """Seven different pairs: a held kind, or any kind while fewer than seven are held."""
    held = {k for k, n in enumerate(c) if n}
    return held if len(held) >= 7 else _every(c)


_JOINING: dict[Shape, Callable[[Counts], set[int]]] = {
    seven_pairs: _pairing,
    seven_pairs_mcr: lambda c: {k for k, n in enumerate(c) if n} if sum(
        1 for n in c if n) >= 7 else _every(c),
    thirteen_orphans: lambda c: set(ORPHAN_INDICES),
    _all_pair_honours: lambda c: set(ORPHAN_INDICES),
}


@lru_cache(maxsize=32)
def shapes_for(name: str, specials: frozenset[str], max_chows: int | None) -> Shapes:
    """A rule set's shapes, from its name, special hands and chow limit (``RuleSet``'s)."""
    if name == "mcr":
        return Shapes(name, max_chows, _MCR_SHAPES)
    return Shapes(name, max_chows, tuple(_SPECIAL_SHAPES[s] for s in sorted(specials)))
