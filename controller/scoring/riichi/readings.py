"""The readings of a riichi winner's hand: every way it is complete, with where the winning
tile sits (RULES.md section 11: "when the hand can be read several ways, the reading that scores
most counts"). A standard reading is four sets and a pair, the winning tile in one of them (the
wait it made, and a pung it completed by a ron counted open); the special readings are seven
pairs (chiitoitsu) and the thirteen orphans (kokushi musou)."""

from __future__ import annotations

from functools import cache
from itertools import product
from typing import NamedTuple

from controller.scoring.arrange import _complete_splits as complete_part_splits
from controller.scoring.mcr.hand import CHOW, CONCEALED_SETS, PUNG, Set
from controller.scoring.riichi.inputs import TERMINAL_OR_HONOUR, RHand
from controller.scoring.special import is_seven_pairs, is_thirteen_orphans

#: the waits a standard reading's winning tile made; SPECIAL for the special readings
RYANMEN, KANCHAN, PENCHAN, TANKI, SHANPON, SPECIAL = range(6)
WAIT_NAMES = ("two-sided", "closed", "edge", "single", "pung", "")
STANDARD, SEVEN_PAIRS, ORPHANS = "standard", "seven_pairs", "thirteen_orphans"


class Reading(NamedTuple):
    """One reading. ``sets``: the four sets, melds first, each ``exposed`` when it counts open
    (claimed, or a pung completed by a ron); ``pair``: the pair's kind (-1 for kokushi);
    ``wait``: what the winning tile completed; ``won``: the index of its set (4: the pair)."""

    shape: str
    sets: tuple[Set, ...]
    pair: int
    wait: int
    won: int
    chows: tuple[int, ...]  # the first kind of each chow, sorted
    pungs: tuple[int, ...]  # the kind of each pung or kong, sorted
    concealed_pungs: int  # pungs and kongs that count concealed (sanankou, suuankou)
    outside: bool  # every set and the pair hold a terminal or an honour (chanta, junchan)


Split = tuple[tuple[Set, ...], int]  # the concealed sets, the pair's kind (-1: none)


@cache
def _part_splits(cnt: tuple[int, ...], base: int) -> tuple[Split, ...]:
    """Every way one part (a suit from ``base``, or the honours) makes sets and at most one
    pair, as Sets; kept by the part's counts (they repeat from hand to hand)."""
    out = []
    for groups, _ in complete_part_splits(cnt, base < 27):
        sets: list[Set] = []
        pair = -1
        for kind, off in groups:
            if kind == "pair":
                pair = base + off
            else:
                sets.append(CONCEALED_SETS[CHOW if kind == "chow" else PUNG][base + off])
        out.append((tuple(sets), pair))
    return tuple(out)


def hand_splits(c: list[int]) -> list[Split]:
    """Every way the concealed counts make sets and exactly one pair, part by part."""
    parts = []
    for base, end in ((0, 9), (9, 18), (18, 27), (27, 34)):
        cnt = tuple(c[base:end])
        if any(cnt):
            found = _part_splits(cnt, base)
            if not found:
                return []
            parts.append(found)
    if len(parts) == 1:
        return [sp for sp in parts[0] if sp[1] >= 0]
    out = []
    for combo in product(*parts):
        pairs = [p for _, p in combo if p >= 0]
        if len(pairs) == 1:
            out.append((tuple(st for sets, _ in combo for st in sets), pairs[0]))
    return out


def _chow_wait(start: int, tile: int) -> int:
    pos = tile - start
    if pos == 1:
        return KANCHAN
    if (pos == 0 and start % 9 == 6) or (pos == 2 and start % 9 == 0):
        return PENCHAN
    return RYANMEN


def _reading(h: RHand, concealed: tuple[Set, ...], pair: int, won: int, wait: int) -> Reading:
    sets = (*h.melds, *concealed)
    chows: list[int] = []
    pungs: list[int] = []
    hidden = 0
    outside = TERMINAL_OR_HONOUR[pair]
    for s in sets:
        k = s.k
        if s.kind == CHOW:
            chows.append(k)
            if outside and k % 9 not in (0, 6):
                outside = False
        else:
            pungs.append(k)
            if not s.exposed:
                hidden += 1
            if outside and not TERMINAL_OR_HONOUR[k]:
                outside = False
    if h.melds:
        chows.sort()
        pungs.sort()
    return tuple.__new__(Reading, (  # Reading(...), every field, without the call
        STANDARD, sets, pair, wait, won, tuple(chows), tuple(pungs), hidden, outside))


def standard_readings(h: RHand) -> list[Reading]:
    """Every standard reading: each split of the concealed tiles into sets and a pair, with
    each different place of the winning tile in it."""
    out: list[Reading] = []
    w = h.win
    n = len(h.melds)
    ron = not h.tsumo
    for found, pair in hand_splits(h.concealed):
        seen: set[Set] = set()
        if pair == w:
            out.append(_reading(h, found, pair, 4, TANKI))
        for i, s in enumerate(found):
            if s in seen:
                continue
            if s.kind == CHOW and s.k <= w <= s.k + 2:
                seen.add(s)
                out.append(_reading(h, found, pair, n + i, _chow_wait(s.k, w)))
            elif s.kind == PUNG and s.k == w:
                seen.add(s)
                sets = found if not ron else (
                    *found[:i], Set(PUNG, w, True, False), *found[i + 1:])
                out.append(_reading(h, sets, pair, n + i, SHANPON))
    return out


def special_readings(h: RHand) -> list[Reading]:
    """Seven pairs and the thirteen orphans: only a hand with no melds."""
    if h.melds:
        return []
    c = h.concealed
    if is_seven_pairs(c):
        pairs = tuple(k for k in range(34) if c[k])
        outside = all(TERMINAL_OR_HONOUR[k] for k in pairs)
        return [Reading(SEVEN_PAIRS, (), -1, TANKI, -1, (), (), 0, outside)]
    if is_thirteen_orphans(c):
        return [Reading(ORPHANS, (), -1, SPECIAL, -1, (), (), 0, True)]
    return []


def readings(h: RHand) -> list[Reading]:
    return standard_readings(h) + special_readings(h)
