"""A completeness check written for the tests, from the rule books alone (issue 29): the tests
ask it, not the scorer's own ``is_complete`` and ``waits``, what a complete hand and a wait are.

A standard hand (RULES.md 5): four sets and a pair, sets on the table counted; found by an
exhaustive search that takes the lowest tile left as a pung or as the start of a chow. bmja at
most one chow, melds included (Kajongg's maxChows 1). The special hands, concealed (no melds),
by the books' definitions: hua-bao and dmjl thirteen orphans (RULES.md 6, 8); swedish seven
different pairs (RULES.md 7); bmja (docs/scoring.md, Kajongg's rulecode.py) the 13 unique
wonders, gates of heaven, wriggling snake, triple knitting, knitting, all pair honours.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from controller.tiles import Meld

SUITS = "bcd"
WINDS = ("ew", "sw", "ww", "nw")
DRAGONS = ("rd", "gd", "wd")
ORDER = [f"{n}{s}" for s in SUITS for n in range(1, 10)] + [*WINDS, *DRAGONS]
ORPHANS = {"1b", "9b", "1c", "9c", "1d", "9d", *WINDS, *DRAGONS}
SPECIALS = {"hua-bao": ("thirteen_orphans",), "dmjl": ("thirteen_orphans",),
            "swedish": ("seven_pairs",),
            "bmja": ("thirteen_orphans", "gates_of_heaven", "wriggling_snake",
                     "triple_knitting", "knitting", "all_pair_honours")}
MAX_CHOWS = {"bmja": 1}


def suit_of(kind: str) -> str | None:
    """``b``, ``c`` or ``d`` for a suit tile; None for an honour (``rd`` is no dot)."""
    return kind[1] if kind[0].isdigit() else None


def _sets(counts: Counter[str], chows_left: int | None) -> bool:
    """Can every tile in ``counts`` be used up by pungs and chows?"""
    first = next((k for k in ORDER if counts[k]), None)
    if first is None:
        return True
    if counts[first] >= 3:
        counts[first] -= 3
        found = _sets(counts, chows_left)
        counts[first] += 3
        if found:
            return True
    n, suit = first[0], suit_of(first)
    if suit is not None and int(n) <= 7 and chows_left != 0:
        run = [first, f"{int(n) + 1}{suit}", f"{int(n) + 2}{suit}"]
        if all(counts[k] for k in run):
            for k in run:
                counts[k] -= 1
            found = _sets(counts, None if chows_left is None else chows_left - 1)
            for k in run:
                counts[k] += 1
            if found:
                return True
    return False


def standard(tiles: Sequence[str], melds: Sequence[Meld], ruleset: str) -> bool:
    counts = Counter(tiles)
    limit = MAX_CHOWS.get(ruleset)
    if limit is not None:
        limit -= sum(1 for m in melds if len(set(m.tiles)) == 3)
        if limit < 0:
            return False
    for pair in [k for k in ORDER if counts[k] >= 2]:
        counts[pair] -= 2
        found = _sets(counts, limit)
        counts[pair] += 2
        if found:
            return True
    return False


def _one_suit(counts: Counter[str]) -> str | None:
    suits = {suit_of(k) for k in counts}
    return suits.pop() if len(suits) == 1 and None not in suits else None


def special(name: str, tiles: Sequence[str]) -> bool:  # noqa: PLR0911 - one answer per hand
    counts = Counter(tiles)
    values = sorted(counts.values())
    if name == "thirteen_orphans":
        return set(counts) == ORPHANS
    if name == "seven_pairs":
        return values == [2] * 7
    if name == "all_pair_honours":
        return values == [2] * 7 and set(counts) <= ORPHANS
    if name == "gates_of_heaven":
        suit = _one_suit(counts)
        if suit is None or counts[f"1{suit}"] != 3 or counts[f"9{suit}"] != 3:
            return False
        middle = [counts[f"{n}{suit}"] for n in range(2, 9)]
        return min(middle) >= 1 and sum(middle) == 8
    if name == "wriggling_snake":
        suits = {suit_of(k) for k in counts} - {None}
        if len(suits) != 1:
            return False
        suit = str(suits.pop())
        want = Counter({f"1{suit}": 2, **{f"{n}{suit}": 1 for n in range(2, 10)},
                        **dict.fromkeys(WINDS, 1)})
        return counts == want
    if name == "triple_knitting":
        return _knitted(counts, 3)
    if name == "knitting":
        return _knitted(counts, 2)
    raise ValueError(name)


def _knitted(counts: Counter[str], width: int) -> bool:
    """Triple knitting (width 3): four numbers each in all three suits and one number in two
    suits; knitting (width 2): seven numbers each in the same two suits. No honours."""
    if any(suit_of(k) is None for k in counts) or sum(counts.values()) != 14:
        return False
    if width == 2:
        suits = {str(suit_of(k)) for k in counts}
        if len(suits) != 2:
            return False
        a, b = sorted(suits)
        return all(counts[f"{n}{a}"] == counts[f"{n}{b}"] for n in range(1, 10))
    by_number = [[counts[f"{n}{s}"] for s in SUITS] for n in range(1, 10)]
    triples = 0
    couple = 0
    for row in by_number:
        t = min(row)
        triples += t
        left = [c - t for c in row]
        if sum(left) == 0:
            continue
        if sum(left) == 2 and max(left) == 1:
            couple += 1
        else:
            return False
    return triples == 4 and couple == 1


def complete(tiles: Sequence[str], melds: Sequence[Meld], ruleset: str) -> bool:
    """Is ``tiles`` (concealed, with ``melds`` on the table) a complete hand of ``ruleset``?"""
    if len(tiles) + 3 * len(melds) != 14:
        return False
    if standard(tiles, melds, ruleset):
        return True
    return not melds and any(special(name, tiles) for name in SPECIALS[ruleset])


def waits(rest: Sequence[str], melds: Sequence[Meld], ruleset: str) -> set[str]:
    """The kinds that complete the 13 tiles ``rest``, a kind all four of which the player
    holds (rack and melds) left out (RULES.md 5)."""
    held = Counter([*rest, *(t for m in melds for t in m.tiles)])
    return {k for k in ORDER if held[k] < 4 and complete([*rest, k], melds, ruleset)}
