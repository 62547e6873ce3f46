"""Whether an mcr winner waited on one kind only (Edge, Closed and Single Wait need it).

A part of the hand (a suit, or the honours) is coded as one integer, a byte per kind holding its
count (``int.from_bytes``); one more tile of the kind at offset ``i`` adds ``1 << 8 * i``. Every
part that splits into sets (at most four: a hand has four) is listed once, with the pair and
without it (some 22,000 codes, about 10 ms of CPU: made when first needed, not at import, so
that a process scoring no mcr winner never pays for it); a wait is then a sum and a look-up.
The first BUILD_TABLE_AFTER hands ask arrange.py's part search instead (the same kinds, less a
fifth copy), so that a process scoring one hand (``mahjong-table score``) does not build it.
"""

from __future__ import annotations

from collections.abc import Iterable

from controller.scoring import arrange

_SUITED = [(3 << 8 * i) for i in range(9)] + [(0x010101 << 8 * i) for i in range(7)]
_HONOURS = [(3 << 8 * i) for i in range(7)]


def _table(sets: Iterable[int], kinds: int) -> tuple[frozenset[int], frozenset[int]]:
    """The codes of every part of ``kinds`` kinds made of up to four of ``sets``, without a
    pair and with one (no count above 4)."""
    over, high = int("7b" * kinds, 16), int("80" * kinds, 16)  # a count above 4 sets the high bit
    level, without = {0}, {0}
    for _ in range(4):
        level = {n for code in level for s in sets if not (n := code + s) + over & high}
        without |= level
    pairs = [2 << 8 * i for i in range(kinds)]
    with_pair = {n for code in without for p in pairs if not (n := code + p) + over & high}
    return frozenset(without), frozenset(with_pair)


Tables = tuple[tuple[frozenset[int], frozenset[int]], ...]
_MADE: list[Tables] = []


def _tables() -> Tables:
    """[part][pair]: the suits' table for parts 0..2, the honours' for part 3 (made once)."""
    if not _MADE:
        suits = _table(_SUITED, 9)
        _MADE.append((suits, suits, suits, _table(_HONOURS, 7)))
    return _MADE[0]


_PARTS = ((0, 9), (9, 18), (18, 27), (27, 34))


def single_wait(concealed: tuple[int, ...], held: tuple[int, ...], win: int) -> bool:
    """Whether the concealed tiles before the win (``concealed`` less one ``win``) waited on
    exactly one kind, counting the standard shape and seven pairs. A kind of which the hand
    (``held``: rack and melds, with the winning tile) holds all four copies is no wait
    (RULES.md section 5)."""
    c = list(concealed)
    c[win] -= 1
    waits = set(standard_waits(c))
    # seven pairs (no melds: 13 tiles; four of a kind is two pairs): the one odd kind completes it
    odd = [k for k, n in enumerate(c) if n & 1]
    if len(odd) == 1 and sum(c) == 13:
        waits.add(odd[0])
    found = 0
    for k in waits:
        if held[k] - (k == win) < 4:
            found += 1
    return found == 1


#: hands whose waits are searched (arrange.py) before the table is built
BUILD_TABLE_AFTER = 64
_SEARCHED = [0]


def standard_waits(c: list[int]) -> list[int]:
    """The kinds one more of which makes the counts ``c`` (3n + 1 tiles, none above 4) sets and
    a pair; not a fifth tile of a kind (by the table once built, else by arrange's search)."""
    if not _MADE and _SEARCHED[0] < BUILD_TABLE_AFTER:
        _SEARCHED[0] += 1
        return searched_waits(c)
    return table_waits(c)


def searched_waits(c: list[int]) -> list[int]:
    """standard_waits by arrange.py's search of each part (its parts cached there)."""
    return [k for k in arrange.standard_waits(c) if c[k] < 4]


def table_waits(c: list[int]) -> list[int]:
    """standard_waits by the table. Which part the tile can go into follows from the parts'
    sizes mod 3: afterwards one part holds 3m + 2 tiles (the pair), the others 3m."""
    mods = [sum(c[a:b]) % 3 for a, b in _PARTS]
    shape = sorted(mods)
    if shape == [0, 0, 0, 1]:  # the tile goes with the odd tile's part, which takes the pair
        targets = [mods.index(1)]
    elif shape == [0, 0, 2, 2]:  # the tile goes to either 3m + 2 part, the other has the pair
        targets = [q for q in range(4) if mods[q] == 2]
    else:
        return []
    codes = [int.from_bytes(bytes(c[a:b]), "little") for a, b in _PARTS]
    tables = _tables()
    out: list[int] = []
    for q in targets:
        if all(codes[i] in tables[i][mods[i] == 2] for i in range(4) if i != q):
            # with the tile the odd tile's part (3m + 1) holds the pair, a 3m + 2 part none;
            # the table holds no count above 4, so a fifth copy is never found
            table = tables[q][mods[q] == 1]
            base, end = _PARTS[q]
            code = codes[q]
            out += [k for k in range(base, end) if code + _ONE[k - base] in table]
    return out


_ONE = tuple(1 << 8 * i for i in range(9))  # one more tile at each offset of a part
