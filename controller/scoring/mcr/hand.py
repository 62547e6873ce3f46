"""An mcr winner's hand prepared for the patterns: counts, melds, the facts of the win, the
ways the concealed tiles split into sets and a pair, and whether the win had a single wait."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from controller.scoring.mcr.waits import single_wait
from controller.tiles import KINDS

CHOW, PUNG, KONG = 0, 1, 2
KIND_NAMES = ("chow", "pung", "kong")


class Set(NamedTuple):
    """A set of the hand: ``kind`` CHOW (``k`` its lowest tile), PUNG or KONG (``k`` its tile);
    ``exposed``: claimed; ``meld``: on the table before the win (claimed or declared)."""

    kind: int
    k: int
    exposed: bool
    meld: bool

    def tiles(self) -> tuple[str, ...]:
        return SET_TILES[self.kind][self.k]


#: the tiles of every set, made once: SET_TILES[kind][k] (no chow starts at an 8, 9 or honour)
SET_TILES: tuple[tuple[tuple[str, ...], ...], ...] = (
    tuple(KINDS[k : k + 3] if k < 27 and k % 9 <= 6 else () for k in range(34)),
    tuple((t,) * 3 for t in KINDS),
    tuple((t,) * 4 for t in KINDS),
)
#: the concealed sets a split makes, made once: CONCEALED_SETS[kind][k]
CONCEALED_SETS: tuple[tuple[Set, ...], ...] = tuple(
    tuple(Set(kind, k, False, False) for k in range(34)) for kind in (CHOW, PUNG))


class Win(NamedTuple):
    """What the tiles cannot show, as the scorer counts it (see ``scorer.win_facts``)."""

    tile: int  # kind index of the winning tile
    self_drawn: bool
    last_of_kind: bool  # "Last Tile"
    replacement: bool  # "Out with Replacement Tile"
    robbed: bool  # "Robbing the Kong"
    last_tile: bool  # "Last Tile Draw" / "Last Tile Claim"


class Hand(NamedTuple):
    counts: tuple[int, ...]  # all 34 kinds: rack and melds (a kong counts 4)
    concealed: tuple[int, ...]  # the rack, with the winning tile
    melds: tuple[Set, ...]
    win: Win
    seat: int  # kind index of the seat wind (27..30)
    prevailing: int
    tiles: tuple[str, ...]  # every tile of the hand (rack and melds), sorted by kind
    mask: int  # bit k set when the hand (rack and melds) holds kind k
    memo: dict[str, object]  # what is computed once per hand, when first needed


def waited_on_one(hand: Hand) -> bool:
    """Whether the 13 tiles before the win waited on one kind only (computed once, and only
    for a hand that might score a wait fan)."""
    # a memo: a miss works the same answer out again (its mutants change no answer)
    found = hand.memo.get("single_wait")  # pragma: no mutate
    if found is None:
        found = single_wait(hand.concealed, hand.counts, hand.win.tile)
        hand.memo["single_wait"] = found  # pragma: no mutate
    return bool(found)


Split = tuple[tuple[Set, ...], int]  # the concealed sets, the pair's kind


@lru_cache(maxsize=65536)
def splits(counts: tuple[int, ...], sets: int) -> tuple[Split, ...]:
    """Every way the concealed ``counts`` make ``sets`` sets (pung or chow) and one pair."""
    out: list[Split] = []
    c = list(counts)
    for p in range(34):
        if c[p] >= 2:
            c[p] -= 2
            for found in _sets(c, 0, sets):
                out.append((found, p))
            c[p] += 2
    return tuple(out)


def _sets(c: list[int], start: int, n: int) -> list[tuple[Set, ...]]:
    if n == 0:
        return [()] if not any(c) else []
    i = start
    while i < 34 and c[i] == 0:
        i += 1
    if i == 34:
        return []
    out: list[tuple[Set, ...]] = []
    if c[i] >= 3:
        c[i] -= 3
        pung = CONCEALED_SETS[PUNG][i]
        out.extend((pung, *rest) for rest in _sets(c, i, n - 1))
        c[i] += 3
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        chow = CONCEALED_SETS[CHOW][i]
        out.extend((chow, *rest) for rest in _sets(c, i, n - 1))
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
    return out
