"""Whether concealed tiles make one of mcr's special shapes (for completeness and waits; the
scorer's special.py scores them): seven pairs (four of a kind counting as two pairs), thirteen
orphans, honours and knitted tiles, a knitted straight with a set and a pair."""

from __future__ import annotations

from collections.abc import Sequence

from controller.scoring.mcr.hand import splits
from controller.scoring.mcr.special import KNITTED

_ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def special_complete(c: Sequence[int], melds: int) -> bool:
    """``c``: the concealed counts over the 34 kinds; ``melds``: sets on the table."""
    if melds > 1:
        return False
    if melds == 0 and sum(c) == 14:
        if all(n in (0, 2, 4) for n in c):  # seven pairs: four of a kind is two pairs in mcr
            return True
        if all(c[k] for k in _ORPHANS) and sum(c[k] for k in _ORPHANS) == 14:
            return True
        if max(c) == 1 and any(all(k in s or k >= 27 for k in range(34) if c[k])
                               for s in KNITTED):
            return True
    body = next((s for s in KNITTED if all(c[k] for k in s)), None)
    if body is None:
        return False
    rest = list(c)
    for k in body:
        rest[k] -= 1
    if melds:
        return sum(rest) == 2 and max(rest) == 2
    return bool(splits(tuple(rest), 1))


def special_waits(c: Sequence[int], melds: int) -> set[int]:
    """The kinds that would make ``c`` (13 tiles, less 3 per meld) a special shape."""
    out: set[int] = set()
    rest = list(c)
    for k in range(34):
        rest[k] += 1
        if special_complete(rest, melds):
            out.add(k)
        rest[k] -= 1
    return out
